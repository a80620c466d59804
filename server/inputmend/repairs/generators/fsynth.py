"""FSynth: edits at the parse boundary, synthesized with the oracle's
prefix feedback; the grammar's filler offered beside the value it makes up."""

from __future__ import annotations

from dataclasses import replace

from inputmend.algorithms.completion import ALGORITHM as COMPLETION
from inputmend.algorithms.fsynth import (
    DEFAULT_ALPHABET,
    DELIMITERS,
    PUNCTUATION,
    FSynthOptions,
    fsynth,
)
from inputmend.algorithms.judgement import Judgement
from inputmend.algorithms.polish import with_filler
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext, verify
from inputmend.repairs.generators.base import Candidates, Generator
from inputmend.repairs.generators.search import searching_may_help


def synthesize(context: RepairContext, budget: Budget) -> Candidates:
    """FSynth's repairs of the context's text, and its best partial one."""
    options = FSynthOptions()
    incremental = context.incremental
    if incremental is not None:
        # Only characters the grammar can accept at the boundary, one per class
        # of characters it treats alike: far fewer oracle runs for the same
        # repairs (up to which equivalent character is inserted).
        def alphabet(prefix: str) -> str:
            return incremental.continuations(prefix, DEFAULT_ALPHABET, distinct=True)

        def reach_alphabet(prefix: str) -> str:
            return incremental.continuations(prefix, PUNCTUATION, distinct=True)

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


def keeps_everything(judgement: Judgement) -> bool:
    """Does a repair keep all of its input and make nothing up: no data,
    structure, junk or escape lost, nothing turned into a comment or
    unwrapped, no value invented, no tokens joined, no punctuation quoted
    or moved into a value, every record its shape?  It may still re-read
    words (a lost quote put back makes them a string's text)."""
    return not (
        judgement.quoted
        or judgement.joined
        or judgement.absorbed
        or judgement.data_lost
        or judgement.structure_lost
        or judgement.junk_lost
        or judgement.commented
        or judgement.tail_commented
        or judgement.escapes_removed
        or judgement.wrapper_removed
        or judgement.invented
        or judgement.unfilled
        or judgement.misshapen
    )


def wanted(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth searching when a search may help
    (:func:`~inputmend.repairs.generators.search.searching_may_help`) and no
    repair found before keeps everything (:func:`keeps_everything`; a
    completion only when it re-reads no token).  FSynth
    inserts and deletes characters at the parse boundary: next to such a
    repair it can only offer one that loses or makes up a character to
    re-read fewer tokens, which is not the repair a person meant (a field
    that lost its quote quoted again, not its comma deleted), and it would
    spend most of the budget to find it, a character at a time."""
    if not searching_may_help(context, found):
        return False
    return not any(repair.valid and _gives_way_to(context, repair) for repair in found)


def _gives_way_to(context: RepairContext, repair: Repair) -> bool:
    """Does FSynth give way to ``repair``: it keeps everything, and is no
    completion that re-reads tokens?  Such a completion closes a string
    after what it swallowed (``[ " ] }"]}``), which is not enough (see
    :func:`~inputmend.repairs.generators.completion.not_completed`): the
    quote was lost before the brackets, where a search puts it back."""
    judgement = context.judge(repair)
    if repair.algorithm == COMPLETION and judgement.changed:
        return False
    return keeps_everything(judgement)


FSYNTH = Generator("fsynth", 4, _run, wanted, needs_prefix_feedback=True)
