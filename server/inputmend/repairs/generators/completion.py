"""Completion: what a valid prefix lacks, appended (the guide's shortest
completion, from its parser stack)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from inputmend.algorithms.completion import ALGORITHM, CompletionOptions, complete_text
from inputmend.core.budget import Budget
from inputmend.core.loss import significant
from inputmend.core.model import Repair
from inputmend.core.oracle import Verdict
from inputmend.grammar.tolerant import Role
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator


def complete(context: RepairContext, budget: Budget, *, any_rest: bool = False) -> Candidates:
    """The completions of the context's text (none without a guide); of an
    incorrect text, those that drop a rest after its parse boundary only
    where the rest is :func:`droppable`, unless ``any_rest``."""
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
        droppable=None if any_rest else _droppable_in(context),
    )
    result = complete_text(context.text, context.oracle, options=options, budget=budget)
    return Candidates(tuple(result.repairs), None, result.stats)


LEX_STEP = 64
"""Characters of a rest lexed at a time while it is counted: the count stops
where it passes the loss limit (a rest of megabytes is not lexed whole)."""


def _droppable_in(context: RepairContext) -> Callable[[str, int, str], bool]:
    """:func:`droppable` for the context, asked once: a rest that holds one
    that may not be dropped (from an earlier cut) may not be either."""
    kept: list[int] = []  # cuts whose rest may not be dropped

    def may_drop(text: str, cut: int, suffix: str) -> bool:
        if any(cut <= other for other in kept):
            return False
        if droppable(context, text, cut, suffix):
            return True
        kept.append(cut)
        return False

    return may_drop


def droppable(context: RepairContext, text: str, cut: int, suffix: str = "") -> bool:
    """May completion drop the rest of ``text`` (the context's) from ``cut``,
    the prefix completed by ``suffix``: is the data it would lose there
    within the loss limit?  That data is
    counted as the judgement counts data lost, at least: the characters of
    the data tokens there and the letters and digits of its junk; not the
    punctuation, foreign syntax the hints remove (a comment), the text around
    the data (an answer's prose) or junk punctuation (``@@@``), whose drop
    may still do the data no harm, and then the searches give way to it.  A
    rest with more is lost data: its drop would be lossy, never preferred,
    and not worth judging (a record that slipped once in its middle would
    otherwise get two such drops, each judged at length).  The characters
    of ``suffix`` are counted off: the repair's edits may keep as many
    characters of the rest where the suffix writes them (an end tag's
    name).  The rest is lexed a piece at a time, each piece from the end
    of the last token read, until the count passes the limit."""
    limit, available = context.max_loss, significant(text)
    if limit.allows(significant(text[cut:]), available):
        return True  # even all of it
    judge, lexer = context.judge, context.guidance.lexer
    wrappers = judge.wrappers
    # the judge's reading of the input, shared with its windows
    lex = judge.lexemes_in if text == judge.original else functools.partial(lexer.lex, text)
    lost = -significant(suffix)
    position = cut
    while position < len(text):
        piece = lex(position, min(len(text), position + LEX_STEP))
        if not piece:
            break
        for token in piece:
            if token.role not in (Role.DATA, Role.JUNK) or any(
                start <= token.start < end for start, end in wrappers
            ):
                continue
            if token.role is Role.JUNK:
                lost += sum(c.isalnum() for c in text[token.start : token.end])
            elif token.foreign is None or token.value.strip():  # not syntax the hints remove
                lost += len("".join(text[token.start : token.end].split()))
        if not limit.allows(lost, available):
            return False
        position = max(position + 1, piece[-1].end)
    return True


def not_completed(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """An input that is only incomplete and was completed, every token read as
    before, needs nothing else: at its end (its parse boundary) edits can only
    insert, and completion already inserted the least that makes it valid.
    (A completion that changes how tokens read, or closes a string that ran
    on past its line after a lost quote, or leaves a comment hiding the
    closer it appends, ``[/dev/null #1]``, is not enough.)"""
    if context.feedback.verdict is not Verdict.INCOMPLETE:
        return True
    completed = [r for r in found if r.algorithm == ALGORITHM]
    if not completed:
        return True
    return not any(
        judgement.changed == 0 and judgement.absorbed == 0 and judgement.commented == 0
        for judgement in map(context.judge, completed)
    )


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    return complete(context, budget)


def _run_alone(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    return complete(context, budget, any_rest=True)


COMPLETION = Generator(ALGORITHM, 1, _run)
"""Completion among the other generators (``auto``): a rest of data after
the parse boundary is kept for them to repair, not dropped."""

COMPLETION_ALONE = Generator(ALGORITHM, 1, _run_alone)
"""Completion as the only generator: any rest may be dropped (its only
repair of an incorrect text, lossy or not; the loss rule marks it)."""
