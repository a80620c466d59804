"""The incremental scan's inner loop in C, where the extension is built.

:mod:`inputmend.grammar._native` (``_native.c`` beside this module, compiled
when the package is installed by ``hatch_build.py``) has the parser stack's
nodes and their interner, and a :class:`Program` whose ``run`` lexes and
parses as the loop of :mod:`~inputmend.grammar.scan` does, checkpoint for
checkpoint, ten to thirty times faster: a 100 KB JSON document is scanned in
about a millisecond.  It stops before any token it cannot take exactly as
that loop would, and the loop takes it; so a scan is the same with or
without it, and without a C compiler (or with ``INPUTMEND_NATIVE=0``)
everything works in Python alone.  The error-tolerant lexer's loop
(:mod:`~inputmend.grammar.tolerant`) runs in C as well, over one DFA per
terminal (:meth:`Native.tolerant`, a ``Tolerant`` of the extension).
Record mode's JSON accept check reads a partition's lines in C too
(:data:`json_lines`, see :mod:`inputmend.grammar.accept`).

This module turns a grammar into the program's tables:

* lark's contextual lexer as one DFA per scanner (:func:`scanner_dfa`),
  built when the loop first needs it, matching as Python's ``re`` does, not
  by longest match: the first alternative (terminal) that matches wins, and
  each alternative matches as its backtracking would (greedy repeats take
  as much as they can and still match, lazy ones as little).  A DFA state
  holds the threads of a Thompson automaton in priority order, where a
  thread that reaches the end of its terminal drops every thread after it
  (the construction of RE2's and the Pike VM's leftmost-first matching),
  and beside them every thread of every terminal, so that the DFA also
  tells how far some terminal could still match: whether lexing a token
  read beyond it, which the scan records, and how far a cut-off token could
  grow (:meth:`Native.extent`);
* the LALR tables as dense arrays; lark's retyping of names into keywords
  is called from C.

Patterns a DFA cannot follow (lookarounds, anchors, back references,
possessive repeats, repeats of what may match nothing), characters beyond
ASCII where a class is not the same for all of them, and tokens whose
lexing may have read far ahead are left to the Python loop: the C loop
stops before them.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from inputmend.grammar.regex import RegexItem, UnsupportedRegex, _char_set, _CharClass, parse_regex

if TYPE_CHECKING:
    from inputmend.grammar.compiled import CompiledGrammar

try:
    if os.environ.get("INPUTMEND_NATIVE", "1") == "0":
        raise ImportError("turned off by INPUTMEND_NATIVE=0")
    from inputmend.grammar import _native  # type: ignore[attr-defined]
except ImportError:  # not built (no C compiler), or turned off
    _native = None

AVAILABLE = _native is not None
"""Is the C loop there?"""

if _native is not None:
    StackNode = _native.StackNode
    StackInterner = _native.StackInterner

json_lines: Callable[[bytes, int], list[int]] | None = (
    _native.json_lines if _native is not None else None
)
"""The JSON accept check over the lines of a run of bytes (see
:data:`inputmend.grammar.accept.ACCEPT_CHECKS`): the indices of the lines
that are not one JSON text of at most the given number of bytes for sure."""

MAX_DFA_STATES = 4096
"""DFA states a scanner may have; a larger one is left to the Python loop."""

MAX_COPIES = 64
"""Copies a counted repeat may expand into."""

MAX_CLASSES = 255
"""Character classes a DFA may tell apart (one byte each in C)."""

LEX_CHUNK = 4096
"""Tokens the error-tolerant lexer reads in C between two calls of its stop hook."""

_TOKEN, _IGNORED = 0, 1  # what the C loop does with a terminal
T = TypeVar("T")
Stop = Callable[[], None]
_GROUP = "terminal"  # the one group of a terminal's own pattern

_FLAGS = re.IGNORECASE | re.DOTALL
"""Flags a group of a scanner's pattern may set (others: left to Python)."""


class _Nfa:
    """A Thompson automaton whose epsilon moves are ordered by priority:
    ``CHAR`` nodes take one character of their class to ``out[0]``;
    ``SPLIT`` nodes go on to every ``out`` in order, the first the most
    wanted; ``MATCH`` nodes end the terminal ``terminal[node]``."""

    CHAR, SPLIT, MATCH = 0, 1, 2

    def __init__(self) -> None:
        self.kinds: list[int] = []
        self.classes: list[_CharClass | None] = []
        self.out: list[list[int]] = []
        self.terminal: list[int] = []

    def _node(self, kind: int, chars: _CharClass | None, out: list[int], terminal: int) -> int:
        self.kinds.append(kind)
        self.classes.append(chars)
        self.out.append(out)
        self.terminal.append(terminal)
        return len(self.kinds) - 1

    def match(self, terminal: int) -> int:
        return self._node(self.MATCH, None, [], terminal)

    def split(self, out: list[int]) -> int:
        return self._node(self.SPLIT, None, out, -1)

    def char(self, chars: _CharClass, then: int) -> int:
        return self._node(self.CHAR, chars, [then], -1)

    def sequence(self, items: Sequence[RegexItem], then: int, flags: int) -> int:
        """A node that matches ``items``, then goes on at ``then``."""
        for item in reversed(items):
            then = self._item(item, then, flags)
        return then

    def _item(self, item: RegexItem, then: int, flags: int) -> int:
        op, arg = item
        ignore_case = bool(flags & re.IGNORECASE)
        if op == "LITERAL":
            return self.char(_CharClass(frozenset(chr(arg)), ignore_case=ignore_case), then)
        if op == "NOT_LITERAL":
            chars = _CharClass(frozenset(chr(arg)), negate=True, ignore_case=ignore_case)
            return self.char(chars, then)
        if op == "ANY":
            newline = frozenset() if flags & re.DOTALL else frozenset("\n")
            return self.char(_CharClass(newline, negate=True), then)
        if op == "IN":
            return self.char(_char_set(arg, ignore_case), then)
        if op == "SUBPATTERN":
            _group, added, removed, inner = arg
            if (added | removed) & ~_FLAGS:
                raise UnsupportedRegex("flags in a group")
            return self.sequence(inner, then, (flags | added) & ~removed)
        if op == "BRANCH":
            return self.split([self.sequence(option, then, flags) for option in arg])
        if op in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, inner = arg
            if _nullable(inner):
                raise UnsupportedRegex("a repeat of what may match nothing")
            if low > MAX_COPIES or (high is not None and high - low > MAX_COPIES):
                raise UnsupportedRegex(f"a repeat of {low}..{high} copies")
            greedy = op == "MAX_REPEAT"
            if high is None:
                loop = self.split([])
                body = self.sequence(inner, loop, flags)
                self.out[loop] = [body, then] if greedy else [then, body]
                tail = loop
            else:
                tail = then
                for _ in range(high - low):
                    body = self.sequence(inner, tail, flags)
                    tail = self.split([body, then] if greedy else [then, body])
            for _ in range(low):
                tail = self.sequence(inner, tail, flags)
            return tail
        raise UnsupportedRegex(f"{op} in a pattern")


def _nullable(items: Sequence[RegexItem]) -> bool:
    """May ``items`` match the empty text?"""
    return all(_nullable_item(item) for item in items)


def _nullable_item(item: RegexItem) -> bool:
    op, arg = item
    if op in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
        return False
    if op == "SUBPATTERN":
        return _nullable(arg[3])
    if op == "BRANCH":
        return any(_nullable(option) for option in arg)
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        return arg[0] == 0 or _nullable(arg[2])
    return True


def _uniform_beyond_ascii(chars: _CharClass) -> bool:
    """Is every character beyond ASCII in ``chars``, or none?"""
    return (
        not chars.categories
        and not chars.ignore_case
        and all(ord(char) < 128 for char in chars.chars)
        and all(high < 128 for _, high in chars.ranges)
    )


def _ascii_members(chars: _CharClass) -> tuple[bool, ...]:
    """Which ASCII characters ``chars`` holds, one flag per code (the
    characters and ranges of a class without categories read directly: a
    keyword's letters in any case are hundreds of such classes, and an
    ASCII character's other case is ASCII)."""
    if chars.categories:
        return tuple(chr(code) in chars for code in range(128))
    codes = {ord(char) for char in chars.chars if char.isascii()}
    for low, high in chars.ranges:
        codes.update(range(low, min(high, 127) + 1))
    if chars.ignore_case:
        codes |= {ord(chr(code).swapcase()) for code in codes if chr(code).isalpha()}
    return tuple((code in codes) != chars.negate for code in range(128))


def _steps(
    nfa: _Nfa, nodes: Iterable[int], takes: dict[int, list[int]], width: int
) -> list[list[int]]:
    """Where each of ``nodes`` goes on each alphabet class (in the nodes' order)."""
    steps: list[list[int]] = [[] for _ in range(width)]
    for node in nodes:
        for cls in takes.get(node, ()):
            steps[cls].append(nfa.out[node][0])
    return steps


def _closure(nfa: _Nfa, starts: list[int]) -> tuple[tuple[int, ...], int]:
    """The character nodes reachable from ``starts`` by epsilon moves, in
    priority order, and the terminal matched on the way (-1: none): a
    match drops every thread after it."""
    found: list[int] = []
    seen: set[int] = set()
    pending = list(reversed(starts))
    while pending:
        node = pending.pop()
        if node in seen:
            continue
        seen.add(node)
        kind = nfa.kinds[node]
        if kind == _Nfa.MATCH:
            return tuple(found), nfa.terminal[node]
        if kind == _Nfa.CHAR:
            found.append(node)
        else:
            pending.extend(reversed(nfa.out[node]))
    return tuple(found), -1


def _reachable(nfa: _Nfa, starts: Sequence[int]) -> frozenset[int]:
    """The character and match nodes reachable from ``starts`` by epsilon
    moves, whatever matched on the way: where every terminal could still go."""
    seen: set[int] = set()
    pending = list(starts)
    while pending:
        node = pending.pop()
        if node not in seen:
            seen.add(node)
            if nfa.kinds[node] == _Nfa.SPLIT:
                pending.extend(nfa.out[node])
    return frozenset(node for node in seen if nfa.kinds[node] != _Nfa.SPLIT)


def extension_path() -> Path | None:
    """The C extension's file (None without it): DFAs kept on disk are kept
    for the extension that runs them."""
    return None if _native is None else Path(_native.__file__)


@functools.lru_cache(maxsize=256)
def scanner_dfa(patterns: tuple[tuple[str, int], ...]) -> tuple[Any, ...] | None:
    """:func:`build_dfa`, kept on disk by :mod:`inputmend.grammar.cache`
    (made from the patterns, the code that builds it and the C extension
    that runs it)."""
    from inputmend.grammar import cache

    parts = [
        b"scanner dfa",
        cache.stamp(Path(__file__)),
        cache.stamp(Path(__file__).with_name("regex.py")),
        b"no C loop" if _native is None else cache.stamp(Path(_native.__file__)),
        repr(patterns).encode("utf-8", "surrogatepass"),
    ]
    found: tuple[Any, ...] | None = cache.cached(
        parts, lambda: build_dfa(patterns), lambda dfa: (dfa,), _dfa_from_plain
    )
    return found


def _alphabet(nfa: _Nfa) -> tuple[int, tuple[int, ...], int, dict[int, list[int]]] | None:
    """The alphabet of a DFA built from ``nfa``: the characters split into
    classes that every character node of it takes alike (its width, each
    ASCII character's class, the class of every other character or -1
    where the nodes do not take those alike), and per character node the
    classes it takes.  None for too many classes (:data:`MAX_CLASSES`)."""
    distinct: dict[tuple[Any, ...], int] = {}  # the same class, written again
    node_class: dict[int, int] = {}
    members: list[tuple[bool, ...]] = []  # per distinct class: ASCII, then the others
    for node, chars in enumerate(nfa.classes):
        if chars is None:
            continue
        key = (chars.chars, chars.ranges, chars.categories, chars.negate, chars.ignore_case)
        found = distinct.get(key)
        if found is None:
            found = distinct[key] = len(members)
            uniform = _uniform_beyond_ascii(chars)
            members.append((*_ascii_members(chars), uniform, chars.negate))
        node_class[node] = found
    signatures: dict[tuple[bool, ...], int] = {}
    ascii_classes = tuple(
        signatures.setdefault(tuple(member[code] for member in members), len(signatures))
        for code in range(128)
    )
    high = -1
    if all(member[128] for member in members):  # the same for all others
        high = signatures.setdefault(tuple(member[129] for member in members), len(signatures))
    if len(signatures) >= MAX_CLASSES:
        return None
    class_takes = [
        [cls for signature, cls in signatures.items() if signature[index]]
        for index in range(len(members))
    ]
    takes = {node: class_takes[index] for node, index in node_class.items()}
    return len(signatures), ascii_classes, high, takes


def _dfa_from_plain(plain: Any) -> tuple[Any, ...] | None:
    """The DFA that :func:`scanner_dfa` stored as ``plain``; ValueError when
    it is not of the shape of one."""
    if type(plain) is not tuple or len(plain) != 1:
        raise ValueError("not a DFA")
    (dfa,) = plain
    if dfa is None:
        return None
    if type(dfa) is not tuple or len(dfa) != 7:
        raise ValueError("not a DFA")
    states, width, start, ascii_classes, high, table, match = dfa
    numbers = (states, width, start, high)
    if any(type(number) is not int for number in numbers) or not 0 < width < MAX_CLASSES:
        raise ValueError("not a DFA")
    if not 0 <= start < states <= MAX_DFA_STATES or not -1 <= high < width:
        raise ValueError("not a DFA")
    if len(ascii_classes) != 128 or len(table) != states * width or len(match) != states:
        raise ValueError("not a DFA")
    if not (
        _ints_within(ascii_classes, 0, width)
        and _ints_within(table, -1, states)
        and _ints_within(match, -1, sys.maxsize)
    ):
        raise ValueError("not a DFA")
    return dfa


def _ints_within(values: Any, low: int, high: int) -> bool:
    """Is ``values`` a tuple of ints from ``low`` up to (not including) ``high``?"""
    if type(values) is not tuple:
        return False
    if not values:
        return True
    return set(map(type, values)) == {int} and low <= min(values) and max(values) < high


def build_dfa(patterns: tuple[tuple[str, int], ...]) -> tuple[Any, ...] | None:
    """The DFA of a scanner that tries the compiled ``patterns`` (source,
    flags) one after another, each an alternation of named groups, one per
    terminal: ``(states, classes, start, ascii, high, next, match)`` as
    :class:`Program` takes it, with ``match`` giving the terminal's place
    among the groups of all the patterns, in order; or None when a terminal's
    pattern has what a DFA cannot follow.

    A state is the threads in priority order that may still change the
    match (with the terminal matched there), and beside them every thread
    of every terminal, whatever matched: the DFA runs as long as some
    terminal could still match, which tells the scan whether lexing the
    token read beyond it (see ``watch`` in :mod:`~inputmend.grammar.lexer`)."""
    nfa = _Nfa()
    alternatives: list[int] = []
    rank = 0
    try:
        for source, flags in patterns:
            if flags & ~(re.UNICODE | _FLAGS):
                return None
            items = parse_regex(source)
            options = items[0].arg if len(items) == 1 and items[0].op == "BRANCH" else [items]
            for option in options:
                if len(option) != 1 or option[0].op != "SUBPATTERN":
                    return None
                alternatives.append(nfa.sequence(option, nfa.match(rank), flags & _FLAGS))
                rank += 1
    except (UnsupportedRegex, re.error):
        return None
    alphabet = _alphabet(nfa)
    if alphabet is None:
        return None
    width, ascii_classes, high, takes = alphabet
    threads, matched = _closure(nfa, alternatives)
    if matched >= 0:
        return None  # a terminal that matches the empty text: lark does not allow it
    start = (threads, matched, _reachable(nfa, alternatives))
    states: dict[tuple[tuple[int, ...], int, frozenset[int]], int] = {start: 0}
    order = [start]
    table: list[int] = []
    match: list[int] = [-1]
    index = 0
    reachable: dict[tuple[int, ...], frozenset[int]] = {}  # memos: states share targets
    closures: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
    while index < len(order):
        threads, _, alive = order[index]
        index += 1
        steps_alive = _steps(nfa, alive, takes, width)
        steps_threads = _steps(nfa, threads, takes, width)
        for cls in range(width):
            targets = tuple(steps_alive[cls])
            going = reachable.get(targets)
            if going is None:
                going = reachable[targets] = _reachable(nfa, targets)
            if not going:
                table.append(-1)
                continue
            targets = tuple(steps_threads[cls])
            closure = closures.get(targets)
            if closure is None:
                closure = closures[targets] = _closure(nfa, list(targets))
            reached = (*closure, going)
            number = states.get(reached)
            if number is None:
                if len(order) >= MAX_DFA_STATES:
                    return None
                number = states[reached] = len(order)
                order.append(reached)
                match.append(reached[1])
            table.append(number)
    return (len(order), width, 0, ascii_classes, high, tuple(table), tuple(match))


class Native:
    """A grammar's C program: its scan's loop (:attr:`program`'s ``run``,
    for a grammar without a layout or name checks), whose scanners' DFAs
    are built when the loop first needs them (:meth:`install_for`), and the
    terminals' own DFAs: the error-tolerant lexer (:meth:`lex`) and its
    loop with foreign tokens (:meth:`tolerant`), a terminal's match
    (:meth:`match_end`) and how far a text can still be a token of it
    (:meth:`extent`)."""

    def __init__(
        self,
        program: Any | None,
        grammar: CompiledGrammar,
        scanners: Sequence[int] = (),
        builders: Sequence[Callable[[], tuple[Any, ...] | None]] = (),
    ) -> None:
        self.program = program
        self._scanners = scanners  # parser state -> its scanner's DFA (-1: none)
        self._builders: list[Callable[[], tuple[Any, ...] | None] | None] = list(builders)
        # the terminals in the tolerant lexer's order: their own DFAs' numbers
        order = grammar.lexing_order
        self._numbers = {terminal.name: number for number, terminal in enumerate(order)}
        self._key = tuple((t.name, t.source, t.name in grammar.ignored) for t in order)
        self._own: tuple[Any, tuple[bool, ...]] | None = None  # _terminals(self._key)

    def install_for(self, state: int) -> bool:
        """Build and install the DFA of the scanner of ``state`` if it is not
        yet: has the C loop one more DFA to go on with?"""
        number = self._scanners[state] if 0 <= state < len(self._scanners) else -1
        if number < 0 or self._builders[number] is None:
            return False
        build, self._builders[number] = self._builders[number], None
        assert build is not None and self.program is not None
        dfa = build()
        if dfa is None:
            return False
        self.program.install(number, dfa)
        return True

    def lex(
        self, text: str, make: Callable[[str | None, int, int], T], stop: Stop | None = None
    ) -> list[T] | None:
        """The error-tolerant lexer's tokens of ``text``, as
        :func:`~inputmend.grammar.lexer.lex_typed` gives them (the longest
        match of any terminal, literals first on ties, junk characters one by
        one, ignored terminals left out), each made by ``make`` from its
        terminal (None for junk) and span; None where the Python lexer has to
        tell (a terminal or a character a DFA does not follow).  ``stop`` is
        called before each chunk of :data:`LEX_CHUNK` tokens (it may raise)."""
        program, followed = _terminals(self._key)
        if not all(followed):
            return None
        names = [name for name, _, _ in self._key]
        tokens: list[T] = []
        position = 0
        while position < len(text):
            if stop is not None:
                stop()
            found = program.longest(text, position, LEX_CHUNK)
            if found is None:
                return None
            chunk, position = found
            tokens += [make(names[k] if k >= 0 else None, a, b) for k, a, b in chunk]
        return tokens

    def match_end(self, terminal: str, text: str, position: int) -> int | None:
        """Where the match of ``terminal`` at ``position`` ends, as Python's
        ``re`` (and the ``regex`` module) finds it: -1 for none, None where
        the Python code has to tell."""
        number = self._followed(terminal)
        if number is None:
            return None
        end = int(self._terminals()[0].match(number, text, position))
        return None if end == -2 else end

    def extent(self, terminal: str, text: str, start: int, end: int) -> int | None:
        """How many characters from ``start`` (up to ``end``) are, or can still
        grow into, a token of ``terminal``; None where the Python code of
        :func:`~inputmend.grammar.regex.prefix_extent` has to tell."""
        number = self._followed(terminal)
        if number is None:
            return None
        found = int(self._terminals()[0].extent(number, text, start, end))
        return None if found < 0 else found

    def extent_numbers(
        self, terminals: Sequence[str]
    ) -> tuple[Callable[[int, str, int, int], int], tuple[int | None, ...]]:
        """:meth:`extent` for callers that ask it of the same terminals again
        and again: the C function ``(number, text, start, end)`` (-1 where
        the Python code has to tell) and the number of each of ``terminals``
        for it (None for a terminal whose pattern no DFA follows), without a
        look-up of each terminal on each call."""
        return self._terminals()[0].extent, tuple(self._followed(name) for name in terminals)

    def tolerant(
        self,
        starts: Sequence[Sequence[str]],
        lone: Sequence[str | None],
        foreign: Sequence[bool],
        kinds: dict[str, Any],
        roles: dict[str, Any],
        make: type,
        junk: Any,
    ) -> Any:
        """The error-tolerant lexer's loop in C (``_native.Tolerant``): per
        ASCII character, the terminals that may begin with it (in the
        lexer's order), the literal that is it alone and whether a foreign
        token may begin with it; per terminal its lexemes' kind and role;
        ``make`` is the lexemes' class (a frozen dataclass with slots, made
        by setting its fields), ``junk`` the role of a junk character."""
        assert _native is not None
        fields = ("kind", "start", "end", "value", "role", "foreign", "partial", "guessed")
        if {field.name for field in dataclasses.fields(make)} != set(fields):
            raise ValueError(f"{make.__name__} is not a lexeme: its fields are not {fields}")
        program = _terminals(self._key)[0]
        names = [name for name, _, _ in self._key]
        return _native.Tolerant(
            program,
            [[self._numbers[name] for name in found] for found in starts],
            [-1 if name is None else self._numbers[name] for name in lone],
            [int(flag) for flag in foreign],
            [int(ignored) for _, _, ignored in self._key],
            tuple(kinds[name] for name in names),
            tuple(roles[name] for name in names),
            make,
            fields,
            junk,
        )

    def reaches(self, dfas: Sequence[tuple[Any, ...]]) -> Any:
        """The error-tolerant lexer's reach automata of foreign tokens in C
        (see :func:`~inputmend.grammar.tolerant.reach_dfa`), as a program of
        those DFAs alone, numbered in order: each state's ``match`` is 0
        where some match of its pattern may end."""
        assert _native is not None
        return _native.Program(
            0,
            1,
            0,
            (),
            (),
            (),
            (),
            (),
            (0,),
            ("reach",),
            {},
            [(*dfa, (0,), (None,)) for dfa in dfas],
        )

    def _followed(self, terminal: str) -> int | None:
        """The number of the DFA of ``terminal``, None when it has none."""
        number = self._numbers.get(terminal)
        return number if number is not None and self._terminals()[1][number] else None

    def _terminals(self) -> tuple[Any, tuple[bool, ...]]:
        """:func:`_terminals` of this grammar, kept: its cache's key is every
        terminal's pattern, hashed anew on each look-up, and a scan's error
        looks up a terminal's extent a few times."""
        if self._own is None:
            self._own = _terminals(self._key)
        return self._own


@functools.lru_cache(maxsize=64)
def _terminals(terminals: tuple[tuple[str, str, bool], ...]) -> tuple[Any, tuple[bool, ...]]:
    """A program of one DFA per terminal (name, pattern, ignored), its
    terminal its place in ``terminals``, and which of them have one (a
    pattern a DFA cannot follow has none).  Built once per grammar."""
    assert _native is not None
    count = len(terminals)
    dfas = []
    for number, (_, source, _) in enumerate(terminals):
        dfa = scanner_dfa(((f"(?P<{_GROUP}>{source})", re.UNICODE),))
        dfas.append(None if dfa is None else _for_program(dfa, [number], count))
    kinds = [_IGNORED if ignored else _TOKEN for _, _, ignored in terminals]
    names = tuple(name for name, _, _ in terminals)
    index = {name: number for number, name in enumerate(names)}
    program = _native.Program(0, count, 0, [], [], [], [], [], kinds, names, index, dfas)
    return program, tuple(dfa is not None for dfa in dfas)


def _for_program(
    dfa: tuple[Any, ...],
    terminals: Sequence[int],
    count: int,
    watch: list[int] | None = None,
    retype: tuple[Any, ...] | None = None,
) -> tuple[Any, ...]:
    """``dfa`` (of :func:`scanner_dfa`) as :class:`Program` takes it, among
    ``count`` terminals: each match's place among the groups made the
    number of that group's terminal (``terminals[place]``); no terminal
    watched or retyped unless ``watch`` and ``retype`` say so."""
    states, width, start, ascii_classes, high, table, places = dfa
    matched = tuple(terminals[place] if place >= 0 else -1 for place in places)
    return (
        states,
        width,
        start,
        ascii_classes,
        high,
        table,
        matched,
        [0] * count if watch is None else watch,
        (None,) * count if retype is None else retype,
    )


def program(grammar: CompiledGrammar) -> Native | None:
    """The C program of ``grammar`` (None without the extension)."""
    if _native is None:
        return None
    if grammar.layout is not None or grammar.checks is not None:
        return Native(None, grammar)  # the scan's loop stays in Python
    tables = grammar.tables
    states = sorted(tables.actions)
    if states != list(range(len(states))):
        return None
    scanners = {id(scanner): scanner for scanner in grammar.scanners.values()}
    groups = {  # each scanner's terminals, in the order its patterns try them
        key: list(scanner.terminals) for key, scanner in scanners.items()
    }
    terminal_names = sorted(
        {name for row in tables.actions.values() for name in row}
        | {name for names in groups.values() for name in names}
    )
    nonterminals = sorted(
        {name for row in tables.gotos.values() for name in row}
        | {reduction.origin for reduction in tables.reductions}
    )
    terminal_index = {name: i for i, name in enumerate(terminal_names)}
    nonterminal_index = {name: i for i, name in enumerate(nonterminals)}
    action = [_native.NONE] * (len(states) * len(terminal_names))
    go = [0] * (len(states) * len(nonterminals))
    for state in states:
        for name, target in tables.actions[state].items():
            action[state * len(terminal_names) + terminal_index[name]] = target
        for name, target in tables.gotos[state].items():
            go[state * len(nonterminals) + nonterminal_index[name]] = target
    kinds = [_IGNORED if name in grammar.ignored else _TOKEN for name in terminal_names]
    numbers = {key: number for number, key in enumerate(scanners)}  # scanner -> its DFA

    def builder(key: int) -> Callable[[], tuple[Any, ...] | None]:
        def build() -> tuple[Any, ...] | None:
            scanner = scanners[key]
            dfa = scanner_dfa(scanner.sources)
            if dfa is None:
                return None
            ranks = [terminal_index[name] for name in groups[key]]  # place -> terminal
            watch = [int(name in scanner.watch) for name in terminal_names]
            retype = tuple(scanner.retype.get(name) for name in terminal_names)
            return _for_program(dfa, ranks, len(terminal_names), watch, retype)

        return build

    scanner_of = [
        numbers[id(grammar.scanners[state])] if state in grammar.scanners else -1
        for state in states
    ]
    built_program = _native.Program(
        len(states),
        len(terminal_names),
        len(nonterminals),
        action,
        go,
        [reduction.size for reduction in tables.reductions],
        [nonterminal_index[reduction.origin] for reduction in tables.reductions],
        scanner_of,
        kinds,
        tuple(terminal_names),
        terminal_index,
        [None] * len(scanners),
    )
    return Native(built_program, grammar, scanner_of, [builder(key) for key in scanners])
