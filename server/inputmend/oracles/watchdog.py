"""CPU-time limits for work that cannot poll a budget.

A user's grammar terminal whose regular expression backtracks
catastrophically (``/(a+)+b/`` on a long run of ``a``) spends minutes inside
one call of Python's ``re``, where no budget is ever asked.  :func:`cpu_limit`
arms a profiling interval timer (``SIGPROF``, the CPU time of the process);
past the deadline its handler raises :class:`Overrun` in the main thread,
and Python's ``re`` checks for signals while it backtracks, so even such a
match is interrupted.  Limits nest (a run's limit around each check's); in a
thread other than the main one, or without ``setitimer``, a block runs
without a limit.

An :class:`Overrun` raised where it cannot propagate is lost: in a
finalizer (Python prints such an exception and drops it) or under a broad
``except``.  So once a deadline has passed, the timer fires again every
:data:`RETRY_S` of CPU time and raises again, until the block is left.  It
never raises in the bookkeeping of the limits themselves (a frame of this
module), so a limit is always removed, nor while the garbage collector runs:
there it would be dropped, and would break off other libraries' collection
callbacks halfway, leaving them in a state they cannot recover from.

:class:`GuardedGrammar` runs a user grammar's checks under the test timeout:
an overrun makes the check INCORRECT with a message that names the
terminal, and the grammar is not used again by that oracle (each further
check would cost the timeout again).
"""

from __future__ import annotations

import gc
import re
import signal
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import FrameType
from typing import Any

from inputmend.core.oracle import Feedback, Verdict
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import Rewrite, Wrapper


@dataclass(eq=False)
class Limit:
    """One armed limit: the CPU time (``time.process_time``) it ends at."""

    seconds: float
    deadline: float


class Overrun(Exception):
    """A block used more CPU time than its :class:`Limit` allows; ``where``
    says what it was doing then (see :func:`culprit`)."""

    def __init__(self, limit: Limit, where: str = "") -> None:
        super().__init__(f"more than {limit.seconds:g}s of CPU time")
        self.limit = limit
        self.where = where


def culprit(frame: FrameType | None) -> str:
    """What the code running in ``frame`` was doing, for a user: a pattern
    of a hints file when the innermost frame of inputmend was matching one
    (it holds the :class:`~inputmend.grammar.hints.Rewrite` or
    :class:`~inputmend.grammar.hints.Wrapper`), else that frame's function
    and module ("" when no frame of inputmend is running)."""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("inputmend.") and module != __name__:
            for value in frame.f_locals.values():
                if isinstance(value, Rewrite | Wrapper) and value.origin:
                    return f"matching the pattern of {value.origin}"
            return f"{frame.f_code.co_qualname} ({module})"
        frame = frame.f_back
    return ""


RETRY_S = 0.01
"""CPU seconds between raises once a deadline has passed (see the module's docstring)."""
RESUME_S = 0.0005
"""CPU seconds after a garbage collection that deferred a raise until it raises."""


class _Timer:
    """The process's one profiling timer, shared by the nested limits."""

    def __init__(self) -> None:
        self.limits: list[Limit] = []
        self.installed = False
        self.collecting = False  # the garbage collector is running
        self.deferred = False  # an overrun waits for the collection's end

    def install(self) -> None:
        """Take the signal, and follow the garbage collector: the first of
        its callbacks notes that a collection starts, the last that it ends."""
        signal.signal(signal.SIGPROF, self.fired)
        self.follow()
        self.installed = True

    def follow(self) -> None:
        """Put the collection callbacks first and last again where others
        were added around them since (another library's, a test's): one run
        after the collection counts as over could be broken off by a raise."""
        starts, ends = self._collection_starts, self._collection_ends
        if gc.callbacks[:1] == [starts] and gc.callbacks[-1:] == [ends]:
            return
        gc.callbacks[:] = [starts, *(c for c in gc.callbacks if c not in (starts, ends)), ends]

    def _collection_starts(self, phase: str, info: dict[str, int]) -> None:
        del info
        if phase == "start":
            self.collecting = True

    def _collection_ends(self, phase: str, info: dict[str, int]) -> None:
        del info
        if phase == "stop":
            self.collecting = False
            if self.deferred:  # raise as soon as the collection is over
                self.deferred = False
                signal.setitimer(signal.ITIMER_PROF, RESUME_S)

    def arm(self) -> None:
        if not self.limits:
            signal.setitimer(signal.ITIMER_PROF, 0)
            return
        remaining = min(limit.deadline for limit in self.limits) - time.process_time()
        signal.setitimer(signal.ITIMER_PROF, max(remaining, 0.001))

    def fired(self, signum: int, frame: FrameType | None) -> None:
        del signum
        now = time.process_time()
        expired = [limit for limit in self.limits if limit.deadline <= now]
        if not expired:
            self.arm()  # early (the timer's granularity): wait for the rest
            return
        signal.setitimer(signal.ITIMER_PROF, RETRY_S)  # again, should this raise be lost
        if self.collecting:
            self.deferred = True
            return  # raised after the collection
        if frame is not None and frame.f_code in _BOOKKEEPING:
            return  # a limit being set or removed: raise after it, never inside it
        raise Overrun(min(expired, key=lambda limit: limit.deadline), culprit(frame))


_TIMER = _Timer()  # per process, as the signal and the timer are


def _usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


class _Armed:
    """The context manager :func:`cpu_limit` returns: its limit is set on
    entry and removed on exit, in frames where :meth:`_Timer.fired` never
    raises."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.limit: Limit | None = None

    def __enter__(self) -> Limit | None:
        if self.seconds is None or not _usable():
            return None
        if not _TIMER.installed:
            _TIMER.install()
        else:
            _TIMER.follow()
        self.limit = Limit(self.seconds, time.process_time() + self.seconds)
        _TIMER.limits.append(self.limit)
        _TIMER.arm()
        return self.limit

    def __exit__(self, *exc_info: object) -> None:
        if self.limit is not None:
            _TIMER.limits.remove(self.limit)
            self.limit = None
            _TIMER.arm()


_BOOKKEEPING = frozenset(
    code.__code__
    for code in (
        _Armed.__enter__,
        _Armed.__exit__,
        _Timer.arm,
        _Timer.fired,
        _Timer.follow,
        _Timer._collection_starts,
        _Timer._collection_ends,
    )
)
"""The code that sets and removes limits: an overrun is never raised inside it."""


def cpu_limit(seconds: float | None) -> AbstractContextManager[Limit | None]:
    """Raise :class:`Overrun` (carrying the yielded limit) in the block once it
    has used ``seconds`` of CPU time; yields None where no limit is set
    (``seconds`` is None, or no timer can be had here)."""
    return _Armed(seconds)


def run_limit(timeout_s: float | None, test_timeout_s: float) -> float | None:
    """The CPU time a whole run (repair, explanation) may take: its budget,
    plus one test timeout for the check that was running when the budget
    ran out.  Beyond that a run is stuck where it cannot poll its budget."""
    return None if timeout_s is None else timeout_s + test_timeout_s


def overrun_message(overrun: Overrun) -> str:
    """Why a run was stopped past its budget, naming what was running then."""
    where = f" during {overrun.where}" if overrun.where else ""
    return (
        f"stopped after {overrun.limit.seconds:g}s of CPU time: the time budget was "
        f"used up{where}, which did not stop in time"
    )


def slow_terminal(grammar: CompiledGrammar, text: str, seconds: float) -> str | None:
    """The terminal whose regular expression cannot get through ``text``
    within its share of ``seconds`` of CPU time, if one cannot."""
    share = seconds / max(1, len(grammar.terminals))
    for name, terminal in grammar.terminals.items():
        try:
            pattern = re.compile(terminal.source)
        except re.error:
            continue
        try:
            with cpu_limit(share) as limit:
                for _ in pattern.finditer(text):
                    pass
        except Overrun as overrun:
            if overrun.limit is not limit:
                raise
            return name
    return None


class GuardedGrammar:
    """A user grammar's oracle whose checks stop after ``timeout_s`` of CPU
    time.  It wraps the grammar oracle (``inner``, which algorithms reach
    for the grammar's own services)."""

    def __init__(self, inner: Any, timeout_s: float) -> None:
        self.inner = inner
        self.timeout_s = timeout_s
        self.broken: Feedback | None = None  # set once a check overran

    def check(self, text: str) -> Feedback:
        if self.broken is not None:
            return self.broken
        try:
            with cpu_limit(self.timeout_s) as limit:
                return self.inner.check(text)  # type: ignore[no-any-return]
        except Overrun as overrun:
            if overrun.limit is not limit:
                raise
        self.inner.close()  # the scan was abandoned half-way: keep nothing of it
        grammar: CompiledGrammar = self.inner.grammar
        name = slow_terminal(grammar, text, self.timeout_s)
        why = (
            f"the terminal {name} of the grammar {grammar.info.path.name} took more than "
            f"{self.timeout_s:g}s to match: its regular expression backtracks "
            "catastrophically on this text; fix the grammar"
            if name
            else f"checking with the grammar {grammar.info.path.name} took more than "
            f"{self.timeout_s:g}s of CPU time"
        )
        self.broken = Feedback(Verdict.INCORRECT, None, f"{why} (inputmend stops using it here)")
        return self.broken

    def describe(self) -> str:
        return f"{self.inner.describe()}, {self.timeout_s:g}s per check"

    def close(self) -> None:
        self.inner.close()
