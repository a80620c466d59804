"""Significant tokens of a text under a bundled grammar, read with lark itself.

The benchmark reads documents with lark's own LALR parser (not the engine's
incremental oracle) so that generating cases and judging repairs does not
depend on the engine under test.  Ignored terminals (whitespace, comments) are
not tokens; named whitespace terminals that a grammar keeps (INI's ``_WS``,
the line breaks of line-based formats) are.

Where lark's parse is not the whole verdict, the format's reference parser
has the last word on validity (``REFERENCES``): tomllib for TOML (keys
defined twice), expat and ElementTree for XML (matching end tags, unique
attributes, declared entities and namespace prefixes).  YAML's indentation
is beyond lark alone: its tokens are PyYAML's scanner's (:func:`yaml_lex`),
named after the grammar's terminals, and its verdict PyYAML's.
"""

from __future__ import annotations

import functools
import tomllib
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import dataclass
from xml.parsers import expat

import lark
import yaml
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from inputmend.grammar.registry import build_parser, bundled


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


def parser(grammar: str) -> lark.Lark:
    """The LALR parser of a bundled grammar, the one the engine builds (cached there)."""
    return build_parser(bundled()[grammar])


def toml_valid(text: str) -> bool:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


def xml_valid(text: str) -> bool:
    data = text.encode("utf-8", "surrogatepass")
    try:
        expat.ParserCreate().Parse(data, True)
        ElementTree.fromstring(data)
    except (expat.ExpatError, ElementTree.ParseError, LookupError, UnicodeError):
        return False
    return True


REFERENCES: dict[str, Callable[[str], bool]] = {"toml": toml_valid, "xml": xml_valid}

# PyYAML's tokens -> the terminals of yaml.lark (scalars by their style)
_YAML_KINDS = {
    yaml.FlowSequenceStartToken: "LSQB",
    yaml.FlowSequenceEndToken: "RSQB",
    yaml.FlowMappingStartToken: "LBRACE",
    yaml.FlowMappingEndToken: "RBRACE",
    yaml.FlowEntryToken: "COMMA",
    yaml.BlockEntryToken: "DASH",
    yaml.KeyToken: "QUESTION",
    yaml.ValueToken: "COLON",
    yaml.DocumentStartToken: "DOC_START",
    yaml.DocumentEndToken: "DOC_END",
    yaml.DirectiveToken: "DIRECTIVE",
    yaml.AnchorToken: "ANCHOR",
    yaml.AliasToken: "ALIAS",
    yaml.TagToken: "TAG",
}
_YAML_STYLES = {None: "PLAIN", "'": "SQ", '"': "DQ", "|": "BLOCK_SCALAR", ">": "BLOCK_SCALAR"}


def yaml_lex(text: str) -> Lexed:
    """PyYAML's tokens of ``text`` (those with text: not the block starts and
    ends, nor a simple key's zero-width KEY), and its verdict."""
    tokens: list[Token] = []
    stop: int | None = None
    try:
        for token in yaml.scan(text):
            start, end = token.start_mark.index, token.end_mark.index
            if isinstance(token, yaml.ScalarToken):
                kind = _YAML_STYLES.get(token.style, "PLAIN")
            else:
                kind = _YAML_KINDS.get(type(token), "")
            if kind and end > start:
                tokens.append(Token(kind, text[start:end], start, end))
        for _ in yaml.compose_all(text):
            pass
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        stop = mark.index if mark is not None else len(text)
    except (yaml.YAMLError, ValueError):
        stop = len(text)
    if stop is not None:
        return Lexed(tuple(t for t in tokens if t.end <= stop), stop, False)
    return Lexed(tuple(tokens), None, True)


@functools.lru_cache(maxsize=4096)
def lex(grammar: str, text: str) -> Lexed:
    """Read ``text`` token by token until the end or the first error."""
    if grammar == "yaml":
        return yaml_lex(text)
    lexed = _lark_lex(grammar, text)
    reference = REFERENCES.get(grammar)
    if lexed.complete and reference is not None and not reference(text):
        return Lexed(lexed.tokens, None, False)
    return lexed


def _lark_lex(grammar: str, text: str) -> Lexed:
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
