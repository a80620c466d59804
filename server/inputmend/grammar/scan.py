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

Beside the parser, a grammar may have a *layout* (a post-lexer that turns
indentation into tokens, :mod:`~inputmend.grammar.layout`) and *name checks*
(matching tags, declared names, :mod:`~inputmend.grammar.checks`).  Their
states travel with the parser stack: checkpoints keep them (interned, as the
stacks) and a scan rejoins its base only where stack and states are the same.
"""

from __future__ import annotations

import bisect
import functools
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from inputmend.core.oracle import Feedback, Verdict
from inputmend.core.text import UNDECODABLE, UNDECODABLE_MESSAGE, snippet
from inputmend.grammar.checks import Rejected
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lark_internals import END
from inputmend.grammar.layout import Refusal
from inputmend.grammar.lexer import StateScanner, Token
from inputmend.grammar.regex import prefix_extent
from inputmend.grammar.tables import StackInterner, StackNode

LOOKAHEAD = 64  # a match this close to the end of a partial window is re-read with more
STOP_EVERY = 4096  # tokens between two calls of the stop hook
NATIVE_RUN = 8  # tokens a call of the C loop takes for the next one to come right away
NATIVE_PAUSE = 64  # most tokens this loop takes before it calls the C loop again
MARKER_SEARCH = 48  # stacks tried when looking for what a layout's tokens make acceptable
REPLAYS = 4096  # stacks rebuilt from a checkpoint kept for the next scan that stops there
ACCEPTABLE_MEMO = 4096  # stacks whose acceptable terminals are kept
_FAR = 1 << 62  # an offset beyond every text

Stop = Callable[[], None]  # called now and then by long scans; raises to abandon them
Replay = Callable[[StackNode, list[str]], StackNode]  # stack, terminals -> stack after them
Extra = tuple[Hashable, Any]  # the layout's state and the name checks' state


class Lookback:
    """The stack before the last token a scan shifted (and the zero-width
    tokens a layout put before it), rebuilt when asked for (rarely): the
    first ``count`` terminals of ``kinds`` shifted on the interned ``start``."""

    __slots__ = ("_count", "_kinds", "_replay", "_stack", "_start")

    def __init__(self, replay: Replay, start: StackNode, kinds: list[str], count: int) -> None:
        self._replay = replay
        self._start, self._kinds, self._count = start, kinds, count
        self._stack: StackNode | None = None

    @classmethod
    def last(
        cls,
        replay: Replay,
        snapshot: StackNode,
        kinds: list[str],
        previous: StackNode | None,
        previous_kinds: list[str],
    ) -> Lookback:
        """Before the last of the terminals shifted since ``previous`` (then
        ``snapshot``), each on its own (no layout)."""
        if kinds:
            return cls(replay, snapshot, kinds, len(kinds) - 1)
        if previous is not None and previous_kinds:
            return cls(replay, previous, previous_kinds, len(previous_kinds) - 1)
        return cls(replay, snapshot, kinds, 0)  # no token yet

    def stack(self) -> StackNode:
        if self._stack is None:
            self._stack = self._replay(self._start, self._kinds[: self._count])
        return self._stack


class ScanState(NamedTuple):
    """Where a scan is: the parser stack, the last token's span
    (``last_end < last_start`` before any token), the lexer position,
    :attr:`before`, the stack before the last token, and ``extra``, the
    states of the layout and of the name checks (``(None, None)`` without)."""

    stack: StackNode
    lookback: Lookback
    last_start: int
    last_end: int
    position: int
    extra: Extra = (None, None)

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
            self.extra,
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
    extras: list[Extra]
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
    _extras: list[Extra] = field(default_factory=list)
    _splice: _Splice | None = field(default=None, repr=False)  # checkpoints not built yet
    _far_starts: list[int] | None = field(default=None, repr=False)
    _far_reaches: list[int] = field(default_factory=list, repr=False)

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

    @property
    def extras(self) -> list[Extra]:
        """The layout's and name checks' states at the checkpoints (interned)."""
        if self._splice is not None:
            self._build_checkpoints(self._splice)
        return self._extras

    def _build_checkpoints(self, splice: _Splice) -> None:
        base, keep, positions, stacks, extras, joined, delta = splice
        self._positions = base.positions[:keep] + positions
        self._stacks = base.stacks[:keep] + stacks
        self._extras = base.extras[:keep] + extras
        if joined is not None:
            self._positions.extend(p + delta for p in base.positions[joined + 1 :])
            self._stacks.extend(base.stacks[joined + 1 :])
            self._extras.extend(base.extras[joined + 1 :])
        self._splice = None

    def before(self, offset: int) -> int:
        """Index of the last checkpoint at or before ``offset``."""
        return max(0, bisect.bisect_right(self.positions, offset) - 1)

    def far_until(self, offset: int) -> int:
        """How many of the far reads (sorted by start) start before ``offset``."""
        return bisect.bisect_left(self._far_index()[0], offset)

    def resume_for(self, edit: int, resume: int) -> int:
        """Where to resume for an edit at ``edit``: ``resume``, or the start of
        the first token before it whose lexing read up to the edit."""
        starts, reaches = self._far_index()
        first = bisect.bisect_left(reaches, edit, 0, bisect.bisect_left(starts, resume))
        return self.far[first].start if first < len(starts) and starts[first] < resume else resume

    def _far_index(self) -> tuple[list[int], list[int]]:
        """The starts of the far reads and the furthest reach up to each."""
        if self._far_starts is None or len(self._far_starts) != len(self.far):
            reaches, furthest = [], -1
            for read in self.far:
                furthest = max(furthest, read.reach)
                reaches.append(furthest)
            self._far_starts, self._far_reaches = [read.start for read in self.far], reaches
        return self._far_starts, self._far_reaches


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


def _nothing(start: int, end: int) -> str:
    """The source of a complete window: nothing beyond it to read."""
    return ""


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
        """A complete window over ``text``, which starts at ``offset`` (made
        without :meth:`__init__`'s first read: a search scans thousands of
        short texts whole, and this is part of each scan's cost)."""
        window = cls.__new__(cls)
        window.source, window.offset = _nothing, offset
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
    checkpoints (positions, interned stacks and extras) when ``checkpoints``,
    the tokens whose lexing read far ahead, and the tokens when ``tokens`` is
    a list."""

    __slots__ = ("checkpoints", "extras", "far", "positions", "stacks", "tokens")

    def __init__(
        self,
        *,
        checkpoints: bool,
        far: list[FarRead] | None = None,
        tokens: list[Token] | None = None,
    ) -> None:
        self.checkpoints = checkpoints
        self.positions: list[int] = []
        self.stacks: list[StackNode] = []
        self.extras: list[Extra] = []
        self.far = [] if far is None else far
        self.tokens = tokens


_Group = tuple[StackNode, list[str], int]  # the first ``count`` of ``kinds`` on ``start``


class _Stopped(NamedTuple):
    """How a pass ended: the verdict, where lexing stopped (complete and
    incomplete texts), the base checkpoint it rejoined, if it did, and
    whether it stopped before its first token (so without knowing the token
    before the error or the end, which a boundary may extend through)."""

    feedback: Feedback
    end: ScanState | None = None
    joined: int | None = None
    blind: bool = False


_ExtentPlan = tuple[Callable[[int, str, int, int], int] | None, tuple[tuple[str, int | None], ...]]
"""The C function for a terminal's extent and the terminals to try, each with its
number for the C function (None: the Python code tells), kept for
:meth:`Scanner._extent`."""


class _Shared:
    """What a grammar's scanners learn that depends on the grammar alone,
    shared by all of them: a library call builds a new oracle, and its
    scanner would otherwise learn it anew for each small text."""

    def __init__(self, grammar: CompiledGrammar) -> None:
        terminals = {name for row in grammar.tables.actions.values() for name in row}
        self.markers = sorted(terminals - set(grammar.terminals) - {END})  # zero-width tokens
        self.after_markers: dict[tuple[int, ...], frozenset[str]] = {}
        self.expected: dict[frozenset[str], str] = {}
        self.extent_plans: dict[tuple[frozenset[str], str], _ExtentPlan] = {}


_SHARED: weakref.WeakKeyDictionary[CompiledGrammar, _Shared] = weakref.WeakKeyDictionary()


def _shared(grammar: CompiledGrammar) -> _Shared:
    """The :class:`_Shared` of ``grammar``, made on first use."""
    found = _SHARED.get(grammar)
    if found is None:
        found = _SHARED[grammar] = _Shared(grammar)
    return found


def _undecodable(text: str) -> list[int]:
    """Where ``text`` holds undecodable bytes (escapes beyond ASCII: an ASCII
    text, most of them, is answered without a regex pass)."""
    return [] if text.isascii() else [found.start() for found in UNDECODABLE.finditer(text)]


class Scanner:
    """Incremental scans of texts of one grammar.  Every method takes ``stop``,
    called every few thousand tokens; it may raise to abandon the scan."""

    def __init__(self, grammar: CompiledGrammar, *, checkpoint_every: int, margin: int) -> None:
        self.grammar = grammar
        self.tables = grammar.tables
        self.scanners: dict[int, StateScanner] = grammar.scanners
        self.interner = StackInterner(self.tables)
        self.layout = grammar.layout
        self.checks = grammar.checks
        self._extras: dict[Extra, Extra] = {}
        self._plain_extra: Extra | None = None  # initial_extra() without layout and checks
        shared = _shared(grammar)
        self._markers = shared.markers
        self._after_markers_memo = shared.after_markers
        self._expected_memo = shared.expected
        self._extent_plans = shared.extent_plans
        self._replays: dict[tuple[StackNode | str, ...], StackNode] = {}  # see _replay
        self._acceptable_memo: dict[StackNode, frozenset[str]] = {}  # see _acceptable
        self.native = grammar.native_program
        self.program = None if self.native is None else self.native.program  # the loop in C
        self.checkpoint_every = checkpoint_every
        self.margin = margin  # characters re-read before an edit (a token may end there)
        self.scanned_chars = 0  # characters lexed: shows how much work was reused

    def intern_extra(self, extra: Extra) -> Extra:
        """The one object equal to ``extra`` (states compare by identity)."""
        found = self._extras.get(extra)
        if found is None:
            if len(self._extras) > 65536:
                self._extras.clear()  # a state made again later only rejoins less
            found = self._extras[extra] = extra
        return found

    def initial_extra(self) -> Extra:
        if self.layout is None and self.checks is None:
            # (the same interned pair every time: a scan asks twice)
            if self._plain_extra is None:
                self._plain_extra = self.intern_extra((None, None))
            return self._plain_extra
        layout = self.layout.initial() if self.layout is not None else None
        checks = self.checks.initial if self.checks is not None else None
        return self.intern_extra((layout, checks))

    def clear(self) -> None:
        """Forget the interned stacks and states."""
        self.interner.clear()
        self._extras.clear()
        self._plain_extra = None
        self._replays.clear()
        self._acceptable_memo.clear()
        if self.checks is not None:
            self.checks.clear()

    def fresh(self, text: str, *, stop: Stop | None = None) -> Scan:
        """Scan ``text`` from its start."""
        root, extra = self.interner.root, self.initial_extra()
        bad = _undecodable(text)
        if self.program is not None and self.layout is None and self.checks is None:
            scan = self._fresh_in_c(text, extra, bad)
            if scan is not None:
                return scan
        return self._scan(text, Window.whole(text), root, extra, bad, stop)

    def _fresh_in_c(self, text: str, extra: Extra, bad: list[int]) -> Scan | None:
        """:meth:`fresh`'s scan of ``text`` (a grammar without layout and
        checks) when the C loop takes it to its end or to its error in one
        call, as :meth:`_run` would find it, without :meth:`_run`'s set-up
        and loop (most of a short text's scan); None when the C loop stops
        for anything else (a token it leaves to Python, the stop hook's
        turn), for :meth:`_run` to scan it.  A search checks
        thousands of short texts, most of them wrong in a few tokens."""
        program, interner, native = self.program, self.interner, self.native
        assert program is not None and native is not None
        root, size = interner.root, len(text)
        positions, stacks, extras = [0], [root], [extra]
        while True:
            (pos, base, frame, count, snapshot, kinds, previous, previous_kinds,
             last_start, last_end, no_token_at, _, _, stuck_kind, _) = program.run(
                interner, text, 0, size, True, size + 1, root, [], 0,
                self.checkpoint_every, STOP_EVERY, bad[0] if bad else _FAR, root, [], None, [],
                0, -1, positions, stacks, extras, extra, 0,
            )  # fmt: skip
            state = frame[-1] if frame else base.state
            if not native.install_for(state):
                break
            del positions[1:], stacks[1:], extras[1:]  # (it lacked the DFA of this state)
        if count >= STOP_EVERY:
            return None  # the stop hook's turn
        here = (None, None)
        # (:meth:`Lookback.last`, inline: one object fewer per scan)
        if kinds:
            lookback = Lookback(self._replay, snapshot, kinds, len(kinds) - 1)
        elif previous is not None and previous_kinds:
            lookback = Lookback(self._replay, previous, previous_kinds, len(previous_kinds) - 1)
        else:
            lookback = Lookback(self._replay, snapshot, kinds, 0)
        end: ScanState | None
        if pos >= size:  # the text ends here
            node = interner.push(base, frame)
            end = ScanState(node, lookback, last_start, last_end, pos, here)
            feedback = self._at_end(node, None, size)
        elif pos == no_token_at or stuck_kind is not None:  # an error at ``pos``
            # the stack before the token: as it is, or before the reductions
            # the token called for (the parse step's, which it cannot shift)
            action = None if stuck_kind is None else self.tables.actions[state].get(stuck_kind)
            reduced = action is not None and action < 0
            node = self._replay(snapshot, kinds) if reduced else interner.push(base, frame)
            at = ScanState(node, lookback, last_start, last_end, pos, here)
            found = self._error(Window.whole(text), at, bad)
            assert found is not None  # (the window is the whole text)
            feedback = found
            end = at if feedback.verdict is Verdict.INCOMPLETE else None
        else:
            return None
        self.scanned_chars += pos
        return Scan(
            feedback,
            size,
            bad,
            [],
            end=end,
            _text=text,
            _positions=positions,
            _stacks=stacks,
            _extras=extras,
        )

    def resume(
        self,
        text: str,
        offset: int,
        node: StackNode,
        extra: Extra,
        *,
        bad: list[int] | None = None,
        stop: Stop | None = None,
    ) -> Scan:
        """Scan ``text`` from ``offset`` on, starting in the parser state
        ``node`` and ``extra`` (a checkpoint of another scan, whose text
        before it may differ from ``text``'s, which is never read): the
        first checkpoint of the result is at ``offset``, and its edits must
        start there or later.  ``bad``: :func:`_undecodable` of ``text``,
        when known (it is a pass over the whole text)."""
        bad = _undecodable(text) if bad is None else bad
        window = Window(lambda a, b: text[a:b], offset, len(text))
        return self._scan(text, window, node, extra, bad, stop)

    def _scan(
        self,
        text: str,
        window: Window,
        node: StackNode,
        extra: Extra,
        bad: list[int],
        stop: Stop | None,
    ) -> Scan:
        """The scan of ``text`` over ``window`` from the parser state ``node``
        and ``extra`` at the window's start, its first checkpoint."""
        trace = _Trace(checkpoints=True)
        trace.positions.append(window.offset)
        trace.stacks.append(node)
        trace.extras.append(extra)
        stopped = self._run(window, node, extra, bad, trace, stop=stop)
        return Scan(
            stopped.feedback,
            len(text),
            bad,
            trace.far,
            end=stopped.end,
            _text=text,
            _positions=trace.positions,
            _stacks=trace.stacks,
            _extras=trace.extras,
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
        bad += [start + offset for offset in _undecodable(insert)]
        bad += [b + delta for b in base.bad if b >= end]
        resume = base.resume_for(start, max(0, start - self.margin))
        index = base.before(resume)
        while True:
            trace = _Trace(checkpoints=True, far=base.far[: base.far_until(base.positions[index])])
            window = Window(edited.slice, base.positions[index], edited.length)
            stopped = self._run(
                window,
                base.stacks[index],
                base.extras[index],
                bad,
                trace,
                resync=_Resync(base, delta, edit_end),
                stop=stop,
            )
            if not stopped.blind or index == 0:
                break
            index -= 1  # the token before the checkpoint matters: read it too
        end_state = stopped.end
        if stopped.joined is not None:
            join_offset = base.positions[stopped.joined]
            trace.far += [
                FarRead(r.start + delta, r.reach + delta)
                for r in base.far[base.far_until(join_offset) :]
            ]
            if base.end is not None:
                end_state = base.end.shifted(delta)
        scan = Scan(stopped.feedback, edited.length, bad, trace.far, end=end_state, _edited=edited)
        scan._splice = _Splice(
            base, index + 1, trace.positions, trace.stacks, trace.extras, stopped.joined, delta
        )
        return scan

    def tokens(self, text: str, *, stop: Stop | None = None) -> list[Token]:
        """The tokens lark's contextual lexer produces, up to the first error
        (with a layout: the tokens of the text, not the ones it adds)."""
        bad = _undecodable(text)
        trace = _Trace(checkpoints=False, tokens=[])
        self._run(
            Window.whole(text), self.interner.root, self.initial_extra(), bad, trace, stop=stop
        )
        assert trace.tokens is not None
        return trace.tokens

    # -- the scanner loop ------------------------------------------------------

    def _run(
        self,
        window: Window,
        node: StackNode,
        extra: Extra,
        bad: list[int],
        trace: _Trace,
        *,
        resync: _Resync | None = None,
        stop: Stop | None = None,
    ) -> _Stopped:
        """Lex and parse from the start of ``window`` on the interned stack
        ``node`` (and the interned layout and check states ``extra``) until
        the text ends, an error, or (with ``resync``) the base is rejoined.

        The stack is kept as the states ``frame`` pushed on the persistent
        stack ``base``, like the list of states of any LR parser, and becomes
        persistent (interned) every ``checkpoint_every`` tokens: entries that
        reductions pop before then are never allocated.  ``snapshot`` is the
        last interned stack and ``kinds`` the terminals shifted since, so any
        stack of the last tokens can be rebuilt (:meth:`_replay`).

        With a layout, each token of the text may come with zero-width
        tokens (``markers``) shifted before it; ``group`` remembers where the
        last token's group began, the stack its boundary may look back to."""
        scanners, push, replay = self.scanners, self.interner.push, self._replay
        actions, gotos, reductions = self.tables.actions, self.tables.gotos, self.tables.reductions
        ignored = self.grammar.ignored
        layout, checks = self.layout, self.checks
        checked_terminals = checks.terminals if checks is not None else frozenset()
        blanks = layout.blanks if layout is not None else frozenset()
        layout_state, check_state = extra
        every, margin = self.checkpoint_every, self.margin
        plain = layout is None and checks is None
        plain_extra = self.initial_extra() if plain else extra
        record, tokens = trace.checkpoints, trace.tokens
        offset = window.offset
        text = window.text
        size = len(text)
        complete = window.complete
        bad_index = bisect.bisect_left(bad, offset)
        next_bad = (bad[bad_index] - offset) if bad_index < len(bad) else _FAR
        base_positions: list[int] = []
        base_stacks: list[StackNode] = []
        base_extras: list[Extra] = []
        delta = 0
        resync_from = _FAR
        if resync is not None:
            base_positions, base_stacks = resync.base.positions, resync.base.stacks
            base_extras = resync.base.extras
            delta = resync.delta
            resync_from = resync.edit_end - offset
        base, state = node, node.state
        frame: list[int] = []  # states pushed on ``base``
        snapshot = node
        kinds: list[str] = []
        previous: StackNode | None = None
        previous_kinds: list[str] = []
        group: _Group | None = None  # (layouts) where the last token's group began
        group_now: _Group | None = None  # and the current one's
        markers: tuple[str, ...] = ()  # (layouts) zero-width tokens before the next token
        shifted_markers = 0  # (layouts) how many of them are shifted
        prepared = -1  # (layouts) the position the layout has seen before lexing
        forced: tuple[str, int] | None = None  # (layouts) a token the layout lexed
        pos = 0
        count = 0
        last_start, last_end = 0, -1
        kind = ""
        end = 0
        # the C loop takes the tokens it can, from ``native_from`` on: it
        # stops before one it cannot take as this loop would, which this
        # loop then takes (not with a token list to record)
        program = self.program if plain and tokens is None else None
        native_from = native_after = native_pause = 0
        no_token_at = -1  # where the C loop found that no terminal matches
        no_token_size = 0  # in a window of this size
        stuck_kind: str | None = None  # the token the C loop stopped before, the parser
        stuck_end, stuck_at = -1, -1  # cannot take: its end, and where it starts
        while True:
            if program is not None and pos >= native_from and count >= native_after:
                limit = min(resync_from, size + 1 if complete else size - LOOKAHEAD)
                counted = count
                (pos, base, frame, count, snapshot, kinds, previous, previous_kinds,
                 last_start, last_end, no_token_at, cut_end, cut_reach, stuck_kind,
                 stuck_end) = program.run(
                    self.interner, text, pos, size, complete, limit, base, frame, count,
                    every, STOP_EVERY, next_bad, snapshot, kinds, previous, previous_kinds,
                    last_start, last_end, trace.positions if record else None,
                    trace.stacks, trace.extras, plain_extra, offset,
                )  # fmt: skip
                state = frame[-1] if frame else base.state
                no_token_size = size
                stuck_at = pos if stuck_kind is not None else -1
                assert self.native is not None
                if self.native.install_for(state):  # it lacked the DFA of this state: go on
                    continue
                if not complete and (cut_reach >= size or cut_end >= max(0, size - LOOKAHEAD)):
                    # the window may cut the next token short, as this loop would find
                    # (a long string read again for each window): read on in C
                    window.reach(offset + 2 * size)
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                native_from = pos + 1
                if count - counted < NATIVE_RUN and no_token_at != pos:
                    # it stopped early before a token it could not take: this loop goes on a while
                    native_pause = min(2 * native_pause or 1, NATIVE_PAUSE)
                    native_after = count + native_pause
                else:
                    native_pause = 0
                if stop is not None and count - counted >= STOP_EVERY:
                    stop()
            action = None
            marker = lexed = reduced = False
            refusal: str | None = None
            if shifted_markers < len(markers):
                kind = markers[shifted_markers]
                shifted_markers += 1
                end = pos
                marker = lexed = True
            else:
                if pos >= size:
                    if not complete:
                        window.reach(offset + size + 1)
                        text, size, complete = window.text, len(window.text), window.complete
                        continue
                    self.scanned_chars += pos
                    node = push(base, frame)
                    lookback = self._lookback(group, snapshot, kinds, previous, previous_kinds)
                    end_state = ScanState(
                        node,
                        lookback,
                        last_start + offset,
                        last_end + offset,
                        pos + offset,
                        (layout_state, check_state),
                    )
                    verdict = self._at_end(node, layout_state, offset + size)
                    return _Stopped(verdict, end_state, blind=last_end < 0)
                if layout is not None and prepared != pos:
                    forced = None
                    if text[pos] not in blanks:  # (where a token of the text may start)
                        before = layout.before(layout_state, text, pos, complete)
                        if before is None:  # the layout needs more text
                            window.reach(offset + 2 * size)
                            text, size, complete = window.text, len(window.text), window.complete
                            continue
                        if isinstance(before, Refusal):
                            refusal = before.message
                        else:
                            prepared, forced = pos, before.token
                            group_now = (snapshot, kinds, len(kinds))
                            layout_state = before.state
                            if before.reach - pos > margin:  # (read before the token's end)
                                trace.far.append(FarRead(pos + offset, before.reach + offset))
                            if before.markers:
                                markers, shifted_markers = before.markers, 0
                                continue
                match = None
                if refusal is not None:
                    pass
                elif forced is not None:
                    kind, end = forced
                    lexed = True
                else:
                    # lex step: the token at ``pos``, by the scanner of this parser state
                    scanner = scanners[state]
                    told = pos == no_token_at and size == no_token_size
                    if pos == stuck_at and size == no_token_size:
                        # the C loop lexed it and stopped before it: only the parse step is left
                        assert stuck_kind is not None
                        kind, end, lexed, told = stuck_kind, stuck_end, True, True
                    for pattern in scanner.regexes if not told else ():
                        match = pattern.match(text, pos)
                        if match is not None:
                            break
                    if match is not None and match.end() + LOOKAHEAD >= size and not complete:
                        # near the end of the window the match may be cut short (`1.` of
                        # `1.5`): look at more text first (the C loop too)
                        window.reach(offset + 2 * size)
                        text, size, complete = window.text, len(window.text), window.complete
                        native_from, native_after = min(native_from, pos), count
                        continue
                    if match is not None:
                        end = match.end()
                        kind = match.lastgroup
                        lexed = True
                        watch = scanner.watch.get(kind)
                        if watch is not None:
                            alternative = _far_alternative(watch, text, pos, end)
                            if alternative is not None:
                                if not complete:
                                    # the alternative failed on a window that ends
                                    # inside it: on the whole text it may win
                                    window.reach(window.length)
                                    text, size, complete = window.text, len(window.text), True
                                    continue
                                reach = pos + prefix_extent(alternative, text, pos, size)
                                trace.far.append(FarRead(pos + offset, reach + offset))
                if lexed and layout is not None:
                    after = layout.after(layout_state, kind, text, pos, end, complete)
                    if after is None:  # the token may go on beyond the window
                        window.reach(offset + 2 * size)
                        text, size, complete = window.text, len(window.text), window.complete
                        continue
                    if isinstance(after, Refusal):
                        refusal, lexed = after.message, False
                    else:
                        layout_state = after.state
                        if after.token is not None:
                            end = after.token[1]
                        if after.reach - end > margin:
                            trace.far.append(FarRead(pos + offset, after.reach + offset))
                if lexed:
                    if end > next_bad:
                        self.scanned_chars += pos
                        lookback = self._lookback(group, snapshot, kinds, previous, previous_kinds)
                        here = (layout_state, check_state)
                        at = ScanState(push(base, frame), lookback, last_start, last_end, pos, here)
                        return _Stopped(self._bad_byte(window, at, next_bad), blind=last_end < 0)
                    if kind in ignored:
                        pos = end
                        if layout is None:
                            continue
                        action = -1  # (with a layout, layout tokens count for checkpoints)
                    if match is not None:
                        retype = scanner.retype.get(kind)
                        if retype is not None:
                            kind = retype(match.group()) or kind
            if lexed and action is None:
                # parse step: the reductions the token calls for, then its shift
                action = actions[state].get(kind)
                reduced = action is not None and action < 0
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
            if action is not None and action >= 0 and kind in checked_terminals and not marker:
                assert checks is not None
                checked = checks.step(check_state, kind, text[pos:end])
                if isinstance(checked, Rejected):
                    self.scanned_chars += pos
                    node = replay(snapshot, kinds)
                    lookback = self._lookback(group, snapshot, kinds, previous, previous_kinds)
                    here = (layout_state, check_state)
                    at = ScanState(node, lookback, last_start, last_end, pos, here)
                    return self._rejected(window, at, checked)._replace(blind=last_end < 0)
                check_state = checked
            if action is None:  # the parser cannot go on here
                # the stack before the token: as the parse step left it, unless
                # it reduced it (then rebuilt from the last interned stack)
                node = replay(snapshot, kinds) if lexed and reduced else push(base, frame)
                lookback = self._lookback(group, snapshot, kinds, previous, previous_kinds)
                here = (layout_state, check_state)
                at = ScanState(node, lookback, last_start, last_end, pos, here)
                outcome = self._error(window, at, bad, refusal)
                if outcome is None:  # the window was too short to tell: grown, retry
                    if kinds:  # (the stack before the last token stays known)
                        previous, previous_kinds = snapshot, kinds
                    base, frame, state = self.interner.intern(node), [], node.state
                    snapshot, kinds = base, []
                    native_from, native_after = min(native_from, pos), count
                    if marker:
                        shifted_markers -= 1
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                self.scanned_chars += pos
                if outcome.verdict is Verdict.INCOMPLETE:  # the text ends in a partial token
                    return _Stopped(outcome, at.shifted(offset), blind=last_end < 0)
                return _Stopped(outcome, blind=last_end < 0)
            if action >= 0:
                frame.append(action)
                state = action
                kinds.append(kind)
                if marker:
                    continue
                if layout is not None:
                    group = group_now
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
                    trace.extras.append(
                        plain_extra if plain else self.intern_extra((layout_state, check_state))
                    )
            if pos >= resync_from:
                base_pos = pos + offset - delta
                index = bisect.bisect_left(base_positions, base_pos)
                if index == len(base_positions):
                    # past the base's last checkpoint (it stopped at an error
                    # before): nothing to rejoin, the C loop reads on
                    resync_from = _FAR
                elif base_positions[index] == base_pos:
                    base, frame = push(base, frame), []
                    # (equal states are interchangeable: no need to intern this one)
                    if base is base_stacks[index] and (
                        plain or base_extras[index] == (layout_state, check_state)
                    ):
                        self.scanned_chars += pos
                        assert resync is not None
                        return _Stopped(_moved(resync.base.feedback, delta), joined=index)

    def _lookback(
        self,
        group: _Group | None,
        snapshot: StackNode,
        kinds: list[str],
        previous: StackNode | None,
        previous_kinds: list[str],
    ) -> Lookback:
        """How to rebuild the stack before the last token (see :class:`Lookback`)."""
        if group is not None:
            start, group_kinds, count = group
            return Lookback(self._replay, start, group_kinds, count)
        return Lookback.last(self._replay, snapshot, kinds, previous, previous_kinds)

    def _replay(self, start: StackNode, kinds: list[str]) -> StackNode:
        """The stack after shifting ``kinds`` (which the parser takes) on ``start``,
        made once for each interned ``start`` and ``kinds``: the texts a search
        checks share their start, so their scans stop with the same tokens
        since the same checkpoint (each shift is a Python step, and a scan of
        a short text in C costs a few of them)."""
        key: tuple[StackNode | str, ...] = (start, *kinds)
        node = self._replays.get(key)
        if node is None:
            node = start
            for kind in kinds:
                shifted = self.tables.shift(node, kind)
                assert shifted is not None  # ``kinds`` were shifted before
                node = shifted
            if len(self._replays) > REPLAYS:
                self._replays.clear()
            self._replays[key] = node
        return node

    # -- verdicts --------------------------------------------------------------

    def _at_end(self, node: StackNode, layout_state: Hashable, length: int) -> Feedback:
        """The verdict at the end of a text the parser took so far: complete if
        the input may end here (after the tokens the layout closes it with)."""
        incomplete = Feedback(Verdict.INCOMPLETE, length, "unexpected end of input")
        if self.layout is not None:
            finish = self.layout.finish(layout_state)
            if isinstance(finish, Refusal):
                return incomplete
            for marker in finish.markers:
                shifted = self.tables.shift(node, marker)
                if shifted is None:
                    return incomplete
                node = shifted
        if self.tables.viable(node, END):
            return Feedback(Verdict.COMPLETE)
        return incomplete

    def _limit(self, state: ScanState) -> Callable[[str, str], int] | None:
        """How far the name checks let a partial token of a terminal go."""
        checks = self.checks
        if checks is None:
            return None
        check_state = state.extra[1]

        def limit(terminal: str, piece: str) -> int:
            return checks.limit(check_state, terminal, piece)

        return limit

    def _boundary(self, window: Window, state: ScanState) -> tuple[int, frozenset[str]] | None:
        """Window offset of the character-level parse boundary behind an error
        at ``state.position``, and what the parser expected there; ``None``
        (after growing the window) when it needs more text.

        With a layout, the characters after the error decided how the layout
        read it (YAML's ``- `` is an entry, ``-x`` a scalar): what the parser
        would take after the layout's zero-width tokens counts too."""
        acceptable, extent = self._acceptable, self._extent
        text, size = window.text, len(window.text)
        pos = state.position
        limit = self._limit(state)
        expected = acceptable(state.stack)
        boundary = pos + extent(text, pos, expected, size, limit)
        if boundary < size and state.last_end == pos and state.last_start < pos:
            # (a boundary at the end already is as far as one can go)
            start = state.last_start
            before = acceptable(state.before)
            boundary = max(boundary, start + extent(text, start, before, size, limit))
        if boundary < size or window.complete:
            return boundary, expected
        window.reach(window.offset + 2 * size)
        return None

    def _extent(
        self,
        text: str,
        start: int,
        terminals: frozenset[str],
        size: int,
        limit: Callable[[str, str], int] | None,
    ) -> int:
        """The grammar's :meth:`~CompiledGrammar.partial_extent` of ``text``
        from ``start`` for ``terminals``, with the terminals to try kept for
        each set and first character: a search's failing texts stop on the
        same few stacks before the same few characters, and working the
        terminals out anew was half of the error's cost."""
        if start >= size:
            return 0
        key = (terminals, text[start])
        plan = self._extent_plans.get(key)
        if plan is None:
            plan = self._extent_plan(terminals, key[1])
            if len(self._extent_plans) > 4096:
                self._extent_plans.clear()
            self._extent_plans[key] = plan
        native_extent, names = plan
        patterns = self.grammar.patterns
        best = 0
        for name, number in names:
            found = -1
            if number is not None and native_extent is not None:
                found = native_extent(number, text, start, size)
            if found < 0:
                found = prefix_extent(patterns[name], text, start, size)
            if found and limit is not None:
                found = limit(name, text[start : start + found])
            if found > best:
                best = found
        return best

    def _extent_plan(self, terminals: frozenset[str], char: str) -> _ExtentPlan:
        """The terminals whose partial tokens :meth:`_extent` measures from
        ``char`` (those of ``terminals`` and the ignored ones that may start
        with it), in a fixed order, and how to measure each."""
        grammar = self.grammar
        names = tuple(sorted((terminals | grammar.ignored) & grammar.starters(char)))
        if self.native is None:
            return None, tuple((name, None) for name in names)
        native_extent, numbers = self.native.extent_numbers(names)
        return native_extent, tuple(zip(names, numbers, strict=True))

    def _acceptable(self, stack: StackNode) -> frozenset[str]:
        """What the parser takes next on ``stack`` (:meth:`_after_markers`
        with a layout), kept for each stack object: a search's texts stop
        on the same few interned stacks, and the tables' memo reads the top
        of each stack before it answers."""
        found = self._acceptable_memo.get(stack)
        if found is None:
            if self.layout is None:
                found = self.tables.acceptable(stack)
            else:
                found = self._after_markers(stack)
            if len(self._acceptable_memo) > ACCEPTABLE_MEMO:
                self._acceptable_memo.clear()
            self._acceptable_memo[stack] = found
        return found

    def _after_markers(self, stack: StackNode) -> frozenset[str]:
        """The terminals of the text the parser takes on ``stack`` or after a
        few of the layout's zero-width tokens (a bounded search, memoized on
        the stack's states)."""
        key = tuple(stack.states())
        found = self._after_markers_memo.get(key)
        if found is None:
            reached: set[str] = set()
            pending, seen = [stack], 0
            while pending and seen < MARKER_SEARCH:
                node = pending.pop()
                seen += 1
                reached |= self.tables.acceptable(node)
                for marker in self._markers:
                    shifted = self.tables.shift(node, marker)
                    if shifted is not None:
                        pending.append(shifted)
            found = frozenset(reached & set(self.grammar.terminals))
            if len(self._after_markers_memo) > 4096:
                self._after_markers_memo.clear()
            self._after_markers_memo[key] = found
        return found

    def _error(
        self, window: Window, state: ScanState, bad: list[int], refusal: str | None = None
    ) -> Feedback | None:
        """The verdict on a text the parser (or the layout, saying ``refusal``)
        cannot go on with at ``state.position``."""
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
        found_text = _char_snippet(text[boundary : boundary + 1])
        if boundary > pos:
            return Feedback(
                Verdict.INCORRECT,
                where,
                f"unexpected `{found_text}` after `{snippet(text[pos:boundary])}`",
            )
        if refusal is not None:
            return Feedback(Verdict.INCORRECT, where, f"unexpected `{found_text}`: {refusal}")
        message = f"unexpected `{found_text}`; expected {self._expected(expected)}"
        return Feedback(Verdict.INCORRECT, where, message)

    def _expected(self, terminals: frozenset[str]) -> str:
        """The grammar's list of ``terminals`` for an error message, made
        once for each set: most rejections of one grammar's texts expect one
        of a few sets, and a search's checks are mostly rejections."""
        found = self._expected_memo.get(terminals)
        if found is None:
            if len(self._expected_memo) > 4096:
                self._expected_memo.clear()
            found = self._expected_memo[terminals] = self.grammar.expected(terminals)
        return found

    def _rejected(self, window: Window, state: ScanState, rejected: Rejected) -> _Stopped:
        """A name check rejects the token at ``state.position``: the text is
        incorrect where the check says, or incomplete if that is its end."""
        where = window.offset + state.position + rejected.offset
        if where >= window.length:
            feedback = Feedback(Verdict.INCOMPLETE, window.length, "unexpected end of input")
            return _Stopped(feedback, state.shifted(window.offset))
        return _Stopped(Feedback(Verdict.INCORRECT, where, rejected.message, beyond_syntax=True))

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


@functools.lru_cache(maxsize=1024)
def _char_snippet(char: str) -> str:
    """:func:`snippet` of one character (an error message shows the one at
    the error, and a search's messages show the same few)."""
    return snippet(char)


def _moved(feedback: Feedback, delta: int) -> Feedback:
    """``feedback`` about a text whose end moved by ``delta``."""
    if feedback.error_offset is None or delta == 0:
        return feedback
    return replace(feedback, error_offset=feedback.error_offset + delta)


def _far_alternative(watch: tuple[tuple[Any, Any], ...], text: str, pos: int, end: int) -> Any:
    """The first long alternative, tried before the token that matched at
    ``pos``, that the text up to one past the token could still grow into
    (lexing the token may have read beyond it); None if there is none."""
    first = text[pos]
    for chars, alternative in watch:
        if (chars is None or chars.match(first)) and alternative.fullmatch(
            text, pos, end + 1, partial=True
        ) is not None:
            return alternative
    return None
