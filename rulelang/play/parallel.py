"""Many seeded games on every core: a local process pool (``--workers K``).

Work is a list of *items* (game indices, or any picklable values) cut into chunks; a worker
runs ``fn(job, chunk)`` for one chunk and returns a list with one result per item.  Each game is
seeded from the seed and its index, never from the worker, so the results are the same for any
number of workers; they come back in the order of the items.

``workers == 1`` (or a single chunk) runs in this process, without a pool.  Ctrl-C stops the
work: :func:`run_chunks` returns what was finished (``interrupted`` is then true), so a command
can report on the games played so far.
"""
from __future__ import annotations

import os
import signal
from typing import Callable, Optional


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunks(items, workers: int, per_worker: int = 8, most: Optional[int] = 100) -> list:
    """The items (a list, or a ``range`` of seeds: never listed whole) cut into chunks: about
    ``per_worker`` per worker (so that the work stays balanced and the progress bar moves),
    each at most ``most`` items (None: no bound)."""
    k = len(items)
    size = max(1, -(-k // max(1, workers * per_worker)))
    if most is not None:
        size = min(most, max(1, k // max(1, workers * per_worker)))
    return [items[i:i + size] for i in range(0, k, size)]


def _quiet_worker():
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle


class Outcome:
    """What :func:`run_chunks` returns: the results of the finished chunks, in item order."""

    def __init__(self, results, done, interrupted):
        self.results = results          # one per item of the finished chunks, in item order
                                        # (None when they went to ``gather``)
        self.done = done                # how many items were finished
        self.interrupted = interrupted


def run_chunks(fn: Callable, job, items, workers: int,
               advance: Optional[Callable[[int], None]] = None, ray=None,
               gather: Optional[Callable] = None) -> Outcome:
    """``fn(job, chunk)`` for every chunk of ``items``; ``advance(n)`` after each chunk.
    ``ray``: the address of a Ray cluster (``"local"``: a local Ray instance) to run the chunks
    on instead of this machine's processes (see :mod:`rulelang.play.cluster`).

    Without ``gather``, ``fn`` returns a list with one result per item, and the outcome's
    ``results`` are those lists joined in item order.  With it, ``gather(i, result)`` takes
    the result of chunk ``i`` as it comes (in the order the chunks finish) and nothing is kept
    here: the chunks' results may be anything (a tally of the chunk, see
    :mod:`rulelang.play.tally`), and then chunks need not be small: on a Ray cluster they are
    sized from its CPUs."""
    if ray is not None:
        from rulelang.play.cluster import cluster_cpus, run_parts_ray
        cpus = cluster_cpus(ray)
        parts = chunks(items, cpus, 4, None) if gather is not None else chunks(items, cpus)
        finished, interrupted = run_parts_ray(fn, job, parts, ray, advance, gather)
        return _outcome(parts, finished, interrupted, gather)
    if gather is not None:
        parts = chunks(items, workers, 8, 1000)
    else:
        parts = chunks(items, workers)
    finished: dict = {}
    interrupted = False

    def took(i, result):
        if gather is not None:
            gather(i, result)
            finished[i] = None
        else:
            finished[i] = result
        if advance is not None:
            advance(len(parts[i]))
    if workers <= 1 or len(parts) <= 1:
        try:
            for i, part in enumerate(parts):
                took(i, fn(job, part))
        except KeyboardInterrupt:
            interrupted = True
    else:
        import concurrent.futures as cf
        import multiprocessing as mp
        method = "fork" if "fork" in mp.get_all_start_methods() else None
        pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(parts)),
                                      mp_context=mp.get_context(method),
                                      initializer=_quiet_worker)
        try:
            futures = {pool.submit(fn, job, part): i for i, part in enumerate(parts)}
            for fut in cf.as_completed(futures):
                took(futures[fut], fut.result())
        except KeyboardInterrupt:
            interrupted = True
            for fut, i in futures.items():
                fut.cancel()
                if (i not in finished and fut.done() and not fut.cancelled()
                        and fut.exception() is None):
                    took(i, fut.result())
        finally:
            pool.shutdown(wait=not interrupted, cancel_futures=True)
    return _outcome(parts, finished, interrupted, gather)


def _outcome(parts, finished: dict, interrupted: bool, gather) -> Outcome:
    done = sum(len(parts[i]) for i in finished)
    if gather is not None:
        return Outcome(None, done, interrupted)
    results = []
    for i in sorted(finished):
        results.extend(finished[i])
    return Outcome(results, done, interrupted)


def progress_bar(console, total: int, what: str = "playing"):
    """A rich progress bar on ``console`` and its ``advance(n)``; (None, None) when the console
    is not a terminal."""
    if not console.is_terminal:
        return None, None
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeRemainingColumn)
    bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=console, transient=True)
    task = bar.add_task(what, total=total)

    def advance(n):
        bar.advance(task, n)
    return bar, advance
