"""General delta debugging (dd): isolate a minimal difference between a
passing and a failing configuration, maximizing the passing one and
minimizing the failing one together (Zeller and Hildebrandt, TSE 2002)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inputmend.algorithms.configurations import (
    EMPTY,
    Ranges,
    count,
    difference,
    split,
    union,
    whole,
)
from inputmend.algorithms.ddmax import ddmax
from inputmend.algorithms.segmentation import Unit, text_test
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.oracle import Oracle, Outcome


def dd(
    passing: Ranges,
    failing: Ranges,
    test: Callable[[Ranges], Outcome],
    *,
    meter: Meter,
) -> tuple[Ranges, Ranges]:
    """Narrow ``passing ⊂ failing`` down to a 1-minimal difference.

    Precondition: ``test(passing)`` passes and ``test(failing)`` fails.
    Returns the final (passing, failing) pair, or the best pair so far when
    the budget runs out.
    """
    granularity = 2
    try:
        while True:
            delta = difference(failing, passing)
            remaining = count(delta)
            if remaining <= 1:
                return passing, failing
            granularity = min(granularity, remaining)
            parts = split(delta, granularity)
            step: tuple[Ranges, Ranges, int] | None = None
            for part in parts:  # reduce to subset
                candidate = union(passing, part)
                if test(candidate) is Outcome.FAIL:
                    step = (passing, candidate, 2)
                    break
            if step is None:
                for part in parts:  # increase to complement
                    candidate = difference(failing, part)
                    if test(candidate) is Outcome.PASS:
                        step = (candidate, failing, 2)
                        break
            if step is None:
                for part in parts:  # increase to subset
                    candidate = union(passing, part)
                    if test(candidate) is Outcome.PASS:
                        step = (candidate, failing, max(granularity - 1, 2))
                        break
            if step is None:
                for part in parts:  # reduce to complement
                    candidate = difference(failing, part)
                    if test(candidate) is Outcome.FAIL:
                        step = (passing, candidate, max(granularity - 1, 2))
                        break
            if step is not None:
                passing, failing, granularity = step
            elif granularity < remaining:
                granularity = min(remaining, 2 * granularity)
            else:
                return passing, failing
    except BudgetExhausted:
        return passing, failing


@dataclass(frozen=True)
class IsolatedText:
    """dd on a text: a passing and a failing variant with a minimal difference."""

    passing: str
    failing: str
    passing_ranges: Ranges
    failing_ranges: Ranges
    difference: Ranges
    started_from_ddmax: bool
    found_passing: bool
    stats: RunStats


def dd_text(
    text: str,
    oracle: Oracle,
    *,
    unit: Unit = "char",
    budget: Budget = UNLIMITED,
) -> IsolatedText:
    """Isolate a minimal failure-inducing difference in a rejected text.

    dd needs a passing start.  When the oracle rejects the empty input (as
    for JSON), the start is ddmax's maximal passing subset instead, so the
    difference is found in context rather than against nothing.
    """
    segments, test, meter = text_test(text, oracle, unit, budget)
    start: Ranges = EMPTY
    from_ddmax = False
    passing_start = False
    try:
        passing_start = test(EMPTY) is Outcome.PASS
        if not passing_start:
            start, passing_start = ddmax(segments.size, test, meter=meter)
            from_ddmax = True
    except BudgetExhausted:
        pass
    full = whole(segments.size)
    passing, failing = dd(start, full, test, meter=meter) if passing_start else (start, full)
    passing_chars = segments.offsets(passing)
    failing_chars = segments.offsets(failing)
    return IsolatedText(
        passing=segments.assemble(passing),
        failing=segments.assemble(failing),
        passing_ranges=passing_chars,
        failing_ranges=failing_chars,
        difference=difference(failing_chars, passing_chars),
        started_from_ddmax=from_ddmax,
        found_passing=passing_start,
        stats=RunStats.of(meter),
    )
