"""Ranking repairs: what a person would choose first.

Each repair is judged by what it does to the input's data
(:mod:`~inputmend.algorithms.judgement`), and the repairs are ordered by

1. lossy last (more data lost than the loss limit allows): never the first
   while another is not;
2. records with another number of fields than the first (tables): data in
   the wrong column is the worst damage to a table;
3. input tokens changed (swallowed into a string or comment, another kind,
   merged, foreign syntax left as it is): wrapping a document in one string
   keeps every character and loses every token;
4. data characters lost (undecodable bytes re-read as text are kept, and
   the side of a merge conflict a resolution leaves out is a choice its
   title names, not a loss), then
   punctuation lost (a stray copy and a hint's fix are free), then fields
   joined (adjacent fields quoted as one, every character kept), then values
   invented, then values invented other than the grammar's filler: keeping
   beats deleting, deleting a stray comma beats making up a value, and
   completing ``d=0<`` beats cutting its ``<``;
5. blanks an inserted delimiter moves into a value (``"yarn "}``), then
   more words re-read as the text of a string whose lost quote the repair
   puts back (``"Hello World"`` rather than ``Hello "World"`` for
   ``Hello World"``);
6. edit distance, less what was deleted with foreign syntax (a comment with
   its line), then the number of separate edits: among repairs that treat the
   data alike, the smallest;
7. brackets where the indentation says they belong
   (:func:`~inputmend.algorithms.layout.layout_agreement`);
8. the input's final line break kept (text after the data removed up to it);
9. a repair the grammar's hints proposed: first among equals;
10. how natural the repaired text looks in the file's own style, then fewer
    inserted characters; of equal repairs the one found first stays first.

The style model: repairs of one input often tie on all of that (a missing
`)` can go before or after the final newline), and the *input's own style*
decides: a character trigram model counted over the input (which is mostly
right) scores the text around each edit before and after it.  `))\\n` beats
`)\\n)` in a Lisp file that ends every form on `))`; `"2.0.0" }` beats
`"2.0.0 "}` in a JSON file written with a space before every `}`.
Naturalness counts in whole nats, so weak evidence (a tiny file) decides
nothing.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

from inputmend.algorithms.conflicts import ALGORITHM as RESOLVED
from inputmend.algorithms.hints import ALGORITHM as HINTED
from inputmend.algorithms.judgement import Judge, Judgement, TokenStart
from inputmend.algorithms.redecode import reread
from inputmend.core.conflicts import resolution_of
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit, significant
from inputmend.core.model import Edit, Repair
from inputmend.grammar.tolerant import GenericLexer, TolerantLexer

_LINE_BREAKS = ("\n", "\r")

ORDER = 3
"""Characters per n-gram: two of context, one predicted."""

_CONTEXTS = re.compile(f"(?=(.{{{ORDER}}}))", re.DOTALL)
"""Each character with the two before it (overlapping: one match per character)."""

_SAMPLE = 1 << 14
"""Characters of the input the model is counted over (around the edits)."""


class StyleModel:
    """A character trigram model of one text, interpolated with the bigram and
    unigram models (weights 0.7 and 0.3 at each step)."""

    def __init__(self, text: str) -> None:
        self.trigrams = Counter(zip(text, text[1:], text[2:], strict=False))
        # each bigram starts a trigram but the last one, each character a
        # bigram but the last one: counted from the fewer distinct ones
        self.bigrams = Counter(pairwise(text[-2:]))
        for (first, second, _), count in self.trigrams.items():
            self.bigrams[(first, second)] += count
        self.unigrams = Counter(text[-1:])
        for (first, _), count in self.bigrams.items():
            self.unigrams[first] += count
        self.size = len(text)
        self.alphabet = len(self.unigrams) + 1
        self._known: dict[str, float] = {}  # a character in its context -> its surprise

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
        known = self._known
        whole = max(start, ORDER - 1)  # the first index with a whole context before it
        contexts = [text[max(0, index - 2) : index + 1] for index in range(start, min(end, whole))]
        if whole < end:  # (read by the regular expression engine: a long ending is long)
            contexts += _CONTEXTS.findall(text, whole - ORDER + 1, end)
        for context in set(contexts).difference(known):
            known[context] = self._surprise_of(context)
        for found in map(known.__getitem__, contexts):
            total += found
        return total

    def _surprise_of(self, context: str) -> float:
        """The surprise of the last character of ``context`` after the one or
        two before it (memoized: a long run of closers repeats a few)."""
        trigrams, bigrams, unigrams = self.trigrams, self.bigrams, self.unigrams
        char = context[-1]
        probability = (unigrams[char] + 1) / (self.size + self.alphabet)
        if len(context) >= 2:
            previous = context[-2]
            seen = unigrams[previous]
            if seen:
                probability = 0.3 * probability + 0.7 * bigrams[(previous, char)] / seen
            if len(context) >= 3:
                seen = bigrams[(context[-3], previous)]
                if seen:
                    triple = (context[-3], previous, char)
                    probability = 0.3 * probability + 0.7 * trigrams[triple] / seen
        return -math.log(probability)

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


def _key(repair: Repair, judgement: Judgement) -> tuple[int, ...]:
    """The ranking key up to the tie-breakers (:func:`_tie_key`); see the
    module documentation for the order and why."""
    return (
        repair.lossy,
        judgement.misshapen,
        judgement.changed,
        judgement.data_lost,
        judgement.structure_lost,
        judgement.joined,
        judgement.invented,
        judgement.unfilled,
        judgement.absorbed,
        -judgement.reread,
        max(0, repair.distance - judgement.removed),
        len(repair.edits),
    )


def _tie_key(repair: Repair, style: float, agreement: int, final_break: bool) -> tuple[int, ...]:
    """What decides between repairs equal by :func:`_key` (``final_break``:
    the input ends with a line break)."""
    return (
        -agreement,
        final_break and not repair.text.endswith(_LINE_BREAKS),
        repair.algorithm != HINTED,
        math.floor(style),
        repair.inserted,
    )


def rank(
    original: str,
    repairs: Iterable[Repair],
    top: int,
    *,
    lexer: TolerantLexer | None = None,
    token_start: TokenStart | None = None,
    layout: Callable[[str], int] | None = None,
    limit: LossLimit = DEFAULT_LIMIT,
    judge: Judge | None = None,
    stop: Callable[[], None] | None = None,
) -> tuple[Repair, ...]:
    """The ``top`` best repairs of ``original``, best first, no duplicates,
    each with what it does to the data (``data_lost``, ``tokens_kept``,
    ``lossy`` under ``limit``).  ``lexer`` reads the input's tokens (the
    grammar's, with its hints); without one, words, numbers, quoted strings
    and punctuation.  ``token_start`` says where tokens start (see
    :class:`~inputmend.algorithms.judgement.Judge`); ``layout`` scores how
    well a text's nesting agrees with its indentation
    (:func:`~inputmend.algorithms.layout.layout_agreement`).  ``judge``: a
    judge of ``original`` made before (with that lexer and ``token_start``),
    that may have judged some of the repairs already; else one is made that
    asks ``stop`` (the stop hook of a run's budget) before it reads on past a
    repair's window."""
    unique: dict[str, Repair] = {}
    for repair in repairs:
        unique.setdefault(repair.text, repair)
    if not unique:
        return ()
    if judge is None:
        judge = Judge(
            original,
            lexer if lexer is not None else GenericLexer(),
            token_start=token_start,
            stop=stop,
        )
    available = significant(original)
    judged: list[tuple[Repair, Judgement]] = []
    for repair in unique.values():
        judgement = judge(repair)
        # undecodable bytes re-read as text are kept, not lost
        lost = max(0, judgement.data_lost - sum(reread(original, e) for e in repair.edits))
        judgement = replace(judgement, data_lost=lost)
        lost += judgement.junk_lost
        chosen = repair.algorithm == RESOLVED and resolution_of(original, repair.text)
        if chosen:  # every character it removes is a marker or the side left out
            judgement = replace(judgement, data_lost=0, structure_lost=0)
        marked = replace(
            repair,
            data_lost=lost,
            tokens_kept=judgement.tokens_kept,
            lossy=not chosen and not limit.allows(lost, available),
        )
        judged.append((marked, judgement))
    heads = [_key(r, j) for r, j in judged]
    equals = Counter(heads)
    tied = [r for r, head in zip(judged, heads, strict=True) if equals[head] > 1]
    # the tie-breakers read whole texts: only for repairs that need them
    model = StyleModel.around(original, (e for r, _ in tied for e in r.edits)) if tied else None
    keyed = [
        (
            head,
            _tie_key(
                r,
                model.cost(original, r.text, r.edits),
                layout(r.text) if layout else 0,
                original.endswith(_LINE_BREAKS),
            )
            if model is not None and equals[head] > 1
            else (),
            i,
        )
        for i, ((r, _), head) in enumerate(zip(judged, heads, strict=True))
    ]
    keyed.sort()
    return tuple(judged[index][0] for _, _, index in keyed[:top])
