"""When and where background work runs: debounce timers, tasks, the process
pool and its cancel flags.

Every background task gets a :class:`Runner`: the jobs it submits share one
cancel flag in shared memory.  :meth:`Scheduler.cancel` cancels a document's
pending timer and its task and raises the flag, so the running jobs stop
within milliseconds (a running pool job cannot be cancelled otherwise).  A
flag is reused only once every job that polls it has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from inputmend import jobs

T = TypeVar("T")

WORKERS = max(1, min(2, os.cpu_count() or 2))
"""Processes of the pool."""
SLOTS = 256
"""Cancel flags: background tasks that can run at once (one per open document
being analysed, plus explanations)."""
SHUTDOWN_JOIN_S = 5.0
"""How long stopping waits for the pool's manager thread once its workers are
killed (it ends in milliseconds; the bound keeps exit from hanging)."""

Work = Callable[["Runner"], Coroutine[Any, Any, None]]


class Runner:
    """Submits the jobs of one background task to the pool; they share one cancel flag."""

    def __init__(self, scheduler: Scheduler, slot: int) -> None:
        self.scheduler = scheduler
        self.slot = slot
        self.futures: list[Future[Any]] = []

    async def __call__(self, phase: Callable[[jobs.Job], T], job: jobs.Job) -> T:
        """Run ``phase(job)`` in the pool (raises :class:`~inputmend.jobs.JobError`)."""
        future = self.scheduler.pool().submit(phase, replace(job, slot=self.slot))
        self.futures.append(future)
        return await asyncio.wrap_future(future)

    def cancel(self) -> None:
        self.scheduler.flags[self.slot] = 1

    def fork(self) -> Runner | None:
        """A runner with a flag of its own, for a job that may be stopped
        while the task's other jobs go on (None when no flag is free); the
        caller cancels it with the task and releases it."""
        return self.scheduler.runner()

    def release(self) -> None:
        """Give the flag back once every job that polls it has really ended:
        a cancelled task leaves its worker running until it sees the flag,
        and a new job must not clear the flag under it."""
        running = [future for future in self.futures if not future.done()]
        if not running:
            self.scheduler.free.append(self.slot)
            return
        loop = asyncio.get_running_loop()
        remaining = len(running)

        def finished(_: Future[Any]) -> None:
            nonlocal remaining
            remaining -= 1
            if remaining == 0 and not loop.is_closed():
                # the server may be stopping: then the flag is no one's concern
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self.scheduler.free.append, self.slot)

        for future in running:
            future.add_done_callback(finished)


class Scheduler:
    """Debounced background tasks per document, run in a process pool."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self.flags: Any = self._context.Array("b", SLOTS, lock=False)
        self.free = list(range(SLOTS))
        self._pool: ProcessPoolExecutor | None = None
        self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="check")
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: dict[str, tuple[asyncio.Task[None], Runner]] = {}

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=WORKERS,
                mp_context=self._context,
                initializer=jobs.initialize,
                initargs=(self.flags, os.getpid()),
            )
        return self._pool

    def warm_up(self) -> None:
        """Start the pool's workers now: their start-up (imports) would delay
        the first job by a second or more."""
        pool = self.pool()
        for _ in range(WORKERS):
            pool.submit(os.getpid)

    def runner(self) -> Runner | None:
        """A runner with a cleared flag, or None when all flags are in use."""
        if not self.free:
            return None
        slot = self.free.pop()
        self.flags[slot] = 0
        return Runner(self, slot)

    async def in_thread(self, function: Callable[[], T]) -> T:
        """Run ``function`` in a thread (work too long for the event loop)."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, function)

    def later(self, key: str, delay: float, work: Work) -> None:
        """Run ``work`` for ``key`` after ``delay`` seconds, replacing what is pending."""
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        self._timers[key] = asyncio.get_running_loop().call_later(delay, self._start, key, work)

    def _start(self, key: str, work: Work) -> None:
        self._timers.pop(key, None)
        runner = self.runner()
        if runner is None:
            return
        task = asyncio.ensure_future(self._run(runner, work))
        self._tasks[key] = (task, runner)
        task.add_done_callback(lambda _: self._forget(key, task))

    def _forget(self, key: str, task: asyncio.Task[None]) -> None:
        if key in self._tasks and self._tasks[key][0] is task:
            del self._tasks[key]

    async def run(self, work: Callable[[Runner], Awaitable[T]]) -> T:
        """Run ``work`` now, outside any document's schedule (not cancelled by edits)."""
        runner = self.runner()
        if runner is None:
            raise jobs.JobError("too many jobs running")
        return await self._run(runner, work)

    async def _run(self, runner: Runner, work: Callable[[Runner], Awaitable[T]]) -> T:
        try:
            return await work(runner)
        finally:
            runner.release()

    def cancel(self, key: str) -> None:
        """Stop what is pending or running for ``key``."""
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        running = self._tasks.pop(key, None)
        if running is not None:
            task, runner = running
            runner.cancel()
            task.cancel()

    def shutdown(self) -> None:
        for key in list(self._timers) + list(self._tasks):
            self.cancel(key)
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            manager = getattr(self._pool, "_executor_manager_thread", None)
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # running jobs would delay exit by seconds
                process.kill()
            if manager is not None:
                # Its pipe closed while the interpreter's exit hook writes to
                # it prints "Bad file descriptor"; with the workers killed it
                # ends at once.
                manager.join(SHUTDOWN_JOIN_S)
            self._pool = None
        self._threads.shutdown(wait=False, cancel_futures=True)
