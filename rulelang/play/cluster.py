"""Many seeded games on a Ray cluster (``--ray [ADDRESS]``).

The same work as the local process pool of :mod:`rulelang.play.parallel`: the items (game indices)
cut into chunks, ``fn(job, chunk)`` run for each chunk, here as Ray tasks, the results put
back in the order of the items.  Each game is seeded from the seed and its index, never from
the machine that plays it, so the results are those of a local run with the same seed.

Ray is an optional extra (``pip install 'rulelang[cluster]'``); nothing else in rulelang
imports it.  Without an address a local Ray instance is started (or the one this process has
already started is used); with one, the cluster there (``ray start --head`` prints it; ``auto``
or the ``RAY_ADDRESS`` variable work as they do for Ray).  Every node needs the same version of
rulelang installed (see docs/scale.md).
"""
from __future__ import annotations

import os
from typing import Callable, Optional


LOCAL = "local"          # what --ray without an address means


class ClusterError(Exception):
    """Ray is not installed, or the cluster cannot be reached; the message says what to do."""


def _ray():
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs Ray, which is not installed: pip install 'rulelang[cluster]' "
                           "(or pip install ray)") from None
    return ray


def connect(address: Optional[str] = LOCAL):
    """The ``ray`` module, connected: to ``address``, or (None or ``local``) to this process's
    Ray if it has one, else to a new local instance."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        if address in (None, "", LOCAL):
            # A local instance: its workers import this very rulelang (also from a source tree).
            ray.init(include_dashboard=False, log_to_driver=False,
                     runtime_env={"env_vars": {"PYTHONPATH": here}})
        else:
            ray.init(address=address, log_to_driver=False)
    except Exception as err:             # Ray's own errors: unreachable, refused, version clash
        raise ClusterError(f"cannot connect to the Ray cluster at {address}: {err}") from None
    return ray


def _run(fn, job, part):
    return fn(job, part)


def cluster_cpus(address: Optional[str] = LOCAL) -> int:
    """The CPUs of the Ray cluster at ``address`` (connected first)."""
    ray = connect(address)
    return int(ray.cluster_resources().get("CPU", 1)) or 1


def run_parts_ray(fn: Callable, job, parts: list, address: Optional[str] = LOCAL,
                  advance: Optional[Callable[[int], None]] = None) -> tuple:
    """The Ray side of :func:`rulelang.play.parallel.run_chunks`: ``fn(job, part)`` for every part
    as a Ray task; ``advance(n)`` as each part comes back.  Ctrl-C cancels the tasks not done.
    Returns (the results of the finished parts in item order, interrupted)."""
    ray = connect(address)
    task = ray.remote(_run)
    job_ref = ray.put(job)
    futures = {task.remote(fn, job_ref, part): i for i, part in enumerate(parts)}
    finished: dict = {}
    interrupted = False
    waiting = list(futures)
    try:
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                i = futures[ref]
                finished[i] = ray.get(ref)
                if advance is not None:
                    advance(len(parts[i]))
    except KeyboardInterrupt:
        interrupted = True
        for ref in waiting:
            ray.cancel(ref, force=True)
    results = []
    for i in sorted(finished):
        results.extend(finished[i])
    return results, interrupted
