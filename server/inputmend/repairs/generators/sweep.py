"""The sweep: a left-to-right repair of a large text, one fault after
another, at a cost linear in the faults (see :mod:`inputmend.algorithms.sweep`)."""

from __future__ import annotations

from inputmend.algorithms.sweep import ALGORITHM, sweep
from inputmend.core.budget import Budget
from inputmend.core.model import Repair
from inputmend.core.oracle import Verdict
from inputmend.repairs.context import RepairContext, verify
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator

LARGE = 32_768
"""Characters from which a text is large: the generators after the sweep
read it whole at each step, the sweep only near its faults."""


def _wanted(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """A large text with an error (not only an incomplete end: completion
    finishes that)."""
    del found
    return (
        len(context.text) >= LARGE
        and context.locator is not None
        and context.feedback.verdict is Verdict.INCORRECT
    )


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    locator = context.locator
    if locator is None:
        return NOTHING
    result = sweep(context.text, locator, hints=context.guidance.hints, budget=budget)
    repair = result.repair
    if repair is None or not verify(context.oracle, repair.text):
        return Candidates((), None, result.stats)
    # a repair that does the data no harm (the judge's verdict, which the
    # ranking reuses) settles the request: the generators after the sweep
    # would read the large text again at each of its faults, and a search
    # could only find a shorter repair, never one that keeps more
    settled = not result.deleted and context.judge(repair).harmless
    return Candidates((repair,), None, result.stats, settled=settled, verified=True)


SWEEP = Generator(ALGORITHM, 2, _run, _wanted, takes_what_is_left=True)
