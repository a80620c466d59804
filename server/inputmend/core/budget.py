"""The budget of a run, the one way to stop work, and what a run cost.

A :class:`Budget` says how many oracle runs a run may charge (its *work
bound*), how long it may take at most (its *time cap*), and whether its
caller has cancelled it.  The work bound is what makes an answer the same on
any machine under any load: the defaults bound every search by work, and the
time cap is only a safety net, large enough never to be reached on an
ordinary machine; a run that reaches it says so (its stop reason begins with
:data:`TIME_CAP`), since its answer may then differ from run to run.  A :class:`Meter` accounts
for one run against a budget; its :meth:`Meter.poll` is the *stop hook* that
long loops call (algorithms between candidates, grammar scans every few
thousand tokens): it raises :class:`BudgetExhausted` (or :class:`Cancelled`)
when the run must stop, and the algorithm returns the best result it has.

Splitting a budget among the steps of a run is arithmetic on budgets
(:meth:`Budget.after`, :meth:`Budget.share`, :meth:`Budget.fair_share`), and
whether a budget is used up (:meth:`Budget.exhausted_by`), written once here.
A share splits the work bound and the time cap alike: when a machine is so
slow that the cap is reached, each step still gets its part of the time (a
step that may use its whole share of work, as an anytime search does, must
not leave the later ones none); a step stopped by its share of the time cap
reports it like the run's own cap.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

TIME_CAP = "time cap reached"
"""How the stop reason of a run that reached its time cap begins."""
TIME_CAP_REACHED = f"{TIME_CAP}: the answer may differ from run to run"
"""The stop reason of a run stopped by its time cap (a step's cap is what
is left of the run's, so the reason names no number)."""


@dataclass(frozen=True)
class Budget:
    """Limits for one run of work; ``None`` means unlimited.

    ``cancelled`` is asked now and then; once it returns true the run stops
    (the language server raises a job's flag when its document changes).
    The arithmetic below builds its results with the constructor, not
    :func:`dataclasses.replace`: it runs for every generator of every repair,
    and a small record's repair is short enough for ``replace`` to show."""

    timeout_s: float | None = None
    max_tests: int | None = None
    cancelled: Callable[[], bool] | None = None

    def describe(self) -> str:
        parts = []
        if self.max_tests is not None:
            parts.append(f"at most {self.max_tests} tests")
        if self.timeout_s is not None:
            cap = "time cap" if self.max_tests is not None else "timeout"
            parts.append(f"{cap} {self.timeout_s:g}s")
        if self.cancelled is not None:
            parts.append("cancellable")
        return ", ".join(parts) or "unlimited"

    @property
    def used_up(self) -> bool:
        """Nothing is left: no time or no test."""
        return self.timeout_s == 0 or self.max_tests == 0

    def after(self, spent: RunStats) -> Budget:
        """What is left once ``spent`` is paid (never negative)."""
        timeout, tests = self.timeout_s, self.max_tests
        if timeout is not None:
            timeout = max(0.0, timeout - spent.elapsed_s)
        if tests is not None:
            tests = max(0, tests - spent.tests)
        return Budget(timeout, tests, self.cancelled)

    def share(self, fraction: float) -> Budget:
        """``fraction`` of this budget (for one of several steps)."""
        timeout, tests = self.timeout_s, self.max_tests
        return Budget(
            None if timeout is None else fraction * timeout,
            None if tests is None else int(fraction * tests),
            self.cancelled,
        )

    def fair_share(self, fraction: float) -> Budget:
        """``fraction`` of this budget for one of several steps, its tests
        rounded up: a step with a share never gets nothing of something."""
        timeout, tests = self.timeout_s, self.max_tests
        return Budget(
            None if timeout is None else fraction * timeout,
            None if tests is None else min(tests, math.ceil(fraction * tests)),
            self.cancelled,
        )

    def exhausted_by(self, spent: RunStats) -> str | None:
        """Why this budget is used up once ``spent`` is paid (None: it is not)."""
        if self.cancelled is not None and self.cancelled():
            return "cancelled"
        if self.timeout_s is not None and spent.elapsed_s >= self.timeout_s:
            return TIME_CAP_REACHED
        if self.max_tests is not None and spent.tests >= self.max_tests:
            return f"test budget of {self.max_tests} oracle runs used up"
        return None


UNLIMITED = Budget()


class BudgetExhausted(Exception):
    """Raised inside an algorithm when its budget runs out; carries the reason."""


class Cancelled(BudgetExhausted):
    """The caller asked the run to stop (e.g. the document changed)."""


class Meter:
    """Live accounting of one run: tests charged, time spent, why it stopped."""

    def __init__(self, budget: Budget = UNLIMITED) -> None:
        self.budget = budget
        self.started = time.monotonic()
        self.deadline = None if budget.timeout_s is None else self.started + budget.timeout_s
        self.tests = 0
        self.stop_reason: str | None = None

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    @property
    def exhausted(self) -> bool:
        return self.stop_reason is not None

    def _stop(self, error: BudgetExhausted) -> BudgetExhausted:
        self.stop_reason = str(error)
        return error

    def stopped_by(self, error: BudgetExhausted) -> None:
        """Record a stop that came from elsewhere (the stop hook of an oracle
        this run charges), so that the run reports why it stopped."""
        if self.stop_reason is None:
            self.stop_reason = str(error)

    def poll(self) -> None:
        """The stop hook: raise if the run was cancelled or is past its deadline."""
        if self.stop_reason is not None:
            raise BudgetExhausted(self.stop_reason)
        cancelled = self.budget.cancelled
        if cancelled is not None and cancelled():
            raise self._stop(Cancelled("cancelled"))
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self._stop(BudgetExhausted(TIME_CAP_REACHED))

    def charge(self) -> None:
        """Account for one oracle run, raising if the budget does not allow it."""
        self.poll()
        limit = self.budget.max_tests
        if limit is not None and self.tests >= limit:
            raise self._stop(BudgetExhausted(f"test budget of {limit} oracle runs used up"))
        self.tests += 1


@dataclass(frozen=True, slots=True)
class RunStats:
    """What one run cost, and whether it stopped before it was done."""

    tests: int
    elapsed_s: float
    budget_exhausted: bool = False
    stop_reason: str | None = None

    @property
    def time_capped(self) -> bool:
        """Did the run stop at its time cap (its answer may differ from run to run)?"""
        return (self.stop_reason or "").startswith(TIME_CAP)

    @classmethod
    def of(cls, meter: Meter) -> RunStats:
        return cls(meter.tests, meter.elapsed_s, meter.exhausted, meter.stop_reason)

    def __add__(self, other: RunStats) -> RunStats:
        return RunStats(
            self.tests + other.tests,
            self.elapsed_s + other.elapsed_s,
            self.budget_exhausted or other.budget_exhausted,
            self.stop_reason or other.stop_reason,
        )
