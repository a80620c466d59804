"""Repairs proposed by a grammar's hints and decided by the oracle.

A grammar's hints (:mod:`inputmend.grammar.hints`) say what foreign syntax
looks like and what it means in the grammar.  :func:`hint_repairs` rewrites
the input where the grammar reports an error: at the error it tries every
hint that matches there (a foreign token starting at the error, a fix such as
a trailing comma just before it, a comment line ending at it, the wrappers
around the text, documents written one after another), keeps the one that
takes the parse furthest, and goes on to the next error; where no hint helps,
the words at the error written as a string of the grammar (a value that
lost its quotes; not once a plain step was taken), else one plain step
(deleting the character at the error, or inserting a separator or closer
there) takes the parse past it, so that a foreign string after a stray
comma is still rewritten; the walk stops once plain steps have deleted
:data:`PLAIN_DELETIONS` characters with no hint's step between.  Nothing is rewritten
where the text parses, so a ``//`` inside a valid string stays.  What the
hints cannot fix (a truncated end, a lost bracket) is handed to ``finish``
(FSynth) and the edits are composed.  Every candidate is checked by the whole
oracle: the grammar proposes, the oracle decides.

The grammar that locates errors may be the oracle's own or only a guide: a
program that reads JSON files is guided by the bundled JSON grammar and its
hints, and still decides itself.
"""

from __future__ import annotations

import functools
import itertools
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from inputmend.core import levenshtein
from inputmend.core.budget import Budget, BudgetExhausted, RunStats
from inputmend.core.model import Edit, Repair, edits_between
from inputmend.core.oracle import Feedback, Oracle, Verdict
from inputmend.core.text import common_prefix, line_start
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import NO_HINTS, Hints, HintsError, Rewrite
from inputmend.grammar.tolerant import GenericLexer, GrammarLexer, TolerantLexer
from inputmend.oracles.wrappers import metered

ALGORITHM = "hints"

REACH = 512
"""Characters before an error within which a rewrite may start."""
REACH_LINES = 3
"""Lines before the error's line on which a fix is tried (a lost quote is
often noticed lines later)."""
RUN_ON_REACH = 8 * REACH
"""Characters before an error within which a rewrite may start at all."""

BRANCHES = 2
"""Walks begun again from a step that another hint's step ties with (the
same progress): two faults with a hint each near the first error, such as
INI's `port 8080` that lost its `=` and could be a continuation line, reach
the same place by either step; the walk that takes the first would never
offer the other's repair of both.  The ranking chooses among them."""

POLL_EVERY = 256
"""Matches of a pattern between two looks at the budget."""
PLAIN_DELETIONS = 16
"""Characters plain steps may delete since the last hint's step: each is a
character no hint explains, and a run of them deletes the text character
by character, a step and a pass of every pattern each (on a small record
most of its repair time, for nothing: a repair after such a run has lost
what it deleted, and the searches delete on their own budget)."""
PLAIN_INSERTS = ",:;)]}"
"""What a plain step may insert at an error: separators and closers (an
opener or a quote would only postpone the error to the end of the text)."""

Finisher = Callable[[str, Budget], tuple[Sequence[Repair], RunStats]]
"""Repairs the rest of a text the hints have improved (FSynth, in services)."""


class Locator(Protocol):
    """Where a text stops parsing: a grammar oracle (incremental, so that the
    many small rewrites cost little)."""

    def check(self, text: str) -> Feedback: ...

    def last_token_start(self, prefix: str) -> int | None: ...

    def completion(self, prefix: str) -> str | None: ...


@dataclass(frozen=True)
class Guidance:
    """What a grammar offers a repair beyond checking: its hints, and the lexer
    that judges repairs (the generic one without a grammar)."""

    hints: Hints
    lexer: TolerantLexer
    problem: str | None = None  # why the grammar's hints (or some of them) are not used


NO_GUIDANCE = Guidance(NO_HINTS, GenericLexer())
"""Without a grammar: no hints, the generic lexer."""


_GUIDED: weakref.WeakKeyDictionary[CompiledGrammar, tuple[Hints, Guidance]] = (
    weakref.WeakKeyDictionary()
)
"""Each grammar's guidance, with the hints it was made of: made once while
the hints stay the same (a record of a few hundred bytes costs less to
repair than a tolerant lexer with its tables costs to set up)."""


def guidance(grammar: CompiledGrammar | None) -> Guidance:
    """The guidance of a grammar (``None``: no grammar), made again only when
    its hints were read again (their file changed)."""
    if grammar is None:
        return NO_GUIDANCE
    try:
        hints = grammar.hints()
    except HintsError as error:
        return Guidance(NO_HINTS, GrammarLexer(grammar), f"{error}; repaired without hints")
    known = _GUIDED.get(grammar)
    if known is not None and known[0] is hints:
        return known[1]
    guided = _guidance(grammar, hints)
    _GUIDED[grammar] = (hints, guided)
    return guided


def _guidance(grammar: CompiledGrammar, hints: Hints) -> Guidance:
    """The guidance of ``grammar`` by ``hints`` (which it has read)."""
    note = None
    if hints.skipped:
        name = hints.source.name if hints.source is not None else "the hints"
        note = (
            f"{hints.skipped} entries of {name} need the regex module, which is not installed; "
            "repaired without them"
        )
    return Guidance(hints, GrammarLexer(grammar, hints), note)


@dataclass(frozen=True)
class HintRepairs:
    """What the hints found: verified repairs, and what finding them cost."""

    repairs: tuple[Repair, ...]
    stats: RunStats
    rewrites: tuple[str, ...] = ()  # the hints applied, in order


Piece = tuple[int, int] | str
"""A stretch of the original (its offsets) or inserted text."""


def _length(piece: Piece) -> int:
    return piece[1] - piece[0] if isinstance(piece, tuple) else len(piece)


def _part(piece: Piece, start: int, end: int) -> Piece:
    return (piece[0] + start, piece[0] + end) if isinstance(piece, tuple) else piece[start:end]


class _Draft:
    """A text being rewritten, as pieces of the original and inserted text,
    so that edits of the current text compose into edits of the original.

    The text of a draft is made from its parent's by the edits alone; its
    pieces only when asked for (its edits of the original, or a draft made
    from it): most drafts are tried once by the oracle and dropped."""

    def __init__(
        self, original: str, *, parent: _Draft | None = None, edits: Sequence[Edit] = ()
    ) -> None:
        self.original = original
        self._parent = parent
        self._edits = sorted(edits, key=lambda e: (e.offset, e.delete))
        self._pieces: list[Piece] | None = None
        if parent is None:
            self._pieces = [(0, len(original))]
            self.text = original
            return
        parts: list[str] = []
        position = 0
        for edit in self._edits:  # as :meth:`_applied_pieces` composes them
            if edit.offset > position:
                parts.append(parent.text[position : edit.offset])
            parts.append(edit.insert)
            position = edit.end
        parts.append(parent.text[position:])
        self.text = "".join(parts)

    @property
    def pieces(self) -> list[Piece]:
        """The stretches of the original and the inserted text, in order.

        The drafts up to the nearest one with its pieces are made from the
        oldest on, in a loop: a walk of hundreds of steps (a long text with
        an error on every line) is a chain of as many drafts, which asking
        each parent in turn would follow past Python's recursion limit."""
        chain: list[_Draft] = []
        draft: _Draft = self
        while draft._pieces is None:
            chain.append(draft)
            assert draft._parent is not None
            draft = draft._parent
        for later in reversed(chain):
            assert later._parent is not None
            later._pieces = later._parent._applied_pieces(later._edits)
            later._parent = None
        assert self._pieces is not None
        return self._pieces

    def _copy(self, start: int, end: int) -> list[Piece]:
        copied: list[Piece] = []
        position = 0
        for piece in self.pieces:
            length = _length(piece)
            low, high = max(start, position), min(end, position + length)
            if low < high:
                copied.append(_part(piece, low - position, high - position))
            position += length
            if position >= end:
                break
        return copied

    def applied(self, edits: Sequence[Edit]) -> _Draft:
        """A new draft: ``edits`` (offsets of the current text) applied."""
        return _Draft(self.original, parent=self, edits=edits)

    def _applied_pieces(self, edits: Sequence[Edit]) -> list[Piece]:
        """The pieces of this draft with ``edits`` (sorted) applied."""
        pieces: list[Piece] = []
        position = 0
        for edit in edits:
            pieces += self._copy(position, edit.offset)
            if edit.insert:
                pieces.append(edit.insert)
            position = edit.end
        pieces += self._copy(position, len(self.text))
        return pieces

    def edits(self) -> tuple[Edit, ...]:
        """Minimal edits of the original that give the current text."""
        edits: list[Edit] = []
        position = 0
        inserted = ""
        end = len(self.original)
        for piece in [*self.pieces, (end, end)]:
            if isinstance(piece, str):
                inserted += piece
                continue
            if piece[0] != position or inserted:
                removed = self.original[position : piece[0]]
                edits += [
                    Edit(position + e.offset, e.delete, e.insert)
                    for e in edits_between(removed, inserted)
                ]
            inserted = ""
            position = piece[1]
        return tuple(edits)

    def repair(self, note: str) -> Repair:
        edits = self.edits()
        distance = sum(
            levenshtein.distance(self.original[e.offset : e.end], e.insert) for e in edits
        )
        return Repair(self.text, edits, ALGORITHM, True, distance, note)


# ------------------------------------------------------------------ options
def _removal(text: str, start: int, end: int) -> Edit:
    """Deleting ``text[start:end]``: with its line when nothing else is on it,
    with the blanks after it when it starts its line, else with the blanks
    before it (`` // note`` after a value)."""
    line = line_start(text, start)
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    alone_before = not text[line:start].strip()
    if alone_before and not text[end:line_end].strip():
        return Edit(line, min(line_end + 1, len(text)) - line)
    if alone_before:
        after = end
        while after < line_end and text[after] in " \t":
            after += 1
        return Edit(start, after - start)
    blank = start
    while blank > line and text[blank - 1] in " \t":
        blank -= 1
    return Edit(blank, end - blank)


def _rewrites_at(
    text: str,
    error: int,
    hints: Hints,
    anchors: set[int],
    early: int,
    last: int | None = None,
    *,
    poll: Callable[[], object] = lambda: None,
    scans: Scans | None = None,
) -> list[tuple[str, tuple[Edit, ...]]]:
    """The hints' rewrites around an error: foreign tokens and fixes that
    start at an anchor or after ``early`` and reach the error (or end right
    before it, with only blanks between, or hold the start of ``last``, the
    token before the error, which they read otherwise: a quote that lost its
    partner opens a string that runs on for lines), and fixes after ``early``
    that end before it (a lost quote shows up late); nearest to the error
    first.  ``poll`` is called now and then (it raises when the budget is
    spent: on a long text the patterns alone take a while).  ``scans`` keeps
    the patterns' matches in a region of ``text`` for the next call on the
    same region (near an error and anywhere before it are one region on a
    short text)."""
    matches: dict[tuple[int, int, str], tuple[str, tuple[Edit, ...]]] = {}
    # where the blanks right before the error begin: a match that ends in
    # them ends right before the error (found once, not by slicing the text
    # between each of thousands of matches and the error)
    blanks = min(error, len(text))
    while blanks > 0 and text[blanks - 1].isspace():
        blanks -= 1

    def offer(rewrite: Rewrite, found: Any) -> None:
        start, end = found.start(), found.end()
        reaches = (
            start <= error <= end
            or blanks <= end < error
            or (last is not None and start <= last < end)
        )
        if not reaches and (rewrite.kind != "fix" or end > error):
            return
        canonical = rewrite.canonical(found)
        edit = _removal(text, start, end) if not canonical else Edit(start, end - start, canonical)
        matches.setdefault((start, end, canonical), (rewrite.name, (edit,)))

    # a rewrite is tried only where a match of it can begin: at an anchor
    # whose character starts one, in a region that holds such a character
    for anchor in sorted(anchors):
        if 0 <= anchor < len(text):
            char = text[anchor]
            for rewrite in hints.rewrites:
                starts = rewrite.first_chars
                if starts is not None and char not in starts:
                    continue
                found = rewrite.pattern.match(text, anchor)
                if found is not None and found.end() > anchor:
                    offer(rewrite, found)
    end = min(len(text), error + REACH)
    key = (text, early, end, error)
    scanned = None if scans is None else scans.get(key)
    if scanned is None:
        scanned = _scan(text, early, end, error, hints, poll)
        if scans is not None:
            scans[key] = scanned
    for rewrite, found in scanned:
        offer(rewrite, found)
    nearest = sorted(matches, key=lambda key: (error - key[1] if key[1] <= error else 0, key))
    return [matches[key] for key in nearest]


Scans = dict[tuple[str, int, int, int], list[tuple[Rewrite, Any]]]
"""The matches of the hints' patterns in a region of a text (the text, the
region's start and end, the error after which no match begins)."""


def _scan(
    text: str, early: int, end: int, error: int, hints: Hints, poll: Callable[[], object]
) -> list[tuple[Rewrite, Any]]:
    """Each match (not empty) of each pattern of ``hints`` in
    ``text[early:end]`` that begins at or before ``error``, pattern by pattern."""
    present = set(text[early : error + 1])  # where the matches kept begin
    held = set(text[early:end])  # what the matches are made of
    scanned: list[tuple[Rewrite, Any]] = []
    starting: dict[frozenset[str], list[int]] = {}  # where each set of first characters is
    for rewrite in hints.rewrites:
        starts = rewrite.first_chars
        if starts is not None and starts.isdisjoint(present):
            continue
        if any(needed.isdisjoint(held) for needed in rewrite.required_chars):
            continue  # a character every match holds is not there
        overlapped = rewrite.kind == "fix"  # a fix may start anywhere: at each field, say
        if starts is not None:
            places = starting.get(starts)
            if places is None:
                last = min(error + 1, end)
                # (as far as one more than a pattern is matched at one by one)
                first = itertools.islice(
                    _first_chars(starts).finditer(text, early, last), MATCHED_AT + 1
                )
                places = starting[starts] = [at.start() for at in first]
            if len(places) <= MATCHED_AT:
                found_at = _matches_at(text, places, end, rewrite, overlapped, poll)
                if found_at is not None:
                    scanned += found_at
                    continue
        region = (text, early, end)
        for count, found in enumerate(rewrite.pattern.finditer(*region, overlapped=overlapped)):
            if found.start() > error:
                break
            if count % POLL_EVERY == 0:
                poll()
            if found.end() > found.start():
                scanned.append((rewrite, found))
    return scanned


MATCHED_AT = 16
"""Most places a pattern is matched at one by one, each a Python call: where
its first characters are few before the error, matching there alone skips
the search of the rest of the text (after the error, up to the next match
or the end), most of the cost of a pattern that reads a line from each
quote; where they are many, the calls cost more than the search."""


def _matches_at(
    text: str,
    places: list[int],
    end: int,
    rewrite: Rewrite,
    overlapped: bool,
    poll: Callable[[], object],
) -> list[tuple[Rewrite, Any]] | None:
    """The matches :func:`_scan` keeps of ``rewrite`` (in ``text[:end]``),
    found by matching at ``places`` alone, where its first characters stand
    (up to the error): a search finds a match at the first place it can, so
    matching at each place and going on from each match's end (``overlapped``:
    from the next place) finds the same.  None after an empty match (a search
    goes on from it by rules of its own: the caller searches)."""
    match = rewrite.pattern.match
    found_at: list[tuple[Rewrite, Any]] = []
    after = 0
    for place in places:
        if place < after:
            continue  # inside the last match
        found = match(text, place, end)
        if found is None:
            continue
        if len(found_at) % POLL_EVERY == 0:
            poll()
        if found.end() == found.start():
            if not overlapped:
                return None
            continue
        found_at.append((rewrite, found))
        if not overlapped:
            after = found.end()
    return found_at


@functools.lru_cache(maxsize=256)
def _first_chars(chars: frozenset[str]) -> re.Pattern[str]:
    """A pattern of any one of ``chars``."""
    return re.compile("[" + "".join(re.escape(char) for char in sorted(chars)) + "]")


def _together(
    options: list[tuple[str, tuple[Edit, ...]]],
) -> list[tuple[str, tuple[Edit, ...]]]:
    """Each rewrite that matches in several places near an error, applied in
    all of them at once (those that do not overlap, first first): a text may
    need one fix twice before the parse gets past one error (two HTML void
    elements left open before one end tag), and each alone takes it no
    further."""
    places: dict[str, list[Edit]] = {}
    for name, option in options:
        if len(option) == 1:
            places.setdefault(name, []).append(option[0])
    together: list[tuple[str, tuple[Edit, ...]]] = []
    for name, found in places.items():
        chosen: list[Edit] = []
        for edit in sorted(found, key=lambda e: (e.offset, e.delete)):
            if not chosen or edit.offset >= chosen[-1].end + (chosen[-1].delete == 0):
                chosen.append(edit)
        if len(chosen) > 1:
            together.append((name, tuple(chosen)))
    return together


def _near(text: str, error: int, last_token: int | None) -> int:
    """Where rewrites near an error may start: the :data:`REACH_LINES` lines
    before its line (at most :data:`REACH` characters back), and the line of
    the token before it (a string that a lost quote made run on; at most
    :data:`REACH` characters before the token on a long line), not more
    than :data:`RUN_ON_REACH` characters back (a 100 KB string cut off is
    not searched whole by every hint)."""
    early = line_start(text, error)
    for _ in range(REACH_LINES):
        early = line_start(text, max(0, early - 1))
    early = max(early, error - REACH)
    if last_token is not None:
        early = min(early, max(line_start(text, last_token), last_token - REACH))
    return max(early, error - RUN_ON_REACH)


def _wrappers_at(text: str, error: int, hints: Hints) -> list[tuple[str, tuple[Edit, ...]]]:
    """Removing the text around the data, when the error is in it or after it:
    prose before YAML data reads as a plain scalar, and the error shows only
    on the data's first lines."""
    regions = hints.wrapper_regions(text)
    if not any(start <= error for start, _, _ in regions):
        return []
    names = ", ".join(dict.fromkeys(name for _, _, name in regions))
    removals = tuple(Edit(start, end - start) for start, end, _ in regions)
    ending = 2 if text.endswith("\r\n") else int(text.endswith(("\n", "\r")))
    last = removals[-1]
    data_ends_line = text[last.offset - 1 : last.offset] in ("\n", "\r")
    at_end = last.offset + last.delete == len(text)
    if at_end and last.delete > ending > 0 and last.offset > 0 and not data_ends_line:
        # the text after the data goes, the file's final line break stays
        kept = (*removals[:-1], Edit(last.offset, last.delete - ending))
        return [(names, kept), (names, removals)]
    return [(names, removals)]


Complete = Callable[[str], str | None]
"""The shortest ending that completes a valid prefix (None: none)."""


def _documents(
    text: str, error: int, locate: Callable[[str], Feedback], complete: Complete | None
) -> list[tuple[int, str]] | None:
    """Where documents written one after another end (the end of each but the
    last) and what each lacks there, when the text is that: each piece
    complete on its own, or, given ``complete``, cut off at the end of its
    line (a record of JSON Lines that lost its closers) and completed."""
    ends: list[tuple[int, str]] = []
    start = 0
    while True:
        piece = text[start:error]
        kept = piece.rstrip()
        if not kept:
            return None
        feedback = locate(piece)
        ending = ""
        if not feedback.valid:
            if (
                complete is None
                or feedback.verdict is not Verdict.INCOMPLETE
                or "\n" not in piece[len(kept) :]
            ):
                return None
            ending = complete(kept) or ""
            if not ending or not locate(kept + ending).valid:
                return None
        ends.append((start + len(kept), ending))
        start = error
        feedback = _first_error(text, start, locate)
        if feedback.valid:
            return ends
        if feedback.verdict is not Verdict.INCORRECT or not feedback.error_offset:
            return None
        error = start + feedback.error_offset


FIRST_READ = 4096
"""Characters of a text's rest first read for its next document's end."""


def _first_error(text: str, start: int, locate: Callable[[str], Feedback]) -> Feedback:
    """``locate(text[start:])``, reading the rest in growing pieces: where a
    piece is already incorrect, the whole rest is incorrect there too (a
    prefix of a valid text is complete or incomplete), so the next of
    thousands of documents on lines of their own costs that document, not
    the rest of the text."""
    size = FIRST_READ
    while True:
        end = min(len(text), start + size)
        feedback = locate(text[start:end])
        if end == len(text) or feedback.verdict is Verdict.INCORRECT:
            return feedback
        size *= 4


def _concatenation_at(
    text: str,
    error: int,
    hints: Hints,
    locate: Callable[[str], Feedback],
    complete: Complete | None,
) -> list[tuple[str, tuple[Edit, ...]]]:
    joined = hints.concatenated
    if joined is None or error == 0:
        return []
    ends = _documents(text, error, locate, complete)
    if ends is None:
        return []
    first = len(text) - len(text.lstrip())
    last = len(text.rstrip())
    edits = [
        Edit(first, 0, joined.open),
        *(Edit(end, 0, ending + joined.separator) for end, ending in ends),
    ]
    return [("concatenated documents", (*edits, Edit(last, 0, joined.close)))]


# ---------------------------------------------------------------- the search
def _remaining(feedback: Feedback, text: str) -> int:
    """How much of a text is not parsed yet (-1: valid; 0: an incomplete end)."""
    if feedback.valid:
        return -1
    if feedback.verdict is Verdict.INCOMPLETE or feedback.error_offset is None:
        return 0 if feedback.verdict is Verdict.INCOMPLETE else len(text)
    return len(text) - feedback.error_offset


def _stuck(best: tuple[int, Any, Any, str] | None, remaining: int) -> bool:
    """Does the best try (its progress first) leave as much of the text
    unparsed as ``remaining``, what was left before it?"""
    return best is None or best[0] >= remaining


def _plain_steps(text: str, error: int) -> list[tuple[str, tuple[Edit, ...]]]:
    """Steps past an error that no hint explains: delete the character there,
    or insert a separator or closer."""
    steps: list[tuple[str, tuple[Edit, ...]]] = [
        (f"insert `{char}`", (Edit(error, 0, char),)) for char in PLAIN_INSERTS
    ]
    if error < len(text):
        steps.insert(0, (f"delete `{text[error]}`", (Edit(error, 1, ""),)))
    return steps


_WORDS = re.compile(
    r"""(?<!\\)(?=[^\W\d_])(?:[^\s,:;=\[\]{}()"'`#\\]|:(?=\S))+"""
    r"""(?:[ \t]+(?:[^\s,:;=\[\]{}()"'`#\\]|:(?=\S))+)*"""
)
"""Words at an error that a string may hold, from a letter (not markup
before a number, ``**3.45``) up to a blank before punctuation or the end of
the line (a ``:`` glued to text, as in a URL, is part of them; a backslash
is not, it escapes what follows)."""

_ENDS_VALUE = re.compile(r"[ \t]*(?:[,;:\]})]|\r?\n|\Z)")
"""What may follow words that are a value: a delimiter, a closer or the
line's end (not a quote, ``declaration": true``: a string that lost its
opening quote; not ``(``, ``ISODate(...)``: a call)."""

Quote = Callable[[str], str | None]
"""A text as a string of the grammar (None: no string holds it)."""


_WORD_CHAR = re.compile(r"""[^\s,:;=\[\]{}()"'`#\\]""")
"""A character of a word that :data:`_WORDS` reads."""


def _words_quoted(text: str, error: int, quote: Quote | None) -> list[tuple[str, tuple[Edit, ...]]]:
    """The words at an error written as a string: a value that lost its
    quotes, or never had them (``{"name": demo}``, ``[red, green]``).  They
    start where the word holding the error does: a parser may read on into
    a word that begins like one of its keywords (TOML's ``ffi`` stops at
    its second ``f``, ``f`` being the start of ``false``).  An error after
    a word (``tru}``) is not in it: that word may be a keyword cut short."""
    start = error
    while _WORD_CHAR.match(text, error) and start > 0 and _WORD_CHAR.match(text, start - 1):
        start -= 1
    match = _WORDS.match(text, start) if quote is not None else None
    if match is None or quote is None or not _ENDS_VALUE.match(text, match.end()):
        return []
    written = quote(match.group())
    if written is None:
        return []
    return [(f"quote `{match.group()}`", (Edit(start, match.end() - start, written),))]


def hint_repairs(
    text: str,
    oracle: Oracle,
    *,
    hints: Hints,
    locator: Locator | None,
    budget: Budget,
    finish: Finisher | None = None,
    anywhere: bool = True,
    quote: Quote | None = None,
) -> HintRepairs:
    """Rewrite ``text`` by its grammar's hints where ``locator`` (the grammar;
    ``None``: the oracle itself) reports errors, finish with ``finish``, and
    keep what the oracle accepts.  Without ``anywhere``, only near the errors
    (not the fixes anywhere before an error that nothing near it helps).
    ``quote`` writes words as a string of the grammar: where no hint helps,
    the words at the error are tried as one before a plain step.
    Where the grammar accepts a text the oracle rejects (a condition beside
    the grammar, such as a CSV row's number of fields), the oracle's report
    is the error."""
    checked, meter = metered(oracle, budget)

    def locate(candidate: str) -> Feedback:
        meter.poll()
        if locator is None:
            return checked.check(candidate)
        feedback = locator.check(candidate)
        return checked.check(candidate) if feedback.valid else feedback

    draft = _Draft(text)
    applied: list[str] = []
    hinted = 0  # steps in ``applied`` that a hint proposed (the rest are plain)
    found: dict[str, Repair] = {}

    def accept(candidate: _Draft, names: list[str]) -> None:
        if candidate.text not in found and checked.check(candidate.text).valid:
            found[candidate.text] = candidate.repair("by the hints: " + ", ".join(names))

    Best = tuple[int, _Draft, Feedback, str]
    ties: list[Best] = []  # the other options of the latest attempt as far as its best

    def attempt(
        options: list[tuple[str, tuple[Edit, ...]]], *, hint: bool = True
    ) -> tuple[bool, Best | None]:
        """Try each option: every one that makes the text valid is a candidate
        (the ranking chooses; not when no hint took part); otherwise the one
        that parses furthest (the others as far, in ``ties``)."""
        best: Best | None = None
        solved = False
        ties.clear()
        for name, edits in options:
            trial = draft.applied(edits)
            trial_feedback = locate(trial.text)
            if trial_feedback.valid:
                if hint or hinted:
                    accept(trial, [*applied, name])
                solved = True
            progress = _remaining(trial_feedback, trial.text)
            if best is None or progress < best[0]:
                best = (progress, trial, trial_feedback, name)
                ties.clear()
            elif progress == best[0] and trial.text != best[1].text:
                ties.append((progress, trial, trial_feedback, name))
        return solved, best

    spent = RunStats(0, 0.0)
    # Each walk: its draft, that draft's feedback (None: not located yet),
    # its steps and how many a hint proposed, and where its search for fixes
    # anywhere before an error starts (the text before the last error's
    # neighbourhood was searched for the errors before: every step since
    # edits only after it, so a plain step past each of a run of errors
    # costs a few lines, not the whole text again).
    walks: list[tuple[_Draft, Feedback | None, list[str], int, int]] = [
        (draft, None, applied, hinted, 0)
    ]
    branches = BRANCHES
    first_applied: list[str] | None = None
    try:
        while walks:
            draft, start, applied, hinted, searched = walks.pop(0)
            found_before = len(found)
            feedback = locate(draft.text) if start is None else start
            deleted = 0  # characters deleted by plain steps since the last hint's step
            while not feedback.valid and (hints.rewrites or hints.wrappers or hints.concatenated):
                current = draft.text
                scans: Scans = {}  # this text's matches, near the error and before it
                error = len(current) if feedback.error_offset is None else feedback.error_offset
                if feedback.verdict is Verdict.INCORRECT and feedback.error_offset is None:
                    break  # no position to go by
                anchors = {error, line_start(current, error)}
                last = None
                if locator is not None and error > 0:
                    last = locator.last_token_start(current[:error])
                    if last is not None:
                        anchors.add(last)
                early = _near(current, error, last)
                near = [
                    *_wrappers_at(current, error, hints),
                    *_rewrites_at(
                        current, error, hints, anchors, early, last, poll=meter.poll, scans=scans
                    ),
                    *_concatenation_at(
                        current,
                        error,
                        hints,
                        locate,
                        None if locator is None else locator.completion,
                    ),
                ]
                remaining = _remaining(feedback, current)
                # one fix in several places competes with each place alone: two
                # HTML `<li>` left open before one `</ul>` need both, while
                # renaming the `</ul>` gets further but is not what was meant
                solved, best = attempt([*near, *_together(near)])
                if not solved and _stuck(best, remaining) and anywhere:
                    # nothing near the error helps: fixes anywhere before it
                    anywhere_before = _rewrites_at(
                        current, error, hints, set(), searched, poll=meter.poll, scans=scans
                    )
                    solved, best = attempt(anywhere_before)
                    searched = max(searched, min(early, line_start(current, error)))
                if not solved and _stuck(best, remaining) and len(applied) == hinted:
                    # words where a value stands, without quotes: a string (not
                    # after a plain step, whose guess may have made the words:
                    # the `n` of `\n` once its backslash is deleted)
                    solved, best = attempt(_words_quoted(current, error, quote))
                # a plain step at the end of a valid prefix can only complete it,
                # which counts after a hint's step alone (completion does better)
                plain = not solved and _stuck(best, remaining) and (remaining > 0 or hinted > 0)
                if plain and deleted >= PLAIN_DELETIONS:
                    break  # the walk deletes the text: no hint has helped for a while
                if plain:
                    solved, best = attempt(_plain_steps(current, error), hint=False)
                if solved or best is None or _stuck(best, remaining):
                    break
                if not plain:
                    for _, other, other_feedback, other_name in ties[:branches]:
                        at = min(searched, common_prefix(current, other.text))
                        steps = [*applied, other_name]
                        walks.append((other, other_feedback, steps, hinted + 1, at))
                    branches -= min(branches, len(ties))
                _, draft, feedback, name = best
                searched = min(searched, common_prefix(current, draft.text))  # a step before it
                applied.append(name)
                hinted += not plain
                deleted = deleted + max(0, len(current) - len(draft.text)) if plain else 0
            if hinted and len(found) == found_before and finish is not None:
                finished, finishing = finish(draft.text, budget.after(RunStats.of(meter)))
                spent = spent + finishing
                for repair in finished:
                    accept(draft.applied(repair.edits), applied)
            if first_applied is None:
                first_applied = applied
    except BudgetExhausted:
        pass
    spent = replace(spent, elapsed_s=0.0)  # already in the meter's time
    return HintRepairs(
        tuple(found.values()),
        RunStats.of(meter) + spent,
        tuple(applied if first_applied is None else first_applied),
    )
