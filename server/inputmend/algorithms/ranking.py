"""Ranking repairs: what a person would choose first.

Each repair is judged by what it does to the input's data
(:mod:`~inputmend.algorithms.judgement`), described by named numbers
(:class:`~inputmend.algorithms.features.Features`: data lost, tokens
changed, values invented, edit distance, layout agreement, style cost, the
loader's verdict...), and the repairs are ordered by one score, the features
weighed by the weights of ``grammars/ranking.toml`` (fitted to a corpus of
damaged documents, ``bench/realcorpus/fit.py``); of equal scores, fewer
edits first, then the one found first.  ``docs/ranking.md`` says what each
feature counts and why.

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
from dataclasses import dataclass, replace
from itertools import pairwise

from inputmend.algorithms.conflicts import ALGORITHM as RESOLVED
from inputmend.algorithms.endtags import Conventions, may_write_tags
from inputmend.algorithms.features import (
    Features,
    Weights,
    bundled_weights,
    features_of,
    order_key,
)
from inputmend.algorithms.hints import ALGORITHM as HINTED
from inputmend.algorithms.judgement import Judge, Judgement, TokenStart
from inputmend.algorithms.redecode import reread
from inputmend.algorithms.repeats import Removal, may_remove_copies, removed_copies
from inputmend.core.conflicts import Resolution, resolution_of
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit, significant
from inputmend.core.model import Edit, Repair
from inputmend.grammar.tolerant import GenericLexer, TolerantLexer

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
        # (each counted by the C counting loop: a Python loop over the
        # distinct trigrams costs more than counting the text again)
        self.trigrams = Counter(zip(text, text[1:], text[2:], strict=False))
        self.bigrams = Counter(pairwise(text))
        self.unigrams = Counter(text)
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

    def least_cost(self, original: str, edits: Sequence[Edit]) -> float:
        """At most :meth:`cost` of any repair of ``original`` by ``edits``,
        known without reading what it inserts: the text after an edited
        stretch is at least unsurprising (no surprise is below 0), and the
        stretch before at most as surprising as a character can be here.  A
        character's probability is at least 0.3 times 0.3 (the weights of the
        lower orders, twice) its unigram probability, which is at least one
        over the model's size and alphabet; a nat more per character covers
        the rounding of the sums."""
        most = -math.log(0.09 / (self.size + self.alphabet)) + 1.0
        before = 0
        for group in _clusters(edits):
            before += min(len(original), group[-1].end + ORDER - 1) - group[0].offset
        return -(before * most + 1.0)


def _clusters(edits: Sequence[Edit]) -> list[list[Edit]]:
    """Edits close enough to share a scored stretch, in order."""
    groups: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: e.offset):
        if groups and edit.offset < groups[-1][-1].end + ORDER - 1:
            groups[-1].append(edit)
        else:
            groups.append([edit])
    return groups


@dataclass(frozen=True)
class Scored:
    """A ranked repair with its features and score (see
    :mod:`~inputmend.algorithms.features`)."""

    repair: Repair
    features: Features
    score: float


def kept_rereads(original: str, repair: Repair, judgement: Judgement) -> Judgement:
    """``judgement`` of ``repair`` with the undecodable bytes it re-reads as
    text (:func:`~inputmend.algorithms.redecode.reread`) kept, not lost."""
    lost = max(0, judgement.data_lost - sum(reread(original, e) for e in repair.edits))
    if lost == judgement.data_lost:  # re-reads nothing: most repairs, not worth a copy
        return judgement
    return replace(judgement, data_lost=lost)


def loss(judgement: Judgement) -> int:
    """The characters a repair loses by the loss rule (:mod:`inputmend.core.loss`):
    data lost, junk deleted, and text turned into a comment, which stays in
    the file but leaves the data (so that much is never hidden unasked),
    except lines of prose commented whole (:func:`~inputmend.core.loss.prose`:
    they hid no key or value)."""
    hidden = max(0, judgement.commented - judgement.prose_commented)
    return judgement.data_lost + judgement.junk_lost + hidden


def scored(
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
    weights: Weights | None = None,
    rejects: Callable[[str], bool] | None = None,
    beyond_syntax: Callable[[], bool] | None = None,
    only_top: bool = False,
) -> tuple[Scored, ...]:
    """Every distinct repair of ``original`` (the first of equal texts),
    best first, with its features and score under ``weights`` (the bundled
    default set when None).  ``rejects`` is the format's loader: does it
    reject a text?  It is asked about the best repairs by the other features,
    and again after they move, until the first ``top`` have all been asked
    (the others count as accepted: its verdict is a feature of the top only).
    ``beyond_syntax``: is ``original`` refused by a rule beyond its syntax
    (see :func:`_copies`)?
    With ``only_top``, only the first ``top`` of them, the same as the whole
    ranking's, each with the same features and score; the layout and style
    of the others are not worked out where they cannot be among them (see
    :func:`_first`; ``layout`` scores at most 0 then, as
    :func:`~inputmend.algorithms.layout.layout_agreement` does).  See
    :func:`rank` for the other arguments."""
    unique: dict[str, Repair] = {}
    hinted_texts: set[str] = set()  # a text the hints proposed, whoever found it first
    for repair in repairs:
        unique.setdefault(repair.text, repair)
        if repair.algorithm == HINTED:
            hinted_texts.add(repair.text)
    if not unique:
        return ()
    if judge is None:
        judge = Judge(
            original,
            lexer if lexer is not None else GenericLexer(),
            token_start=token_start,
            stop=stop,
        )
    if weights is None:
        weights = bundled_weights().default
    available = significant(original)
    candidates = list(unique.values())
    # layout and style compare repairs: one alone is not read for them
    model = (
        StyleModel.around(original, (e for r in candidates for e in r.edits))
        if len(candidates) > 1
        else None
    )
    conventions = Conventions(original) if model is not None and may_write_tags(original) else None
    bases: dict[int, Features] = {}  # without layout, style and convention

    def base(index: int) -> Features:
        """The features of candidate ``index``, its layout, style and convention 0."""
        if index not in bases:
            marked, judgement, chosen = judged[index]
            bases[index] = features_of(
                original,
                marked,
                judgement,
                lossy=marked.lossy,
                resolved=chosen is not None,
                conflict_choice=0 if chosen is None else chosen.choice,
                hinted=candidates[index].text in hinted_texts,
            )
        return bases[index]

    def exact(index: int) -> Scored:
        """Candidate ``index`` with its features and score."""
        found = base(index)
        if model is not None:  # layout and style compare repairs: one alone is not read
            text, edits = candidates[index].text, candidates[index].edits
            found = replace(
                found,
                layout=0 if layout is None else layout(text),
                style=math.floor(model.cost(original, text, edits)),
                convention=0 if conventions is None else math.floor(conventions.cost(text, edits)),
            )
        return Scored(judged[index][0], found, weights.score(found))

    copies = _copies(original, judge, beyond_syntax)
    judged = [
        _judged(original, repair, judge, limit, available, copies) for repair in candidates
    ]
    if only_top and model is not None and weights.bounds_read():
        least = [
            replace(base(i), style=math.floor(model.least_cost(original, repair.edits)))
            for i, repair in enumerate(candidates)
        ]
        return _first(candidates, top, weights, exact, least, rejects)
    found = [exact(index) for index in range(len(candidates))]
    order = _ordered(found)
    if rejects is not None:
        asked: set[int] = set()
        while unasked := [i for i in order[:top] if i not in asked]:
            for index in unasked:
                asked.add(index)
                found[index] = _asked(found[index], rejects, weights)
            order = _ordered(found)
    chosen = order[:top] if only_top else order
    return tuple(found[index] for index in chosen)


def _copies(
    original: str, judge: Judge, beyond_syntax: Callable[[], bool] | None
) -> Callable[[Repair], Removal | None]:
    """What a repair removes of the copies of a definition ``original``
    repeats (:func:`~inputmend.algorithms.repeats.removed_copies`), asked
    only where a rule beyond the syntax refuses the input (``beyond_syntax``:
    a name check of the grammar or the format's loader, which refuse a key
    or an attribute defined twice).  Elsewhere a repeated value is data (an
    array's ``1, 1``, a list item's ``id: 1``), and removing it is a loss;
    the input is looked at only for repairs that delete or insert a marker
    alone."""
    refused: list[bool] = []

    def removal(repair: Repair) -> Removal | None:
        if beyond_syntax is None or not may_remove_copies(repair.edits):
            return None
        if not refused:
            refused.append(beyond_syntax())
        return removed_copies(original, repair.edits, judge.lexer) if refused[0] else None

    return removal


def _judged(
    original: str,
    repair: Repair,
    judge: Judge,
    limit: LossLimit,
    available: int,
    copies: Callable[[Repair], Removal | None],
) -> tuple[Repair, Judgement, Resolution | None]:
    """``repair`` marked with what it does to the data, its judgement and
    the resolution of merge conflicts it is (None: none).  A repair that
    only removes copies of a definition the input repeats (``copies``)
    loses nothing: the text keeps one copy; what it deletes counts as
    removed, as a conflict's markers do, not as an edit of the data."""
    judgement = kept_rereads(original, repair, judge(repair))
    removal = copies(repair)
    if removal is not None:
        judgement = replace(
            judgement,
            data_lost=0,
            structure_lost=0,
            dropped=0,
            commented=max(0, judgement.commented - removal.commented),
            removed=judgement.removed + removal.deleted,
        )
    lost = loss(judgement)
    chosen = resolution_of(original, repair.text) if repair.algorithm == RESOLVED else None
    if chosen:  # every character it removes is a marker or a version left out:
        # the versions are alternatives, and leaving one out is the choice the
        # title names, neither data lost nor an edit (only the markers are)
        removed = judgement.removed + chosen.left_out
        judgement = replace(
            judgement, data_lost=0, structure_lost=0, dropped=0, dropped_lost=0, removed=removed
        )
    lossy = not chosen and not limit.allows(lost, available)
    marked = replace(repair, data_lost=lost, tokens_kept=judgement.tokens_kept, lossy=lossy)
    return marked, judgement, chosen or None


def _asked(found: Scored, rejects: Callable[[str], bool], weights: Weights) -> Scored:
    """``found`` with the loader's verdict on its text."""
    if not rejects(found.repair.text):
        return found
    features = replace(found.features, loader_rejects=1)
    return replace(found, features=features, score=weights.score(features))


def _first(
    candidates: Sequence[Repair],
    top: int,
    weights: Weights,
    exact: Callable[[int], Scored],
    least: Sequence[Features],
    rejects: Callable[[str], bool] | None,
) -> tuple[Scored, ...]:
    """The first ``top`` of ``candidates`` as :func:`scored` orders them
    all (``exact``: a candidate's features and score, its layout and style
    read; ``least``: each one's features unread), reading the layout and
    style of a candidate only where it may be among them.

    Why that is the same: unread, a candidate's layout and convention
    count 0 and its style its least (:meth:`StyleModel.least_cost`).
    Layout scores are at most 0 and weigh at most 0, convention costs are
    at least 0, and the style and the convention weigh at least 0
    (:meth:`~inputmend.algorithms.features.Weights.bounds_read`), so each
    weighs at least as little unread as read; the score is summed in one
    order, and a rounded sum never falls when a term grows, so the unread
    score is at most the read one.  The candidates are ordered by
    :func:`order_key`, each unread by its unread score: a candidate whose
    key is above the ``top`` best is above them read too (its edits and
    place are the same).  So once the first ``top`` by that order are all
    read, they are the first ``top`` of the whole ranking.  The loader is
    then asked about them as :func:`scored` asks, and a verdict that
    moves one down lets the next ones in, read in turn: the same repairs
    are asked in the same order, and the same first ``top`` are left."""
    found: dict[int, Scored] = {}  # read, with the loader's verdict once asked
    unread = [weights.score(features) for features in least]
    asked: set[int] = set()

    def key(index: int) -> tuple[float, int, int]:
        score = found[index].score if index in found else unread[index]
        return order_key(score, len(candidates[index].edits), index)

    while True:
        order = sorted(range(len(candidates)), key=key)[:top]
        reading = [index for index in order if index not in found]
        for index in reading:
            found[index] = exact(index)
        if reading:
            continue
        unasked = [index for index in order if index not in asked] if rejects else []
        if not unasked or rejects is None:
            return tuple(found[index] for index in order)
        for index in unasked:
            asked.add(index)
            found[index] = _asked(found[index], rejects, weights)


def _ordered(found: Sequence[Scored]) -> list[int]:
    """The indices of ``found``, best first (:func:`order_key`)."""
    return sorted(
        range(len(found)), key=lambda i: order_key(found[i].score, len(found[i].repair.edits), i)
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
    weights: Weights | None = None,
    rejects: Callable[[str], bool] | None = None,
) -> tuple[Repair, ...]:
    """The ``top`` best repairs of ``original``, best first, no duplicates,
    each with what it does to the data (``data_lost``, ``tokens_kept``,
    ``lossy`` under ``limit``), ordered by the score of their features under
    ``weights`` (:func:`scored`).  ``lexer`` reads the input's tokens (the
    grammar's, with its hints); without one, words, numbers, quoted strings
    and punctuation.  ``token_start`` says where tokens start (see
    :class:`~inputmend.algorithms.judgement.Judge`); ``layout`` scores how
    well a text's nesting agrees with its indentation
    (:func:`~inputmend.algorithms.layout.layout_agreement`).  ``judge``: a
    judge of ``original`` made before (with that lexer and ``token_start``),
    that may have judged some of the repairs already; else one is made that
    asks ``stop`` (the stop hook of a run's budget) before it reads on past a
    repair's window.  ``rejects``: the format's loader (see :func:`scored`)."""
    found = scored(
        original,
        repairs,
        top,
        lexer=lexer,
        token_start=token_start,
        layout=layout,
        limit=limit,
        judge=judge,
        stop=stop,
        weights=weights,
        rejects=rejects,
    )
    return tuple(s.repair for s in found[:top])
