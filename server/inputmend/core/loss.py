"""When a repair throws away too much of its input: the loss rule.

A repair that deletes, overwrites or comments out a large part of the
input has replaced the data rather than repaired it.  Such a repair is
*lossy* (issue #11): it loses more than a fraction of the input's
non-whitespace characters (default 10%) or more than a number of them
(default 64).  A lossy repair is
never the preferred fix and never written unless the user allows it.
Whitespace does not count: re-indenting loses nothing.  What a repair loses
is judged token by token (:mod:`inputmend.algorithms.judgement`: foreign
syntax that a hint removes is not data, text turned into a comment is
lost, but for a line of prose commented whole, see :func:`prose`); this
module holds the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*[.,;:!?]?")
"""A word of prose: letters and digits (an apostrophe between them), and
the punctuation that may end a word in a sentence."""

PROSE_WORDS = 3
"""The fewest words of a line of prose: more than a key and its value."""

_PART = re.compile(r"\s*(?:(?P<percent>\d+(?:\.\d+)?)%|(?P<chars>\d+))\s*")


@dataclass(frozen=True)
class LossLimit:
    """The most a repair may lose: at most ``fraction`` of the input's
    non-whitespace characters and at most ``chars`` of them."""

    fraction: float = 0.10
    chars: int = 64

    def allows(self, lost: int, significant: int) -> bool:
        """May a repair lose ``lost`` of an input's ``significant`` characters?"""
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


def prose(line: str) -> bool:
    """Is ``line`` prose: at least :data:`PROSE_WORDS` words, each letters
    and digits (``this is a comment``, ``see issue 42``), nothing a value
    or a name is written with (``_``, ``-``, ``/``, ``=``, quotes)?

    A line the grammar cannot read that is made of such words is most
    often a comment that lost its marker; a key and its value without their
    delimiter are two words (``port 8080``), and data with more words holds
    other characters too (``deps  requests-oauthlib, py-yaml``).
    Commenting such a line whole out hides no key or value the input had,
    and the text stays in the file: the loss rule does not count it (it
    would make every such repair lossy in a file of a few lines: ``this is
    a comment`` is 14 of the 32 characters of ``[server]`` with it and
    ``port = 8080``)."""
    return len(line.split()) >= PROSE_WORDS and plain_words(line)


def plain_words(text: str) -> bool:
    """Is ``text`` one or more words of prose (see :func:`prose`): letters
    and digits, nothing a value or a name is written with?  ``FIXME`` and
    ``see issue 42`` are; ``suppressed-message``, ``-r requirements.txt``
    and ``src/`` are not."""
    words = text.split()
    return bool(words) and all(_WORD.fullmatch(word) for word in words)
