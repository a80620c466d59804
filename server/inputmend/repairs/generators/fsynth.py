"""FSynth: edits at the parse boundary, synthesized with the oracle's
prefix feedback; the grammar's filler offered beside the value it makes up."""

from __future__ import annotations

from dataclasses import replace

from inputmend.algorithms.fsynth import (
    DEFAULT_ALPHABET,
    DELIMITERS,
    PUNCTUATION,
    FSynthOptions,
    fsynth,
)
from inputmend.algorithms.polish import with_filler
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext, verify
from inputmend.repairs.generators.base import Candidates, Generator
from inputmend.repairs.generators.search import nothing_kept_whole


def synthesize(context: RepairContext, budget: Budget) -> Candidates:
    """FSynth's repairs of the context's text, and its best partial one
    (unranked when few: the pipeline ranks every generator's repairs)."""
    options = FSynthOptions(ranked=False)
    incremental = context.incremental
    if incremental is not None:
        # Only characters the grammar can accept at the boundary, one per class
        # of characters it treats alike: far fewer oracle runs for the same
        # repairs (up to which equivalent character is inserted).  Each is a
        # function of the prefix alone, asked again for the prefix that
        # threads share (about a third of the asks on a record): kept for
        # this search, by length and hash as the oracle's cache keeps its
        # answers (a large text's prefixes are not kept alive).
        known: dict[tuple[int, int, str], str] = {}

        def allowed(prefix: str, chars: str) -> str:
            key = (len(prefix), hash(prefix), chars)
            found = known.get(key)
            if found is None:
                found = known[key] = incremental.continuations(prefix, chars, distinct=True)
            return found

        def alphabet(prefix: str) -> str:
            return allowed(prefix, DEFAULT_ALPHABET)

        def reach_alphabet(prefix: str) -> str:
            return allowed(prefix, PUNCTUATION)

        def reach(text: str, boundary: int) -> int | None:
            return incremental.last_token_start(text[:boundary])

        options = replace(options, alphabet=alphabet, reach=reach, reach_alphabet=reach_alphabet)
    else:
        # No tokens to go by: reach back the most FSynth allows, for the best
        # thread of each level, with the common delimiters only (each try is
        # a program run).
        options = replace(
            options, reach=lambda text, boundary: 0, reach_alphabet=DELIMITERS, reach_threads=1
        )
    result = fsynth(context.text, context.oracle, budget=budget, options=options)
    repairs: list[Repair] = list(result.repairs)
    stats = result.stats
    filler = context.syntax.filler
    if filler is not None:
        # FSynth makes up the shortest value (`0`); the grammar's filler (`null`)
        # is offered beside it, for the ranking to prefer
        for repair in result.repairs:
            filled = with_filler(context.text, repair, filler)
            if filled is not None and budget.exhausted_by(stats) is None:
                stats = stats + RunStats(1, 0.0)
                if verify(context.oracle, filled.text):
                    repairs.append(filled)
    return Candidates(tuple(repairs), result.partial, stats)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    return synthesize(context, budget)


FSYNTH = Generator("fsynth", 4, _run, nothing_kept_whole, needs_prefix_feedback=True)
