"""When a repair throws away too much of its input: the loss rule.

A repair that deletes or overwrites a large part of the input has replaced
the data rather than repaired it.  Such a repair is *lossy* (issue #11): it
loses more than a fraction of the input's non-whitespace characters
(default 10%) or more than a number of them (default 64).  A lossy repair is
never the preferred fix and never written unless the user allows it.
Whitespace does not count: re-indenting loses nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import Levenshtein

from inputmend.core.model import Repair

_PART = re.compile(r"\s*(?:(?P<percent>\d+(?:\.\d+)?)%|(?P<chars>\d+))\s*")


@dataclass(frozen=True)
class LossLimit:
    """The most a repair may lose: at most ``fraction`` of the input's
    non-whitespace characters and at most ``chars`` of them."""

    fraction: float = 0.10
    chars: int = 64

    def allows(self, lost: int, significant: int) -> bool:
        return lost <= self.chars and lost <= self.fraction * significant

    def describe(self) -> str:
        return f"{100 * self.fraction:g}% or {self.chars} characters"

    @classmethod
    def parse(cls, spec: str) -> LossLimit:
        """``10%``, ``64`` or ``10%,64`` (a part left out keeps its default);
        raises ``ValueError`` with a message for the user."""
        limit = cls()
        parts = [_PART.fullmatch(part) for part in spec.split(",")]
        if not 1 <= len(parts) <= 2 or None in parts:
            raise ValueError(f"{spec!r}: give PERCENT%, CHARS or PERCENT%,CHARS")
        for part in parts:
            assert part is not None
            if part["percent"] is not None:
                limit = LossLimit(float(part["percent"]) / 100, limit.chars)
            else:
                limit = LossLimit(limit.fraction, int(part["chars"]))
        return limit


DEFAULT_LIMIT = LossLimit()
"""10% of the input's non-whitespace characters, and at most 64 of them."""


def significant(text: str) -> int:
    """The characters of ``text`` that carry data: all but whitespace."""
    return sum(map(len, text.split()))


def data_lost(text: str, repair: Repair) -> int:
    """Non-whitespace characters of ``text`` that ``repair`` deletes or
    overwrites (each edit's deletion aligned with its insertion, so that
    rewriting ``abc`` as ``abd`` loses one character)."""
    lost = 0
    for edit in repair.edits:
        deleted = text[edit.offset : edit.end]
        if not edit.insert:
            lost += significant(deleted)
            continue
        for operation, position, _ in Levenshtein.editops(deleted, edit.insert):
            if operation != "insert" and not deleted[position].isspace():
                lost += 1
    return lost


def is_lossy(text: str, repair: Repair, limit: LossLimit = DEFAULT_LIMIT) -> bool:
    """Does ``repair`` lose more of ``text`` than ``limit`` allows?"""
    return not limit.allows(data_lost(text, repair), significant(text))
