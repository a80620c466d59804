"""Merge conflicts: keep one side, as a person resolves them.

A file that git could not merge holds both versions of each conflicting
stretch between marker lines (:mod:`inputmend.core.conflicts` reads them).
No reader of the format accepts the markers, and a search that edits at the
first error makes a mess of them (the markers and both versions joined into
one string).  The repair a person chooses keeps one side of every conflict:
ours (the side before ``=======``), theirs (after it), or both in a row
(two lists that each gained an item).  The oracle decides which of these
are valid; the markers are no data, and the side left out is a choice the
repair's title names, not a loss (see the ranking).
"""

from __future__ import annotations

from dataclasses import dataclass

from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, RunStats
from inputmend.core.conflicts import find_conflicts, resolutions, resolved
from inputmend.core.model import Repair, apply_edits, distance
from inputmend.core.oracle import Oracle
from inputmend.oracles.wrappers import metered

ALGORITHM = "conflict"


@dataclass(frozen=True)
class ConflictResult:
    """The resolutions the oracle accepted and what checking them cost."""

    repairs: tuple[Repair, ...]
    stats: RunStats


def conflict_repairs(text: str, oracle: Oracle, *, budget: Budget = UNLIMITED) -> ConflictResult:
    """The resolutions of ``text``'s conflicts the oracle accepts: ours,
    theirs, and both in a row where no conflict's sides give one key twice,
    joined by a separator after ours where they need one (one oracle run
    each; none without conflicts)."""
    conflicts = find_conflicts(text)
    if not conflicts:
        return ConflictResult((), RunStats(0, 0.0))
    checked, meter = metered(oracle, budget)
    repairs: list[Repair] = []
    seen: set[str] = set()
    try:
        both = False  # both sides in a row found valid: no other joiner needed
        for side, separator in resolutions(conflicts):
            if both or (separator and not all(_joins(c.ours, separator) for c in conflicts)):
                continue
            edits = resolved(text, conflicts, side, separator)
            candidate = apply_edits(text, edits)
            if candidate in seen:
                continue
            seen.add(candidate)
            if checked.check(candidate).valid:
                repairs.append(Repair(candidate, edits, ALGORITHM, True, distance(text, candidate)))
                both = side == "both"
    except BudgetExhausted:
        pass
    return ConflictResult(tuple(repairs), RunStats.of(meter))


def _joins(ours: str, separator: str) -> bool:
    """Can ``separator`` go after ours' last word (which is not one already)?"""
    content = ours.rstrip()
    return bool(content) and not content.endswith(separator)
