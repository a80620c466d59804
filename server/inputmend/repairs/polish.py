"""Polishing: the ranked repairs with what they insert where a person types it.

:data:`POLISHERS` is the one ordered sequence of polish steps (each one of
:mod:`inputmend.algorithms.polish`); :func:`polish` applies them in that
order to each ranked repair while the budget lasts, each step keeping its
change only when the oracle accepts it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Protocol

from inputmend.algorithms.polish import (
    closer_on_its_line,
    closers_on_lines,
    final_break_kept,
    opener_at_line_end,
    polish_layout,
    spaced_as_the_input,
    without_doubled_blanks,
)
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Repair
from inputmend.core.render import Lexer
from inputmend.grammar.lexer import lex_typed
from inputmend.repairs.context import RepairContext, verify


class Polisher(Protocol):
    """One polish step: ``repair`` of ``original`` changed where ``accepts``
    allows, or as it was."""

    def __call__(
        self,
        original: str,
        repair: Repair,
        accepts: Callable[[str], bool],
        *,
        lexer: Lexer | None = None,
    ) -> Repair: ...


POLISHERS: tuple[Polisher, ...] = (
    closer_on_its_line,
    polish_layout,
    without_doubled_blanks,
    opener_at_line_end,
    spaced_as_the_input,
    closers_on_lines,
    final_break_kept,
)
"""The polish steps, in the order they run: each reads what the ones before
it left."""


def polish(
    context: RepairContext, ranked: tuple[Repair, ...], budget: Budget, spent: RunStats
) -> tuple[tuple[Repair, ...], int]:
    """The ranked repairs polished by :data:`POLISHERS` while the budget
    lasts (``spent``: what the request used before), repairs that polishing
    made equal merged, and the oracle runs that took."""
    started = time.monotonic()
    runs = 0

    def accepts(candidate: str) -> bool:
        nonlocal runs
        runs += 1
        return verify(context.oracle, candidate)

    def left() -> bool:
        used = RunStats(spent.tests + runs, spent.elapsed_s + time.monotonic() - started)
        return budget.exhausted_by(used) is None

    grammar = context.own_grammar
    lexer = None if grammar is None else functools.partial(lex_typed, grammar)
    polished: dict[str, Repair] = {}
    for repair in ranked:
        better = repair
        if left():
            for polisher in POLISHERS:
                better = polisher(context.text, better, accepts, lexer=lexer)
        polished.setdefault(better.text, better)
    return tuple(polished.values()), runs
