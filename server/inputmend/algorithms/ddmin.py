"""Minimizing delta debugging (ddmin), Zeller and Hildebrandt, TSE 2002."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inputmend.algorithms.configurations import Ranges, count, difference, split, whole
from inputmend.algorithms.segmentation import Unit, text_test
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.oracle import Oracle, Outcome


def ddmin(size: int, test: Callable[[Ranges], Outcome], *, meter: Meter) -> Ranges:
    """Reduce the failing configuration ``0..size-1`` to a 1-minimal failing one.

    Tries "reduce to subset" then "reduce to complement" at every granularity.
    Returns the smallest failing configuration found when the budget runs out.
    """
    failing = whole(size)
    granularity = 2
    try:
        while True:
            size_now = count(failing)
            if size_now <= 1:
                return failing
            granularity = min(granularity, size_now)
            parts = split(failing, granularity)
            step: tuple[Ranges, int] | None = None
            for part in parts:  # reduce to subset
                if test(part) is Outcome.FAIL:
                    step = (part, 2)
                    break
            if step is None:
                for part in parts:  # reduce to complement
                    candidate = difference(failing, part)
                    if test(candidate) is Outcome.FAIL:
                        step = (candidate, max(granularity - 1, 2))
                        break
            if step is not None:
                failing, granularity = step
            elif granularity < size_now:
                granularity = min(size_now, 2 * granularity)
            else:
                return failing
    except BudgetExhausted:
        return failing


@dataclass(frozen=True)
class MinimizedText:
    """ddmin on a text: the minimal failing input and its character ranges."""

    text: str
    kept: Ranges
    stats: RunStats


def ddmin_text(
    text: str,
    oracle: Oracle,
    *,
    unit: Unit = "char",
    budget: Budget = UNLIMITED,
) -> MinimizedText:
    """Reduce a rejected text to a 1-minimal text the oracle still rejects."""
    segments, test, meter = text_test(text, oracle, unit, budget)
    kept = ddmin(segments.size, test, meter=meter)
    return MinimizedText(segments.assemble(kept), segments.offsets(kept), RunStats.of(meter))
