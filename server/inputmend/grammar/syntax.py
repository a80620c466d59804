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
* the filler value the hints name (what goes where a value is missing);
* the comments (:func:`comments_of`): the markers of comments that run to
  the end of their line, and the opener and closer of block comments, read
  from the patterns of the terminals that are layout (ignored, or named
  layout by the hints); and the openers of the comments that may hold a
  line break (:func:`spanning_openers`), the hints' foreign comments among
  them: a comment that lost its closer can run on to a later one's closer
  only where its opener is in the text twice;
* the string quotes (:func:`string_quotes_of`): each one-line string
  terminal's quote and how a quote is written inside (after a backslash,
  doubled, or not at all).

:func:`syntax_of` derives them once per :class:`CompiledGrammar`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import NO_HINTS, Hints, HintsError
from inputmend.grammar.lexer import compile_sources
from inputmend.grammar.regex import (
    RegexAutomaton,
    RegexItem,
    UnsupportedRegex,
    parse_regex,
)


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
class Comments:
    """A grammar's comments: the markers that comment out the rest of their
    line (``#``; INI's ``;`` and ``#``), and the (opener, closer) pairs of
    block comments (``/*`` ``*/``, ``<!--`` ``-->``)."""

    line: tuple[str, ...] = ()
    block: tuple[tuple[str, str], ...] = ()
    spanning: tuple[str, ...] = ()
    """The openers of the comments that may hold a line break, the hints'
    foreign comments among them (see :func:`spanning_openers`)."""


@functools.lru_cache(maxsize=32)
def comments_of(grammar: CompiledGrammar) -> Comments:
    """The comments of ``grammar``: its layout terminals (ignored, or named
    layout by the hints) whose pattern is a fixed marker and the rest of the
    line, or a fixed opener, anything, and a fixed closer."""
    try:
        hints = grammar.hints()
    except HintsError:
        hints = NO_HINTS
    line: set[str] = set()
    block: set[tuple[str, str]] = set()
    for name in _layout_terminals(grammar, hints):
        try:
            items = parse_regex(grammar.terminals[name].source)
        except re.error:
            continue
        line.update(_line_markers(items))
        pair = _block_delimiters(items)
        if pair is not None:
            block.add(pair)
    spanning = spanning_openers(grammar, hints)
    return Comments(tuple(sorted(line)), tuple(sorted(block)), tuple(sorted(spanning)))


def spanning_openers(grammar: CompiledGrammar | None, hints: Hints) -> frozenset[str]:
    """The openers of the comments a lexer of ``grammar`` (None: a lexer
    without one) with ``hints`` reads that may hold a line break: the first
    two characters, both punctuation and fixed by the pattern, of its layout
    terminals (ignored, or named layout by ``hints``) and of the hints'
    foreign comments (``/*``, ``<!``, ``#|``).  A block comment that lost its
    closer and reads on to a later comment's closer holds its opener twice:
    a text that holds none of these twice has no such comment.  Line
    comments (``#[^\\n]*``) hold no line break: not here."""
    sources: list[tuple[str, int]] = []
    if grammar is not None:
        layout = _layout_terminals(grammar, hints)
        sources += [(grammar.terminals[name].source, 0) for name in layout]
    sources += [
        (rewrite.pattern.pattern, rewrite.pattern.flags)
        for rewrite in hints.tokens
        if rewrite.kind == "comment"
    ]
    return frozenset(filter(None, (_spanning_opener(source, flags) for source, flags in sources)))


def _layout_terminals(grammar: CompiledGrammar, hints: Hints) -> list[str]:
    """The names of the terminals of ``grammar`` that are layout: ignored,
    unless ``hints`` give them another role, or named layout by ``hints``."""
    return sorted(
        name
        for name in grammar.terminals
        if hints.roles.get(name, "layout" if name in grammar.ignored else None) == "layout"
    )


@functools.lru_cache(maxsize=1024)
def _spanning_opener(source: str, flags: int) -> str:
    """The first two characters of the matches of a pattern, when they are
    fixed punctuation and a match may hold a line break ("": not so)."""
    fixed = ""
    try:
        items = parse_regex(source)
    except re.error:
        return fixed
    for item in items:
        if item.op in ("ASSERT", "ASSERT_NOT", "AT"):
            continue  # a lookaround or an anchor: no character of the match
        if item.op != "LITERAL" or len(fixed) == 2:
            break
        fixed += chr(item.arg)
    if len(fixed) < 2 or not all(_PUNCTUATION.fullmatch(char) for char in fixed):
        return ""
    try:
        automaton = RegexAutomaton(("(?s)" if flags & re.DOTALL else "") + source)
    except (re.error, UnsupportedRegex):
        return fixed  # not known to hold no line break
    lines = any("\n" in chars for moves in automaton.moves for chars, _ in moves)
    return fixed if lines else ""


_PUNCTUATION = re.compile(r"[^\w\s]")
"""A punctuation character: a block comment's opener is two."""


def _line_markers(items: list[RegexItem]) -> tuple[str, ...]:
    """The markers of a pattern ``MARKER[^\\n...]*`` (none for another shape):
    a marker is literal characters, or one of a class of them (``[;#]``)."""
    if len(items) < 2 or not _rest_of_line(items[-1]):
        return ()
    prefix = items[:-1]
    if all(item.op == "LITERAL" for item in prefix):
        return ("".join(chr(item.arg) for item in prefix),)
    if len(prefix) == 1 and prefix[0].op == "IN":
        members = prefix[0].arg
        if all(member.op == "LITERAL" for member in members):
            return tuple(chr(member.arg) for member in members)
    return ()


def _rest_of_line(item: RegexItem) -> bool:
    """Is ``item`` ``[^...]*``, any run of characters other than a line break?"""
    if item.op != "MAX_REPEAT" or item.arg[0] != 0 or item.arg[1] is not None:
        return False
    inner = item.arg[2]
    if len(inner) != 1 or inner[0].op != "IN" or not inner[0].arg:
        return False
    members = inner[0].arg
    if members[0].op != "NEGATE":
        return False
    newline = ord("\n")
    return any(
        (member.op == "LITERAL" and member.arg == newline)
        or (member.op == "RANGE" and member.arg[0] <= newline <= member.arg[1])
        for member in members[1:]
    )


def _block_delimiters(items: list[RegexItem]) -> tuple[str, str] | None:
    """The opener and closer of a pattern that starts and ends with at least
    two fixed characters and repeats something between them (``/\\*...\\*+/``)."""
    opener = ""
    for item in items:
        if item.op != "LITERAL":
            break
        opener += chr(item.arg)
    closer = ""
    rest = items[len(opener) :]
    for item in reversed(rest):
        if item.op == "LITERAL":
            closer = chr(item.arg) + closer
            continue
        low, inner = (item.arg[0], item.arg[2]) if item.op == "MAX_REPEAT" else (0, [])
        if low >= 1 and len(inner) == 1 and inner[0].op == "LITERAL":
            closer = chr(inner[0].arg) + closer  # ``\*+/``: one star at least
        break
    middle = rest[: len(rest) - len(closer)] if closer else rest
    repeats = any(item.op in ("MAX_REPEAT", "MIN_REPEAT") for item in middle)
    if len(opener) < 2 or len(closer) < 2 or not repeats:
        return None
    return opener, closer


@dataclass(frozen=True)
class StringQuote:
    """A one-line string terminal's quote, and how a quote is written inside
    its strings: after a backslash (which is then written twice), doubled,
    or not at all."""

    quote: str
    escape: str | None  # "backslash", "double" or None
    pattern: re.Pattern[str]

    def quoted(self, body: str) -> str | None:
        """``body`` as a string of this terminal (None when it cannot hold it)."""
        quote = self.quote
        if self.escape == "backslash":
            body = body.replace("\\", "\\\\").replace(quote, "\\" + quote)
        elif self.escape == "double":
            body = body.replace(quote, quote * 2)
        written = quote + body + quote
        return written if self.pattern.fullmatch(written) else None


@functools.lru_cache(maxsize=32)
def string_quotes_of(grammar: CompiledGrammar) -> tuple[StringQuote, ...]:
    """The quotes of ``grammar``'s string terminals: patterns that start and
    end with the same quote character (one, not three); one per quote
    character, the first terminal by name."""
    found: dict[str, StringQuote] = {}
    for _, terminal in sorted(grammar.terminals.items()):
        source = terminal.source
        if terminal.literal is not None or source[:1] not in _QUOTES:
            continue
        quote = source[0]
        try:
            pattern = re.compile(source)
            items = parse_regex(source)
        except re.error:
            continue
        ends = items[:1] + items[-1:]
        if len(items) < 3 or any(item.op != "LITERAL" or chr(item.arg) != quote for item in ends):
            continue
        if items[1].op == "LITERAL" or not pattern.fullmatch(f"{quote}a{quote}"):
            continue  # a triple-quoted string
        escape = None
        escaped_quote, escaped_backslash = f"{quote}\\{quote}{quote}", f"{quote}\\\\{quote}"
        if pattern.fullmatch(escaped_quote) and pattern.fullmatch(escaped_backslash):
            escape = "backslash"
        elif pattern.fullmatch(quote * 4):
            escape = "double"
        found.setdefault(quote, StringQuote(quote, escape, pattern))
    return tuple(found[quote] for quote in sorted(found))


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
    comments: Comments = Comments()
    """The grammar's comments (none without a grammar)."""
    strings: tuple[StringQuote, ...] = ()
    """The quotes of its one-line strings (none without a grammar)."""

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
    return SyntaxRoles(
        brackets_of(grammar), filler, comments_of(grammar), string_quotes_of(grammar)
    )


NO_SYNTAX = SyntaxRoles(None, None)
"""Without a grammar: no brackets, no filler."""
