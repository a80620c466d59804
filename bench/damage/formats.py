"""The table of formats: seed documents, damage operators, and what does not apply.

To add a format: a bundled grammar of that name,
seed documents, the operators that make sense for it with its delimiters,
strings, foreign comment styles, literals and wrappers, and for every other
operator the reason it does not apply.  A data reading for the judge goes in
``judges.DATA_READERS`` (without one, the grammar's tokens are compared).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from . import operators as op
from .lexing import lex
from .seeds import (
    Seed,
    corpus_seeds,
    format_corpus_seeds,
    generated_csv,
    generated_dot,
    generated_json,
)

OPERATORS = (
    "truncation",
    "lost-delimiter",
    "doubled-delimiter",
    "trailing-delimiter",
    "lost-quote",
    "foreign-comment",
    "single-quotes",
    "foreign-literal",
    "wrapper",
    "indentation",
)


@dataclass(frozen=True)
class FormatSpec:
    """One format: its bundled grammar, seed documents and damage operators."""

    name: str  # the bundled grammar's name
    extension: str  # for dumped files, so that `inputmend repair` picks the grammar
    seeds: Callable[[], list[Seed]]
    operators: Mapping[str, op.Operator]
    not_applicable: Mapping[str, str] = field(default_factory=dict)


def _either(*choices: str) -> op.LiteralSwap:
    return lambda text, rng: rng.choice(choices)


def _json_number(text: str, rng: random.Random) -> str | None:
    """``+5`` for 5 and ``.5`` for 0.5, as JavaScript and Python write them."""
    options = [] if text.startswith("-") else ["+" + text]
    if re.fullmatch(r"-?0\.[0-9]+", text):
        options.append(text.replace("0.", ".", 1))
    return rng.choice(options) if options else None


def _c_integer(text: str, rng: random.Random) -> str:
    """A C integer suffix: the same number to a C compiler."""
    return text + rng.choice(("L", "l", "u", "U", "UL"))


_EDGES = ("DIRECTED", "UNDIRECTED")
_DOT_IDS = ("IDENT", "NUMERAL", "QUOTED", "HTML")


def _dot_trailing_edge(text: str, rng: random.Random) -> str | None:
    """An edge chain ending in an edge operator (``a -> b ->``): its last node removed."""
    tokens = lex("dot", text).tokens
    sites = []
    for index, (edge, target) in enumerate(itertools.pairwise(tokens)):
        following = tokens[index + 2].kind if index + 2 < len(tokens) else None
        if (
            edge.kind in _EDGES
            and target.kind in _DOT_IDS
            and following
            not in (
                *_EDGES,
                "COLON",
                "PLUS",
            )
        ):
            sites.append((target.end, edge.text))
    if not sites:
        return None
    at, written = rng.choice(sites)
    return text[:at] + " " + written + text[at:]


def _chat(noun: str, language: str) -> list[Callable[[str], str]]:
    """What a chat assistant or a web page puts around a document."""
    return [
        op.fenced(language),
        op.before(f"Here is the {noun} you asked for:"),
        op.before(f"Sure! Below is the updated {noun}"),
        op.after("Let me know if you need anything else."),
        lambda text: op.before(f"Here is the fixed {noun}")(op.fenced(language)(text)),
    ]


def _toml_literal(text: str, rng: random.Random) -> str:
    """Python's and YAML's booleans for TOML's."""
    return rng.choice((text.capitalize(), text.upper(), "yes" if text == "true" else "no"))


JSON_LITERALS: dict[str, op.LiteralSwap] = {
    "TRUE": _either("True", "TRUE"),
    "FALSE": _either("False", "FALSE"),
    "NULL": _either("None", "NaN", "undefined", "nil", "NULL"),
    "NUMBER": _json_number,
}

NO_STRINGS = "the format has no quoted strings"
NO_SEPARATOR = "the format has no list separator that can trail"
FREE_TEXT = "values are free text: any literal is a valid value (with other data)"

def _indentation_is_layout(spec: FormatSpec) -> FormatSpec:
    """``spec``, saying why moving a line does not damage it (unless it has
    the operator: formats whose indentation is syntax)."""
    if "indentation" in spec.operators:
        return spec
    reason = "indentation is not syntax: a line moved to another column stays valid"
    return replace(spec, not_applicable={**spec.not_applicable, "indentation": reason})


FORMATS: dict[str, FormatSpec] = {
    spec.name: _indentation_is_layout(spec)
    for spec in (
        FormatSpec(
            "json",
            ".json",
            lambda: corpus_seeds("json") + generated_json(),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("json", ",:{}[]"),
                "doubled-delimiter": op.doubled_delimiter("json", ",:{}[]"),
                "trailing-delimiter": op.trailing_separator("json", ",", "]}", "[{"),
                "lost-quote": op.lost_quote("json", {"STRING"}),
                "foreign-comment": op.foreign_comment(
                    "json", ("//", "/*", "#"), ("line end", "own line", "between tokens")
                ),
                "single-quotes": op.single_quotes("json", {"STRING"}),
                "foreign-literal": op.foreign_literal("json", JSON_LITERALS),
                "wrapper": op.wrapper(
                    [
                        *_chat("JSON", "json"),
                        op.around("callback(", ");\n"),
                        op.around("var data = ", ";\n"),
                        op.around("export default ", ";\n"),
                    ]
                ),
            },
        ),
        FormatSpec(
            "ini",
            ".ini",
            lambda: corpus_seeds("ini"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("ini", ("=", ":", "[", "]")),
                "foreign-comment": op.foreign_comment("ini", ("//", "/*"), ("own line",)),
                "wrapper": op.wrapper(
                    [
                        *_chat("configuration", "ini"),
                        op.around("cat > settings.ini <<'EOF'\n", "\nEOF\n"),
                    ]
                ),
            },
            {
                "doubled-delimiter": "inih reads a doubled '=' as part of the value, "
                "'[[s]' as section '[s' and ignores what follows ']'",
                "trailing-delimiter": NO_SEPARATOR,
                "lost-quote": "quotes are part of the value, not syntax",
                "single-quotes": "quotes are part of the value, not syntax",
                "foreign-literal": FREE_TEXT,
            },
        ),
        FormatSpec(
            "csv",
            ".csv",
            generated_csv,
            {
                "truncation": op.truncation,
                "lost-quote": op.lost_quote("csv", {"QUOTED"}),
            },
            {
                "lost-delimiter": "the grammar cannot count fields: a lost comma or line "
                "break leaves a valid file (with other data)",
                "doubled-delimiter": "a doubled comma is an empty field, a doubled line "
                "break an empty line: both valid",
                "trailing-delimiter": "a trailing comma is an empty last field: valid",
                "foreign-comment": "a comment line is a valid one-field record",
                "single-quotes": "single quotes are ordinary characters in a field",
                "foreign-literal": FREE_TEXT,
                "wrapper": "any line of text around the data is a valid record",
            },
        ),
        FormatSpec(
            "dot",
            ".dot",
            generated_dot,
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("dot", ("{", "}", "[", "]", "=")),
                "doubled-delimiter": op.doubled_delimiter(
                    "dot", ("{", "}", "[", "]", "=", ";", ",", "->", "--")
                ),
                "trailing-delimiter": _dot_trailing_edge,
                "lost-quote": op.lost_quote("dot", {"QUOTED"}),
                "single-quotes": op.single_quotes("dot", {"QUOTED"}),
                "wrapper": op.wrapper(
                    [
                        *_chat("graph", "dot"),
                        op.around("dot -Tsvg -o graph.svg <<EOF\n", "\nEOF\n"),
                    ]
                ),
            },
            {
                "foreign-comment": "DOT has //, /* */ and # comments",
                "foreign-literal": "IDs take any word or number: True, None, nil are IDs",
            },
        ),
        FormatSpec(
            "sexp",
            ".lisp",
            lambda: corpus_seeds("sexp"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("sexp", "()"),
                "doubled-delimiter": op.doubled_delimiter("sexp", "()"),
                "lost-quote": op.lost_quote("sexp", {"STRING"}),
                # '//' and '/* */' are ordinary symbols to a Lisp reader
                "foreign-comment": op.foreign_comment("sexp", ("#",)),
                "wrapper": op.wrapper(_chat("code", "lisp")),
            },
            {
                "trailing-delimiter": "elements are separated by whitespace only",
                "foreign-literal": "any word is a symbol: True, None, null are atoms",
                "single-quotes": "'text' is valid Lisp (a quoted symbol): the damage is "
                "rarely a syntax error (30 invalid cases in 2,000 tries)",
            },
        ),
        FormatSpec(
            "tinyc",
            ".tinyc",
            lambda: corpus_seeds("tinyc"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("tinyc", ";(){}="),
                "doubled-delimiter": op.doubled_delimiter("tinyc", ";(){}="),
                "foreign-comment": op.foreign_comment("tinyc", ("//", "/*", "#")),
                "foreign-literal": op.foreign_literal("tinyc", {"INT": _c_integer}),
                "wrapper": op.wrapper(_chat("program", "c")),
            },
            {
                "trailing-delimiter": "no commas; an extra ';' is an empty statement",
                "lost-quote": NO_STRINGS,
                "single-quotes": NO_STRINGS,
            },
        ),
        FormatSpec(
            "toml",
            ".toml",
            lambda: format_corpus_seeds("toml"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("toml", ("=", "[", "]", "{", "}", ",")),
                "doubled-delimiter": op.doubled_delimiter("toml", ("=", "[", "]", "{", "}", ",")),
                # arrays may end in a comma, inline tables may not (TOML 1.0)
                "trailing-delimiter": op.trailing_separator("toml", ",", "}", "{"),
                "lost-quote": op.lost_quote("toml", {"BASIC_STRING", "LITERAL_STRING"}),
                "foreign-comment": op.foreign_comment("toml", ("//", "/*", ";")),
                "foreign-literal": op.foreign_literal(
                    "toml", {"TRUE": _toml_literal, "FALSE": _toml_literal}
                ),
                "wrapper": op.wrapper(_chat("configuration", "toml")),
            },
            {"single-quotes": "'text' is a TOML literal string: valid"},
        ),
        FormatSpec(
            "yaml",
            ".yaml",
            lambda: format_corpus_seeds("yaml"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("yaml", (":", "[", "]", "{", "}")),
                "doubled-delimiter": op.doubled_delimiter("yaml", (":", "-", "[", "]", "{", "}")),
                "lost-quote": op.lost_quote("yaml", {"DQ", "SQ"}),
                "foreign-comment": op.foreign_comment("yaml", ("//", "/*"), ("own line",)),
                "wrapper": op.wrapper(_chat("configuration", "yaml")),
                "indentation": op.misindented,
            },
            {
                "trailing-delimiter": "flow collections may end in a comma (PyYAML)",
                "single-quotes": "'text' is a YAML single-quoted scalar: valid",
                "foreign-literal": "any word is a plain scalar: True, None, nil are values",
            },
        ),
        FormatSpec(
            "xml",
            ".xml",
            lambda: format_corpus_seeds("xml"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("xml", (">", "/>", "=")),
                "doubled-delimiter": op.doubled_delimiter("xml", (">", "/>", "=")),
                # attribute values: the quotes are tokens of their own
                "lost-quote": op.lost_delimiter("xml", ('"', "'")),
                "wrapper": op.wrapper(_chat("document", "xml")),
            },
            {
                "trailing-delimiter": "attributes are separated by whitespace only",
                "single-quotes": "attribute values may be in single quotes: valid",
                "foreign-comment": "a // or # line inside an element is character data: valid",
                "foreign-literal": "values are text: any literal is a valid value",
            },
        ),
        FormatSpec(
            "jsonc",
            ".jsonc",
            lambda: format_corpus_seeds("jsonc"),
            {
                "truncation": op.truncation,
                "lost-delimiter": op.lost_delimiter("jsonc", ",:{}[]"),
                "doubled-delimiter": op.doubled_delimiter("jsonc", ",:{}[]"),
                "lost-quote": op.lost_quote("jsonc", {"STRING"}),
                "foreign-comment": op.foreign_comment("jsonc", ("#",)),
                "single-quotes": op.single_quotes("jsonc", {"STRING"}),
                "foreign-literal": op.foreign_literal("jsonc", JSON_LITERALS),
                "wrapper": op.wrapper(_chat("settings", "jsonc")),
            },
            {"trailing-delimiter": "JSONC allows a comma before a closing bracket"},
        ),
    )
}
