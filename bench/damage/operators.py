"""Damage operators: the breakage people really get, as pure functions.

An operator takes a valid document and a seeded ``random.Random`` and returns
the damaged text, or ``None`` when it does not apply to that document (no
string to lose a quote from, ...).  The builders here are format-general: they
find their sites among the tokens the bundled grammar reads (see
``lexing.lex``); ``formats.FORMATS`` says which delimiters, strings, comment
styles, literals and wrappers each format gets.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Collection, Mapping, Sequence

from .lexing import Token, lex

Operator = Callable[[str, random.Random], str | None]
# a literal of the format -> the same value written as another language writes it
LiteralSwap = Callable[[str, random.Random], str | None]


def truncation(text: str, rng: random.Random) -> str | None:
    """The document cut off at a random point (a download or a copy that stopped)."""
    if len(text) < 2:
        return None
    return text[: rng.randrange(1, len(text))]


def misindented(text: str, rng: random.Random) -> str | None:
    """One line (not the first, not blank, not a comment) moved one or two
    columns left or right: a key or list item indented a space off."""
    lines = text.splitlines(keepends=True)
    movable = [
        index
        for index, line in enumerate(lines)
        if index and line.strip() and not line.lstrip().startswith("#")
    ]
    if not movable:
        return None
    index = rng.choice(movable)
    line = lines[index]
    indent = len(line) - len(line.lstrip(" "))
    shift = rng.choice([s for s in (-2, -1, 1, 2) if indent + s >= 0])
    lines[index] = " " * (indent + shift) + line.lstrip(" ")
    return "".join(lines)


def _core(token: Token) -> tuple[int, int]:
    """The offsets of a token without the blanks some grammars lex with it ("  [")."""
    stripped = token.text.strip()
    start = token.start + token.text.index(stripped) if stripped else token.start
    return start, start + len(stripped)


def _pick(
    tokens: Sequence[Token], rng: random.Random, key: Callable[[Token], str | None]
) -> Token | None:
    """A random token among those ``key`` names, each name equally likely first."""
    groups: dict[str, list[Token]] = {}
    for token in tokens:
        name = key(token)
        if name is not None:
            groups.setdefault(name, []).append(token)
    if not groups:
        return None
    return rng.choice(groups[rng.choice(sorted(groups))])


def _by_text(texts: Collection[str]) -> Callable[[Token], str | None]:
    wanted = frozenset(texts)  # a string stands for its characters
    return lambda token: token.text.strip() if token.text.strip() in wanted else None


def lost_delimiter(grammar: str, delimiters: Collection[str]) -> Operator:
    """One delimiter (a comma, a colon, a closing bracket ...) deleted."""

    def damage(text: str, rng: random.Random) -> str | None:
        token = _pick(lex(grammar, text).tokens, rng, _by_text(delimiters))
        if token is None:
            return None
        start, end = _core(token)
        return text[:start] + text[end:]

    return damage


def doubled_delimiter(grammar: str, delimiters: Collection[str]) -> Operator:
    """One delimiter written twice."""

    def damage(text: str, rng: random.Random) -> str | None:
        token = _pick(lex(grammar, text).tokens, rng, _by_text(delimiters))
        if token is None:
            return None
        start, end = _core(token)
        return text[:end] + text[start:end] + text[end:]

    return damage


def trailing_separator(
    grammar: str, separator: str, closers: Collection[str], openers: Collection[str]
) -> Operator:
    """A separator after the last element of a list, right before its closing bracket."""

    closing, opening = frozenset(closers), frozenset(openers)

    def damage(text: str, rng: random.Random) -> str | None:
        tokens = lex(grammar, text).tokens
        sites = [
            before.end
            for before, token in itertools.pairwise(tokens)
            if token.text in closing and before.text not in opening
        ]
        if not sites:
            return None
        at = rng.choice(sites)
        return text[:at] + separator + text[at:]

    return damage


def lost_quote(grammar: str, kinds: Collection[str]) -> Operator:
    """The opening or the closing quote of one string deleted."""

    def damage(text: str, rng: random.Random) -> str | None:
        strings = [t for t in lex(grammar, text).tokens if t.kind in kinds and len(t.text) >= 2]
        if not strings:
            return None
        token = rng.choice(strings)
        at = token.start if rng.random() < 0.5 else token.end - 1
        return text[:at] + text[at + 1 :]

    return damage


def single_quotes(grammar: str, kinds: Collection[str]) -> Operator:
    """One double-quoted string written with single quotes (Python, JavaScript habits).

    Only strings without quotes or backslashes inside, so the single-quoted
    string means the same text."""

    def damage(text: str, rng: random.Random) -> str | None:
        strings = [
            token
            for token in lex(grammar, text).tokens
            if token.kind in kinds and not any(c in token.text[1:-1] for c in "'\"\\")
        ]
        if not strings:
            return None
        token = rng.choice(strings)
        return text[: token.start] + "'" + token.text[1:-1] + "'" + text[token.end :]

    return damage


COMMENT_PHRASES = (
    "TODO check this value",
    "added for the new release",
    "default",
    "FIXME",
    "see issue 42",
    "deprecated, remove later",
    "keep in sync with production",
    "set by the installer",
)


def _comment(style: str, phrase: str) -> str:
    return f"/* {phrase} */" if style == "/*" else f"{style} {phrase}"


def _between_tokens(tokens: Sequence[Token], offset: int) -> bool:
    """Is ``offset`` outside every token (not inside a string spanning lines ...)?"""
    starts = [token.start for token in tokens]
    index = bisect.bisect_left(starts, offset) - 1
    return index < 0 or tokens[index].end <= offset or not tokens[index].text.strip()


def foreign_comment(
    grammar: str, styles: Sequence[str], placements: Sequence[str] = ("line end", "own line")
) -> Operator:
    """A comment in a style the format does not have.

    ``styles``: line comment prefixes such as ``//`` or ``#``, and ``/*`` for
    ``/* ... */``.  ``placements``:
    ``line end`` (after the last token of a line), ``own line`` (a line of its
    own, indented like the next one), ``between tokens`` (block comments only).
    """

    def damage(text: str, rng: random.Random) -> str | None:
        tokens = lex(grammar, text).tokens
        placement = rng.choice(placements)
        style = rng.choice(styles)
        if placement == "between tokens":
            style = "/*"
        comment = _comment(style, rng.choice(COMMENT_PHRASES))
        breaks = [i for i, c in enumerate(text) if c == "\n" and _between_tokens(tokens, i)]
        if placement == "line end":
            if not breaks:
                return None
            at = rng.choice(breaks)
            return text[:at] + " " + comment + text[at:]
        if placement == "own line":
            line_starts = [0, *(i + 1 for i in breaks if i + 1 < len(text))]
            at = rng.choice(line_starts)
            line = text[at:].split("\n", 1)[0]
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            return text[:at] + indent + comment + "\n" + text[at:]
        gaps = [token.end for token in tokens[:-1]]
        if not gaps:
            return None
        at = rng.choice(gaps)
        return text[:at] + " " + comment + " " + text[at:]

    return damage


def foreign_literal(grammar: str, swaps: Mapping[str, LiteralSwap]) -> Operator:
    """One literal written as another language writes the same value.

    ``swaps`` maps a terminal name to a function that rewrites a token of it
    (``None`` when it cannot); each terminal is equally likely first."""

    def damage(text: str, rng: random.Random) -> str | None:
        tokens = lex(grammar, text).tokens
        groups: dict[str, list[Token]] = {}
        for token in tokens:
            if token.kind in swaps:
                groups.setdefault(token.kind, []).append(token)
        if not groups:
            return None
        kind = rng.choice(sorted(groups))
        token = rng.choice(groups[kind])
        written = swaps[kind](token.text, rng)
        if written is None:
            return None
        return text[: token.start] + written + text[token.end :]

    return damage


def wrapper(styles: Sequence[Callable[[str], str]]) -> Operator:
    """Text around the data: a markdown fence, a sentence, a JavaScript assignment ..."""

    def damage(text: str, rng: random.Random) -> str | None:
        return rng.choice(styles)(text)

    return damage


def fenced(language: str) -> Callable[[str], str]:
    def wrap(text: str) -> str:
        return f"```{language}\n{text.rstrip(chr(10))}\n```\n"

    return wrap


def before(sentence: str) -> Callable[[str], str]:
    return lambda text: f"{sentence}\n\n{text}"


def after(sentence: str) -> Callable[[str], str]:
    return lambda text: f"{text.rstrip(chr(10))}\n\n{sentence}\n"


def around(head: str, tail: str) -> Callable[[str], str]:
    """``head`` + the document without its final line break + ``tail``."""
    return lambda text: f"{head}{text.rstrip(chr(10))}{tail}"
