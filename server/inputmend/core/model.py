"""The model: edits, spans and the results of repairs, diagnoses and abstractions.

Algorithms return these frozen values; the CLI prints them and the language
server converts them; nothing here knows about either.  Offsets are
character offsets of the (decoded) input."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from inputmend.core import levenshtein
from inputmend.core.budget import RunStats


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``delete`` characters at ``offset`` (of the input) by ``insert``."""

    offset: int
    delete: int
    insert: str = ""

    @property
    def end(self) -> int:
        return self.offset + self.delete

    def to_json(self) -> dict[str, Any]:
        return {"offset": self.offset, "delete": self.delete, "insert": self.insert}


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)`` of character offsets."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        """Is ``offset`` in the span or at one of its ends?"""
        return self.start <= offset <= self.end


@dataclass(frozen=True)
class Repair:
    """One candidate repair of an input."""

    text: str
    edits: tuple[Edit, ...]
    algorithm: str
    valid: bool
    distance: int
    note: str = ""
    data_lost: int = 0
    """Non-whitespace characters of the input's data that the repair deletes or
    overwrites (set by the ranking; :mod:`inputmend.algorithms.judgement`)."""
    tokens_kept: int = 0
    """Input tokens around the edits that the repair keeps (set by the ranking)."""
    lossy: bool = False
    """Loses more data than the loss limit allows (set by the ranking)."""

    @property
    def inserted(self) -> int:
        """Characters the repair invents."""
        return sum(len(edit.insert) for edit in self.edits)


@dataclass(frozen=True)
class RepairResult:
    """Ranked repairs (best first) of one input, and what finding them cost."""

    input_valid: bool
    repairs: tuple[Repair, ...]
    stats: RunStats
    notes: tuple[str, ...] = ()
    partial: Repair | None = None  # best incomplete result when no repair was found
    cut_short: bool = False
    """Some part of the search stopped for its share of the budget (a
    generator, the judge, the polish) though the whole budget may not be
    used up: with more time or runs, it could have found more."""


@dataclass(frozen=True)
class Diagnosis:
    """Failure-inducing spans of an input, as found by one algorithm."""

    algorithm: str
    spans: tuple[Span, ...]
    stats: RunStats
    passing: str | None = None
    failing: str | None = None
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Abstraction:
    """DDSET's abstract failure-inducing input, ready to show."""

    pattern: str
    reduced: str
    tree: str
    instances: tuple[str, ...]
    verification: tuple[int, int, int] | None  # failing, total resolved, unresolved
    stats: RunStats
    notes: tuple[str, ...] = ()


def distance(a: str, b: str) -> int:
    """Levenshtein edit distance (see :mod:`inputmend.core.levenshtein`)."""
    return levenshtein.distance(a, b)


def edited_distance(original: str, edits: Sequence[Edit], text: str) -> int:
    """The Levenshtein distance from ``original`` to ``text``, which the
    non-overlapping ``edits`` make of it, read from the edits where they
    settle it: each edit's own distance, summed, is at least the distance
    (the text between the edits aligns with itself), and the characters
    the edits add, or those they remove, counted by character, are at most
    the distance (an operation adds at most one character and removes at
    most one).  When the two meet, that is the distance, found in the
    edits' characters rather than in the whole text (a megabyte with an
    edit on every line); when they do not (an edit that undoes another
    across the text between them), the whole texts are compared."""
    bound = 0
    balance: Counter[str] = Counter()
    for edit in edits:
        deleted = original[edit.offset : edit.end]
        if deleted and edit.insert:
            bound += levenshtein.distance(deleted, edit.insert)
        else:
            bound += len(deleted) + len(edit.insert)
        balance.update(edit.insert)
        balance.subtract(deleted)
    added = sum(count for count in balance.values() if count > 0)
    removed = -sum(count for count in balance.values() if count < 0)
    if bound == max(added, removed):
        return bound
    return distance(original, text)


def spans_to_edits(spans: Iterable[Span]) -> tuple[Edit, ...]:
    """Deleting the given spans, as an edit script."""
    return tuple(Edit(span.start, span.end - span.start) for span in spans if span.end > span.start)


def edits_between(source: str, target: str) -> tuple[Edit, ...]:
    """A minimal edit script turning ``source`` into ``target``."""
    edits: list[Edit] = []
    for tag, i1, i2, j1, j2 in levenshtein.opcodes(source, target):
        if tag == "equal":
            continue
        insert = target[j1:j2]
        if edits and edits[-1].end == i1:
            last = edits.pop()
            edits.append(Edit(last.offset, last.delete + i2 - i1, last.insert + insert))
        else:
            edits.append(Edit(i1, i2 - i1, insert))
    return tuple(edits)


def inserts_lines(text: str, edit: Edit) -> bool:
    """Does ``edit`` of ``text`` only insert lines of their own: at a line's
    start, ending with a line break, or at a line's end, starting with one?
    (The lines around it keep their text.)"""
    if edit.delete or not edit.insert:
        return False
    at_start = edit.offset == 0 or text[edit.offset - 1] == "\n"
    at_end = text.startswith(("\n", "\r\n"), edit.offset) or edit.offset == len(text)
    return (at_start and edit.insert.endswith("\n")) or (
        at_end and edit.insert.startswith(("\n", "\r\n"))
    )


def apply_edit(text: str, edit: Edit) -> str:
    """``text`` with one edit applied (:func:`apply_edits` of one, without its sorting)."""
    return text[: edit.offset] + edit.insert + text[edit.end :]


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits given in input offsets."""
    pieces: list[str] = []
    position = 0
    for edit in sorted(edits, key=lambda e: (e.offset, e.delete)):
        if edit.offset < position:
            raise ValueError(f"overlapping edits at offset {edit.offset}")
        pieces.append(text[position : edit.offset])
        pieces.append(edit.insert)
        position = edit.end
    pieces.append(text[position:])
    return "".join(pieces)
