"""Where a document puts its end tags: its own convention, as evidence.

A markup document that lost an end tag (``</title>``) can be repaired by
putting it back at any element boundary between the start tag and the
place the parser stops; the data each place gives differs, and the text
rarely says which is meant.  The document itself is the best witness: how
its intact elements are written.  An element whose content begins on its
start tag's line (``<title>Example <a>test</a></title>``) is in most
documents closed on that line, one whose start tag ends its line is closed
by an end tag on a line of its own at the start tag's indentation, and the
elements of one name are mostly written alike (every ``<path ...></path>``
of an SVG file closed right after its start tag).

:class:`Conventions` counts the ways the input's intact elements (a start
tag and the end tag of the same name that closes it) are written: whether
the content begins on the start tag's line, and where the end tag stands
(:data:`PLACES`), over the document and by the element's name. The cost of a
repair is, for each end tag it writes (one that overlaps its inserted text),
how much less likely the way its element is then written is than the most
likely way for an element of that name, in nats: the unit of the style model
(:class:`~inputmend.algorithms.ranking.StyleModel`), weighed alike. Writing
an element as the document writes its kind costs nothing, so does an input
with no intact element (no evidence), and so does every repair that writes
no end tag. It is measured, not a rule: it decides among places otherwise
alike, and evidence of a few elements decides little.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from inputmend.core.model import Edit
from inputmend.core.text import line_at

PLACES = ("same", "aligned", "shifted", "after")
"""Where an end tag is: on its start tag's line; first on a later line at
the start tag's line's indentation; first on a later line at another
indentation; after other text on a later line."""

_OUTCOMES = tuple((inline, place) for inline in (False, True) for place in PLACES)
"""Each way an element is written: content on its start tag's line or not,
and its end tag's place."""

_TAG = re.compile(
    r"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<[?!][^>]*>?"
    r"|<(?P<end>/?)(?P<name>[A-Za-z_:][\w:.\-]*)(?:[^<>\"']|\"[^\"<]*\"|'[^'<]*')*?(?P<empty>/?)>",
    re.DOTALL,
)
"""A tag (its name, ``/`` before it for an end tag, ``/`` after it for an
empty-element tag), or a comment, CDATA section, declaration or processing
instruction (no name: not a tag).  A quoted value ends at a ``<`` (no value
holds one): a quote left open is read to the next tag, not to the end."""

_PRIOR = 2.0
"""Elements' worth of the document-wide counts that the counts of one
name start from (a name seen once or twice follows the document)."""

_REACH = 256
"""Characters read past the last inserted text for the end tag it begins
(a bound: a tag's name is shorter)."""

_SMOOTHING = 0.5
"""Elements' worth of each place added to the document-wide counts: a place
the document never uses is unlikely, not impossible."""


@dataclass(frozen=True, slots=True)
class Element:
    """An intact element: its name, where its start tag ends, where its end
    tag begins."""

    name: str
    opened: int
    closing: int


def elements(text: str, end: int | None = None) -> Iterator[Element]:
    """The intact elements of ``text`` (read up to ``end``), in the order their
    end tags come: an end tag closes the innermost open element of its name
    (the ones opened inside it and never closed are left out); an end tag
    of no open element closes nothing."""
    stack: list[tuple[str, int]] = []
    for match in _TAG.finditer(text, 0, len(text) if end is None else end):
        name = match.group("name")
        if name is None or match.group("empty"):
            continue
        if not match.group("end"):
            stack.append((name, match.end()))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                yield Element(name, stack[depth][1], match.start())
                del stack[depth:]
                break


def _indentation(text: str, offset: int) -> str:
    """The blanks the line holding ``offset`` begins with."""
    start, end = line_at(text, offset)
    line = text[start:end]
    return line[: len(line) - len(line.lstrip(" \t"))]


def context_and_place(text: str, element: Element) -> tuple[bool, str]:
    """Whether ``element``'s content begins on its start tag's line (text
    other than blanks between the start tag and its line's end or the end
    tag), and where its end tag is (:data:`PLACES`)."""
    line_end = line_at(text, element.opened)[1]
    inline = bool(text[element.opened : min(line_end, element.closing)].strip())
    if element.closing <= line_end:
        return inline, "same"
    closing_line = line_at(text, element.closing)[0]
    if text[closing_line : element.closing].strip(" \t"):
        return inline, "after"
    aligned = _indentation(text, element.opened) == text[closing_line : element.closing]
    return inline, "aligned" if aligned else "shifted"


class Conventions:
    """How the intact elements of one text are written: counts of their
    outcomes (content on the start tag's line or not, and the end tag's
    place of :data:`PLACES`), over the document and by name."""

    def __init__(self, text: str) -> None:
        self.overall: Counter[tuple[bool, str]] = Counter()
        self.named: dict[str, Counter[tuple[bool, str]]] = {}
        for element in elements(text):
            outcome = context_and_place(text, element)
            self.overall[outcome] += 1
            self.named.setdefault(element.name, Counter())[outcome] += 1
        self.evidence = sum(self.overall.values())

    def surprise(self, name: str, outcome: tuple[bool, str]) -> float:
        """How much less likely ``outcome`` is for an element ``name`` than
        the most likely outcome, in nats: the counts of the name, starting
        from the document's (:data:`_PRIOR`).  Whether the content begins on
        the start tag's line is part of the outcome: an end tag put right
        after its start tag leaves none (``<path d="1"></path>``)."""
        total = self.evidence + _SMOOTHING * len(_OUTCOMES)
        named = self.named.get(name, Counter())
        seen = sum(named.values()) + _PRIOR
        likely = {
            o: (named[o] + _PRIOR * (self.overall[o] + _SMOOTHING) / total) / seen
            for o in _OUTCOMES
        }
        return math.log(max(likely.values())) - math.log(likely[outcome])

    def cost(self, repaired: str, edits: Sequence[Edit]) -> float:
        """The surprise of the places of the end tags that ``edits`` write
        into ``repaired`` (those overlapping an inserted text), summed; 0
        without evidence or without such an end tag."""
        if not self.evidence:
            return 0.0
        spans = list(_inserted(edits))
        if not spans:
            return 0.0
        total = 0.0
        reach = min(len(repaired), spans[-1][1] + _REACH)
        for element in elements(repaired, reach):
            closing, after = element.closing, element.closing + len(element.name) + 3
            if any(start < after and closing < end for start, end in spans):
                total += self.surprise(element.name, context_and_place(repaired, element))
        return total


def _inserted(edits: Sequence[Edit]) -> Iterator[tuple[int, int]]:
    """The spans of the repaired text that ``edits`` insert, of those whose
    text may write part of a tag (holds ``<``, ``/`` or ``>``), in order."""
    shift = 0
    for edit in sorted(edits, key=lambda e: e.offset):
        start = edit.offset + shift
        if any(c in edit.insert for c in "</>"):
            yield start, start + len(edit.insert)
        shift += len(edit.insert) - edit.delete


def may_write_tags(original: str) -> bool:
    """Could repairs of ``original`` be judged by :class:`Conventions`: does
    it hold an end tag at all?"""
    return "</" in original
