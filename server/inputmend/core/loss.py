"""How much of its input a repair throws away, and when that is too much.

A repair that deletes or overwrites a large part of the input has not
repaired the data, it has replaced it.  The rule (issue #11): a repair is
*lossy* when it loses more than a fraction of the input's non-whitespace
characters (default 10%) or more than a number of them (default 64).  A lossy
repair is never the preferred fix and never written unless the user allows
it.  Whitespace does not count: re-indenting loses no data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import Levenshtein

from inputmend.core.model import Repair

_SPEC_PART = re.compile(r"\s*(?:(?P<percent>\d+(?:\.\d+)?)%|(?P<chars>\d+))\s*")


@dataclass(frozen=True)
class LossLimit:
    """The most a repair may lose: ``fraction`` of the input's non-whitespace
    characters and ``chars`` of them (both must hold)."""

    fraction: float = 0.10
    chars: int = 64

    def allows(self, lost: int, significant: int) -> bool:
        """May a repair lose ``lost`` of an input's ``significant`` characters?"""
        return lost <= self.chars and lost <= self.fraction * significant

    def describe(self) -> str:
        return f"{100 * self.fraction:g}% or {self.chars} characters"

    @classmethod
    def parse(cls, spec: str) -> LossLimit:
        """``10%``, ``64`` or ``10%,64``: a part with ``%`` sets the fraction, a
        whole number the characters; a part left out keeps its default.
        Raises ``ValueError`` with a message for the user."""
        limit = cls()
        parts = spec.split(",")
        matches = [_SPEC_PART.fullmatch(part) for part in parts]
        if len(parts) > 2 or None in matches:
            raise ValueError(f"loss limit {spec!r}: give PERCENT%, CHARS or PERCENT%,CHARS")
        for match in matches:
            assert match is not None
            if match["percent"] is not None:
                limit = LossLimit(float(match["percent"]) / 100, limit.chars)
            else:
                limit = LossLimit(limit.fraction, int(match["chars"]))
        return limit


def significant(text: str) -> int:
    """The input's characters that carry data: all but whitespace."""
    return sum(map(len, text.split()))


def data_lost(text: str, repair: Repair) -> int:
    """Non-whitespace characters of ``text`` that ``repair`` deletes or overwrites.

    Each edit's deleted text is aligned with its inserted text, so an edit
    that rewrites ``"abc"`` as ``"abd"`` loses one character, not three."""
    lost = 0
    for edit in repair.edits:
        deleted = text[edit.offset : edit.end]
        if not edit.insert:
            lost += significant(deleted)
            continue
        for operation, source, _ in Levenshtein.editops(deleted, edit.insert):
            if operation != "insert" and not deleted[source].isspace():
                lost += 1
    return lost


def is_lossy(text: str, repair: Repair, limit: LossLimit = LossLimit()) -> bool:
    """Does ``repair`` lose more of ``text`` than ``limit`` allows?"""
    return not limit.allows(data_lost(text, repair), significant(text))
