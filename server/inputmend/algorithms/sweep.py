"""A left-to-right repair of many faults, in one pass over the text.

The grammar's incremental scan (:class:`~inputmend.oracles.incremental.IncrementalGrammarOracle`)
reads the text to its first error.  There a small set of local fixes is
tried: the grammar's hints that reach the error (a Python literal, an
unquoted key), a separator or closer inserted at the error or right after
the token before it, the character at the error deleted.  Each is judged
by a scan of the text after it, :data:`LOOKAHEAD` characters long (so a
try costs the same in a 100 KB and in a 100 MB document): the fix that
reads furthest, then the one that touches least data, is committed, and
the scan resumes from a checkpoint past it on the original text (the
edited text is never built until the end).  The cost is the length of the
text plus, per fault, a few windows: linear in the faults.

Systematic damage (one slip repeated throughout: every comma lost, every
key unquoted) is recognised as it goes: the shapes of the fixes committed so
far (which hint, which character inserted where) are tried first at each
later error, most used first, and the first that reads its whole window
(or :data:`HOLD` characters past itself, when the next fault is nearer) is
committed without trying the rest, so a document with a thousand lost
commas costs about one try per comma.

Documents written one after another (JSON Lines where one document was
wanted, two answers pasted together) are systematic damage too: the first
error after a complete document is where the second begins.  There the
sweep tries, once, to join them into one list: the grammar's hints'
``[concatenated]`` opener, separator and closer, or else each opener of
the grammar's nesting brackets with each of its punctuation separators
(:func:`inputmend.grammar.syntax.syntax_of`).  The opener goes before the
first document, the separator after it; the separator is then a learned fix
at each later boundary, and the closer (the declared one, or the bracket
closer that completes the text) is put after the last document.

The result is one repair (the whole oracle verifies it, as every repair);
where no fix gets past an error, none (the other generators take it from
there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inputmend.algorithms.fsynth import DELIMITERS
from inputmend.algorithms.hints import PLAIN_INSERTS, _removal
from inputmend.core import levenshtein
from inputmend.core.budget import Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.model import Edit, Repair, apply_edit
from inputmend.core.oracle import Verdict
from inputmend.grammar.hints import NO_HINTS, Hints
from inputmend.grammar.scan import Scan
from inputmend.grammar.syntax import syntax_of
from inputmend.oracles.incremental import IncrementalGrammarOracle

ALGORITHM = "sweep"

LOOKAHEAD = 256
"""Characters after a fix that a try reads (its judge's window)."""
MARGIN = 64
"""Characters before the end of a try's window that its scan is trusted up
to: the window may cut the last token short."""
REACH = 256
"""Characters before an error within which a hint's rewrite may start."""
HOLD = 16
"""Characters past a deletion that its scan must read for it to be taken
at all (deleting a character at a time, each getting barely past the
fault, is a cascade that eats the data: the sweep stops there instead);
a learned fix that reads this far is taken at once (the next fault may be
nearer than the window's end)."""
MAX_TRIES = 64
"""Tries at one error at most (the local work is bounded by count)."""


@dataclass(frozen=True)
class SweepResult:
    """The sweep's repair (None when no fix got past an error), the faults
    it fixed, how many of them a fix shape repeated from an earlier fault
    fixed at its first try, and the scans it cost (``stats.tests``)."""

    repair: Repair | None
    faults: int
    repeated: int
    stats: RunStats
    stuck_at: int | None = None
    """Where no fix got past an error (an offset of the input), if it stopped there."""
    deleted: int = 0
    """Fixes that deleted a character no hint explained (data may be lost)."""


@dataclass(frozen=True)
class _Fix:
    shape: tuple[str, ...]
    """What the fix does, wherever it is: a hint's name, or a plain step."""
    edit: Edit
    """In the coordinates of the document being scanned."""
    cost: int
    hold: int = 1
    """Characters past the fix its scan must read for it to be taken."""


@dataclass(frozen=True)
class _Try:
    fix: _Fix
    scan: Scan
    full: bool
    """Read its whole window (or the text to its end)."""
    reach: int
    """Where its scan stopped, in document coordinates."""
    window_end: int
    """The end of its window, in the coordinates of its own scan."""


@dataclass(frozen=True)
class _JoinWay:
    """How documents one after another are joined into one: an opener before
    the first, a separator between each two, a closer after the last (None:
    the closer of the grammar's brackets that completes the text)."""

    opener: str
    separator: str
    closer: str | None


@dataclass(frozen=True)
class _Join:
    """A join judged at the first boundary between two documents: the way,
    where the opener and the separator go in the input, and how far its scan
    read in the text with every fix so far and both of them."""

    way: _JoinWay
    opener_at: int
    separator_at: int
    """Input offsets."""
    separator_end: int
    """Offset of the joined text right after the separator."""
    full: bool
    reach: int
    """Where its scan stopped, in the joined text's offsets."""


def _join_ways(locator: IncrementalGrammarOracle, hints: Hints) -> tuple[_JoinWay, ...]:
    """The ways to join documents one after another: the hints' declared one,
    or else each opener of the grammar's nesting brackets with each of its
    punctuation literals that is neither an opener nor a closer, or with
    nothing (lists of values separated by blanks), closed by the bracket
    closer that completes the text."""
    declared = hints.concatenated
    if declared is not None:
        return (_JoinWay(declared.open, declared.separator, declared.close),)
    brackets = syntax_of(locator.grammar).brackets
    if brackets is None:
        return ()
    marks = {*brackets.openers, *brackets.closers}
    separators = sorted(
        literal
        for literal in set(locator.grammar.literals.values())
        if literal
        and literal not in marks
        and not any(c.isalnum() or c == "_" or c.isspace() for c in literal)
    )
    return tuple(
        _JoinWay(opener, separator, None)
        for opener in brackets.openers
        for separator in [*separators, ""]
    )


def _reading(scan: Scan, to_end: bool) -> tuple[bool, int]:
    """Did the scan of a try (a fix, then a window of the text after it, the
    rest of the text when ``to_end``) read its whole window, and where it
    stopped (its own offsets)."""
    window_end = scan.length
    feedback = scan.feedback
    if feedback.verdict is Verdict.INCORRECT:
        stopped = window_end if feedback.error_offset is None else feedback.error_offset
        return False, stopped
    # an unfinished token that began long before the window's end (a quote
    # that opened a string running on) has not been read past: the try
    # reached its start
    end = scan.end
    unfinished = end is not None and end.position < window_end - MARGIN
    full = not unfinished or (to_end and feedback.verdict is Verdict.COMPLETE)
    stopped = end.position if end is not None and not full else window_end
    return full, stopped


def _blank_before(text: str, offset: int, floor: int) -> int:
    """The end of the last non-blank character before ``offset`` (not before ``floor``)."""
    at = offset
    while at > floor and text[at - 1] in " \t\r\n":
        at -= 1
    return at


def _plain_fixes(text: str, error: int, floor: int, openers: str = "") -> list[_Fix]:
    """Plain steps at an error: a separator or closer inserted right after
    the token before it or at it, an opener or quote of ``openers`` (those
    the grammar accepts there) inserted at it, or the character at it
    deleted (a deletion touches data: it costs more than an insertion).  An
    opener and a deletion must read :data:`HOLD` characters past
    themselves: a quote that opens a string running to the line's end, a
    deletion a character at a time, would start a cascade."""
    after = _blank_before(text, error, floor)
    fixes: list[_Fix] = []
    for char in PLAIN_INSERTS:
        if after < error:
            fixes.append(_Fix(("insert after", char), Edit(after, 0, char), 1))
        fixes.append(_Fix(("insert at", char), Edit(error, 0, char), 1))
    for char in openers:
        if char not in PLAIN_INSERTS:
            fixes.append(_Fix(("insert at", char), Edit(error, 0, char), 1, HOLD))
    if error < len(text):
        fixes.append(_Fix(("delete",), Edit(error, 1, ""), 2, HOLD))
    return fixes


def _hint_fixes(
    text: str, error: int, floor: int, hints: Hints, names: frozenset[str] | None = None
) -> list[_Fix]:
    """The hints' rewrites that reach the error (start at or before it and
    end at or after it, or end just before it with blanks between) and the
    hints' fixes that end before it (within :data:`REACH`), none starting
    before ``floor``; only the hints called ``names`` when given."""
    low = max(0, error - REACH)  # before ``floor`` too: the patterns look behind
    high = min(len(text), error + REACH)
    local = text[low:high]
    at = error - low
    fixes: dict[tuple[int, int, str], _Fix] = {}
    for rewrite in hints.rewrites:
        if names is not None and rewrite.name not in names:
            continue
        found_at = rewrite.pattern.match(local, at)
        found_all = rewrite.pattern.finditer(local, 0, len(local))
        for found in [found_at, *found_all] if found_at is not None else found_all:
            start, end = found.start(), found.end()
            if start > at:
                break
            if end <= start or start + low < floor:
                continue
            reaches = start <= at <= end or (end < at and not local[end:at].strip())
            if not reaches and (rewrite.kind != "fix" or end > at):
                continue  # a fix may end before the error: a lost colon shows at the line's end
            canonical = rewrite.canonical(found)
            edit = (
                _removal(local, start, end)
                if not canonical
                else Edit(start, end - start, canonical)
            )
            if edit.offset + low < floor:
                continue
            key = (edit.offset, edit.delete, edit.insert)
            if key not in fixes:
                cost = levenshtein.distance(local[edit.offset : edit.end], edit.insert)
                placed = Edit(edit.offset + low, edit.delete, edit.insert)
                fixes[key] = _Fix(("hint", rewrite.name), placed, cost)
    return list(fixes.values())


def _shape_fixes(
    shape: tuple[str, ...], text: str, error: int, floor: int, hints: Hints
) -> list[_Fix]:
    """The fixes of one shape at an error (a shape learned at an earlier one),
    as :func:`_plain_fixes` and :func:`_hint_fixes` make them."""
    kind = shape[0]
    if kind == "hint":
        return _hint_fixes(text, error, floor, hints, frozenset(shape[1:]))
    if kind == "insert after":
        after = _blank_before(text, error, floor)
        return [_Fix(shape, Edit(after, 0, shape[1]), 1)] if after < error else []
    if kind == "insert at":
        hold = 1 if shape[1] in PLAIN_INSERTS else HOLD
        return [_Fix(shape, Edit(error, 0, shape[1]), 1, hold)]
    return [_Fix(shape, Edit(error, 1, ""), 2, HOLD)] if error < len(text) else []


class _Sweep:
    """The state of one sweep: the document scanned (the input, or the
    input with the fixes so far when a fix left no checkpoint to resume
    from past it), its scan, the fixes committed."""

    def __init__(
        self, text: str, locator: IncrementalGrammarOracle, hints: Hints, meter: Meter
    ) -> None:
        self.original = text
        self.locator = locator
        self.hints = hints
        self.meter = meter
        self.document = text
        self.shift = 0  # document offset - input offset, after every committed fix
        self.edits: list[Edit] = []  # committed, in input offsets
        self.shapes: Counter[tuple[str, ...]] = Counter()
        self.order: list[tuple[str, ...]] = []  # learned shapes, most used first
        self.repeated = 0
        self.deleted = 0
        self.floor = 0  # no fix starts before this document offset (past the last fix)
        self.scan = locator.scan(text)
        self.bad = list(self.scan.bad)
        self.ways = _join_ways(locator, hints)
        self.joined: _JoinWay | None = None  # documents joined into one, to close at the end
        self.join_tried = False  # a join is tried once, at the first end of a document

    def judge(self, fix: _Fix) -> _Try:
        """Scan the document with ``fix`` up to :data:`LOOKAHEAD` characters past it."""
        self.meter.charge()
        edit = fix.edit
        tail = self.document[edit.end : edit.end + LOOKAHEAD]
        scan = self.locator.edit(self.scan, edit.offset, len(self.document), edit.insert + tail)
        fixed_end = edit.offset + len(edit.insert)
        full, stopped = _reading(scan, edit.end + LOOKAHEAD >= len(self.document))
        delta = len(edit.insert) - edit.delete
        reach = stopped - delta if stopped >= fixed_end else edit.offset
        return _Try(fix, scan, full, reach, scan.length)

    def commit(self, tried: _Try) -> None:
        """Take the fix of ``tried``: resume on the document from a checkpoint
        of its scan past the fix, or, if it has none, rescan the edited
        document from the fix on."""
        edit = tried.fix.edit
        delta = len(edit.insert) - edit.delete
        fixed_end = edit.offset + len(edit.insert)
        trusted = tried.reach + delta
        if edit.end + LOOKAHEAD < len(self.document):
            trusted = min(trusted, tried.window_end - MARGIN)
        positions = tried.scan.positions
        self.edits.append(Edit(edit.offset - self.shift, edit.delete, edit.insert))
        shape = tried.fix.shape
        self.deleted += shape == ("delete",)
        self.shapes[shape] += 1
        self.order = [s for s, _ in self.shapes.most_common()]
        # the last checkpoint past the fix that its scan read, leaving room
        # before the next error for a fix that starts before it (a hint's
        # rewrite of the token before it, a comma after that token)
        past = [i for i in range(len(positions)) if fixed_end <= positions[i] <= trusted]
        roomy = [i for i in past if positions[i] <= trusted - MARGIN]
        if past:
            index = (roomy or past)[-1]
            self.scan = self.locator.resume(
                self.document, tried.scan, index, shift=-delta, bad=self.bad
            )
            self.floor = positions[index] - delta
            return
        # no checkpoint past the fix within what its scan read: the edited
        # document is built and read on from the fix
        self.meter.charge()
        scan = self.locator.edit(self.scan, edit.offset, edit.end, edit.insert)
        self.document = apply_edit(self.document, edit)
        scan.know_text(self.document)
        self.scan = scan
        self.bad = list(scan.bad)
        self.shift += delta
        self.floor = fixed_end

    def join(self, error: int) -> _Join | None:
        """The best way to join the document before ``error`` (complete as it
        is) and the one starting there into one list, judged by a scan from
        the text's start through a window past the separator; None when the
        text before the error is not a complete document, a fix lies before
        its first character, or the grammar has no way to join."""
        if not self.ways:
            return None
        floor = max(self.floor, self.scan.positions[0])
        after = _blank_before(self.document, error, floor)
        self.meter.charge()
        if self.locator.prefix(self.scan, after).verdict is not Verdict.COMPLETE:
            return None
        self.join_tried = True
        first = len(self.original) - len(self.original.lstrip())
        if any(edit.offset < first for edit in self.edits):
            return None
        fixed = _applied(self.original, self.edits)
        separator_at = after - self.shift  # input offset: every fix lies before it
        at = separator_at + len(fixed) - len(self.original)
        best: _Join | None = None
        for way in self.ways:
            self.meter.charge()
            opened = fixed[:first] + way.opener + fixed[first:at] + way.separator
            scan = self.locator.scan(opened + fixed[at : at + LOOKAHEAD])
            full, stopped = _reading(scan, at + LOOKAHEAD >= len(fixed))
            if best is None or (full, stopped) > (best.full, best.reach):
                best = _Join(way, first, separator_at, len(opened), full, stopped)
        return best

    def commit_join(self, join: _Join) -> None:
        """Take ``join``: read on from the separator in the joined text; the
        separator is a learned fix for the later boundaries."""
        way = join.way
        self.edits = [
            Edit(join.opener_at, 0, way.opener),
            *self.edits,
            Edit(join.separator_at, 0, way.separator),
        ]
        self.joined = way
        if way.separator:
            self.shapes[("insert after", way.separator)] += 1
            self.order = [s for s, _ in self.shapes.most_common()]
        self.meter.charge()
        self.document = _applied(self.original, self.edits)
        self.shift = len(self.document) - len(self.original)
        self.scan = self.locator.scan(self.document)
        self.bad = list(self.scan.bad)
        self.floor = join.separator_end

    def close(self) -> bool:
        """Put the closer of the join after the last document (the declared
        one, or the first closer of the grammar's brackets that completes the
        text): False when none does."""
        if self.joined is None:
            return False
        brackets = syntax_of(self.locator.grammar).brackets
        closers = [self.joined.closer] if self.joined.closer is not None else []
        if not closers and brackets is not None:
            closers = list(brackets.closers)
        floor = max(self.floor, self.scan.positions[0])
        last = _blank_before(self.document, len(self.document), floor)
        for closer in closers:
            self.meter.charge()
            scan = self.locator.edit(self.scan, last, last, closer)
            if scan.feedback.verdict is Verdict.COMPLETE:
                self.edits.append(Edit(last - self.shift, 0, closer))
                self.scan = scan
                return True
        return False

    def step(self, error: int) -> bool:
        """Fix the error at ``error`` (document offset): False when no fix gets past it."""
        floor = max(self.floor, self.scan.positions[0])
        tries = 0
        for shape in self.order:
            for fix in _shape_fixes(shape, self.document, error, floor, self.hints):
                tried = self.judge(fix)
                tries += 1
                if tried.full or tried.reach >= fix.edit.end + HOLD:
                    self.repeated += 1
                    self.commit(tried)
                    return True
        # documents one after another: a join, tried at the first error after
        # a complete document, is taken before the local fixes when it reads
        # its whole window, after them when none gets past the error
        join = None if self.join_tried else self.join(error)
        if join is not None and join.full:
            self.commit_join(join)
            return True
        # the openers and quotes the grammar accepts at the error (a key's
        # lost opening quote): read from a copy of the text before it, once
        # per fault that no learned fix repaired
        openers = self.locator.continuations(self.document[:error], DELIMITERS)
        fixes = [
            *_hint_fixes(self.document, error, floor, self.hints),
            *_plain_fixes(self.document, error, floor, openers),
        ]
        best: tuple[Any, ...] | None = None
        for index, fix in enumerate(fixes[: max(1, MAX_TRIES - tries)]):
            tried = self.judge(fix)
            if not tried.full and tried.reach < fix.edit.end + fix.hold:
                continue  # a step that barely gets past the fault starts a cascade
            key = (tried.full, tried.reach if not tried.full else 0, -fix.cost, -index)
            if best is None or key > best[0]:
                best = (key, tried)
        if best is None:
            if join is None or join.reach < join.separator_end + HOLD:
                return False
            self.commit_join(join)
            return True
        self.commit(best[1])
        return True


def sweep(
    text: str,
    locator: IncrementalGrammarOracle,
    *,
    hints: Hints = NO_HINTS,
    budget: Budget,
) -> SweepResult:
    """Repair ``text`` left to right by ``locator``'s grammar (see the
    module's docstring), within ``budget`` (each scan of a try counts as an
    oracle run)."""
    meter = Meter(budget)
    state = _Sweep(text, locator, hints, meter)
    faults = 0
    stuck: int | None = None
    try:
        while state.scan.feedback.verdict is Verdict.INCORRECT:
            error = state.scan.feedback.error_offset
            if error is None or not state.step(error):
                stuck = None if error is None else error - state.shift
                break
            faults += 1
            meter.poll()
        if state.scan.feedback.verdict is Verdict.INCOMPLETE:
            state.close()
    except BudgetExhausted:
        return SweepResult(None, faults, state.repeated, RunStats.of(meter), None)
    stats = RunStats.of(meter)
    if state.scan.feedback.verdict is not Verdict.COMPLETE or stuck is not None or not faults:
        return SweepResult(None, faults, state.repeated, stats, stuck)
    repair = _repair(text, state.edits, faults, state.repeated)
    return SweepResult(repair, faults, state.repeated, stats, None, state.deleted)


def _applied(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with ``edits`` (in order, not overlapping)."""
    pieces: list[str] = []
    position = 0
    for edit in edits:
        pieces += [text[position : edit.offset], edit.insert]
        position = edit.end
    pieces.append(text[position:])
    return "".join(pieces)


def _repair(text: str, edits: Sequence[Edit], faults: int, repeated: int) -> Repair:
    pieces: list[str] = []
    position = 0
    distance = 0
    for edit in edits:
        pieces += [text[position : edit.offset], edit.insert]
        distance += levenshtein.distance(text[edit.offset : edit.end], edit.insert)
        position = edit.end
    pieces.append(text[position:])
    note = f"left to right: {faults} faults fixed"
    if repeated:
        note += f", {repeated} of them as one before"
    return Repair("".join(pieces), tuple(edits), ALGORITHM, True, distance, note)
