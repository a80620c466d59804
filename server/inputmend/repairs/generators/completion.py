"""Completion: what a valid prefix lacks, appended (the guide's shortest
completion, from its parser stack)."""

from __future__ import annotations

from inputmend.algorithms.completion import ALGORITHM, CompletionOptions, complete_text
from inputmend.core.budget import Budget
from inputmend.core.model import Repair
from inputmend.core.oracle import Verdict
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator


def complete(context: RepairContext, budget: Budget) -> Candidates:
    """The completions of the context's text (none without a guide)."""
    if context.grammar is None or context.locator is None:  # no grammar to complete with
        return NOTHING
    incremental = context.locator
    # the oracle's own grammar locates the error (through its guards); the
    # guide's only where the oracle is a program that cannot say
    own = context.own_grammar is not None
    options = CompletionOptions(
        incremental.completion,
        incremental.last_token_start,
        locate=None if own else incremental.check,
        fields=context.guidance.hints.fields,
    )
    result = complete_text(context.text, context.oracle, options=options, budget=budget)
    return Candidates(tuple(result.repairs), None, result.stats)


def not_completed(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """An input that is only incomplete and was completed, every token read as
    before, needs nothing else: at its end (its parse boundary) edits can only
    insert, and completion already inserted the least that makes it valid.
    (A completion that changes how tokens read, or closes a string that ran
    on past its line after a lost quote, is not enough.)"""
    if context.feedback.verdict is not Verdict.INCOMPLETE:
        return True
    completed = [r for r in found if r.algorithm == ALGORITHM]
    if not completed:
        return True
    return not any(
        judgement.changed == 0 and judgement.absorbed == 0
        for judgement in map(context.judge, completed)
    )


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    return complete(context, budget)


COMPLETION = Generator(ALGORITHM, 1, _run)
