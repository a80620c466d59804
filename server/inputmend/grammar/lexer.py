"""The two lexers of a grammar.

* The *contextual scanner* (:class:`StateScanner`, :func:`next_match`) is
  lark's own contextual lexer, one scanner per parser state, so tokens are
  exactly lark's.  It serves the incremental scan and derivation trees.
* The *error-tolerant lexer* (:func:`lex_typed`) lexes corrupt text without
  a parser: every terminal everywhere, longest match, and junk characters as
  tokens of their own.  It serves token-level ddmax.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from inputmend.grammar.lark_internals import Source
from inputmend.grammar.regex import (
    Code,
    compiled_code,
    from_code,
    ranges_class,
    ranges_overlap,
)

if TYPE_CHECKING:
    from inputmend.grammar.compiled import CompiledGrammar, Terminal

LONG = 64  # terminals that can match more than this many characters are watched


class Token(NamedTuple):
    """A token: its terminal (None for junk no terminal matches) and span."""

    type: str | None
    start: int
    end: int


class Retype:
    """lark's renaming of a token (a name that is a keyword): the group
    name of the first of ``sources`` that matches the whole text, or None.
    Compiled on its first call: most of a grammar's states never need it."""

    __slots__ = ("_compiled", "sources")

    def __init__(self, sources: tuple[Source, ...]) -> None:
        self.sources = sources
        self._compiled: tuple[re.Pattern[str], ...] | None = None

    def __call__(self, text: str) -> str | None:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = tuple(re.compile(*source) for source in self.sources)
        for pattern in compiled:
            match = pattern.fullmatch(text)
            if match is not None:
                return match.lastgroup
        return None


@dataclass(frozen=True)
class StateScanner:
    """lark's contextual scanner for one parser state, plus its watch list.

    ``sources`` are the regexes it tries in order (:attr:`regexes` compiles
    them when the scan first lexes in this state: a large grammar has many
    scanners, a small text visits few).  ``watch`` maps a terminal to the
    long alternatives lark tries before it (a ``re`` class of their first
    characters or None for any, ``regex`` pattern): lexing such a token
    may have looked far ahead (an unterminated ``/* ...`` comment scanned to
    the end of the text before the winner matched), so the scan records how
    far."""

    sources: tuple[Source, ...]
    terminals: tuple[str, ...]  # the named groups of the sources, in order
    retype: Mapping[str, Callable[[str], str | None]]
    watch: dict[str, tuple[tuple[Any, Any], ...]]

    @functools.cached_property
    def regexes(self) -> tuple[Any, ...]:
        """:attr:`sources`, compiled (see :func:`compile_sources`)."""
        return compile_sources(self.sources)


def compile_sources(sources: tuple[Source, ...]) -> tuple[re.Pattern[str], ...]:
    """``sources`` compiled by ``re``, their engine's code kept on disk by
    :mod:`inputmend.grammar.cache`: compiling a scanner's large character
    classes takes Python longer than lexing a small file."""
    from inputmend.grammar import cache

    parts = [
        b"re code",
        cache.stamp(Path(__file__).with_name("regex.py")),
        repr(sources).encode("utf-8", "surrogatepass"),
    ]
    codes = cache.cached(
        parts,
        lambda: tuple(compiled_code(source, flags) for source, flags in sources),
        lambda codes: codes,
        lambda plain: _codes_of(sources, plain),
    )
    return tuple(from_code(source, code) for (source, _), code in zip(sources, codes, strict=True))


def _codes_of(sources: tuple[Source, ...], plain: Any) -> tuple[Code, ...]:
    """The codes of ``sources`` stored as ``plain``; ValueError when they
    are not (the engine checks each code)."""
    if type(plain) is not tuple or len(plain) != len(sources):
        raise ValueError("not the codes of these patterns")
    for (source, _), code in zip(sources, plain, strict=True):
        if type(code) is not tuple or len(code) != 5:
            raise ValueError("not the code of a pattern")
        from_code(source, code)
    codes: tuple[Code, ...] = plain
    return codes


def state_scanners(grammar: CompiledGrammar) -> dict[int, StateScanner]:
    """The scanner of each parser state (states that share a lark scanner
    share one :class:`StateScanner`).  Terminals that the grammar's layout
    lexes itself are left out."""
    terminals = grammar.terminals
    own = grammar.layout.own_terminals if grammar.layout is not None else frozenset()
    flags = grammar.analysis.regex_flags
    built: dict[int, StateScanner] = {}
    scanners: dict[int, StateScanner] = {}
    retypes: dict[tuple[Source, ...], Retype] = {}
    for state, lexer in grammar.analysis.lexers.items():
        scanner = built.get(id(lexer))
        if scanner is None:
            names = [name for name in lexer.terminals if name not in own]
            regexes = lexer.regexes  # one named group per terminal, in this order
            if len(names) < len(lexer.terminals):
                regexes = _alternations(names, terminals, flags)
            watch: dict[str, tuple[tuple[Any, Any], ...]] = {}
            for position, winner in enumerate(names):
                theirs = terminals[winner].first_ranges
                risky = []
                for earlier in names[:position]:
                    alternative = terminals[earlier]
                    if alternative.max_width <= LONG:
                        continue
                    mine = alternative.first_ranges
                    if not ranges_overlap(mine, theirs):
                        continue
                    risky.append((ranges_class(mine), alternative.pattern))
                if risky:
                    watch[winner] = tuple(risky)
            retype = {
                name: retypes.setdefault(sources, Retype(sources))
                for name, sources in lexer.retype.items()
            }
            scanner = built[id(lexer)] = StateScanner(regexes, tuple(names), retype, watch)
        scanners[state] = scanner
    return scanners


def _alternations(
    names: list[str], terminals: dict[str, Terminal], flags: int
) -> tuple[Source, ...]:
    """Regexes that try ``names`` in order, as lark's scanner does (in
    pieces: Python's ``re`` allows only so many named groups in one)."""
    pieces = []
    for first in range(0, len(names), 90):
        chunk = names[first : first + 90]
        source = "|".join(f"(?P<{name}>{terminals[name].source})" for name in chunk)
        pieces.append((source, flags))
    return tuple(pieces)


def next_match(scanner: StateScanner, text: str, pos: int) -> Any:
    """The lex step: the match of the token at ``pos`` (its terminal is
    ``match.lastgroup``), or None when no terminal of this state matches."""
    for pattern in scanner.regexes:
        match = pattern.match(text, pos)
        if match is not None:
            return match
    return None


def lex_typed(
    grammar: CompiledGrammar, text: str, *, stop: Callable[[], None] | None = None
) -> list[Token]:
    """Tokens of a possibly corrupt ``text`` with their terminal (``None`` for junk).

    Context-free lexing with all terminals of the grammar: at each position
    the longest match wins (a literal such as a keyword beats a pattern of the
    same length).  Matches of ignored terminals (whitespace, comments) are
    layout and produce no token.  A character that no terminal matches becomes
    a one-character junk token, and lexing continues after it.  ``stop`` is
    called now and then (it may raise to stop: budgets, cancellation).
    """
    native = grammar.native_program
    if native is not None:  # the same tokens, by the terminals' DFAs in C
        found = native.lex(text, Token, stop)
        if found is not None:
            return found
    order = [(t.name, t.pattern) for t in grammar.lexing_order]
    ignored = grammar.ignored
    tokens: list[Token] = []
    position = 0
    size = len(text)
    while position < size:
        if stop is not None and len(tokens) % 512 == 0:
            stop()
        best_end = position
        best_name: str | None = None
        for name, pattern in order:
            match = pattern.match(text, position)
            if match is not None and match.end() > best_end:
                best_end, best_name = match.end(), name
        if best_name is None:  # junk: no terminal matches here
            tokens.append(Token(None, position, position + 1))
            position += 1
            continue
        if best_name not in ignored:
            tokens.append(Token(best_name, position, best_end))
        position = best_end
    return tokens


def lex_tokens(
    grammar: CompiledGrammar, text: str, *, stop: Callable[[], None] | None = None
) -> list[tuple[int, int]]:
    """Token spans of a possibly corrupt ``text`` (see :func:`lex_typed`)."""
    return [(start, end) for _, start, end in lex_typed(grammar, text, stop=stop)]
