"""The grammar's hints propose, the oracle decides; what the hints cannot fix
is finished by completion (a cut-off end), else by FSynth."""

from __future__ import annotations

from dataclasses import replace

from inputmend.algorithms.hints import ALGORITHM, hint_repairs
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Repair
from inputmend.core.oracle import Verdict
from inputmend.grammar.hints import NO_HINTS
from inputmend.repairs.context import RepairContext, runs_on
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator
from inputmend.repairs.generators.completion import complete, not_completed
from inputmend.repairs.generators.fsynth import synthesize


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    hints = context.guidance.hints
    locator = context.locator
    if context.grammar is None or locator is None or hints is NO_HINTS:
        return NOTHING

    def finish(rest: str, left: Budget) -> tuple[list[Repair], RunStats]:
        finishing = replace(context, text=rest)
        if locator.check(rest).verdict is Verdict.INCOMPLETE:
            completed = complete(finishing, left)
            if completed.repairs:
                return list(completed.repairs), completed.cost
        synthesized = synthesize(finishing, left)
        return list(synthesized.repairs), synthesized.cost

    # after a completion that keeps every token, the input parses up to its
    # end: what went wrong is there (a word read as another), or where the
    # string or comment it ends in, run on over lines, began (a lost quote)
    anywhere = not_completed(context, found) or runs_on(context.text, locator)
    strings = context.syntax.strings
    result = hint_repairs(
        context.text,
        context.oracle,
        hints=hints,
        locator=locator,
        budget=budget,
        finish=finish,
        anywhere=anywhere,
        quote=strings[0].quoted if strings else None,
    )
    return Candidates(tuple(result.repairs), None, result.stats)


HINTS = Generator(ALGORITHM, 2, _run, breaks_ties=True)
