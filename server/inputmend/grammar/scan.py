"""The incremental scan: lex and parse a text once, keep checkpoints, and
check edits of it by re-reading only what changed.

One linear scan of a document records *checkpoints*: the lexer position and
the (interned) parser stack at every K-th token boundary.  Scanning an edited
text (:meth:`Scanner.edit`):

* resumes from the base's last checkpoint safely before the edit, lexing a
  window of the new text that grows only as far as the scan goes;
* once past the edit, at a token boundary where the base has a checkpoint
  with the same remaining suffix and the same (identical) stack, knows
  everything after it from the base: the scan stops and reuses the base's
  verdict (*resynchronization*).

So a prefix check or a small edit costs time proportional to the distance
from the checkpoint before the edit to the resynchronization point, not to
the document length.

Where lexing a token looked at text far beyond it (an alternative such as a
``/* ... */`` comment that scanned ahead and failed), the token is recorded,
and a later edit in that range resumes before it.  A text that ends inside a
token is INCOMPLETE when the partial token can still grow into a token the
parser accepts there.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from inputmend.core.text import UNDECODABLE, UNDECODABLE_MESSAGE, snippet
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lark_internals import END
from inputmend.grammar.lexer import StateScanner, Token
from inputmend.grammar.regex import prefix_extent
from inputmend.grammar.tables import StackInterner, StackNode
from inputmend.oracles.base import Feedback, Verdict

LOOKAHEAD = 64  # a match this close to the end of a partial window is re-read with more
STOP_EVERY = 4096  # tokens between two calls of the stop hook
_FAR = 1 << 62  # an offset beyond every text

Stop = Callable[[], None]  # called now and then by long scans; raises to abandon them
Replay = Callable[[StackNode, list[str]], StackNode]  # stack, terminals -> stack after them


class Lookback:
    """The stack before the last token a scan shifted, rebuilt when asked
    for (rarely): the scan keeps its last two interned stacks and the
    terminals it shifted on each."""

    __slots__ = ("_kinds", "_previous", "_previous_kinds", "_replay", "_snapshot", "_stack")

    def __init__(
        self,
        replay: Replay,
        snapshot: StackNode,
        kinds: list[str],
        previous: StackNode | None,
        previous_kinds: list[str],
    ) -> None:
        self._replay = replay
        self._snapshot, self._kinds = snapshot, kinds
        self._previous, self._previous_kinds = previous, previous_kinds
        self._stack: StackNode | None = None

    def stack(self) -> StackNode:
        if self._stack is None:
            if self._kinds:
                self._stack = self._replay(self._snapshot, self._kinds[:-1])
            elif self._previous is not None and self._previous_kinds:
                self._stack = self._replay(self._previous, self._previous_kinds[:-1])
            else:  # no token yet
                self._stack = self._snapshot
        return self._stack


class ScanState(NamedTuple):
    """Where a scan is: the parser stack, the last token's span
    (``last_end < last_start`` before any token), the lexer position, and
    :attr:`before`, the stack before the last token."""

    stack: StackNode
    lookback: Lookback
    last_start: int
    last_end: int
    position: int

    @property
    def before(self) -> StackNode:
        return self.lookback.stack()

    def shifted(self, delta: int) -> ScanState:
        """The same state, ``delta`` characters further into the text."""
        return ScanState(
            self.stack,
            self.lookback,
            self.last_start + delta,
            self.last_end + delta,
            self.position + delta,
        )


class FarRead(NamedTuple):
    """A token whose lexing read the text up to ``reach``."""

    start: int
    reach: int


class _Splice(NamedTuple):
    """The checkpoints of an edited scan, before they are built: the base's
    first ``keep``, the new ones, then (when the scan rejoined the base at
    its checkpoint ``joined``) the base's after that one, moved by ``delta``."""

    base: Scan
    keep: int
    positions: list[int]
    stacks: list[StackNode]
    joined: int | None
    delta: int


@dataclass
class Scan:
    """A scanned text: its checkpoints and verdict.  Scans derived by an edit
    keep only what changed and build the rest on first use."""

    feedback: Feedback
    length: int
    bad: list[int]  # offsets of characters that came from undecodable bytes
    far: list[FarRead]
    end: ScanState | None = None  # where lexing stopped in a complete or incomplete text
    _text: str | None = None
    _edited: EditedText | None = None
    _positions: list[int] = field(default_factory=list)
    _stacks: list[StackNode] = field(default_factory=list)
    _splice: _Splice | None = field(default=None, repr=False)  # checkpoints not built yet

    @property
    def text(self) -> str:
        if self._text is None:
            assert self._edited is not None
            self._text = self._edited.text()
            self._edited = None
        return self._text

    def know_text(self, text: str) -> None:
        """Give the scan its text, known elsewhere (saves building it)."""
        self._text, self._edited = text, None

    @property
    def positions(self) -> list[int]:
        """Offsets of the checkpoints."""
        if self._splice is not None:
            self._build_checkpoints(self._splice)
        return self._positions

    @property
    def stacks(self) -> list[StackNode]:
        """The parser stacks at the checkpoints (interned)."""
        if self._splice is not None:
            self._build_checkpoints(self._splice)
        return self._stacks

    def _build_checkpoints(self, splice: _Splice) -> None:
        base, keep, positions, stacks, joined, delta = splice
        self._positions = base.positions[:keep] + positions
        self._stacks = base.stacks[:keep] + stacks
        if joined is not None:
            self._positions.extend(p + delta for p in base.positions[joined + 1 :])
            self._stacks.extend(base.stacks[joined + 1 :])
        self._splice = None

    def before(self, offset: int) -> int:
        """Index of the last checkpoint at or before ``offset``."""
        return max(0, bisect.bisect_right(self.positions, offset) - 1)


class EditedText:
    """``base[:start] + insert + base[end:]``, sliced without building it."""

    def __init__(self, base: str, start: int, end: int, insert: str) -> None:
        self.base, self.start, self.end, self.insert = base, start, end, insert
        self.length = len(base) - (end - start) + len(insert)
        self.delta = len(insert) - (end - start)

    def slice(self, a: int, b: int) -> str:
        start, mid = self.start, self.start + len(self.insert)
        pieces = []
        if a < start:
            pieces.append(self.base[a : min(b, start)])
        if b > start and a < mid:
            pieces.append(self.insert[max(a, start) - start : min(b, mid) - start])
        if b > mid:
            pieces.append(self.base[max(a, mid) - self.delta : b - self.delta])
        return "".join(pieces)

    def text(self) -> str:
        return self.base[: self.start] + self.insert + self.base[self.end :]


class Window:
    """The part of a document being lexed: ``text`` covers
    ``document[offset : offset + len(text)]`` and grows on demand."""

    def __init__(self, source: Callable[[int, int], str], offset: int, length: int) -> None:
        self.source = source
        self.offset = offset
        self.length = length  # document length
        self.text = ""
        self.reach(offset + 256)

    @classmethod
    def whole(cls, text: str, offset: int = 0) -> Window:
        """A complete window over ``text``, which starts at ``offset``."""
        window = cls(lambda a, b: "", offset, offset)
        window.text, window.length = text, offset + len(text)
        return window

    @property
    def complete(self) -> bool:
        return self.offset + len(self.text) >= self.length

    def reach(self, end: int) -> None:
        """Make the window cover the document up to ``end`` (or its end)."""
        end = min(max(end, self.offset + 2 * len(self.text)), self.length)
        if end > self.offset + len(self.text):
            self.text = self.source(self.offset, end)


class _Resync(NamedTuple):
    """Rejoin ``base`` once past ``edit_end`` (new-text offsets shifted by ``delta``)."""

    base: Scan
    delta: int
    edit_end: int


class _Trace:
    """What a pass records on its way (offsets in the document): the
    checkpoints (positions and interned stacks) when ``checkpoints``, the
    tokens whose lexing read far ahead, and the tokens when ``tokens`` is a list."""

    __slots__ = ("checkpoints", "far", "positions", "stacks", "tokens")

    def __init__(
        self,
        *,
        checkpoints: bool,
        positions: list[int] | None = None,
        stacks: list[StackNode] | None = None,
        far: list[FarRead] | None = None,
        tokens: list[Token] | None = None,
    ) -> None:
        self.checkpoints = checkpoints
        self.positions = [] if positions is None else positions
        self.stacks = [] if stacks is None else stacks
        self.far = [] if far is None else far
        self.tokens = tokens


class _Stopped(NamedTuple):
    """How a pass ended: the verdict, where lexing stopped (complete and
    incomplete texts) and the base checkpoint it rejoined, if it did."""

    feedback: Feedback
    end: ScanState | None = None
    joined: int | None = None


class Scanner:
    """Incremental scans of texts of one grammar.  Every method takes ``stop``,
    called every few thousand tokens; it may raise to abandon the scan."""

    def __init__(self, grammar: CompiledGrammar, *, checkpoint_every: int, margin: int) -> None:
        self.grammar = grammar
        self.tables = grammar.tables
        self.scanners: dict[int, StateScanner] = grammar.scanners
        self.interner = StackInterner(self.tables)
        self.checkpoint_every = checkpoint_every
        self.margin = margin  # characters re-read before an edit (a token may end there)
        self.scanned_chars = 0  # characters lexed: shows how much work was reused

    def fresh(self, text: str, *, stop: Stop | None = None) -> Scan:
        """Scan ``text`` from its start."""
        bad = [m.start() for m in UNDECODABLE.finditer(text)]
        trace = _Trace(checkpoints=True, positions=[0], stacks=[self.interner.root])
        stopped = self._run(Window.whole(text), self.interner.root, bad, trace, stop=stop)
        return Scan(
            stopped.feedback,
            len(text),
            bad,
            trace.far,
            end=stopped.end,
            _text=text,
            _positions=trace.positions,
            _stacks=trace.stacks,
        )

    def edit(
        self, base: Scan, start: int, end: int, insert: str, *, stop: Stop | None = None
    ) -> Scan:
        """Scan ``base.text[:start] + insert + base.text[end:]`` incrementally."""
        if not 0 <= start <= end <= base.length:
            raise ValueError(f"bad edit {start}:{end} of a text of length {base.length}")
        edited = EditedText(base.text, start, end, insert)
        delta, edit_end = edited.delta, start + len(insert)
        bad = [b for b in base.bad if b < start]
        bad += [start + m.start() for m in UNDECODABLE.finditer(insert)]
        bad += [b + delta for b in base.bad if b >= end]
        resume = max(0, start - self.margin)
        for read in base.far:
            if read.start < resume and read.reach >= start:
                resume = read.start
                break
        index = base.before(resume)
        trace = _Trace(
            checkpoints=True, far=[r for r in base.far if r.start < base.positions[index]]
        )
        window = Window(edited.slice, base.positions[index], edited.length)
        stopped = self._run(
            window,
            base.stacks[index],
            bad,
            trace,
            resync=_Resync(base, delta, edit_end),
            stop=stop,
        )
        end_state = stopped.end
        if stopped.joined is not None:
            join_offset = base.positions[stopped.joined]
            trace.far += [
                FarRead(r.start + delta, r.reach + delta)
                for r in base.far
                if r.start >= join_offset
            ]
            if base.end is not None:
                end_state = base.end.shifted(delta)
        scan = Scan(stopped.feedback, edited.length, bad, trace.far, end=end_state, _edited=edited)
        scan._splice = _Splice(
            base, index + 1, trace.positions, trace.stacks, stopped.joined, delta
        )
        return scan

    def tokens(self, text: str, *, stop: Stop | None = None) -> list[Token]:
        """The tokens lark's contextual lexer produces, up to the first error."""
        bad = [m.start() for m in UNDECODABLE.finditer(text)]
        trace = _Trace(checkpoints=False, tokens=[])
        self._run(Window.whole(text), self.interner.root, bad, trace, stop=stop)
        assert trace.tokens is not None
        return trace.tokens

    # -- the scanner loop ------------------------------------------------------

    def _run(
        self,
        window: Window,
        node: StackNode,
        bad: list[int],
        trace: _Trace,
        *,
        resync: _Resync | None = None,
        stop: Stop | None = None,
    ) -> _Stopped:
        """Lex and parse from the start of ``window`` on the interned stack
        ``node`` until the text ends, an error, or (with ``resync``) the base
        is rejoined.

        The stack is kept as the states ``frame`` pushed on the persistent
        stack ``base``, like the list of states of any LR parser, and becomes
        persistent (interned) every ``checkpoint_every`` tokens: entries that
        reductions pop before then are never allocated.  ``snapshot`` is the
        last interned stack and ``kinds`` the terminals shifted since, so any
        stack of the last tokens can be rebuilt (:meth:`_replay`)."""
        scanners, push, replay = self.scanners, self.interner.push, self._replay
        actions, gotos, reductions = self.tables.actions, self.tables.gotos, self.tables.reductions
        ignored = self.grammar.ignored
        every = self.checkpoint_every
        record, tokens = trace.checkpoints, trace.tokens
        offset = window.offset
        text = window.text
        size = len(text)
        complete = window.complete
        bad_index = bisect.bisect_left(bad, offset)
        next_bad = (bad[bad_index] - offset) if bad_index < len(bad) else _FAR
        base_positions: list[int] = []
        base_stacks: list[StackNode] = []
        delta = 0
        resync_from = _FAR
        if resync is not None:
            base_positions, base_stacks = resync.base.positions, resync.base.stacks
            delta = resync.delta
            resync_from = resync.edit_end - offset
        base, state = node, node.state
        frame: list[int] = []  # states pushed on ``base``
        snapshot = node
        kinds: list[str] = []
        previous: StackNode | None = None
        previous_kinds: list[str] = []
        pos = 0
        count = 0
        last_start, last_end = 0, -1
        while True:
            if pos >= size:
                if not complete:
                    window.reach(offset + size + 1)
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                self.scanned_chars += pos
                node = push(base, frame)
                lookback = Lookback(replay, snapshot, kinds, previous, previous_kinds)
                end_state = ScanState(
                    node, lookback, last_start + offset, last_end + offset, pos + offset
                )
                return _Stopped(self._at_end(node, offset + size), end_state)
            # lex step: the token at ``pos``, by the scanner of this parser state
            scanner = scanners[state]
            match = None
            for pattern in scanner.regexes:
                match = pattern.match(text, pos)
                if match is not None:
                    break
            if match is not None and match.end() + LOOKAHEAD >= size and not complete:
                # near the end of the window the match may be cut short (`1.` of
                # `1.5`): look at more text first
                window.reach(offset + 2 * size)
                text, size, complete = window.text, len(window.text), window.complete
                continue
            action = None
            if match is not None:
                end = match.end()
                kind = match.lastgroup
                if end > next_bad:
                    self.scanned_chars += pos
                    lookback = Lookback(replay, snapshot, kinds, previous, previous_kinds)
                    at = ScanState(push(base, frame), lookback, last_start, last_end, pos)
                    return _Stopped(self._bad_byte(window, at, next_bad))
                watch = scanner.watch.get(kind)
                if watch is not None:
                    alternative = _far_alternative(watch, text, pos, end)
                    if alternative is not None:
                        window.reach(window.length)
                        text, size, complete = window.text, len(window.text), True
                        reach = pos + prefix_extent(alternative, text, pos, size)
                        trace.far.append(FarRead(pos + offset, reach + offset))
                if kind in ignored:
                    pos = end
                    continue
                retype = scanner.retype.get(kind)
                if retype is not None:
                    kind = retype(match.group()) or kind
                # parse step: the reductions the token calls for, then its shift
                action = actions[state].get(kind)
                while action is not None and action < 0:
                    length, origin = reductions[-action - 1]
                    depth = len(frame)
                    if length == 0:
                        state = gotos[state][origin]
                        frame.append(state)
                    elif length <= depth:  # the popped entries are in the frame
                        keep = depth - length
                        state = gotos[frame[keep - 1] if keep else base.state][origin]
                        if length > 1:
                            del frame[keep + 1 :]
                        frame[keep] = state
                    else:  # and below it
                        for _ in range(length - depth):
                            base = base.parent  # type: ignore[assignment]
                        state = gotos[base.state][origin]
                        frame.clear()
                        frame.append(state)
                    action = actions[state].get(kind)
            if action is None:  # the parser cannot go on here
                # the stack before the token (the parse step may have reduced it)
                node = push(base, frame) if match is None else replay(snapshot, kinds)
                lookback = Lookback(replay, snapshot, kinds, previous, previous_kinds)
                at = ScanState(node, lookback, last_start, last_end, pos)
                outcome = self._error(window, at, bad)
                if outcome is None:  # the window was too short to tell: grown, retry
                    base, frame, state = self.interner.intern(node), [], node.state
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                self.scanned_chars += pos
                if match is None and outcome.verdict is Verdict.INCOMPLETE:
                    return _Stopped(outcome, at.shifted(offset))
                return _Stopped(outcome)
            frame.append(action)
            state = action
            kinds.append(kind)
            last_start, last_end = pos, end
            if tokens is not None:
                tokens.append(Token(kind, pos + offset, end + offset))
            pos = end
            count += 1
            if stop is not None and count % STOP_EVERY == 0:
                stop()
            if count % every == 0:
                base, frame = push(base, frame), []
                previous, previous_kinds = snapshot, kinds
                snapshot, kinds = base, []
                if record:
                    trace.positions.append(pos + offset)
                    trace.stacks.append(base)
            if pos >= resync_from:
                base_pos = pos + offset - delta
                index = bisect.bisect_left(base_positions, base_pos)
                if index < len(base_positions) and base_positions[index] == base_pos:
                    base, frame = push(base, frame), []
                    if base is base_stacks[index]:
                        self.scanned_chars += pos
                        assert resync is not None
                        return _Stopped(_moved(resync.base.feedback, delta), joined=index)

    def _replay(self, start: StackNode, kinds: list[str]) -> StackNode:
        """The stack after shifting ``kinds`` (which the parser takes) on ``start``."""
        node = start
        for kind in kinds:
            shifted = self.tables.shift(node, kind)
            assert shifted is not None  # ``kinds`` were shifted before
            node = shifted
        return node

    # -- verdicts --------------------------------------------------------------

    def _at_end(self, node: StackNode, length: int) -> Feedback:
        if self.tables.viable(node, END):
            return Feedback(Verdict.COMPLETE)
        return Feedback(Verdict.INCOMPLETE, length, "unexpected end of input")

    def _boundary(self, window: Window, state: ScanState) -> tuple[int, frozenset[str]] | None:
        """Window offset of the character-level parse boundary behind an error
        at ``state.position``, and what the parser expected there; ``None``
        (after growing the window) when it needs more text."""
        acceptable, partial_extent = self.tables.acceptable, self.grammar.partial_extent
        text, size = window.text, len(window.text)
        pos = state.position
        expected = acceptable(state.stack)
        boundary = pos + partial_extent(text, pos, expected, size)
        if state.last_end == pos and state.last_start < pos:
            start = state.last_start
            boundary = max(
                boundary, start + partial_extent(text, start, acceptable(state.before), size)
            )
        if boundary < size or window.complete:
            return boundary, expected
        window.reach(window.offset + 2 * size)
        return None

    def _error(self, window: Window, state: ScanState, bad: list[int]) -> Feedback | None:
        """The verdict on a text the parser cannot go on with at ``state.position``."""
        found = self._boundary(window, state)
        if found is None:
            return None
        boundary, expected = found
        text, offset, pos = window.text, window.offset, state.position
        index = bisect.bisect_left(bad, pos + offset)
        if index < len(bad) and bad[index] <= boundary + offset:
            return Feedback(Verdict.INCORRECT, bad[index], UNDECODABLE_MESSAGE)
        if boundary >= len(text):
            return Feedback(Verdict.INCOMPLETE, window.length, "unexpected end of input")
        where = boundary + offset
        found_text = snippet(text[boundary : boundary + 1])
        if boundary > pos:
            return Feedback(
                Verdict.INCORRECT,
                where,
                f"unexpected `{found_text}` after `{snippet(text[pos:boundary])}`",
            )
        message = f"unexpected `{found_text}`; expected {self.grammar.expected(expected)}"
        return Feedback(Verdict.INCORRECT, where, message)

    def _bad_byte(self, window: Window, state: ScanState, bad_at: int) -> Feedback:
        """A token would swallow an undecodable byte: the byte is the error,
        unless the text is already wrong before it."""
        cut = Window.whole(window.text[:bad_at], window.offset)
        found = self._boundary(cut, state)
        assert found is not None  # the cut window is complete
        boundary, _ = found
        if boundary < bad_at:
            feedback = self._error(cut, state, [])
            assert feedback is not None
            return feedback
        return Feedback(Verdict.INCORRECT, bad_at + window.offset, UNDECODABLE_MESSAGE)


def _moved(feedback: Feedback, delta: int) -> Feedback:
    """``feedback`` about a text whose end moved by ``delta``."""
    if feedback.error_offset is None or delta == 0:
        return feedback
    return Feedback(feedback.verdict, feedback.error_offset + delta, feedback.message)


def _far_alternative(
    watch: tuple[tuple[frozenset[str] | None, Any], ...], text: str, pos: int, end: int
) -> Any:
    """The first long alternative, tried before the token that matched at
    ``pos``, that the text up to one past the token could still grow into
    (lexing the token may have read beyond it); None if there is none."""
    first = text[pos]
    for chars, alternative in watch:
        if (chars is None or first in chars) and alternative.fullmatch(
            text, pos, end + 1, partial=True
        ) is not None:
            return alternative
    return None
