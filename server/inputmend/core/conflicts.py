"""Merge conflicts: the stretches of a text that a merge left with both
versions between marker lines, and the text with one side of each kept.

git (and Mercurial, and any tool that writes diff3's markers) writes::

    <<<<<<< HEAD
    "version": "1.2.0"
    ||||||| base            (only in diff3 style)
    "version": "1.1.0"
    =======
    "version": "1.3.0"
    >>>>>>> feature

A person resolves them by keeping ours (the side before ``=======``),
theirs (after it), or both in a row (two lists that each gained an item).
The repair strategy is :mod:`inputmend.algorithms.conflicts`; titles and
the ranking read what a repair does to the conflicts here
(:func:`resolution_of`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from inputmend.core.model import Edit, apply_edits

Side = Literal["ours", "theirs", "both"]
SIDES: tuple[Side, ...] = ("ours", "theirs", "both")
JOINERS = ("", ",", ";")
"""What may go between the two sides kept in a row: nothing, or a separator."""

_MARKER = re.compile(r"(<{7}|\|{7}|={7}|>{7})(?:[ \t]+([^\r\n]*?))?[ \t]*(?:\r?\n|\Z)")
"""A marker line: seven of one character, then maybe a label (a branch, a commit)."""
_KEY = re.compile(r"""^[ \t]*("[^"\r\n]*"|'[^'\r\n]*'|[\w.-]+)[ \t]*[:=]""", re.MULTILINE)
"""A line that gives a key its value (``"version": ...``, ``x = 1``)."""


@dataclass(frozen=True)
class Conflict:
    """One conflict: the stretch from its first marker line to the end of its
    last, each side's text between the markers, and their labels; where each
    side begins, and the base between ``|||||||`` and ``=======`` (diff3
    style; empty without one)."""

    start: int
    end: int
    ours: str
    theirs: str
    ours_label: str
    theirs_label: str
    ours_at: int
    theirs_at: int
    base: str = ""

    def edits(self, side: Side, separator: str = "") -> tuple[Edit, ...]:
        """The edits that keep ``side`` in place of the conflict: ours,
        theirs, or both in a row, with ``separator`` after ours' last word
        (two items each side added at the end of a list: `"b": 2` and
        `"c": 3` need a comma).  They delete the marker lines, the base and
        the side left out and insert the separator; the text kept is not
        rewritten, so that its tokens read as the input's own where they
        stand."""
        ours_end = self.ours_at + len(self.ours)
        theirs_end = self.theirs_at + len(self.theirs)
        if side == "ours":
            return _deletions((self.start, self.ours_at), (ours_end, self.end))
        if side == "theirs":
            return _deletions((self.start, self.theirs_at), (theirs_end, self.end))
        edits = list(_deletions((self.start, self.ours_at), (ours_end, self.theirs_at)))
        if separator:
            edits.append(Edit(self.ours_at + len(self.ours.rstrip()), 0, separator))
        edits += _deletions((theirs_end, self.end))
        return tuple(sorted(edits, key=lambda e: (e.offset, e.delete)))

    def left_out(self, side: Side) -> int:
        """Characters of the versions that keeping ``side`` leaves out: the
        other side, and the base (for both, the base alone)."""
        dropped = {"ours": len(self.theirs), "theirs": len(self.ours), "both": 0}[side]
        return dropped + len(self.base)

    @property
    def alternatives(self) -> bool:
        """Are the sides two versions of the same thing (a key both give a
        value), so that keeping both would give that key twice?"""
        return not set(_KEY.findall(self.ours)).isdisjoint(_KEY.findall(self.theirs))


def find_conflicts(text: str) -> tuple[Conflict, ...]:
    """The conflicts of ``text``, in order: each a ``<<<<<<<`` line, ours, an
    optional ``|||||||`` line and the base, a ``=======`` line, theirs and a
    ``>>>>>>>`` line, every marker at the start of its line.  Marker lines
    out of that order are text (a heading underlined with ``=======``)."""
    if "<<<<<<<" not in text:  # (a substring search reads 100 KB in microseconds)
        return ()
    conflicts: list[Conflict] = []
    opened: re.Match[str] | None = None
    ours_end = separator = -1
    base = (0, 0)  # where the base begins and ends (diff3 style)
    position = 0
    while (found := _next_marker(text, position)) is not None:
        kind = found.group(1)[0]
        if kind == "<":  # (a conflict left unfinished before it is no conflict)
            opened, ours_end, separator, base = found, -1, -1, (0, 0)
        elif opened is None:
            pass  # a line of seven `=` is also a heading's underline
        elif kind == "|" and separator < 0:
            if ours_end < 0:
                ours_end, base = found.start(), (found.end(), found.end())
        elif kind == "=" and separator < 0:
            if ours_end < 0:
                ours_end = found.start()
            else:
                base = (base[0], found.start())
            separator = found.end()
        elif kind == ">" and separator >= 0:
            ours, theirs = text[opened.end() : ours_end], text[separator : found.start()]
            labels = opened.group(2) or "", found.group(2) or ""
            conflicts.append(
                Conflict(
                    opened.start(),
                    found.end(),
                    ours,
                    theirs,
                    *labels,
                    opened.end(),
                    separator,
                    text[base[0] : base[1]],
                )
            )
            opened = None
        position = found.end()
    return tuple(conflicts)


def _next_marker(text: str, position: int) -> re.Match[str] | None:
    """The next marker line at or after ``position`` that starts a line."""
    while True:
        found = _MARKER.search(text, position)
        if found is None:
            return None
        if found.start() == 0 or text[found.start() - 1] == "\n":
            return found
        position = found.start() + 1


def resolved(
    text: str, conflicts: tuple[Conflict, ...], side: Side, separator: str = ""
) -> tuple[Edit, ...]:
    """The edits that keep ``side`` of every conflict (see :meth:`Conflict.edits`)."""
    return tuple(edit for conflict in conflicts for edit in conflict.edits(side, separator))


def _deletions(*spans: tuple[int, int]) -> tuple[Edit, ...]:
    """Edits that delete the ``(start, end)`` spans, given in order: one
    for spans that meet (a side left empty), none for an empty one."""
    edits: list[Edit] = []
    for start, end in spans:
        if edits and edits[-1].end == start:
            edits[-1] = Edit(edits[-1].offset, end - edits[-1].offset)
        elif end > start:
            edits.append(Edit(start, end - start))
    return tuple(edits)


def resolutions(conflicts: tuple[Conflict, ...]) -> list[tuple[Side, str]]:
    """The ways to resolve ``conflicts`` a person chooses from, as (side,
    separator): ours, theirs, and both in a row, joined by nothing or a
    separator, where no conflict's sides give one key a value each (keeping
    both would give it twice)."""
    found: list[tuple[Side, str]] = [("ours", ""), ("theirs", "")]
    if not any(conflict.alternatives for conflict in conflicts):
        found += [("both", joiner) for joiner in JOINERS]
    return found


@dataclass(frozen=True)
class Resolution:
    """What a repair does to the conflicts of its input: the side of each it
    keeps (the markers go; the side left out is the person's choice)."""

    side: Side
    conflicts: tuple[Conflict, ...]

    @property
    def left_out(self) -> int:
        """Characters of the versions the resolution leaves out (the side
        not taken and the base): a choice between alternatives, not data
        lost, nor an edit the ranking weighs (:meth:`Conflict.left_out`)."""
        return sum(conflict.left_out(self.side) for conflict in self.conflicts)

    @property
    def choice(self) -> int:
        """How far the resolution departs from keeping the current side, per
        conflict, in the order git's and editors' resolutions are offered
        (VS Code's "Accept Current Change", "Incoming", "Both"): ours 0,
        theirs 1, both 2.  Either side alone is a version someone wrote;
        both in a row is right only when the two sides added separate
        things, which the text cannot tell (they changed the same lines),
        so it follows either side."""
        return SIDES.index(self.side) * len(self.conflicts)

    @property
    def title(self) -> str:
        """How a person says it: ``Keep ours (`HEAD`), drop theirs
        (`feature`) in the merge conflict``."""
        count = len(self.conflicts)
        where = "the merge conflict" if count == 1 else f"all {count} merge conflicts"
        if self.side == "both":
            return f"Keep both sides of {where}"
        dropped: Side = "theirs" if self.side == "ours" else "ours"
        kept, left = _named(self.conflicts, self.side), _named(self.conflicts, dropped)
        return f"Keep {kept}, drop {left} in {where}"


def _named(conflicts: tuple[Conflict, ...], side: Side) -> str:
    """``ours (`HEAD`)``: the side and the label its markers give it, when
    every conflict gives the same one."""
    labels = {c.ours_label if side == "ours" else c.theirs_label for c in conflicts}
    label = next(iter(labels))
    return f"{side} (`{label}`)" if len(labels) == 1 and label not in ("", side) else side


def resolution_of(original: str, repaired: str) -> Resolution | None:
    """The side of every conflict of ``original`` that ``repaired`` keeps, when
    it is exactly one of the resolutions (None: it is not)."""
    conflicts = find_conflicts(original)
    if not conflicts:
        return None
    for side, separator in resolutions(conflicts):
        if apply_edits(original, resolved(original, conflicts, side, separator)) == repaired:
            return Resolution(side, conflicts)
    return None


def conflict_message(text: str, offset: int | None) -> str | None:
    """What to say of an error at ``offset`` that lies among ``text``'s merge
    conflicts (from the first marker to the last): ``merge conflict between
    ours (`HEAD`) and theirs (`feature`): keep a side``; None elsewhere.
    The parser's own message (``unexpected `<```) tells a person less."""
    if offset is None:
        return None
    conflicts = find_conflicts(text)
    if not conflicts or not conflicts[0].start <= offset <= conflicts[-1].end:
        return None
    count = "a merge conflict" if len(conflicts) == 1 else f"{len(conflicts)} merge conflicts"
    ours, theirs = _named(conflicts, "ours"), _named(conflicts, "theirs")
    return f"{count} between {ours} and {theirs}: keep a side"
