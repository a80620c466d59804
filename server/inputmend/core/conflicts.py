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
    last, each side's text between the markers, and their labels."""

    start: int
    end: int
    ours: str
    theirs: str
    ours_label: str
    theirs_label: str

    def kept(self, side: Side, separator: str = "") -> str:
        """The text that replaces the conflict when ``side`` is kept; for
        both, ``separator`` goes after ours' last word (two items each side
        added at the end of a list: `"b": 2` and `"c": 3` need a comma)."""
        if side == "ours":
            return self.ours
        if side == "theirs":
            return self.theirs
        if not separator:
            return self.ours + self.theirs
        content = len(self.ours.rstrip())
        return self.ours[:content] + separator + self.ours[content:] + self.theirs

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
    position = 0
    while (found := _next_marker(text, position)) is not None:
        kind = found.group(1)[0]
        if kind == "<":  # (a conflict left unfinished before it is no conflict)
            opened, ours_end, separator = found, -1, -1
        elif opened is None:
            pass  # a line of seven `=` is also a heading's underline
        elif kind == "|" and separator < 0:
            ours_end = found.start() if ours_end < 0 else ours_end
        elif kind == "=" and separator < 0:
            ours_end = found.start() if ours_end < 0 else ours_end
            separator = found.end()
        elif kind == ">" and separator >= 0:
            ours, theirs = text[opened.end() : ours_end], text[separator : found.start()]
            labels = opened.group(2) or "", found.group(2) or ""
            conflicts.append(Conflict(opened.start(), found.end(), ours, theirs, *labels))
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
    """The edits that keep ``side`` of every conflict (see :meth:`Conflict.kept`)."""
    return tuple(
        Edit(conflict.start, conflict.end - conflict.start, conflict.kept(side, separator))
        for conflict in conflicts
    )


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
