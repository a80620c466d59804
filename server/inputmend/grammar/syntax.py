"""A grammar's syntax roles, derived once per grammar from the grammar and its
hints file: what the generic repair and ranking code reads instead of
knowing a format's syntax.

* the nesting bracket pairs (:func:`brackets_of`): a rule that ends with a
  punctuation literal and has an earlier one, when the part between them can
  nest a rule with the same pair (JSON's ``{ }`` and ``[ ]``, Lisp's
  ``( )``, TinyC's blocks and parentheses, DOT's graph and subgraph bodies,
  TOML's inline tables and arrays; not INI's one-line ``[section]``), with a
  pattern that finds them in a text and skips strings and comments;
* the quotes of strings that may span lines (where layout puts a lost quote
  back);
* the filler value the hints name (what goes where a value is missing).

:func:`syntax_of` derives them once per :class:`CompiledGrammar`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import HintsError
from inputmend.grammar.lexer import compile_sources
from inputmend.grammar.regex import RegexAutomaton, UnsupportedRegex


@dataclass(frozen=True)
class Brackets:
    """A grammar's nesting bracket pairs, and a pattern that finds them in a
    text: named groups ``o`` (opener), ``c`` (closer) and ``s`` (a token that
    may hide brackets: strings, comments)."""

    openers: tuple[str, ...]
    closers: tuple[str, ...]
    pattern: re.Pattern[str]
    quotes: tuple[str, ...] = ()  # the quotes of strings that may span lines
    heads: Any = None  # the grammar's hints' pattern of words that come first in brackets
    inside: re.Pattern[str] | None = None
    """The pattern between brackets, where fewer tokens may hide brackets
    (YAML's plain scalars hold ``]`` and ``,`` outside ``[...]``, not
    inside); None when it is ``pattern``."""

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The brackets and hiding tokens of ``text``, in order, each read
        with the pattern of the depth where it starts."""
        if self.inside is None:
            return self.pattern.finditer(text)
        return self._by_depth(text, self.inside)

    def _by_depth(self, text: str, inside: re.Pattern[str]) -> Iterator[re.Match[str]]:
        depth = position = 0
        size = len(text)
        while position <= size:
            match = (inside if depth else self.pattern).search(text, position)
            if match is None:
                return
            if match.end() == match.start():  # hides nothing
                position = match.end() + 1
                continue
            kind = match.lastgroup
            if kind == "o":
                depth += 1
            elif kind == "c":
                depth = max(0, depth - 1)
            position = match.end()
            yield match


@functools.lru_cache(maxsize=32)
def brackets_of(grammar: CompiledGrammar) -> Brackets | None:
    """The nesting bracket pairs of a grammar (None when it has none); found
    once per grammar, as every repair and ranking asks."""
    literals = {
        name: literal
        for name, literal in grammar.literals.items()
        if literal and not any(c.isalnum() or c == "_" or c.isspace() for c in literal)
    }
    derives: dict[str, set[str]] = {}
    framed: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
    for rule in grammar.rules:
        derives.setdefault(rule.origin, set()).update(rule.expansion)
        expansion = rule.expansion
        if len(expansion) < 2 or expansion[-1] not in literals:
            continue
        first = next((i for i, s in enumerate(expansion[:-1]) if s in literals), None)
        if first is not None:
            pair = (literals[expansion[first]], literals[expansion[-1]])
            if pair[0] != pair[1]:
                framed.setdefault(pair, []).append((rule.origin, expansion[first + 1 : -1]))
    nesting = []
    for pair, rules in framed.items():
        origins = {origin for origin, _ in rules}
        if any(_derivable(middle, derives) & origins for _, middle in rules):
            nesting.append(pair)
    if not nesting:
        return None
    openers = tuple(sorted({o for o, _ in nesting}, key=lambda t: (-len(t), t)))
    closers = tuple(sorted({c for _, c in nesting}, key=lambda t: (-len(t), t)))
    hiding = [
        (name, terminal.source)
        for name, terminal in sorted(grammar.terminals.items())
        if name not in literals and _may_hide(terminal.source, {*openers, *closers})
    ]
    pattern = _bracket_pattern([source for _, source in hiding], openers, closers)
    if pattern is None:
        return None
    # between brackets: the hiding tokens the rules inside them derive, and
    # those that go anywhere (comments)
    middles = tuple(symbol for rules in framed.values() for _, middle in rules for symbol in middle)
    inner = _derivable(middles, derives) | set(grammar.ignored)
    hiding_inside = [source for name, source in hiding if name in inner]
    inside = None
    if len(hiding_inside) < len(hiding):
        inside = _bracket_pattern(hiding_inside, openers, closers)
    quotes = {
        source[0]
        for name, terminal in grammar.terminals.items()
        if name not in literals
        and (source := terminal.source)[:1] in _QUOTES
        and source[-1] == source[0] != source[1:3]
        and _may_hide(source, {"\n"})
    }
    try:
        heads = grammar.hints().heads
    except HintsError:
        heads = None  # reported where the hints are used
    return Brackets(openers, closers, pattern, tuple(sorted(quotes)), heads, inside)


def _bracket_pattern(
    hiding: list[str], openers: tuple[str, ...], closers: tuple[str, ...]
) -> re.Pattern[str] | None:
    """The pattern of :class:`Brackets` (None when the grammar's patterns do
    not compile together)."""
    parts = [
        f"(?P<s>{'|'.join(f'(?:{source})' for source in hiding)})" if hiding else None,
        f"(?P<o>{'|'.join(map(re.escape, openers))})",
        f"(?P<c>{'|'.join(map(re.escape, closers))})",
    ]
    try:
        (pattern,) = compile_sources((("|".join(part for part in parts if part), 0),))
    except re.error:
        return None
    return pattern


def _derivable(symbols: tuple[str, ...], derives: dict[str, set[str]]) -> set[str]:
    """The symbols that ``symbols`` derive sentential forms with, themselves too."""
    seen: set[str] = set()
    pending = list(symbols)
    while pending:
        symbol = pending.pop()
        if symbol not in seen:
            seen.add(symbol)
            pending.extend(derives.get(symbol, ()))
    return seen


_QUOTES = frozenset("\"'`")


def _may_hide(source: str, texts: set[str]) -> bool:
    """Can a token of this pattern contain the first character of one of ``texts``?"""
    try:
        automaton = RegexAutomaton(source)
    except UnsupportedRegex:
        return True
    firsts = {text[0] for text in texts}
    return any(char in chars for moves in automaton.moves for chars, _ in moves for char in firsts)


@dataclass(frozen=True)
class SyntaxRoles:
    """What the syntax of a grammar's texts is made of, as the generic repair
    and ranking code needs it (see the module's docstring)."""

    brackets: Brackets | None
    """The nesting bracket pairs (None when the grammar has none)."""
    filler: str | None
    """The value the hints put where one is missing (``null``); None when
    the hints name none or cannot be read (that is reported where hints are
    used)."""

    @property
    def quotes(self) -> tuple[str, ...]:
        """The quotes of strings that may span lines (those among brackets)."""
        return () if self.brackets is None else self.brackets.quotes


@functools.lru_cache(maxsize=32)
def syntax_of(grammar: CompiledGrammar) -> SyntaxRoles:
    """The syntax roles of ``grammar``, derived once per grammar."""
    try:
        filler = grammar.hints().filler
    except HintsError:
        filler = None
    return SyntaxRoles(brackets_of(grammar), filler)


NO_SYNTAX = SyntaxRoles(None, None)
"""Without a grammar: no brackets, no filler."""
