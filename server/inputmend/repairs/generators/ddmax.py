"""ddmax as a generator: the largest passing subset of the text, by
characters, lines, the grammar's tokens, or tokens then characters (hybrid)."""

from __future__ import annotations

import math
from collections.abc import Callable

from inputmend.algorithms.configurations import Ranges, count
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.ranking import kept_rereads, loss
from inputmend.algorithms.segmentation import Unit
from inputmend.algorithms.syntactic import TokenMaximized, hybrid_ddmax, syntactic_ddmax
from inputmend.core.budget import Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.loss import significant
from inputmend.core.model import Repair, Span, distance, spans_to_edits
from inputmend.core.oracle import Oracle
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.recovery import recovery_units
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator, Run
from inputmend.repairs.generators.search import nothing_kept_whole


def spans(ranges: Ranges) -> tuple[Span, ...]:
    """Delta debugging's index ranges as spans."""
    return tuple(Span(start, end) for start, end in ranges)


def token_ddmax(
    text: str,
    oracle: Oracle,
    grammar: CompiledGrammar,
    budget: Budget,
    *,
    hybrid: bool,
    lexical_runs: Callable[[TokenMaximized], int | None] = lambda first: None,
) -> TokenMaximized | RunStats:
    """Syntactic (or hybrid) ddmax over the units error recovery sees; what
    finding the units cost when the budget ran out first.  ``lexical_runs``:
    see :func:`~inputmend.algorithms.syntactic.hybrid_ddmax`."""
    meter = Meter(budget)
    try:
        units = recovery_units(grammar, text, stop=meter.poll)
    except BudgetExhausted:
        return RunStats.of(meter)
    if hybrid:
        return hybrid_ddmax(text, oracle, tokens=units, budget=budget, lexical_runs=lexical_runs)
    return syntactic_ddmax(text, oracle, tokens=units, budget=budget)


def within_limit(context: RepairContext, repair: Repair) -> bool:
    """Does ``repair`` lose no more than the loss limit allows (is it not lossy)?"""
    judgement = kept_rereads(context.text, repair, context.judge(repair))
    return context.max_loss.allows(loss(judgement), significant(context.text))


def lexical_runs(
    context: RepairContext, found: tuple[Repair, ...]
) -> Callable[[TokenMaximized], int | None]:
    """How many oracle runs hybrid ddmax's lexical phase may use after the
    syntactic phase: no limit but the budget's, unless the syntactic repair
    is lossy while a repair found before is not.  A lossy repair is never
    preferred to one that is not (:mod:`inputmend.core.loss`), so the
    lexical phase then matters only if it brings the removal within the
    loss limit: at most ``L`` characters deleted, ``L`` the most the limit
    allows.  ddmax finds each deleted character by halving the removal
    (complements first) in about ``2 log2 n`` runs for ``n`` characters
    removed, so ``2 L log2 n`` runs is what a repair within the limit
    costs; one still beyond it after that has too many faults, or faults
    spread too wide, to end within the limit.  (On the FSynth study's
    multi-fault files the phase otherwise ran out the 50,000-run budget, to
    a repair deleting over 1,000 characters; one character lost early in a
    long document it finds in a few dozen runs.)"""

    def runs(first: TokenMaximized) -> int | None:
        if within_limit(context, first.to_repair()):
            return None
        if not any(repair.valid and within_limit(context, repair) for repair in found):
            return None
        limit = context.max_loss
        most = min(limit.chars, int(limit.fraction * significant(context.text)))
        return 2 * max(1, most) * max(1, math.ceil(math.log2(count(first.removed) + 1)))

    return runs


def _lexical(unit: Unit) -> Run:
    def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
        del found
        text = context.text
        result = ddmax_text(text, context.oracle, unit=unit, budget=budget)
        repair = Repair(
            text=result.text,
            edits=spans_to_edits(spans(result.removed)),
            algorithm="ddmax" if unit == "char" else "ddmax-lines",
            valid=result.valid,
            distance=distance(text, result.text),
        )
        return Candidates((repair,), None, result.stats)

    return run


def _tokens(*, hybrid: bool) -> Run:
    def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
        grammar = context.own_grammar
        if grammar is None:  # no grammar: fall back to characters
            return _lexical("char")(context, found, budget)
        result = token_ddmax(
            context.text,
            context.oracle,
            grammar,
            budget,
            hybrid=hybrid,
            lexical_runs=lexical_runs(context, found),
        )
        if isinstance(result, RunStats):
            return Candidates((), None, result)
        return Candidates((result.to_repair(),), None, result.stats)

    return run


DDMAX = Generator("ddmax", 1, _lexical("char"))
DDMAX_LINES = Generator("ddmax-lines", 1, _lexical("line"))
DDMAX_SYNTACTIC = Generator("ddmax-syntactic", 1, _tokens(hybrid=False))
HYBRID = Generator("ddmax-hybrid", 3, _tokens(hybrid=True), nothing_kept_whole)
