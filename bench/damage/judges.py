"""Does a repair carry the data the damaged document was meant to hold?

Each format has a data reading (``DATA_READERS``): what a program that reads
the format gets from a document, with layout and comments gone.  A repair
carries the original data when its reading equals the original's.

* json: ``json.loads`` strictly (no NaN/Infinity), with types kept apart (1,
  1.0 and true differ; 1.0 and 1.00 do not), objects as ordered key/value
  pairs (key order and duplicate keys count);
* ini: inih's (section, name, value) triples: names and values stripped of
  surrounding whitespace, values cut at an inline ``;`` comment, continuation
  lines as further values of the same name, comments and layout dropped;
* csv: the rows of Python's ``csv`` module (empty lines are not records);
* dot: the graph's tokens with IDs compared by value (``"a"`` is ``a``,
  joined ``"a" + "b"`` is ``ab``), keywords case-folded, and the optional
  ``;`` and ``,`` separators dropped;
* toml: tomllib's values (types kept, so 1, 1.0 and "1" differ);
* yaml: PyYAML's ``safe_load_all`` values of every document;
* xml: ElementTree's canonical form (C14N 2.0, without comments);
* jsonc: the JSON reading of its tokens (comments gone, trailing commas dropped);
* any other format (sexp, tinyc, ...): the bundled grammar's significant
  tokens (terminal and text; whitespace and comments dropped).

A truncated document has lost its end, so there the question is whether the
repair keeps everything the truncated text holds and only adds to it
(:func:`keeps_prefix`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import tomllib
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import Levenshtein
import yaml

from .lexing import Token, lex, parse_tree

Data = Hashable


@dataclass(frozen=True)
class _Number:
    kind: str  # "int" or "float", as json.loads types them
    value: Decimal


@dataclass(frozen=True)
class _Object:
    pairs: tuple[tuple[str, Any], ...]


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _tag(value: Any) -> Data:
    if isinstance(value, _Number):
        return ("number", value.kind, value.value)
    if isinstance(value, _Object):
        return ("object", tuple((key, _tag(item)) for key, item in value.pairs))
    if isinstance(value, list):
        return ("array", tuple(_tag(item) for item in value))
    if isinstance(value, bool):
        return ("bool", value)
    if value is None:
        return ("null",)
    return ("string", value)


def json_data(text: str) -> Data | None:
    """Strict, typed JSON data of ``text``; ``None`` when it is not JSON."""
    try:
        value = json.loads(
            text,
            object_pairs_hook=lambda pairs: _Object(tuple(pairs)),
            parse_int=lambda digits: _Number("int", Decimal(digits)),
            parse_float=lambda digits: _Number("float", Decimal(digits)),
            parse_constant=_reject_constant,
        )
        return _tag(value)
    except (ValueError, RecursionError, ArithmeticError):  # an exponent past Decimal's
        return None


_INLINE_COMMENT = re.compile(r"[ \t\f\v];")


def _ini_value(raw: str) -> str:
    """inih's value: cut at a ';' that follows whitespace, trailing blanks removed."""
    cut = _INLINE_COMMENT.search(raw)
    return (raw[: cut.start()] if cut else raw).rstrip()


def ini_data(text: str) -> Data | None:
    tree = parse_tree("ini", text)
    if tree is None:
        return None
    triples: list[tuple[str, str, str]] = []
    section, name = "", ""
    for node in tree.iter_subtrees_topdown():
        if node.data not in ("header", "pair", "continuation"):
            continue
        words = {str(token.type): str(token) for token in node.scan_values(lambda _: True)}
        if node.data == "header":
            section = words.get("SECTION_NAME", "")
        elif node.data == "pair":
            name = words.get("KEY", "").strip()
            triples.append((section, name, _ini_value(words.get("VALUE", ""))))
        elif node.data == "continuation":
            triples.append((section, name, _ini_value(words["CONT"].strip())))
    return tuple(triples)


def csv_data(text: str) -> Data | None:
    if parse_tree("csv", text) is None:
        return None
    rows = csv.reader(io.StringIO(text, newline=""))
    return tuple(tuple(row) for row in rows if row)


def _significant(tokens: Sequence[Token]) -> list[Token]:
    """Tokens without the blanks a line-based grammar keeps as tokens."""
    return [token for token in tokens if token.text.strip(" \t\f\v")]


def _line_break(token: Token) -> tuple[str, str]:
    return (token.kind, "\n") if not token.text.strip() else (token.kind, token.text)


def token_data(grammar: str) -> Callable[[str], Data | None]:
    """The significant tokens of a valid text (line breaks as one kind of token)."""

    def read(text: str) -> Data | None:
        lexed = lex(grammar, text)
        if not lexed.complete:
            return None
        return tuple(_line_break(token) for token in _significant(lexed.tokens))

    return read


_DOT_KEYWORDS = {"STRICT", "GRAPH", "DIGRAPH", "SUBGRAPH", "NODE", "EDGE"}


def _dot_unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"')


def dot_tokens(tokens: Sequence[Token]) -> list[tuple[str, str]]:
    """DOT tokens as values: IDs by their value, keywords folded, separators gone."""
    values: list[tuple[str, str]] = []
    joining = False
    for token in tokens:
        if token.text in (";", ","):
            continue
        if token.kind == "PLUS" and values and values[-1][0] == "id":
            joining = True
            continue
        if token.kind in ("IDENT", "NUMERAL", "QUOTED"):
            value = _dot_unquote(token.text) if token.kind == "QUOTED" else token.text
            if joining:
                values[-1] = ("id", values[-1][1] + value)
            else:
                values.append(("id", value))
        elif token.kind in _DOT_KEYWORDS:
            values.append((token.kind, token.text.lower()))
        else:
            values.append((token.kind, token.text))
        joining = False
    return values


def dot_data(text: str) -> Data | None:
    lexed = lex("dot", text)
    return tuple(dot_tokens(lexed.tokens)) if lexed.complete else None


def toml_data(text: str) -> Data | None:
    try:
        return repr(tomllib.loads(text))  # repr: types kept, nan equals nan
    except tomllib.TOMLDecodeError:
        return None


def yaml_data(text: str) -> Data | None:
    if not lex("yaml", text).complete:
        return None
    try:
        return repr(list(yaml.safe_load_all(text)))
    except Exception:  # noqa: BLE001 - PyYAML raises more than YAMLError
        return None


def xml_data(text: str) -> Data | None:
    if not lex("xml", text).complete:
        return None
    try:
        return ElementTree.canonicalize(text)
    except (ElementTree.ParseError, LookupError):
        return None


def jsonc_data(text: str) -> Data | None:
    lexed = lex("jsonc", text)
    if not lexed.complete:
        return None
    pieces = [token.text for token in lexed.tokens]
    if not pieces:
        return ()  # no value: empty, or comments only
    kept = [
        piece
        for piece, following in zip(pieces, [*pieces[1:], ""], strict=True)
        if not (piece == "," and following in ("]", "}"))
    ]
    return json_data("".join(kept))


DATA_READERS: dict[str, Callable[[str], Data | None]] = {
    "json": json_data,
    "ini": ini_data,
    "csv": csv_data,
    "dot": dot_data,
    "toml": toml_data,
    "yaml": yaml_data,
    "xml": xml_data,
    "jsonc": jsonc_data,
}


def data_reader(grammar: str) -> Callable[[str], Data | None]:
    return DATA_READERS.get(grammar) or token_data(grammar)


def same_data(grammar: str, original: str, repaired: str) -> bool:
    """Does ``repaired`` hold exactly the data of ``original``?"""
    read = data_reader(grammar)
    expected = read(original)
    return expected is not None and read(repaired) == expected


# ---------------------------------------------------------------- truncation


def _json_token_value(token: Token) -> tuple[str, Any]:
    """A JSON token by its value, so that re-encoded strings and numbers compare."""
    if token.kind == "STRING":
        return ("string", json.loads(token.text))
    if token.kind == "NUMBER":
        kind = "int" if re.fullmatch(r"-?[0-9]+", token.text) else "float"
        return (kind, Decimal(token.text))
    return (token.kind, token.text)


_TRAILING_ESCAPE = re.compile(r"\\+(u[0-9a-fA-F]{0,3})?$")


def _without_cut_escape(body: str) -> str:
    """A string's body without an escape sequence cut off at its end (``\\u00``)."""
    match = _TRAILING_ESCAPE.search(body)
    if match is None:
        return body
    backslashes = len(match.group()) - len(match.group(1) or "")
    if backslashes % 2 == 0:  # escaped backslashes, then plain text
        return body
    return body[: match.start() + backslashes - 1]


def _json_string_prefix(partial: str, tokens: Sequence[Token]) -> bool:
    """A string cut off inside: the repair's next string starts with what is left."""
    try:
        kept = json.loads('"' + _without_cut_escape(partial[1:]) + '"')
    except ValueError:
        return False
    return (
        bool(tokens) and tokens[0].kind == "STRING" and json.loads(tokens[0].text).startswith(kept)
    )


def _values(grammar: str, tokens: Sequence[Token]) -> list[Any]:
    if grammar in ("json", "jsonc"):
        return [_json_token_value(token) for token in tokens]
    if grammar == "dot":
        return dot_tokens(tokens)
    return [_line_break(token) for token in tokens]


def keeps_prefix(grammar: str, truncated: str, repaired: str) -> bool:
    """Does ``repaired`` keep all of ``truncated`` and only add after it?

    Compared token by token (so a tool that re-formats can pass): the repair's
    tokens start with the truncated text's tokens, except that the text at its
    very end (a token cut off in the middle, such as ``tr`` of ``true`` or an
    unterminated string) only needs to be the start of what follows in the
    repair, and a ``,`` it ends with may be left out (a list or object cut
    off after its separator may be closed there: ``[1, 2,`` -> ``[1, 2]``
    keeps all its data, as ``[1, 2, null]`` does not).  A comment cut off in
    the middle must be kept as written.  Whitespace between tokens does not
    count, nor where the line breaks at the end go (TOML reads them as tokens).
    """
    repaired_lexed = lex(grammar, repaired)
    if not repaired_lexed.complete:
        return False
    theirs = _significant(repaired_lexed.tokens)
    lexed = lex(grammar, truncated)
    tokens = _significant(lexed.tokens)
    end = len(truncated) if lexed.stop is None else lexed.stop
    splits = [(tokens, end)]
    if tokens and tokens[-1].end == end:  # the last token read may be cut off too ("1" of "1.5")
        splits.append((tokens[:-1], tokens[-1].start))
    if tokens and tokens[-1].text == ",":
        splits.append((tokens[:-1], end))
    ended = len(tokens)  # line breaks a line-based grammar reads as tokens may follow the ending
    while ended and not tokens[ended - 1].text.strip():
        ended -= 1
    if ended < len(tokens):
        splits.append((tokens[:ended], end))
    return any(
        _continues(grammar, kept, truncated[partial_start:], theirs)
        or (
            _keeps_comment(truncated[partial_start:], repaired)
            and _continues(grammar, kept, "", theirs)
        )
        for kept, partial_start in splits
    )


_COMMENT_OPENERS = ("/*", "//", "#", ";", "<!--")


def _keeps_comment(partial: str, repaired: str) -> bool:
    """Is ``partial`` a comment cut off in the middle (which the lexer skips,
    so it is not among the tokens) that the repair keeps as written?"""
    partial = partial.strip()
    return partial.startswith(_COMMENT_OPENERS) and partial in repaired


def _continues(grammar: str, kept: Sequence[Token], partial: str, theirs: Sequence[Token]) -> bool:
    """``theirs`` starts with the tokens ``kept``, then with the text ``partial``."""
    if len(theirs) < len(kept) or _values(grammar, theirs[: len(kept)]) != _values(grammar, kept):
        return False
    rest = theirs[len(kept) :]
    partial = partial.lstrip()
    if grammar in ("json", "jsonc") and partial.startswith('"'):
        return _json_string_prefix(partial, rest)
    written = "".join("".join(token.text.split()) for token in rest)
    return written.startswith("".join(partial.split()))


# ------------------------------------------------------------------ data lost


def data_lost(damaged: str, repaired: str) -> int:
    """Non-whitespace characters of the damaged text that the repair deletes or overwrites."""
    lost = 0
    for operation, source, _ in Levenshtein.editops(damaged, repaired):
        if operation in ("delete", "replace") and not damaged[source].isspace():
            lost += 1
    return lost
