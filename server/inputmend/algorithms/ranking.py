"""Ranking repairs: fewest edits first, then least data lost, then the most
natural-looking text, then least invented.

Repairs of one input often tie on edit distance: a missing `)` can go before
or after the final newline, a stray byte can be deleted or replaced.  The
tie-breaker is how well the repaired text fits the *input's own style*: a
character trigram model counted over the input (which is mostly right) scores
the text around each edit before and after it.  `))\\n` beats `)\\n)` in a Lisp
file that ends every form on `))`; `"2.0.0" }` beats `"2.0.0 "}` in a JSON file
written with a space before every `}`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise

from inputmend.algorithms.redecode import reread
from inputmend.core.model import Edit, Repair

ORDER = 3
"""Characters per n-gram: two of context, one predicted."""

_SAMPLE = 1 << 16
"""Characters of the input the model is counted over (around the edits)."""


class StyleModel:
    """A character trigram model of one text, interpolated with the bigram and
    unigram models (weights 0.7 and 0.3 at each step)."""

    def __init__(self, text: str) -> None:
        self.trigrams = Counter(zip(text, text[1:], text[2:], strict=False))
        self.bigrams = Counter(pairwise(text))
        self.unigrams = Counter(text)
        self.size = len(text)
        self.alphabet = len(self.unigrams) + 1

    @classmethod
    def around(cls, text: str, edits: Iterable[Edit]) -> StyleModel:
        """The model of ``text``, or of the part of a long text near ``edits``."""
        if len(text) <= _SAMPLE:
            return cls(text)
        offsets = [edit.offset for edit in edits] or [0]
        middle = (min(offsets) + max(offsets)) // 2
        start = max(0, min(middle - _SAMPLE // 2, len(text) - _SAMPLE))
        return cls(text[start : start + _SAMPLE])

    def surprise(self, text: str, start: int, end: int) -> float:
        """Negative log-likelihood of ``text[start:end]`` given what precedes it."""
        total = 0.0
        trigrams, bigrams, unigrams = self.trigrams, self.bigrams, self.unigrams
        for index in range(start, end):
            char = text[index]
            probability = (unigrams[char] + 1) / (self.size + self.alphabet)
            if index >= 1:
                previous = text[index - 1]
                seen = unigrams[previous]
                if seen:
                    probability = 0.3 * probability + 0.7 * bigrams[(previous, char)] / seen
                if index >= 2:
                    seen = bigrams[(text[index - 2], previous)]
                    if seen:
                        triple = (text[index - 2], previous, char)
                        probability = 0.3 * probability + 0.7 * trigrams[triple] / seen
            total -= math.log(probability)
        return total

    def cost(self, original: str, repaired: str, edits: Sequence[Edit]) -> float:
        """How much less natural ``repaired`` (``original`` after ``edits``) is
        (negative: more): the surprise of each edited stretch and of the
        characters its change conditions, after minus before."""
        change = 0.0
        shift = 0
        for group in _clusters(edits):
            first, last = group[0], group[-1]
            before_end = min(len(original), last.end + ORDER - 1)
            grown = sum(len(e.insert) - e.delete for e in group)
            after_start = first.offset + shift
            after_end = min(len(repaired), before_end + shift + grown)
            change += self.surprise(repaired, after_start, after_end)
            change -= self.surprise(original, first.offset, before_end)
            shift += grown
        return change


def _clusters(edits: Sequence[Edit]) -> list[list[Edit]]:
    """Edits close enough to share a scored stretch, in order."""
    groups: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: e.offset):
        if groups and edit.offset < groups[-1][-1].end + ORDER - 1:
            groups[-1].append(edit)
        else:
            groups.append([edit])
    return groups


def _key(
    repair: Repair, style: float, agreement: int, lost: int
) -> tuple[int, int, int, int, int, int]:
    """Fewest edits (edit distance, then separate edits: deleting `**` is one
    edit, quoting both ends of it two), then brackets where the layout says
    (``agreement``), then least data lost (characters deleted, less the
    undecodable bytes re-read as text), then the most natural text, then
    least invented.  Naturalness counts in whole nats, so weak evidence (a
    tiny file) leaves the order the repairs were found in."""
    return (
        repair.distance,
        len(repair.edits),
        -agreement,
        lost,
        math.floor(style),
        repair.inserted,
    )


def rank(
    original: str,
    repairs: Iterable[Repair],
    top: int,
    *,
    layout: Callable[[str], int] | None = None,
) -> tuple[Repair, ...]:
    """The ``top`` best repairs of ``original``, best first; no duplicates.
    ``layout`` scores how well a text's nesting agrees with its indentation
    (:func:`~inputmend.algorithms.layout.layout_agreement`)."""
    unique: dict[str, Repair] = {}
    for repair in repairs:
        unique.setdefault(repair.text, repair)
    candidates = list(unique.values())
    if len(candidates) < 2:
        return tuple(candidates[:top])
    model = StyleModel.around(original, (e for r in candidates for e in r.edits))
    keyed = [
        (
            _key(
                r,
                model.cost(original, r.text, r.edits),
                layout(r.text) if layout else 0,
                r.data_lost - sum(reread(original, edit) for edit in r.edits),
            ),
            i,
        )
        for i, r in enumerate(candidates)
    ]
    keyed.sort()
    return tuple(candidates[index] for _, index in keyed[:top])
