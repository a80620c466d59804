"""Maximizing delta debugging (ddmax), lexical, after Kirschner et al., ICSE 2020.

Follows the recurrence of Fig. 5 of the ddmax paper, including "increase to
complement" (test ``c_x - Δ_i``) at every granularity, with the two fixes of
Fig. 1 of the FSynth paper: a base case when one element is left
(``|c_x - c'| = 1``, otherwise ``1*1`` recurses forever) and granularity
capped by the size of the *remaining* difference (``{*"":2}``).
"""

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
from inputmend.algorithms.segmentation import Unit, text_test
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.oracle import Oracle, Outcome


def ddmax(size: int, test: Callable[[Ranges], Outcome], *, meter: Meter) -> tuple[Ranges, bool]:
    """Maximize a passing subset of the elements ``0..size-1``.

    Returns the best passing configuration found and whether it is known to
    pass (the empty configuration is assumed to pass, as in the paper, but is
    never tested).  When the meter's budget runs out, the best so far is returned.
    """
    full = whole(size)
    passing: Ranges = EMPTY
    known_to_pass = False
    granularity = 2
    try:
        while True:
            delta = difference(full, passing)
            remaining = count(delta)
            if remaining <= 1:  # base case (FSynth fix a)
                return passing, known_to_pass
            granularity = min(granularity, remaining)
            parts = split(delta, granularity)
            step: tuple[Ranges, int] | None = None
            for part in parts:  # increase to complement
                candidate = difference(full, part)
                if test(candidate) is Outcome.PASS:
                    step = (candidate, 2)
                    break
            if step is None:
                for part in parts:  # increase to subset
                    candidate = union(passing, part)
                    if test(candidate) is Outcome.PASS:
                        step = (candidate, max(granularity - 1, 2))
                        break
            if step is not None:
                passing, granularity = step
                known_to_pass = True
            elif granularity < remaining:  # increase granularity (FSynth fix b)
                granularity = min(remaining, 2 * granularity)
            else:
                return passing, known_to_pass
    except BudgetExhausted:
        return passing, known_to_pass


@dataclass(frozen=True)
class MaximizedText:
    """ddmax on a text: what was kept, what was removed (character ranges)."""

    text: str
    kept: Ranges
    removed: Ranges
    valid: bool
    stats: RunStats


def ddmax_text(
    text: str,
    oracle: Oracle,
    *,
    unit: Unit = "char",
    budget: Budget = UNLIMITED,
) -> MaximizedText:
    """Remove a 1-minimal set of elements so that the oracle accepts the rest."""
    segments, test, meter = text_test(text, oracle, unit, budget)
    kept, known = ddmax(segments.size, test, meter=meter)
    if not known:
        try:
            known = test(kept) is Outcome.PASS
        except BudgetExhausted:
            known = False
    kept_chars = segments.offsets(kept)
    return MaximizedText(
        text=segments.assemble(kept),
        kept=kept_chars,
        removed=difference(whole(len(text)), kept_chars),
        valid=known,
        stats=RunStats.of(meter),
    )
