"""Re-reading undecodable bytes as text: ``Ren\\xe9e`` is ``Renée``.

A byte that is not valid in the file's encoding stays in the text as a
surrogate escape (:mod:`inputmend.core.text`) and every oracle rejects it.
Often it is text written in another encoding: a cp1252 (Windows Latin-1)
letter in a UTF-8 file.  Before it is deleted, the repair that reads each
run of such bytes as cp1252 is offered, where every byte of the run looks
like text next to its neighbours (a letter next to letters, a typographic
sign next to a word; a random corrupt byte does not).  The bytes are kept
as text, so the ranking counts them as kept, not lost (:func:`reread`),
where the input supports that reading: a run of two bytes or more, a letter
inside or at the end of a word (``Ren\\xe9e``, ``caf\\xe9``), or other text
beyond ASCII in the input.  A lone byte that would start a word in plain
ASCII text is as likely a corrupt byte (``"\\xf4line"`` is ``"line"`` with a
byte too many, not ``"ôline"``): its re-reading is still offered, but
deleting it ranks first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, RunStats
from inputmend.core.model import Edit, Repair, apply_edits, distance
from inputmend.core.oracle import Oracle
from inputmend.core.text import UNDECODABLE, reread_undecodable
from inputmend.oracles.wrappers import metered

ALGORITHM = "redecode"
_RUNS = re.compile(UNDECODABLE.pattern + "+")
_NON_ASCII = re.compile("[^\x00-\x7f]")


@dataclass(frozen=True)
class RedecodeResult:
    """The re-reading the oracle accepted (if any) and what checking it cost."""

    repairs: tuple[Repair, ...]
    stats: RunStats


def reread_edits(text: str) -> tuple[Edit, ...]:
    """One edit per run of undecodable bytes that reads as cp1252 text."""
    edits = []
    for match in _RUNS.finditer(text):
        read = reread_undecodable(text, match.start(), match.end())
        if read is not None:
            edits.append(Edit(match.start(), match.end() - match.start(), read))
    return tuple(edits)


def reread(original: str, edit: Edit) -> int:
    """How many undecodable bytes ``edit`` keeps as text (its deletion of
    them is no loss): all of them when it replaces a run by its cp1252
    reading and the input supports that reading (see the module
    documentation)."""
    if not edit.delete or edit.insert != reread_undecodable(original, edit.offset, edit.end):
        return 0
    before, after = original[edit.offset - 1 : edit.offset], original[edit.end : edit.end + 1]
    if edit.delete > 1 or before.isalpha() or not after.isalpha():
        return edit.delete  # a run, or not the first letter of a word (Ren\xe9e, caf\xe9)
    beyond_ascii = _NON_ASCII.finditer(original)
    return edit.delete if any(found.start() != edit.offset for found in beyond_ascii) else 0


def unreadable(original: str, edits: Iterable[Edit]) -> int:
    """How many undecodable bytes ``edits`` remove whole runs of, where the
    run has no reading as text (:func:`reread_edits` offers none): every
    repair the oracle accepts removes them, so no repair avoids their loss."""
    count = 0
    for edit in edits:
        for run in _RUNS.finditer(original, edit.offset, edit.end):
            start, end = run.start(), run.end()
            if UNDECODABLE.match(original[start - 1 : start] if start else "") or (
                UNDECODABLE.match(original[end : end + 1])
            ):
                continue  # the run goes on beyond the edit: the edit keeps part of it
            if reread_undecodable(original, start, end) is None:
                count += end - start
    return count


def redecode(text: str, oracle: Oracle, *, budget: Budget = UNLIMITED) -> RedecodeResult:
    """The repair that reads every run of undecodable bytes as cp1252 text,
    when the oracle accepts it."""
    edits = reread_edits(text)
    if not edits:
        return RedecodeResult((), RunStats(0, 0.0))
    checked, meter = metered(oracle, budget)
    repairs: tuple[Repair, ...] = ()
    try:
        candidate = apply_edits(text, edits)
        if checked.check(candidate).valid:
            repairs = (Repair(candidate, edits, ALGORITHM, True, distance(text, candidate)),)
    except BudgetExhausted:
        pass
    return RedecodeResult(repairs, RunStats.of(meter))
