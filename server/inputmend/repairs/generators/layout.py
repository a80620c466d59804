"""Brackets where the indentation says; and in a grammar whose layout is
indentation (YAML), the line near the error moved to another column."""

from __future__ import annotations

from inputmend.algorithms.completion import ALGORITHM as COMPLETION_ALGORITHM
from inputmend.algorithms.indentation import reindent_repairs
from inputmend.algorithms.layout import ALGORITHM, layout_repairs
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Repair
from inputmend.core.oracle import Verdict
from inputmend.grammar.syntax import Brackets
from inputmend.repairs.context import RepairContext, cut_off, runs_on
from inputmend.repairs.generators.base import Candidates, Generator
from inputmend.repairs.generators.completion import not_completed


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    repairs: list[Repair] = []
    stats = RunStats(0, 0.0)
    incomplete = context.feedback.verdict is Verdict.INCOMPLETE
    error = context.feedback.error_offset
    guide = context.grammar
    if guide is not None and guide.layout is not None and error is not None and not incomplete:
        moved = reindent_repairs(context.text, context.oracle, error=error, budget=budget)
        repairs, stats = list(moved.repairs), moved.stats
    brackets = context.syntax.brackets
    if brackets is not None:
        unfinished = None  # where a token cut off on the last line starts
        if incomplete and context.locator is not None:
            tail = cut_off(context.text, context.locator)
            if tail and "\n" not in tail and "\r" not in tail:
                unfinished = len(context.text) - len(tail)
        boundary = _sure_boundary(context)
        if boundary is not None:
            stats = stats + RunStats(1, 0.0)  # the grammar's run that confirmed it
        placed = layout_repairs(
            context.text,
            context.oracle,
            brackets=brackets,
            incomplete=incomplete,
            unfinished=unfinished,
            boundary=boundary,
            budget=budget.after(stats),
        )
        repairs, stats = repairs + list(placed.repairs), stats + placed.stats
    return Candidates(tuple(repairs), None, stats)


def _sure_boundary(context: RepairContext) -> int | None:
    """The text's parse boundary when the oracle's own grammar confirms it:
    the grammar rejects the text up to and with the character at the
    reported error offset, and a text that begins so is rejected by the
    grammar whatever follows (its verdicts on prefixes are exact), and so by
    the oracle, which accepts only what its grammar accepts (the grammar is
    the oracle, or one of the parts that must all accept).  None when there
    is no such grammar or it does not confirm the offset."""
    error = context.feedback.error_offset
    grammar = context.incremental
    incorrect = context.feedback.verdict is Verdict.INCORRECT
    if grammar is None or not incorrect or error is None or error >= len(context.text):
        return None
    if grammar.check(context.text[: error + 1]).verdict is not Verdict.INCORRECT:
        return None
    return error


def layout_may_help(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Layout can move the closer completion appended to an incomplete
    input (where there are lines to follow) or remove the opener it closed
    when that is written twice (on any line), and only when completion
    closed one bracket: layout edits one bracket, and brackets pair up in a
    valid text, so an input that needs two more closers stays invalid.  Or
    when the input ends in a string run on over lines: layout puts a lost
    quote back on its line (for grammars whose strings may span lines)."""
    if not_completed(context, found):
        return True
    brackets = context.syntax.brackets
    if brackets is None:
        return False
    size = len(context.text)
    if context.locator is not None and brackets.quotes and runs_on(context.text, context.locator):
        return True
    return any(
        not closes_two(brackets, r.text[size:])
        for r in found
        if r.algorithm == COMPLETION_ALGORITHM
    )


def closes_two(brackets: Brackets, text: str) -> bool:
    """Does ``text`` close two brackets more than it opens?  Read up to where
    it has and opens none after (a completion's long run of closers)."""
    balance = 0
    upcoming = dict.fromkeys(brackets.openers, 0)  # where each is next written (-1: never)
    for found in brackets.pattern.finditer(text):
        kind = found.lastgroup
        balance += (kind == "c") - (kind == "o")
        if balance >= 2:
            end = found.end()
            for opener, place in upcoming.items():
                if 0 <= place < end:
                    upcoming[opener] = text.find(opener, end)
            if max(upcoming.values(), default=-1) < 0:
                return True
    return balance >= 2


LAYOUT = Generator(ALGORITHM, 1, _run, layout_may_help, breaks_ties=True)
