"""When a search (FSynth, ddmax) is worth running after the repairs found before it."""

from __future__ import annotations

from inputmend.algorithms.completion import ALGORITHM as COMPLETION
from inputmend.algorithms.judgement import Judgement
from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.completion import not_completed


def searching_may_help(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """A search (FSynth, ddmax) edits at the parse boundary or deletes: once a
    repair found before it does the data no harm, it can only find a shorter
    one, never one that keeps more; and an incomplete input that completion
    finished needs none (see :func:`~inputmend.repairs.generators.completion.not_completed`)."""
    if not not_completed(context, found):
        return False
    return not any(context.judge(repair).harmless for repair in found)


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


def gives_way_to(context: RepairContext, repair: Repair) -> bool:
    """Does a search give way to ``repair``: it keeps everything
    (:func:`keeps_everything`), and is no completion that re-reads tokens?
    Such a completion closes a string after what it swallowed
    (``[ " ] }"]}``), which is not enough (see
    :func:`~inputmend.repairs.generators.completion.not_completed`): the
    quote was lost before the brackets, where a search puts it back."""
    judgement = context.judge(repair)
    if repair.algorithm == COMPLETION and judgement.changed:
        return False
    return keeps_everything(judgement)


def kept_whole(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Does a valid repair found before keep everything (:func:`gives_way_to`)?"""
    return any(repair.valid and gives_way_to(context, repair) for repair in found)


def nothing_kept_whole(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth searching when a search may help (:func:`searching_may_help`)
    and no valid repair found before keeps everything (:func:`gives_way_to`).
    A search inserts and deletes characters at the parse boundary (FSynth)
    or deletes (ddmax): next to such a repair it can only offer one that
    loses or makes up a character to re-read fewer tokens, which is not the
    repair a person meant (a field that lost its quote quoted again, not
    its comma deleted), and it would spend most of its budget to find it."""
    return searching_may_help(context, found) and not kept_whole(context, found)
