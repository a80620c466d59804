"""FSynth: input repair by synthesis from lightweight error feedback.

After Kirschner, Soremekun, Gopinath and Zeller, "Input Repair via Synthesis
and Lightweight Error Feedback" (Section IV, Listings 1-9).  The oracle only
has to say whether a text is *complete* (valid), *incomplete* (a prefix of a
valid text) or *incorrect* (no suffix makes it valid).

A *repair thread* is a candidate text with its *parse boundary*: ``text[:b]``
is a valid prefix and ``text[b]`` makes it incorrect (``b == len(text)`` when
the whole text is incomplete).  The search is breadth first by number of
single-character edits.  At every level each thread is repaired at its
boundary by

* deleting the character at the boundary (Listing 1),
* substituting it by a candidate character (one edit, not delete + insert),
* inserting a candidate character at the boundary (Listing 2; anywhere in the
  valid prefix with ``last_insert_only=False``),

and each new thread is *extended* to its new boundary (Listings 7 and 8).  The
boundary comes straight from ``Feedback.error_offset`` when the oracle knows
it (one oracle run per candidate); otherwise it is searched over prefixes:
bisection after a deletion (the next error may be far away, Listing 7) and a
galloping search after an insertion or substitution (the error is usually
near, Listing 8; galloping costs about as much as the paper's linear search
there but stays logarithmic when it is not).  Insertions and substitutions
are kept only when the new character itself is accepted (``boundary > k``).

Between levels, redundant threads are sampled by mask key (Listing 6) and the
best ones kept (``filter_best``); see :class:`FSynthOptions`.  The search ends
at the first level where a thread's whole text is complete; the repairs of
that level are returned ranked as :mod:`inputmend.ranking` ranks all repairs.

The algorithm only ever calls ``oracle.check(candidate)`` on whole candidate
texts or their prefixes, through :func:`metered` (cache, test count, budget,
cancellation); an incremental oracle therefore makes it fast without changes
here.  Candidates are built by slicing, never by per-character Python loops.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from inputmend.algorithms.ranking import rank
from inputmend.core import levenshtein
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.model import Edit, Repair, RepairResult, edits_between
from inputmend.core.oracle import Feedback, Oracle, Verdict
from inputmend.core.text import UNDECODABLE
from inputmend.oracles.wrappers import CachedOracle
from inputmend.oracles.wrappers import metered as _metered

ALGORITHM = "fsynth"

DELIMITERS = ",:;\"')]}([{="
"""The delimiters of common formats."""
_STRUCTURAL = DELIMITERS + " \n\t"
DEFAULT_ALPHABET = _STRUCTURAL + "".join(
    chr(code) for code in range(0x20, 0x7F) if chr(code) not in _STRUCTURAL
)
"""Printable ASCII plus newline and tab, likely structural characters first."""

PUNCTUATION = "".join(char for char in DEFAULT_ALPHABET if not (char.isalnum() or char.isspace()))
"""The delimiters of :data:`DEFAULT_ALPHABET`: candidates in the reach (a
lost delimiter is what ends a token late)."""

Alphabet = str | Callable[[str], Iterable[str]]
"""Candidate characters: a fixed string, or a function of the valid prefix
before the insertion point (e.g. characters that can start an acceptable token)."""


@dataclass(frozen=True)
class FSynthOptions:
    """How FSynth searches.

    ``alphabet``
        Candidate characters for insertion and substitution (see :data:`Alphabet`).
    ``last_insert_only``
        Insert only at the parse boundary (the paper's ``LAST_INSERT_ONLY``);
        ``False`` tries every position of the valid prefix (``|alphabet| x |prefix|``
        candidates per thread, for corruptions that parse on for a while, such
        as a deleted opening quote).
    ``substitute``
        Also try replacing the character at the boundary, as one edit.
    ``window``
        Also delete, substitute and insert at the ``window`` characters before
        the boundary (not in the paper): a fault is often detected a character
        or two after it (``4{...}`` is an error at ``{``).
    ``reach``
        The earliest position worth repairing for a text and its boundary
        (``None``: only the window): with a grammar, the start of the last
        token before the boundary, since a quote replaced inside a string is
        only noticed after the string ends.  At most ``max_reach`` characters
        before the boundary.  Before the window only ``reach_alphabet`` is
        substituted or inserted, and only at the edges of runs of letters,
        digits or spaces; and only for the ``reach_threads`` best threads of
        a level (the benchmark found no better repair with more, at a third
        more oracle runs).
    ``max_per_mask``
        Threads kept per mask key (Listing 6).  The key is the sequence of
        operations (kind and position), the boundary, and the class of the
        last character added (digit, letter, whitespace, or the character
        itself): inserting ``3``, ``4`` or ``5`` after ``[1, 2`` is redundant,
        inserting ``,`` is not.  Within a key the first candidate in alphabet
        order wins (deterministic, unlike the paper's random sample).
    ``beam``
        ``filter_best``: keep threads whose progress is among the ``beam`` best
        distinct values (``None``: all).  Progress is the length of the input
        suffix not yet parsed, which compares threads of different lengths
        fairly (the paper compares raw boundaries).
    ``max_threads``
        Hard cap on threads per level, filled round-robin over the progress
        values so that one kind of thread (e.g. an opened string swallowing
        the rest of the input) cannot crowd out the others (``None``: no cap).
    ``use_offsets``
        Trust ``Feedback.error_offset`` as the parse boundary (``None``: use it
        whenever the oracle gives one; ``False``: always search over prefixes,
        as in the paper).
    ``verify_offsets``
        Spend one more run per boundary to check that the reported offset is
        not short of the true boundary (for oracles that report token starts).
    ``max_repairs``
        How many complete repairs to return.
    ``extra_levels``
        Keep searching this many edit levels after the first complete repair,
        for alternatives with more edits.
    ``data_levels``
        While every complete repair found deletes or overwrites a letter or
        digit of the input, or joins two words (``[1 2 3]`` made ``[1 , 3]``
        or ``[12 3]``), keep searching up to this many more edit levels for
        one that keeps them (``[1,2,3]`` needs two edits): data lost is worse
        than edits added.  Within a level such threads come last among
        threads of equal progress.
    ``max_edits``
        Give up after this many edit levels (``None``: input length + 64).
    ``fix_undecodable_in_place``
        When the boundary is a byte that is not valid UTF-8, only delete or
        replace that byte: an edit before it leaves it in place, so the next
        boundary is the same byte (about three quarters of the candidates on
        randomly mutated files).  Turn off for a program that accepts such
        bytes in some contexts but not others.
    ``ranked``
        Rank the complete repairs (:func:`~inputmend.algorithms.ranking.rank`,
        with a generic lexer) to return the best ``max_repairs``.  ``False``:
        when there are no more than ``max_repairs``, return them all in the
        order found, unjudged; for a caller that ranks them itself with its
        own judge (the repair pipeline: judging each repair twice, once with
        a generic lexer whose order it then discards, was nearly half of
        FSynth's time on a small record).
    """

    alphabet: Alphabet = DEFAULT_ALPHABET
    last_insert_only: bool = True
    substitute: bool = True
    window: int = 1
    reach: Callable[[str, int], int | None] | None = None
    max_reach: int = 16
    reach_alphabet: Alphabet = PUNCTUATION
    reach_threads: int = 2
    max_per_mask: int = 1
    beam: int | None = 6
    max_threads: int | None = 8
    use_offsets: bool | None = None
    verify_offsets: bool = False
    max_repairs: int = 10
    extra_levels: int = 0
    data_levels: int = 3
    max_edits: int | None = None
    fix_undecodable_in_place: bool = True
    ranked: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.alphabet, str) and not self.alphabet:
            raise ValueError("the alphabet must not be empty")
        if self.window < 0:
            raise ValueError("window must not be negative")
        if self.max_per_mask < 1:
            raise ValueError("max_per_mask must be at least 1")
        if self.beam is not None and self.beam < 1:
            raise ValueError("beam must be at least 1 (or None for all)")
        if self.max_threads is not None and self.max_threads < 1:
            raise ValueError("max_threads must be at least 1 (or None for no cap)")
        if self.max_reach < 0 or self.reach_threads < 0:
            raise ValueError("max_reach and reach_threads must not be negative")
        if self.max_repairs < 1 or self.extra_levels < 0 or self.data_levels < 0:
            raise ValueError(
                "max_repairs must be positive, extra_levels and data_levels not negative"
            )

    @classmethod
    def paper(cls) -> FSynthOptions:
        """As close to the paper as is practical: insertions at the boundary and
        deletions only, boundaries always searched.  (The paper bounds threads
        by ``filter_best`` only; we keep the cap, as the number of threads in
        the best groups grows without bound on long inputs.)"""
        return cls(substitute=False, window=0, use_offsets=False, max_threads=16)

    def describe(self) -> str:
        if isinstance(self.alphabet, str):
            alphabet = f"{len(self.alphabet)} characters"
        else:
            alphabet = getattr(self.alphabet, "__qualname__", "custom")
        offsets = {None: "when given", True: "trusted", False: "searched"}[self.use_offsets]
        parts = [
            f"alphabet {alphabet}",
            "insert at boundary" if self.last_insert_only else "insert anywhere in prefix",
            "substitute" if self.substitute else "no substitution",
            *([f"repair window {self.window}"] if self.window else []),
            f"{self.max_per_mask} per mask",
            f"beam {self.beam if self.beam is not None else 'all'}",
            f"max {self.max_threads if self.max_threads is not None else 'all'} threads",
            f"boundary offsets {offsets}" + (", verified" if self.verify_offsets else ""),
        ]
        if self.reach is not None:
            parts.append(
                f"reach back to the last token (at most {self.max_reach} characters,"
                f" {self.reach_threads} best threads)"
            )
        if self.extra_levels:
            parts.append(f"{self.extra_levels} extra levels")
        if self.max_edits is not None:
            parts.append(f"at most {self.max_edits} edits")
        if not self.fix_undecodable_in_place:
            parts.append("edits before undecodable bytes")
        return "fsynth: " + ", ".join(parts)


DEFAULT_OPTIONS = FSynthOptions()


@dataclass(frozen=True)
class FSynthResult:
    """What FSynth found.

    ``repairs`` are complete (valid) repairs, fewest edits first.  ``partial``
    is set when no repair was found (budget used up, or no thread left): the
    best thread's text, i.e. the repaired valid prefix ``partial.text[:partial_boundary]``
    followed by the unrepaired rest, with ``valid=False``.  ``complete`` is
    False when the search was cut short (budget, cancellation, ``max_edits``).
    """

    input_valid: bool
    repairs: tuple[Repair, ...]
    partial: Repair | None
    stats: RunStats
    complete: bool = True
    partial_boundary: int | None = None
    levels: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def best(self) -> Repair | None:
        """The best complete repair, else the partial one."""
        return self.repairs[0] if self.repairs else self.partial

    def to_repair_result(self) -> RepairResult:
        repairs = self.repairs if self.repairs or self.partial is None else (self.partial,)
        return RepairResult(self.input_valid, repairs, self.stats, self.notes)


# -- the search ---------------------------------------------------------------

BoundarySearch = Literal["bisect", "gallop"]
"""How to look for a candidate's boundary: bisection after a deletion (the
next error may be far away), galloping after an insertion or substitution
(the error is usually near)."""


class EditKind(enum.Enum):
    """What a repair thread did to its parent at one position."""

    DELETE = "delete"
    SUBSTITUTE = "substitute"
    INSERT = "insert"


class _Boundaries:
    """Parse boundaries of candidate texts, from error offsets or by search."""

    def __init__(self, checked: CachedOracle, options: FSynthOptions) -> None:
        self.checked = checked
        self.trust = options.use_offsets is not False
        self.verify = options.verify_offsets
        # Whether the oracle reports offsets: then one run on the whole
        # candidate decides; otherwise a cheap prefix run rejects it first.
        self.offsets_seen = options.use_offsets is True

    def check(self, text: str) -> Feedback:
        feedback = self.checked.check(text)
        if feedback.verdict is Verdict.INCORRECT and feedback.error_offset is not None:
            self.offsets_seen = self.trust
        return feedback

    def viable(self, prefix: str) -> bool:
        return self.check(prefix).verdict is not Verdict.INCORRECT

    def find(self, text: str, low: int, strategy: BoundarySearch) -> tuple[int, Verdict]:
        """The boundary of ``text`` given that ``text[:low]`` is a valid prefix.

        With ``strategy="gallop"`` the caller needs ``boundary > low`` (the
        inserted character at ``low`` accepted); a result of ``low`` rejects.
        """
        size = len(text)
        if strategy == "gallop" and not self.offsets_seen and low < size:
            if not self.viable(text[: low + 1]):
                return low, Verdict.INCORRECT
            low += 1
        feedback = self.check(text)
        if feedback.verdict is not Verdict.INCORRECT:
            return size, feedback.verdict
        offset = feedback.error_offset
        if self.trust and offset is not None and low <= offset < size:
            if not self.verify or not self.viable(text[: offset + 1]):
                return offset, Verdict.INCORRECT
            low = offset + 1
        high = size  # text[:low] is viable, text[:high] is not
        if strategy == "gallop":
            step = 1
            while low + step < high:
                probe = low + step
                if not self.viable(text[:probe]):
                    high = probe
                    break
                low = probe
                step *= 2
        while high - low > 1:
            middle = (low + high) // 2
            if self.viable(text[:middle]):
                low = middle
            else:
                high = middle
        return low, Verdict.INCORRECT


def _char_class(char: str) -> str:
    if char.isdigit():
        return "0"
    if char.isalpha() or char == "_":
        return "a"
    if char.isspace():
        return " "
    return char


def _at_run_edge(text: str, position: int) -> bool:
    """Is ``position`` at the edge of a run of letters, digits or spaces (where a
    lost delimiter would have been), not inside one?"""
    here = _char_class(text[position]) if position < len(text) else ""
    before = _char_class(text[position - 1]) if position > 0 else ""
    after = _char_class(text[position + 1]) if position + 1 < len(text) else ""
    return not (here == before == after and here in ("0", "a", " "))


def _normalize(edits: Iterable[Edit]) -> tuple[Edit, ...]:
    merged: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.offset, e.delete)):
        if edit.delete == 0 and not edit.insert:
            continue
        if merged and merged[-1].end == edit.offset:
            last = merged.pop()
            edit = Edit(last.offset, last.delete + edit.delete, last.insert + edit.insert)
        merged.append(edit)
    return tuple(merged)


def _record(edits: tuple[Edit, ...], position: int, delete: int, insert: str) -> tuple[Edit, ...]:
    """Add "replace ``delete`` (0 or 1) characters at ``position`` of the current
    text by ``insert``" to an edit script in offsets of the original input."""
    shift = 0
    for index, edit in enumerate(edits):
        start = edit.offset + shift
        if position < start:
            break
        end = start + len(edit.insert)
        if position < end or (delete == 0 and position == end):  # inside synthesized text
            local = position - start
            inserted = edit.insert[:local] + insert + edit.insert[local + delete :]
            changed = list(edits)
            changed[index] = Edit(edit.offset, edit.delete, inserted)
            return _normalize(changed)
        shift += len(edit.insert) - edit.delete
    return _normalize([*edits, Edit(position - shift, delete, insert)])


@dataclass(slots=True)
class _Thread:
    """A repair thread: a candidate text, its boundary, and how it was made."""

    text: str
    boundary: int
    verdict: Verdict
    edits: tuple[Edit, ...]
    mask: tuple[tuple[EditKind, int], ...]
    cls: str
    order: int
    off_boundary: int = 0
    harm: int = 0

    @property
    def remaining(self) -> int:
        """Characters after the boundary: the part of the input not parsed yet."""
        return len(self.text) - self.boundary


@dataclass(slots=True)
class _Candidate:
    """A child thread before selection; its text is rebuilt from the parent on
    demand so that a level never holds hundreds of copies of a long input."""

    parent: _Thread
    position: int
    delete: int
    insert: str
    kind: EditKind
    boundary: int
    verdict: Verdict
    cls: str
    order: int

    @property
    def size(self) -> int:
        return len(self.parent.text) - self.delete + len(self.insert)

    @property
    def remaining(self) -> int:
        return self.size - self.boundary

    @property
    def mask(self) -> tuple[tuple[EditKind, int], ...]:
        return (*self.parent.mask, (self.kind, self.position))

    @property
    def synthesized(self) -> int:
        """Characters inserted so far: among equal progress, fewer is better."""
        return sum(len(edit.insert) for edit in self.parent.edits) + len(self.insert)

    @property
    def off_boundary(self) -> int:
        """Edits made before a boundary (in the window), not at it."""
        return self.parent.off_boundary + (self.position < self.parent.boundary)

    @property
    def harm(self) -> int:
        """Edits so far that delete or overwrite a letter or digit, or join two
        words by deleting what separated them (``1 2`` made ``12``)."""
        text, start, end = self.parent.text, self.position, self.position + self.delete
        removed = text[start:end]
        joins = (
            bool(removed)
            and not removed.isalnum()
            and (not self.insert or self.insert.isalnum())
            and start > 0
            and end < len(text)
            and text[start - 1].isalnum()
            and text[end].isalnum()
        )
        return self.parent.harm + (joins or any(char.isalnum() for char in removed))

    def materialize(self) -> _Thread:
        text = self.parent.text
        new_text = text[: self.position] + self.insert + text[self.position + self.delete :]
        edits = _record(self.parent.edits, self.position, self.delete, self.insert)
        return _Thread(
            new_text,
            self.boundary,
            self.verdict,
            edits,
            self.mask,
            self.cls,
            self.order,
            self.off_boundary,
            self.harm,
        )


class _Search:
    def __init__(self, text: str, boundaries: _Boundaries, meter: Meter, options: FSynthOptions):
        self.original = text
        self.boundaries = boundaries
        self.meter = meter
        self.options = options
        self.counter = 0
        self.seen: set[tuple[int, int]] = set()

    def _alphabet(self, text: str, position: int, *, reach: bool = False) -> Iterable[str]:
        alphabet = self.options.reach_alphabet if reach else self.options.alphabet
        if isinstance(alphabet, str):
            return alphabet
        return alphabet(text[:position])

    def _try(
        self,
        parent: _Thread,
        position: int,
        delete: int,
        insert: str,
        kind: EditKind,
        strategy: BoundarySearch,
    ) -> _Candidate | None:
        """Build one candidate, find its boundary; None if seen or rejected."""
        self.meter.poll()
        text = parent.text
        candidate = text[:position] + insert + text[position + delete :]
        key = (len(candidate), hash(candidate))
        if key in self.seen:
            return None
        self.seen.add(key)
        boundary, verdict = self.boundaries.find(candidate, position, strategy)
        if insert and boundary <= position:
            return None  # the synthesized character is not accepted
        if insert:
            cls = _char_class(insert)
        else:
            cls = _char_class(text[position - 1]) if position > 0 else ""
        self.counter += 1
        return _Candidate(
            parent, position, delete, insert, kind, boundary, verdict, cls, self.counter
        )

    def expand(self, parent: _Thread, *, reach: bool = True) -> Iterator[_Candidate]:
        """Listing 9 (repair and extend): delete, substitute, insert -- at the
        boundary first, then in the window before it, nearest first; then, in
        the reach before the window, substitute or insert from the reach
        alphabet only (a delimiter that ends a token early)."""
        text, boundary = parent.text, parent.boundary
        options = self.options
        first = max(0, boundary - options.window)
        first_insert = 0 if not options.last_insert_only else first
        reach_start = first
        if options.fix_undecodable_in_place and UNDECODABLE.match(text, boundary):
            first, first_insert, reach_start = boundary, boundary + 1, boundary
        elif reach and options.reach is not None and options.last_insert_only:
            start = options.reach(text, boundary)
            if start is not None:
                reach_start = min(first, max(start, boundary - options.max_reach))
        for position in range(boundary, min(first, first_insert, reach_start) - 1, -1):
            in_window = position >= first
            in_reach = reach_start <= position < first
            if in_reach and not _at_run_edge(text, position):
                continue
            alphabet = list(self._alphabet(text, position, reach=in_reach))
            if position < len(text):
                if in_window:
                    deletion = self._try(parent, position, 1, "", EditKind.DELETE, "bisect")
                    yield from _present(deletion)
                if options.substitute and (in_window or in_reach):
                    for char in alphabet:
                        if char != text[position]:
                            substitution = self._try(
                                parent, position, 1, char, EditKind.SUBSTITUTE, "gallop"
                            )
                            yield from _present(substitution)
            if position >= first_insert or in_reach:
                for char in alphabet:
                    insertion = self._try(parent, position, 0, char, EditKind.INSERT, "gallop")
                    yield from _present(insertion)

    def select(self, children: list[_Candidate]) -> list[_Thread]:
        """Listing 6: sample by mask, then keep the best (``filter_best``)."""
        options = self.options
        per_key: dict[tuple[object, ...], int] = {}
        sampled: list[_Candidate] = []
        for child in children:
            if child.kind is EditKind.INSERT and 0 < child.parent.remaining <= child.remaining:
                # The inserted character is accepted but the input is not: the
                # same character still fails right after it.  Chains of such
                # insertions never end; only at the end of the input (nothing
                # left to consume) are insertions without consumption needed.
                continue
            key = (child.mask, child.boundary, child.cls)
            taken = per_key.get(key, 0)
            if taken < options.max_per_mask:
                per_key[key] = taken + 1
                sampled.append(child)
        groups: dict[int, list[_Candidate]] = {}
        for child in sampled:
            groups.setdefault(child.remaining, []).append(child)
        values = sorted(groups)
        if options.beam is not None:
            values = values[: options.beam]
        ordered = [
            sorted(groups[v], key=lambda c: (c.harm, c.synthesized, c.off_boundary, c.order))
            for v in values
        ]
        chosen: list[_Candidate] = []
        cap = options.max_threads
        depth = 0
        while ordered and (cap is None or len(chosen) < cap):
            progressed = False
            for group in ordered:
                if depth < len(group):
                    chosen.append(group[depth])
                    progressed = True
                    if cap is not None and len(chosen) >= cap:
                        break
            if not progressed:
                break
            depth += 1
        chosen.sort(key=lambda c: (c.remaining, c.off_boundary, c.order))
        return [child.materialize() for child in chosen]


def _present(candidate: _Candidate | None) -> Iterator[_Candidate]:
    if candidate is not None:
        yield candidate


def _script(original: str, edits: tuple[Edit, ...]) -> tuple[tuple[Edit, ...], int]:
    """Minimal edits (each coarse edit refined by Levenshtein) and their distance."""
    refined: list[Edit] = []
    total = 0
    for edit in edits:
        replaced = original[edit.offset : edit.end]
        total += levenshtein.distance(replaced, edit.insert)
        for part in edits_between(replaced, edit.insert):
            refined.append(Edit(edit.offset + part.offset, part.delete, part.insert))
    return _normalize(refined), total


def _repair(original: str, thread: _Thread, *, valid: bool, note: str = "") -> Repair:
    edits, distance = _script(original, thread.edits)
    return Repair(thread.text, edits, ALGORITHM, valid, distance, note)


def fsynth(
    text: str,
    oracle: Oracle,
    *,
    budget: Budget = UNLIMITED,
    options: FSynthOptions = DEFAULT_OPTIONS,
) -> FSynthResult:
    """Repair ``text`` for ``oracle`` by deleting, substituting and inserting
    characters at parse boundaries; see the module documentation."""
    checked, meter = _metered(oracle, budget)
    boundaries = _Boundaries(checked, options)
    search = _Search(text, boundaries, meter, options)
    max_levels = options.max_edits if options.max_edits is not None else len(text) + 64
    completed: list[_Thread] = []
    frontier: list[_Thread] = []
    children: list[_Candidate] = []
    level = 0
    finished = True
    notes: list[str] = []
    try:
        boundary, verdict = boundaries.find(text, 0, "bisect")
        if verdict is Verdict.COMPLETE:
            return FSynthResult(True, (), None, RunStats.of(meter), levels=0)
        search.seen.add((len(text), hash(text)))
        frontier = [_Thread(text, boundary, verdict, (), (), "", 0)]
        levels_after_first = 0
        levels_for_data = 0
        while frontier:
            if level >= max_levels:
                finished = False
                notes.append(f"gave up after {level} edits (max_edits)")
                break
            level += 1
            children = []
            for index, parent in enumerate(frontier):
                for child in search.expand(parent, reach=index < options.reach_threads):
                    if child.verdict is Verdict.COMPLETE:
                        completed.append(child.materialize())
                    else:
                        children.append(child)
            if completed:
                if levels_for_data < options.data_levels and all(t.harm for t in completed):
                    levels_for_data += 1
                elif levels_after_first >= options.extra_levels:
                    break
                else:
                    levels_after_first += 1
            frontier = search.select(children)
            children = []
    except BudgetExhausted:
        finished = False
    stats = RunStats.of(meter)
    if meter.stop_reason:
        notes.append(meter.stop_reason)

    unique: dict[str, Repair] = {}
    for thread in completed:
        if thread.text not in unique:
            unique[thread.text] = _repair(text, thread, valid=True)
    if options.ranked or len(unique) > options.max_repairs:
        repairs = rank(text, unique.values(), options.max_repairs, stop=meter.poll)
    else:
        repairs = tuple(unique.values())

    partial: Repair | None = None
    partial_boundary: int | None = None
    if not repairs:
        pool = [*frontier, *(child.materialize() for child in _best(children))]
        if pool:
            best = min(pool, key=lambda t: (t.remaining, len(t.edits), t.order))
            partial_boundary = best.boundary
            note = (
                f"partial repair: {'search cut short' if not finished else 'no repair found'};"
                f" the first {best.boundary} characters parse, the rest is unrepaired"
            )
            partial = _repair(text, best, valid=False, note=note)
        else:
            note = "partial repair: no valid prefix was determined; the input is unchanged"
            partial = Repair(text, (), ALGORITHM, False, 0, note)
        if finished and not notes:
            notes.append("no repair found: no repair thread could be extended")
    return FSynthResult(
        input_valid=False,
        repairs=repairs,
        partial=partial,
        stats=stats,
        complete=finished,
        partial_boundary=partial_boundary,
        levels=level,
        notes=tuple(notes),
    )


def _best(children: list[_Candidate]) -> list[_Candidate]:
    if not children:
        return []
    return [min(children, key=lambda c: (c.remaining, c.order))]
