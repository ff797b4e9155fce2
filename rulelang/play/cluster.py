"""Many seeded games on a Ray cluster (``--ray [ADDRESS]``).

The same work as the local process pool of :mod:`rulelang.play.parallel`: the items (game indices)
cut into chunks, ``fn(job, chunk)`` run for each chunk, here by Ray actors (one per CPU of the
cluster, each keeping what the job's first chunk compiled), a bounded window of chunks pending,
the finished ones fetched together.  Each game is seeded from the seed and its index, never from
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
    import logging
    ray = _ray()
    if ray.is_initialized():
        return ray
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        if address in (None, "", LOCAL):
            # A local instance: its workers import this very rulelang (also from a source tree).
            ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING,
                     runtime_env={"env_vars": {"PYTHONPATH": here}})
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except Exception as err:             # Ray's own errors: unreachable, refused, version clash
        raise ClusterError(f"cannot connect to the Ray cluster at {address}: {err}") from None
    return ray


def _run(fn, job, part):
    return fn(job, part)


class _Player:
    """A Ray actor that plays chunks of one job: a process of the cluster that keeps what the
    job's first chunk made (the compiled game, its playout variants) for the chunks after."""

    def __init__(self, fn, job):
        self.fn, self.job = fn, job

    def run(self, part):
        return self.fn(self.job, part)


def cluster_cpus(address: Optional[str] = LOCAL) -> int:
    """The CPUs of the Ray cluster at ``address`` (connected first)."""
    ray = connect(address)
    return int(ray.cluster_resources().get("CPU", 1)) or 1


DEPTH = 2       # chunks given to an actor at a time: one to play, one waiting for it


def run_parts_ray(fn: Callable, job, parts: list, address: Optional[str] = LOCAL,
                  advance: Optional[Callable[[int], None]] = None,
                  gather: Optional[Callable] = None) -> tuple:
    """The Ray side of :func:`rulelang.play.parallel.run_chunks`: ``fn(job, part)`` for every part,
    on one actor per CPU of the cluster (at most one per part), each given ``DEPTH`` parts at a
    time; the finished parts' results are fetched together, as many as are ready at once.
    ``gather(i, result)`` as part ``i`` comes back (its result is then not kept), and
    ``advance(n)``.  Ctrl-C stops the actors.  Returns ({part index: result, or None when
    gathered}, interrupted)."""
    ray = connect(address)
    job_ref = ray.put(job)
    n = min(len(parts), max(1, int(ray.cluster_resources().get("CPU", 1))))
    player = ray.remote(num_cpus=1)(_Player).options(scheduling_strategy="SPREAD")
    actors = [player.remote(fn, job_ref) for _ in range(n)]
    todo = iter(range(len(parts)))
    pending: dict = {}               # the parts being played: ref -> (part index, actor)

    def give(actor) -> None:
        i = next(todo, None)
        if i is not None:
            pending[actor.run.remote(parts[i])] = (i, actor)
    for actor in actors:
        for _ in range(DEPTH):
            give(actor)
    finished: dict = {}
    interrupted = False
    try:
        while pending:
            refs = list(pending)
            ready, rest = ray.wait(refs, num_returns=1)
            if rest:                  # and every other part finished by now
                more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                ready = ready + more
            for ref, result in zip(ready, ray.get(ready)):
                i, actor = pending.pop(ref)
                give(actor)
                if gather is not None:
                    gather(i, result)
                    result = None
                finished[i] = result
                if advance is not None:
                    advance(len(parts[i]))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for actor in actors:
            ray.kill(actor)
    return finished, interrupted
