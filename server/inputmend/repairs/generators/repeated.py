"""A definition written twice, one copy removed: where a rule beyond the
syntax refuses a text (the format's loader: a TOML key set twice in a
table; a name check of the grammar: an XML attribute written twice in a
tag), the line it points at is read for a definition it repeats
(:func:`~inputmend.algorithms.repeats.repeated_definitions`): the line
itself when another line holds the same, or a run of tokens that a copy
before it holds.  Each copy deleted is proposed, the one the rule points at
first; the oracle checks every proposal, and the ranking counts nothing of
a removed copy as lost (the text keeps the other).
"""

from __future__ import annotations

from inputmend.algorithms.repeats import repeated_definitions
from inputmend.core.budget import Budget
from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified

ALGORITHM = "repeated"

PROPOSALS = 6
"""Removals checked at most (each one oracle run)."""


def refused_beyond_syntax(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth running when a rule beyond the syntax refuses the text (a name
    check of the grammar, the format's loader: names defined once)."""
    del found
    return context.feedback.beyond_syntax and context.feedback.error_offset is not None


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    error = context.feedback.error_offset
    if error is None:
        return NOTHING
    text = context.text
    at = min(error, max(0, len(text) - 1))
    proposals = ((edit,) for edit in repeated_definitions(text, at, context.guidance.lexer))
    return verified(
        text, context.oracle, proposals, algorithm=ALGORITHM, budget=budget, limit=PROPOSALS
    )


REPEATED = Generator(ALGORITHM, 1, _run, refused_beyond_syntax)
