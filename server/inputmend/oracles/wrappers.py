"""Wrappers around an oracle: result cache, test counting, budgets, cancellation.

Algorithms never talk to a raw oracle.  They call :func:`metered`, which stacks
a cache on top of a meter; the meter charges every oracle run against the
:class:`Budget` and raises :class:`BudgetExhausted` when it is used up, so the
algorithm can return the best result it has found so far.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from inputmend.oracles.base import Feedback, Oracle


@dataclass(frozen=True)
class Budget:
    """Limits for one run of work; ``None`` means unlimited."""

    timeout_s: float | None = None
    max_tests: int | None = None
    cancelled: Callable[[], bool] | None = None

    def describe(self) -> str:
        parts = []
        if self.timeout_s is not None:
            parts.append(f"timeout {self.timeout_s:g}s")
        if self.max_tests is not None:
            parts.append(f"at most {self.max_tests} tests")
        if self.cancelled is not None:
            parts.append("cancellable")
        return ", ".join(parts) or "unlimited"


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

    def poll(self) -> None:
        """Raise if the run was cancelled or is past its deadline."""
        if self.stop_reason is not None:
            raise BudgetExhausted(self.stop_reason)
        cancelled = self.budget.cancelled
        if cancelled is not None and cancelled():
            raise self._stop(Cancelled("cancelled"))
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self._stop(BudgetExhausted(f"time budget of {self.budget.timeout_s:g}s used up"))

    def charge(self) -> None:
        """Account for one oracle run, raising if the budget does not allow it."""
        self.poll()
        limit = self.budget.max_tests
        if limit is not None and self.tests >= limit:
            raise self._stop(BudgetExhausted(f"test budget of {limit} oracle runs used up"))
        self.tests += 1


class MeteredOracle:
    """Charges every check to a :class:`Meter`."""

    def __init__(self, inner: Oracle, meter: Meter) -> None:
        self.inner = inner
        self.meter = meter

    def check(self, text: str) -> Feedback:
        self.meter.charge()
        return self.inner.check(text)

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()


class CachedOracle:
    """Remembers answers by content, so repeated candidates cost no oracle run.

    Keys are ``(len, hash)`` of the text: Python caches a string's hash, so a
    lookup costs one pass over a new string and nothing for a known one, and
    the cache never keeps large candidate texts alive.
    """

    def __init__(self, inner: Oracle, max_entries: int = 500_000) -> None:
        self.inner = inner
        self.max_entries = max_entries
        self.hits = 0
        self._answers: dict[tuple[int, int], Feedback] = {}

    def check(self, text: str) -> Feedback:
        key = (len(text), hash(text))
        answer = self._answers.get(key)
        if answer is not None:
            self.hits += 1
            return answer
        answer = self.inner.check(text)
        if len(self._answers) >= self.max_entries:
            del self._answers[next(iter(self._answers))]
        self._answers[key] = answer
        return answer

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()


def metered(oracle: Oracle, budget: Budget = UNLIMITED) -> tuple[CachedOracle, Meter]:
    """Wrap ``oracle`` for one algorithm run: cache on top, meter underneath."""
    meter = Meter(budget)
    return CachedOracle(MeteredOracle(oracle, meter)), meter
