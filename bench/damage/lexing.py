"""Significant tokens of a text under a bundled grammar, read with lark itself.

The benchmark reads documents with lark's own LALR parser (not the engine's
incremental oracle) so that generating cases and judging repairs does not
depend on the engine under test.  Ignored terminals (whitespace, comments) are
not tokens; named whitespace terminals that a grammar keeps (INI's ``_WS``,
the line breaks of line-based formats) are.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import lark
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from inputmend.grammar.registry import bundled


@dataclass(frozen=True)
class Token:
    """One token: the grammar's terminal name, its text and its offsets."""

    kind: str
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Lexed:
    """What the parser read of a text.

    ``tokens`` are the tokens it accepted, in order.  ``stop`` is the offset
    where reading stopped on an error (a character no token starts with, or a
    token the grammar does not accept there), ``None`` when it read to the
    end.  ``complete`` says the whole text is a document of the grammar.
    """

    tokens: tuple[Token, ...]
    stop: int | None
    complete: bool


@functools.cache
def parser(grammar: str) -> lark.Lark:
    """The LALR parser of a bundled grammar, with the options the engine uses."""
    info = bundled()[grammar]
    return lark.Lark(
        info.path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        start=info.start,
        propagate_positions=True,
        maybe_placeholders=False,
        import_paths=[str(info.path.parent)],
    )


@functools.lru_cache(maxsize=4096)
def lex(grammar: str, text: str) -> Lexed:
    """Read ``text`` token by token until the end or the first error."""
    session = parser(grammar).parse_interactive(text)
    tokens: list[Token] = []
    try:
        for token in session.iter_parse():
            tokens.append(Token(token.type, str(token), token.start_pos, token.end_pos))
        session.feed_eof()
    except UnexpectedCharacters as error:
        return Lexed(tuple(tokens), error.pos_in_stream, False)
    except UnexpectedToken as error:
        if error.token.type == "$END":
            return Lexed(tuple(tokens), None, False)
        # iter_parse hands out a token before the parser has accepted it
        if tokens and tokens[-1].start == error.token.start_pos:
            tokens.pop()
        return Lexed(tuple(tokens), error.token.start_pos, False)
    except UnexpectedInput as error:
        return Lexed(tuple(tokens), error.pos_in_stream, False)
    return Lexed(tuple(tokens), None, True)


def is_valid(grammar: str, text: str) -> bool:
    return lex(grammar, text).complete


def parse_tree(grammar: str, text: str) -> lark.Tree | None:
    """The parse tree of a valid text, ``None`` for an invalid one."""
    try:
        return parser(grammar).parse(text)
    except UnexpectedInput:
        return None
