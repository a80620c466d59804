"""Merge conflicts resolved by keeping a side (or both), when the text has any."""

from __future__ import annotations

from inputmend.algorithms.conflicts import ALGORITHM, conflict_repairs
from inputmend.core.budget import Budget
from inputmend.core.conflicts import find_conflicts
from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    result = conflict_repairs(context.text, context.oracle, budget=budget)
    return Candidates(tuple(result.repairs), None, result.stats)


def _has_conflicts(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    del found
    return bool(find_conflicts(context.text))


CONFLICTS = Generator(ALGORITHM, 1, _run, _has_conflicts)
