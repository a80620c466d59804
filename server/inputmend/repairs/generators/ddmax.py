"""ddmax as a generator: the largest passing subset of the text, by
characters, lines, the grammar's tokens, or tokens then characters (hybrid)."""

from __future__ import annotations

from inputmend.algorithms.configurations import Ranges
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.segmentation import Unit
from inputmend.algorithms.syntactic import TokenMaximized, hybrid_ddmax, syntactic_ddmax
from inputmend.core.budget import Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.model import Repair, Span, distance, spans_to_edits
from inputmend.core.oracle import Oracle
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.recovery import recovery_units
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator, Run
from inputmend.repairs.generators.search import searching_may_help


def spans(ranges: Ranges) -> tuple[Span, ...]:
    """Delta debugging's index ranges as spans."""
    return tuple(Span(start, end) for start, end in ranges)


def token_ddmax(
    text: str, oracle: Oracle, grammar: CompiledGrammar, budget: Budget, *, hybrid: bool
) -> TokenMaximized | RunStats:
    """Syntactic (or hybrid) ddmax over the units error recovery sees; what
    finding the units cost when the budget ran out first."""
    meter = Meter(budget)
    try:
        units = recovery_units(grammar, text, stop=meter.poll)
    except BudgetExhausted:
        return RunStats.of(meter)
    maximize = hybrid_ddmax if hybrid else syntactic_ddmax
    return maximize(text, oracle, tokens=units, budget=budget)


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
        result = token_ddmax(context.text, context.oracle, grammar, budget, hybrid=hybrid)
        if isinstance(result, RunStats):
            return Candidates((), None, result)
        return Candidates((result.to_repair(),), None, result.stats)

    return run


DDMAX = Generator("ddmax", 1, _lexical("char"))
DDMAX_LINES = Generator("ddmax-lines", 1, _lexical("line"))
DDMAX_SYNTACTIC = Generator("ddmax-syntactic", 1, _tokens(hybrid=False))
HYBRID = Generator("ddmax-hybrid", 3, _tokens(hybrid=True), searching_may_help)
