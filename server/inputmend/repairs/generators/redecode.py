"""Undecodable bytes re-read as text in a legacy encoding."""

from __future__ import annotations

from inputmend.algorithms.redecode import ALGORITHM, redecode
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    if not context.encoding.escapes_bytes:  # UTF-16/32: a surrogate is the file's own code unit
        return Candidates((), None, RunStats(0, 0.0))
    result = redecode(context.text, context.oracle, budget=budget)
    return Candidates(tuple(result.repairs), None, result.stats)


REDECODE = Generator(ALGORITHM, 1, _run)
