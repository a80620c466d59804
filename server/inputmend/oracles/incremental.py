"""Incremental three-way grammar oracle over lark's LALR tables.

One linear scan of a document records *checkpoints*: the lexer position and
the parser stack at every K-th token boundary.  Parser stacks are persistent
linked lists (a push allocates one node and shares the rest), so keeping a
stack costs nothing.  Checkpointed stacks are hash-consed: equal stacks are
the same object, so comparing two of them is one identity test.

Checking an edited text (:meth:`IncrementalGrammarOracle.edit`):

* the scan resumes from the base's last checkpoint safely before the edit,
  lexing a window of the new text that grows only as far as the scan goes;
* once past the edit, at a token boundary where the base has a checkpoint
  with the same remaining suffix and the same (identical) stack, everything
  after it is known from the base: the scan stops and reuses the base's
  verdict (*resynchronization*).

So a prefix check or a small edit costs time proportional to the distance
from the checkpoint before the edit to the resynchronization point, not to
the document length.  :meth:`check` accepts any text: it finds the most
similar recent scan, derives the edit from the common prefix and suffix, and
calls :meth:`edit`.

Lexing uses lark's own contextual scanners, so tokens are exactly lark's.
Where lexing a token looked at text far beyond it (an alternative such as a
``/* ... */`` comment that scanned ahead and failed), the token is recorded,
and a later edit in that range resumes before it.  A prefix that ends inside
a token is INCOMPLETE when the partial token can still grow into a token the
parser accepts there.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from re import _constants as sre_constants
from re import _parser as sre_parse
from typing import Any

import lark
from lark.parsers.lalr_analysis import Shift

from inputmend.core.text import UNDECODABLE, UNDECODABLE_MESSAGE, snippet
from inputmend.oracles.base import Feedback, Verdict
from inputmend.oracles.grammar import CompiledGrammar, prefix_extent

_END = "$END"
_LONG = 64  # terminals that can match more than this many characters are watched
_LOOKAHEAD = 64  # a match this close to the end of a partial window is re-read with more

# A stack node is a mutable list [state, parent, canonical]: lists are the
# cheapest mutable objects to allocate, and canonicalization rewires parents.
Node = list[Any]


# --------------------------------------------------------------------- tables
def _first_chars(pattern: str) -> frozenset[str] | None:
    """Characters a match of ``pattern`` can start with (``None``: any)."""
    try:
        parsed = sre_parse.parse(pattern)
    except re.error:
        return None
    return _first_of_sequence(list(parsed))


def _first_of_sequence(items: list[Any]) -> frozenset[str] | None:
    result: set[str] = set()
    for op, arg in items:
        first, nullable = _first_of_item(op, arg)
        if first is None:
            return None
        result |= first
        if not nullable:
            return frozenset(result)
    return None  # the sequence can match the empty string: anything may follow


def _first_of_item(op: Any, arg: Any) -> tuple[frozenset[str] | None, bool]:
    if op is sre_constants.LITERAL:
        return frozenset(chr(arg)), False
    if op is sre_constants.IN:
        chars: set[str] = set()
        for kind, value in arg:
            if kind is sre_constants.LITERAL:
                chars.add(chr(value))
            elif kind is sre_constants.RANGE and value[1] - value[0] < 1024:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            else:
                return None, False
        return frozenset(chars), False
    if op is sre_constants.SUBPATTERN:
        first = _first_of_sequence(list(arg[-1]))
        return first, first is None
    if op is sre_constants.BRANCH:
        union: set[str] = set()
        for branch in arg[1]:
            first = _first_of_sequence(list(branch))
            if first is None:
                return None, False
            union |= first
        return frozenset(union), False
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
        low, _high, body = arg
        return _first_of_sequence(list(body)), low == 0
    return None, False


@dataclass(frozen=True)
class _Lexer:
    """lark's contextual scanner for one parser state, plus lookahead watch-list."""

    regexes: tuple[Any, ...]
    retype: dict[str, Callable[[str], str | None]]
    # winner terminal -> long alternatives tried before it: (first chars, regex)
    watch: dict[str, tuple[tuple[frozenset[str] | None, Any], ...]]


class Tables:
    """Flattened LALR tables and per-state scanners of one grammar."""

    def __init__(self, grammar: CompiledGrammar) -> None:
        parser: lark.Lark = grammar.parser
        frontend = parser.parser
        table = frontend.parser.parser.parse_table
        start = grammar.info.start
        self.start_state: int = table.start_states[start]
        self.end_state: int = table.end_states[start]
        self.ignored = frozenset(sys.intern(str.__str__(name)) for name in grammar.ignored)
        rules: list[tuple[int, str]] = []
        rule_index: dict[Any, int] = {}
        self.actions: dict[int, dict[str, int]] = {}
        self.gotos: dict[int, dict[str, int]] = {}
        for state, row in table.states.items():
            actions: dict[str, int] = {}
            gotos: dict[str, int] = {}
            for raw_symbol, (action, argument) in row.items():
                # lark keeps some symbols as Token (a str subclass whose __eq__ is
                # Python code): plain interned strings keep the hot loop's lookups fast
                symbol = sys.intern(str.__str__(raw_symbol))
                if action is Shift:
                    terminal = symbol.isupper() or symbol == _END
                    (actions if terminal else gotos)[symbol] = argument
                else:
                    index = rule_index.get(argument)
                    if index is None:
                        index = rule_index[argument] = len(rules)
                        origin = sys.intern(str.__str__(argument.origin.name))
                        rules.append((len(argument.expansion), origin))
                    actions[symbol] = -index - 1
            self.actions[state] = actions
            self.gotos[state] = gotos
        self.rules = rules
        firsts = {t.name: _first_chars(t.pattern.to_regexp()) for t in parser.terminals}
        widths = {t.name: t.pattern.max_width for t in parser.terminals}
        self.lexers: dict[int, _Lexer] = {}
        self._acceptable: dict[tuple[int, ...], frozenset[str]] = {}
        self._acceptable_depth: dict[int, int] = {}
        self._patterns = grammar.patterns
        self._starters: dict[str, frozenset[str]] = {}
        shared: dict[int, _Lexer] = {}
        for state, basic in frontend.lexer.lexers.items():
            lexer = shared.get(id(basic))
            if lexer is None:
                scanner = basic.scanner
                retype: dict[str, Callable[[str], str | None]] = {
                    name: callback.scanner.fullmatch
                    for name, callback in basic.callback.items()
                    if hasattr(callback, "scanner")
                }
                order = [t.name for t in scanner.terminals]
                watch: dict[str, tuple[tuple[frozenset[str] | None, Any], ...]] = {}
                for position, winner in enumerate(order):
                    risky = []
                    for earlier in order[:position]:
                        if widths[earlier] <= _LONG:
                            continue
                        mine, theirs = firsts[earlier], firsts[winner]
                        if mine is not None and theirs is not None and not mine & theirs:
                            continue
                        risky.append((mine, grammar.patterns[earlier]))
                    if risky:
                        watch[winner] = tuple(risky)
                lexer = shared[id(basic)] = _Lexer(tuple(scanner._mres), retype, watch)
            self.lexers[state] = lexer

    def viable(self, node: Node, terminal: str) -> bool:
        """Would the parser accept ``terminal`` next (after any reductions)?"""
        actions, gotos, rules = self.actions, self.gotos, self.rules
        state = node[0]
        action = actions[state].get(terminal)
        stack: Any = node
        while action is not None and action < 0:
            size, origin = rules[-action - 1]
            for _ in range(size):
                stack = stack[1]
            state = gotos[stack[0]][origin]
            if terminal == _END and state == self.end_state:
                return True
            stack = [state, stack, False]
            action = actions[state].get(terminal)
        return action is not None and terminal != _END

    def acceptable(self, node: Node) -> frozenset[str]:
        """The terminals the parser would accept next.  Memoized on the states
        of the top of the stack, as deep as the simulation has read below
        this top state so far."""
        state = node[0]
        depth = self._acceptable_depth.get(state)
        if depth is not None:
            found = self._acceptable.get(_top_states(node, depth))
            if found is not None:
                return found
        accepted, read = self._simulate_acceptable(node)
        depth = max(depth or 0, read)
        self._acceptable_depth[state] = depth
        if len(self._acceptable) > 65536:
            self._acceptable.clear()
        self._acceptable[_top_states(node, depth)] = accepted
        return accepted

    def starters(self, char: str) -> frozenset[str]:
        """The terminals whose tokens can start with ``char`` (all that look
        behind their start, which one character cannot tell)."""
        found = self._starters.get(char)
        if found is None:
            found = frozenset(
                name
                for name, pattern in self._patterns.items()
                if "(?<" in pattern.pattern or pattern.fullmatch(char, partial=True) is not None
            )
            if len(self._starters) > 4096:
                self._starters.clear()
            self._starters[char] = found
        return found

    def _simulate_acceptable(self, node: Node) -> tuple[frozenset[str], int]:
        """``acceptable`` and how deep below the top it read the stack.
        Terminals that reduce by the same rule share the reduction, so each
        path is simulated once.  A simulated stack is ``height`` pushed nodes
        on the real stack's node at ``base`` depth."""
        accepted: set[str] = set()
        deepest = 0
        actions, gotos, rules = self.actions, self.gotos, self.rules
        pending: list[tuple[Any, int, int, list[str]]] = [
            (node, 0, 0, [t for t in actions[node[0]] if t != _END])
        ]
        while pending:
            stack, height, base, terminals = pending.pop()
            row = actions[stack[0]]
            by_rule: dict[int, list[str]] = {}
            for terminal in terminals:
                action = row.get(terminal)
                if action is None:
                    continue
                if action >= 0:
                    accepted.add(terminal)
                else:
                    by_rule.setdefault(action, []).append(terminal)
            for action, group in by_rule.items():
                size, origin = rules[-action - 1]
                popped = stack
                for _ in range(size):
                    popped = popped[1]
                if size <= height:
                    height_left, base_left = height - size, base
                else:
                    height_left, base_left = 0, base + size - height
                    deepest = max(deepest, base_left)
                pushed = [gotos[popped[0]][origin], popped, False]
                pending.append((pushed, height_left + 1, base_left, group))
        return frozenset(accepted), deepest


def _top_states(node: Node, depth: int) -> tuple[int, ...]:
    """The states of ``node`` and the ``depth`` nodes below it (fewer at the bottom)."""
    states = []
    current: Any = node
    for _ in range(depth + 1):
        if current is None:
            break
        states.append(current[0])
        current = current[1]
    return tuple(states)


# ---------------------------------------------------------------- documents
class _Edited:
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


@dataclass
class Scan:
    """A scanned text: its checkpoints and verdict.  Scans derived by an edit
    keep only what changed and build the rest on first use."""

    feedback: Feedback
    length: int
    bad: list[int]  # offsets of characters that came from undecodable bytes
    far: list[tuple[int, int]]  # (token start, offset its lexing depended on)
    # where lexing stopped in an incomplete or complete text: (stack, stack before
    # the last token, last token start, last token end, lexer position)
    end: tuple[Node, Node, int, int, int] | None = None
    _text: str | None = None
    _edited: _Edited | None = None
    _positions: list[int] | None = None
    _stacks: list[Node] | None = None
    _lazy: tuple[Scan, int, list[int], list[Node], int | None, int] | None = field(
        default=None, repr=False
    )

    @property
    def text(self) -> str:
        if self._text is None:
            assert self._edited is not None
            self._text = self._edited.text()
            self._edited = None
        return self._text

    def _materialize(self) -> None:
        assert self._lazy is not None
        base, keep, positions, stacks, joined, delta = self._lazy
        self._positions = base.positions[:keep] + positions
        self._stacks = base.stacks[:keep] + stacks
        if joined is not None:
            self._positions.extend(p + delta for p in base.positions[joined + 1 :])
            self._stacks.extend(base.stacks[joined + 1 :])
        self._lazy = None

    @property
    def positions(self) -> list[int]:
        if self._positions is None:
            self._materialize()
        assert self._positions is not None
        return self._positions

    @property
    def stacks(self) -> list[Node]:
        if self._stacks is None:
            self._materialize()
        assert self._stacks is not None
        return self._stacks

    def before(self, offset: int) -> int:
        """Index of the last checkpoint at or before ``offset``."""
        return max(0, bisect.bisect_right(self.positions, offset) - 1)


def _plainness(char: str) -> tuple[int, str]:
    """Order of preference for a class representative: letters, digits, space."""
    if "a" <= char <= "z":
        return (0, char)
    if "0" <= char <= "9":
        return (1, char)
    if char == " ":
        return (2, char)
    if "A" <= char <= "Z":
        return (3, char)
    return (4, char)


@dataclass(frozen=True)
class Token:
    """A lexed token: terminal name and character span."""

    type: str
    start: int
    end: int


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix, by bisection over C-level slice compares."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix, at most ``limit``."""
    low, high = 0, min(len(a), len(b), limit)
    if high and a[len(a) - high :] == b[len(b) - high :]:
        return high
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low


class _Window:
    """The part of a document being lexed: ``text`` covers
    ``document[offset : offset + len(text)]`` and grows on demand."""

    def __init__(self, source: Callable[[int, int], str], offset: int, length: int) -> None:
        self.source = source
        self.offset = offset
        self.length = length  # document length
        self.text = ""
        self.reach(offset + 256)

    @classmethod
    def whole(cls, text: str, offset: int = 0) -> _Window:
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


# --------------------------------------------------------------------- oracle
class IncrementalGrammarOracle:
    """COMPLETE / INCOMPLETE / INCORRECT with the parse boundary, incrementally."""

    def __init__(
        self,
        grammar: str | CompiledGrammar,
        *,
        base_dir: Path | None = None,
        checkpoint_every: int = 8,
        history: int = 16,
        margin: int = 32,
    ) -> None:
        if not isinstance(grammar, CompiledGrammar):
            grammar = CompiledGrammar.load(grammar, base_dir=base_dir)
        self.grammar = grammar
        self.tables = Tables(grammar)
        self.checkpoint_every = checkpoint_every
        self.margin = margin
        self._recent: deque[Scan] = deque(maxlen=history)
        self._roots: deque[Scan] = deque(maxlen=4)  # full scans
        self._canonical: dict[tuple[int, int], Node] = {}
        self._continuations: dict[Any, str] = {}
        self._root: Node = [self.tables.start_state, None, True]
        self.scanned_chars = 0  # characters lexed: shows how much work was reused
        # polled every few thousand tokens of a scan; may raise to stop it (the
        # language server's workers raise Cancelled when a newer version exists)
        self.interrupt: Callable[[], None] | None = None

    # ----------------------------------------------------------------- public
    def describe(self) -> str:
        info = self.grammar.info
        return f"grammar {info.name} ({info.title}, {info.path}; incremental)"

    def close(self) -> None:
        self._recent.clear()
        self._roots.clear()
        self._canonical.clear()

    def check(self, text: str) -> Feedback:
        return self.scan(text).feedback

    def scan(self, text: str) -> Scan:
        """Scan ``text``, reusing the most similar recent scan when there is one."""
        base, prefix, suffix = self._choose_base(text)
        if base is None:
            scan = self._fresh(text)
            self._roots.append(scan)
        elif prefix == len(text) == base.length:
            scan = base
        else:
            scan = self.edit(base, prefix, base.length - suffix, text[prefix : len(text) - suffix])
            scan._text, scan._edited = text, None
        if not self._recent or self._recent[-1] is not scan:
            self._recent.append(scan)
        return scan

    def edit(self, base: Scan, start: int, end: int, insert: str) -> Scan:
        """Scan ``base.text[:start] + insert + base.text[end:]`` incrementally."""
        if not 0 <= start <= end <= base.length:
            raise ValueError(f"bad edit {start}:{end} of a text of length {base.length}")
        edited = _Edited(base.text, start, end, insert)
        delta, edit_end = edited.delta, start + len(insert)
        bad = [b for b in base.bad if b < start]
        bad += [start + m.start() for m in UNDECODABLE.finditer(insert)]
        bad += [b + delta for b in base.bad if b >= end]
        resume = max(0, start - self.margin)
        for token_start, depends_on in base.far:
            if token_start < resume and depends_on >= start:
                resume = token_start
                break
        index = base.before(resume)
        positions: list[int] = []
        stacks: list[Node] = []
        far = [item for item in base.far if item[0] < base.positions[index]]
        window = _Window(edited.slice, base.positions[index], edited.length)
        end_state: list[Any] = []
        feedback, joined = self._run(
            window,
            base.stacks[index],
            bad,
            positions,
            stacks,
            far,
            resync=(base, delta, edit_end),
            end_state=end_state,
        )
        stopped: tuple[Node, Node, int, int, int] | None = None
        if end_state:
            stopped = (end_state[0], end_state[1], end_state[2], end_state[3], end_state[4])
        if joined is not None:
            join_offset = base.positions[joined]
            far += [(s + delta, d + delta) for s, d in base.far if s >= join_offset]
            if base.end is not None:
                node, before, last_start, last_end, stop = base.end
                stopped = (node, before, last_start + delta, last_end + delta, stop + delta)
        scan = Scan(feedback, edited.length, bad, far, end=stopped, _edited=edited)
        scan._lazy = (base, index + 1, positions, stacks, joined, delta)
        return scan

    def prefix(self, base: Scan, end: int) -> Feedback:
        """Feedback for ``base.text[:end]`` (a prefix check)."""
        return self.edit(base, end, base.length, "").feedback

    def last_token_start(self, prefix: str) -> int | None:
        """Where the last token of a valid prefix starts, or its unfinished end
        (an unterminated string) when that starts earlier; None if the prefix
        is incorrect.  A fault inside that token is often noticed only after it."""
        scan = self.scan(prefix)
        if scan.feedback.verdict is Verdict.INCORRECT or scan.end is None:
            return None
        _, _, last_start, last_end, stop = scan.end
        return min(last_start, stop) if last_end > last_start else stop

    def continuations(self, prefix: str, alphabet: str, *, distinct: bool = False) -> str:
        """The characters of ``alphabet`` that can follow ``prefix`` without making
        it incorrect there (a filter for repair candidates: it may keep a few
        that fail later, it drops none that could succeed).

        With ``distinct``, only the first character of each class of characters
        that every terminal treats alike here (the same partial or full match for
        each): inside a string or a free-text value all letters are one class,
        while the letters that can start a keyword each stand alone.
        """
        scan = self.scan(prefix)
        if scan.feedback.verdict is Verdict.INCORRECT or scan.end is None:
            return ""
        node, before, last_start, last_end, stop = scan.end
        tables, patterns = self.tables, self.grammar.patterns
        starts = [(stop, tables.acceptable(node) | tables.ignored)]
        if last_end == stop and last_start < stop:
            starts.append((last_start, tables.acceptable(before)))
        checks: list[tuple[str, tuple[str, ...]]] = []
        for start, names in starts:
            piece = prefix[start:]
            # only terminals that the piece can still be the start of
            alive = tuple(
                sorted(
                    name
                    for name in names
                    if name in patterns
                    and (not piece or patterns[name].fullmatch(piece, partial=True) is not None)
                )
            )
            if alive:
                checks.append((piece, alive))
        key = (tuple(checks), alphabet, distinct)
        cacheable = all(len(piece) <= 256 for piece, _ in checks)
        cached = self._continuations.get(key) if cacheable else None
        if cached is not None:
            return cached
        classes: dict[tuple[int, ...], list[str]] = {}
        for char in alphabet:
            signature = []
            for piece, alive in checks:
                candidate = piece + char
                for name in alive:
                    match = patterns[name].fullmatch(candidate, partial=True)
                    signature.append(0 if match is None else 1 if match.partial else 2)
            if any(signature):
                classes.setdefault(tuple(signature), []).append(char)
        if distinct:
            # one per class, in the order classes first appear; the representative
            # is the plainest member (it may end up in a repair the user sees)
            result = "".join(min(members, key=_plainness) for members in classes.values())
        else:
            result = "".join(char for members in classes.values() for char in members)
            result = "".join(sorted(result, key=alphabet.index))
        if cacheable:
            if len(self._continuations) > 4096:
                self._continuations.clear()
            self._continuations[key] = result
        return result

    def tokens(self, text: str) -> list[Token]:
        """The tokens lark's contextual lexer produces, up to the first error."""
        collected: list[Token] = []
        bad = [m.start() for m in UNDECODABLE.finditer(text)]
        self._run(_Window.whole(text), self._root, bad, None, None, [], collect=collected)
        return collected

    def tree(self, text: str, *, keep_all_tokens: bool = False) -> lark.Tree[Any] | None:
        """lark's derivation tree (with positions) of a valid text, else ``None``."""
        if not self.check(text).valid:
            return None
        from inputmend import grammars

        parser = grammars.build_parser(self.grammar.info, keep_all_tokens=keep_all_tokens)
        tree: lark.Tree[Any] = parser.parse(text)
        return tree

    def canonical(self, node: Node) -> Node:
        """The hash-consed representative of a stack (rewires ``node`` in place)."""
        chain = []
        while not node[2]:
            chain.append(node)
            node = node[1]
        table = self._canonical
        parent = node
        for item in reversed(chain):
            key = (item[0], id(parent))
            found = table.get(key)
            if found is None:
                item[1] = parent
                item[2] = True
                table[key] = found = item
            parent = found
        return parent

    # -------------------------------------------------------------- internals
    def _candidates(self) -> list[Scan]:
        """Bases to compare with, most promising first: the latest scans, then
        the full scans (they are complete and stay relevant), then the rest."""
        recent, roots = self._recent, self._roots
        ordered = [recent[-1]] if recent else []
        if len(recent) > 1 and recent[-2] is not ordered[0]:
            ordered.append(recent[-2])
        for group in (roots, recent):
            for index in range(len(group) - 1, -1, -1):
                if len(ordered) == 6:
                    return ordered
                scan = group[index]
                if all(scan is not other for other in ordered):
                    ordered.append(scan)
        return ordered

    def _choose_base(self, text: str) -> tuple[Scan | None, int, int]:
        """The recent scan that makes checking ``text`` cheapest, with the common
        prefix and suffix lengths."""
        candidates = self._candidates()
        for scan in candidates:
            if scan.length == len(text) and scan.text == text:
                return scan, len(text), 0
        best: tuple[Scan | None, int, int] = (None, 0, 0)
        best_cost = len(text) + 1
        good_enough = max(64, len(text) // 100)
        for scan in candidates:
            if abs(scan.length - len(text)) >= best_cost:
                continue
            base = scan.text
            prefix = _common_prefix(base, text)
            suffix = _common_suffix(base, text, min(len(base), len(text)) - prefix)
            cost = len(text) - prefix - suffix  # characters the base does not have
            stopped = scan.feedback.error_offset
            if (
                scan.feedback.verdict is Verdict.INCORRECT
                and stopped is not None
                and stopped < scan.length - suffix
            ):
                cost = len(text) - prefix  # no checkpoints past the base's error to rejoin
            if cost < best_cost and prefix + suffix > 0:
                best, best_cost = (scan, prefix, suffix), cost
                if cost <= good_enough:
                    break
        return best

    def _fresh(self, text: str) -> Scan:
        bad = [m.start() for m in UNDECODABLE.finditer(text)]
        positions = [0]
        stacks = [self._root]
        far: list[tuple[int, int]] = []
        end_state: list[Any] = []
        window = _Window.whole(text)
        feedback, _ = self._run(
            window, self._root, bad, positions, stacks, far, end_state=end_state
        )
        end = None
        if end_state:
            end = (end_state[0], end_state[1], end_state[2], end_state[3], end_state[4])
        return Scan(
            feedback,
            len(text),
            bad,
            far,
            end=end,
            _text=text,
            _positions=positions,
            _stacks=stacks,
        )

    def _run(
        self,
        window: _Window,
        node: Node,
        bad: list[int],
        positions: list[int] | None,
        stacks: list[Node] | None,
        far: list[tuple[int, int]],
        *,
        resync: tuple[Scan, int, int] | None = None,
        collect: list[Token] | None = None,
        end_state: list[Any] | None = None,
    ) -> tuple[Feedback, int | None]:
        """The scanner loop, in window coordinates.  Returns the feedback and,
        when it resynchronized with the base, the base checkpoint it joined."""
        tables = self.tables
        lexers, actions, gotos, rules = tables.lexers, tables.actions, tables.gotos, tables.rules
        ignored = tables.ignored
        offset = window.offset
        text = window.text
        size = len(text)
        complete = window.complete
        every = self.checkpoint_every
        bad_index = bisect.bisect_left(bad, offset)
        next_bad = (bad[bad_index] - offset) if bad_index < len(bad) else 1 << 62
        base_positions: list[int] = []
        base_stacks: list[Node] = []
        delta = 0
        resync_from = 1 << 62
        if resync is not None:
            base_scan, delta, edit_end = resync
            base_positions, base_stacks = base_scan.positions, base_scan.stacks
            resync_from = edit_end - offset
        pos = 0
        count = 0
        last_start, last_end = 0, -1
        before = node
        while True:
            if pos >= size:
                if not complete:
                    window.reach(offset + size + 1)
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                self.scanned_chars += pos
                if end_state is not None:
                    end_state[:] = [
                        node,
                        before,
                        last_start + offset,
                        last_end + offset,
                        pos + offset,
                    ]
                return self._at_end(node, offset + size), None
            lexer = lexers[node[0]]
            match = None
            for pattern in lexer.regexes:
                match = pattern.match(text, pos)
                if match is not None:
                    break
            if match is not None and match.end() + _LOOKAHEAD >= size and not complete:
                # near the end of the window the match may be cut short (`1.` of
                # `1.5`): look at more text first
                window.reach(offset + 2 * size)
                text, size, complete = window.text, len(window.text), window.complete
                continue
            if match is None:
                outcome = self._error(window, pos, node, before, last_start, last_end, bad)
                if outcome is None:  # the window was too short to tell: grown, retry
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                self.scanned_chars += pos
                if end_state is not None and outcome.verdict is Verdict.INCOMPLETE:
                    end_state[:] = [
                        node,
                        before,
                        last_start + offset,
                        last_end + offset,
                        pos + offset,
                    ]
                return outcome, None
            end = match.end()
            if end > next_bad:
                self.scanned_chars += pos
                return self._bad_byte(window, pos, next_bad, node, before, last_start, last_end)
            kind = match.lastgroup
            watch = lexer.watch.get(kind)
            if watch is not None:
                first = text[pos]
                for chars, alternative in watch:
                    if (chars is None or first in chars) and alternative.fullmatch(
                        text, pos, end + 1, partial=True
                    ) is not None:
                        window.reach(window.length)
                        text, size, complete = window.text, len(window.text), True
                        reach = pos + prefix_extent(alternative, text, pos, size)
                        far.append((pos + offset, reach + offset))
                        break
            if kind in ignored:
                pos = end
                continue
            retype = lexer.retype.get(kind)
            if retype is not None:
                kind = retype(match.group()) or kind
            action = actions[node[0]].get(kind)
            token_node = node
            while action is not None and action < 0:
                length, origin = rules[-action - 1]
                for _ in range(length):
                    node = node[1]
                node = [gotos[node[0]][origin], node, False]
                action = actions[node[0]].get(kind)
            if action is None:
                outcome = self._error(window, pos, token_node, before, last_start, last_end, bad)
                if outcome is None:
                    node = token_node
                    text, size, complete = window.text, len(window.text), window.complete
                    continue
                self.scanned_chars += pos
                return outcome, None
            before = token_node
            last_start, last_end = pos, end
            node = [action, node, False]
            if collect is not None:
                collect.append(Token(kind, pos + offset, end + offset))
            pos = end
            count += 1
            if count & 4095 == 0 and self.interrupt is not None:
                self.interrupt()
            if positions is not None and count % every == 0:
                node = self.canonical(node)
                positions.append(pos + offset)
                assert stacks is not None
                stacks.append(node)
            if pos >= resync_from:
                base_pos = pos + offset - delta
                index = bisect.bisect_left(base_positions, base_pos)
                if index < len(base_positions) and base_positions[index] == base_pos:
                    node = self.canonical(node)
                    if node is base_stacks[index]:
                        self.scanned_chars += pos
                        assert resync is not None
                        return self._shifted(resync[0].feedback, delta), index

    @staticmethod
    def _shifted(feedback: Feedback, delta: int) -> Feedback:
        if feedback.error_offset is None or delta == 0:
            return feedback
        return Feedback(feedback.verdict, feedback.error_offset + delta, feedback.message)

    def _at_end(self, node: Node, length: int) -> Feedback:
        if self.tables.viable(node, _END):
            return Feedback(Verdict.COMPLETE)
        return Feedback(Verdict.INCOMPLETE, length, "unexpected end of input")

    def _boundary(
        self, window: _Window, pos: int, node: Node, before: Node, last_start: int, last_end: int
    ) -> tuple[int, frozenset[str]] | None:
        """Window offset of the character-level parse boundary behind an error
        at ``pos``; ``None`` (after growing the window) when it needs more text."""
        patterns, ignored = self.grammar.patterns, self.tables.ignored
        while True:
            text, size = window.text, len(window.text)
            expected = self.tables.acceptable(node)
            candidates = [(pos, expected)]
            if last_end == pos and last_start < pos:
                candidates.append((last_start, self.tables.acceptable(before)))
            boundary = pos
            for start, terminals in candidates:
                if start >= size:
                    continue
                for name in (terminals | ignored) & self.tables.starters(text[start]):
                    extent = prefix_extent(patterns[name], text, start, size)
                    boundary = max(boundary, start + extent)
            if boundary < size or window.complete:
                return boundary, expected
            window.reach(window.offset + 2 * size)
            return None

    def _error(
        self,
        window: _Window,
        pos: int,
        node: Node,
        before: Node,
        last_start: int,
        last_end: int,
        bad: list[int],
    ) -> Feedback | None:
        found = self._boundary(window, pos, node, before, last_start, last_end)
        if found is None:
            return None
        boundary, expected = found
        text, offset = window.text, window.offset
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

    def _bad_byte(
        self,
        window: _Window,
        pos: int,
        bad_at: int,
        node: Node,
        before: Node,
        last_start: int,
        last_end: int,
    ) -> tuple[Feedback, None]:
        """A token would swallow an undecodable byte: the byte is the error,
        unless the text is already wrong before it."""
        cut = _Window.whole(window.text[:bad_at], window.offset)
        found = self._boundary(cut, pos, node, before, last_start, last_end)
        assert found is not None  # the cut window is complete
        boundary, _ = found
        if boundary < bad_at:
            feedback = self._error(cut, pos, node, before, last_start, last_end, [])
            assert feedback is not None
            return feedback, None
        return Feedback(
            Verdict.INCORRECT, bad_at + window.offset, UNDECODABLE_MESSAGE
        ), None
