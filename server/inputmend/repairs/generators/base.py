"""The generator protocol: what a generator is, and what it finds.

A :class:`Generator` has a ``name``, a ``weight`` (its share of the budget
when it starts: its weight over the sum of its own and the later
generators' weights), ``breaks_ties`` (see :attr:`Generator.breaks_ties`),
``wanted(context, found)`` (is it worth running after
the repairs ``found`` before it) and ``run(context, found, budget)`` (the
hints read what was found before them to choose where to look).  One module
per generator (:mod:`inputmend.repairs.generators`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from inputmend.core.budget import Budget, BudgetExhausted, RunStats
from inputmend.core.model import Edit, Repair, apply_edits, distance
from inputmend.core.oracle import Oracle
from inputmend.oracles.wrappers import metered
from inputmend.repairs.context import RepairContext


@dataclass(frozen=True)
class Candidates:
    """What one generator found: repairs (not yet verified by the whole
    oracle, unless :attr:`verified`), the best partial repair when there is
    one, and its cost."""

    repairs: tuple[Repair, ...]
    partial: Repair | None
    cost: RunStats
    settled: bool = False
    """The repairs settle the request: the generators after this one are not
    run (they would only search again for what was found, at length)."""
    verified: bool = False
    """The generator checked its repairs with the context's whole oracle:
    the pipeline takes that verdict rather than check them again, also once
    the run's time cap is reached (a whole-document check each)."""


NOTHING = Candidates((), None, RunStats(0, 0.0))
"""No candidates, at no cost."""


def verified(
    text: str,
    oracle: Oracle,
    proposals: Iterable[tuple[Edit, ...]],
    *,
    algorithm: str,
    budget: Budget,
    limit: int = 64,
) -> Candidates:
    """The ``proposals`` (each a set of edits of ``text``) that ``oracle``
    accepts, checked in order while ``budget`` lasts, at most ``limit`` of
    them checked: what a generator that rewrites a few places by one
    mechanism returns."""
    checked, meter = metered(oracle, budget)
    repairs: list[Repair] = []
    seen: set[str] = set()
    try:
        for edits in proposals:
            candidate = apply_edits(text, edits)
            if candidate in seen or candidate == text:
                continue
            if len(seen) == limit:
                break
            seen.add(candidate)
            if checked.check(candidate).valid:
                repairs.append(Repair(candidate, edits, algorithm, True, distance(text, candidate)))
    except BudgetExhausted:
        pass
    return Candidates(tuple(repairs), None, RunStats.of(meter))


Run = Callable[[RepairContext, tuple[Repair, ...], Budget], Candidates]
Wanted = Callable[[RepairContext, tuple[Repair, ...]], bool]


def always(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth running whatever was found before."""
    del context, found
    return True


@dataclass(frozen=True)
class Generator:
    """One way to find repairs (see the module's docstring)."""

    name: str
    weight: float
    run: Run
    wanted: Wanted = always
    needs_prefix_feedback: bool = False
    """Skipped when the oracle cannot tell incomplete inputs from incorrect ones."""
    takes_what_is_left: bool = False
    """May use all of the budget left when it starts, not its weight's part:
    its work grows only with the faults it repairs (a few oracle runs each)
    and it stops when done, so a part would only cut off a text with more
    faults than that part's runs.  The generators after it get what it
    leaves."""
    breaks_ties: bool = False
    """Proposes repairs that the ranking's tie-breakers put first among
    repairs equal by its key (the hints' repairs: first among equals;
    layout's: brackets where the indentation says).  It runs even after a
    settled repair (:func:`inputmend.repairs.pipeline.settled`), which it
    may equal and then beat."""
