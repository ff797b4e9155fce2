"""A worker thread of the language server: it analyses and compiles the open documents given
to it (the server has a few, and gives them the documents in turn), one job at a time, while
the server's own thread answers the editor's requests.

A job is given a test of whether it is stale (its document changed, or was closed, since it
was asked for).  A stale job waiting in line is dropped before it starts; a stale job already
running is stopped where it is: :meth:`Worker.stop_stale` (called on every change) raises
:class:`Superseded` in the worker thread (``PyThreadState_SetAsyncExc``, delivered between two
bytecodes of its Python code), so that a new version of a document never waits behind the
analysis of an old one, however long that would take.  Nothing the jobs share is left half
made: the parser's declaration cache loses the file's entry (it is parsed again next time),
and caches of functions are filled only when those return.  Nothing here imports the language
server's packages.
"""
from __future__ import annotations

import asyncio
import ctypes
import queue
import threading
from typing import Any, Callable, Optional


class Superseded(BaseException):
    """Raised in the worker thread to stop a job whose document has changed since (a
    BaseException, as KeyboardInterrupt is, so that no ``except Exception`` of the analysis
    turns it into a diagnostic)."""


def _raise_in(ident: int, exc: Optional[type]) -> None:
    """Raise ``exc`` in the thread ``ident`` at its next bytecode (None: take back one not yet
    raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                               ctypes.py_object(exc) if exc else None)


class _Job:
    def __init__(self, fn: Callable[[], Any], stale: Callable[[], bool], loop, future):
        self.fn, self.stale, self.loop, self.future = fn, stale, loop, future

    def resolve(self, result) -> None:
        def set_result():
            if not self.future.done():
                self.future.set_result(result)
        self.loop.call_soon_threadsafe(set_result)


class Worker:
    """``await worker.run(fn, stale)``: ``fn()`` in the worker thread, or None if ``stale()``
    before it starts or becomes true while it runs and :meth:`stop_stale` is called."""

    def __init__(self):
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.current: Optional[_Job] = None
        self.stopped = 0                # jobs stopped while they ran (for the tests)
        self.thread = threading.Thread(target=self._loop, name="rulelang-lsp-worker", daemon=True)
        self.thread.start()

    async def run(self, fn: Callable[[], Any], stale: Callable[[], bool]):
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put(_Job(fn, stale, loop, future))
        return await future

    def stop_stale(self) -> None:
        """Stop the job running if it has become stale (called from the server's thread)."""
        with self.lock:
            job = self.current
            if job is not None and job.stale():
                _raise_in(self.thread.ident or 0, Superseded)
                self.current = None         # raised once
                self.stopped += 1

    def _loop(self) -> None:
        while True:
            job = self.jobs.get()
            result = None
            try:
                try:
                    if not job.stale():
                        with self.lock:
                            self.current = job
                        result = job.fn()
                finally:
                    with self.lock:
                        self.current = None
                        _raise_in(threading.get_ident(), None)    # one that came too late
            except Superseded:
                result = None
            except Exception as e:              # a bug of the job: its awaiter sees it
                job.loop.call_soon_threadsafe(
                    lambda e=e, f=job.future: f.done() or f.set_exception(e))
                continue
            job.resolve(result)
