"""Damage operators grouped into named families, each knowing the data it intends.

A family is one kind of breakage (a convention of another tool, a lost
delimiter, a merge conflict ...); it has operators for the formats where that
kind makes sense.  An operator is a pure function ``(text, rng) -> Damage |
None``: the damaged text and what a person who wrote it meant, as one or more
valid *intended* texts whose data the repair must carry (the original
document by default; the kept prefix for a truncation, judged by
``judges.keeps_prefix``; either side of a merge conflict).  The operators of
``bench.damage`` (format-general, by token) are reused through :func:`same`.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bench.damage import operators as op
from bench.damage.formats import FORMATS
from bench.damage.lexing import Token, is_valid, lex


@dataclass(frozen=True)
class Damage:
    """A damaged text and the valid texts whose data a repair should carry."""

    text: str
    intended: tuple[str, ...]
    prefix: bool = False  # judged as a truncation: keep what is left, only add


Operator = Callable[[str, random.Random], Damage | None]


def same(damage: op.Operator) -> Operator:
    """A ``bench.damage`` operator whose intended data is the original document's."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        damaged = damage(text, rng)
        return None if damaged is None else Damage(damaged, (text,))

    return operator


def wrapped(grammar: str, damage: op.Operator) -> Operator:
    """A ``bench.damage`` wrapper (text put around the document): where text
    follows the document (a closing fence, a sentence), the line break
    before it may be the document's or the wrapper's, so the document ending
    in one line break or in none is intended too: no repair can know which
    the document had, and a YAML block scalar at its end holds that line
    break in its value."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        damaged = damage(text, rng)
        if damaged is None:
            return None
        body = text.rstrip("\n")
        endings = () if damaged.endswith(text) else (body, body + "\n")
        also = tuple(ending for ending in endings if ending != text and is_valid(grammar, ending))
        return Damage(damaged, (text, *also))

    return operator


def truncated(text: str, rng: random.Random) -> Damage | None:
    damaged = op.truncation(text, rng)
    return None if damaged is None else Damage(damaged, (damaged,), prefix=True)


def _replace(text: str, token: Token, written: str) -> str:
    return text[: token.start] + written + text[token.end :]


def _tokens(grammar: str, text: str, kinds: Sequence[str]) -> list[Token]:
    return [token for token in lex(grammar, text).tokens if token.kind in kinds]


def _json_strings(grammar: str, text: str, *, values: bool) -> list[Token]:
    """String tokens that are values (``values``) or object keys (not ``values``)."""
    tokens = lex(grammar, text).tokens
    chosen = []
    for index, token in enumerate(tokens):
        if token.kind != "STRING":
            continue
        is_key = index + 1 < len(tokens) and tokens[index + 1].kind == "COLON"
        if is_key != values:
            chosen.append(token)
    return chosen


def token_rewrite(
    grammar: str,
    pick: Callable[[str], list[Token]],
    rewrite: Callable[[str, random.Random], str | None],
) -> Operator:
    """One token among ``pick(text)`` written as ``rewrite`` says; the data is unchanged."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        tokens = pick(text)
        if not tokens:
            return None
        token = rng.choice(tokens)
        written = rewrite(token.text, rng)
        return None if written is None else Damage(_replace(text, token, written), (text,))

    return operator


def _plain_body(token_text: str) -> str | None:
    """The body of a JSON string that has no escapes and no quotes inside."""
    body = token_text[1:-1]
    return None if any(c in body for c in "\\\"'`") else body


def _mongo(token_text: str, rng: random.Random) -> str | None:
    if token_text.startswith('"'):
        return rng.choice(("ObjectId", "ISODate", "UUID")) + f"({token_text})"
    if re.fullmatch(r"-?[0-9]+", token_text):
        return rng.choice(("NumberLong", "NumberInt")) + f"({token_text})"
    if re.fullmatch(r"-?[0-9.eE+-]+", token_text):
        return f"NumberDecimal({token_text})"
    return None


def _concatenated(token_text: str, rng: random.Random) -> str | None:
    body = _plain_body(token_text)
    if body is None or len(body) < 2:
        return None
    cut = rng.randrange(1, len(body))
    return f'"{body[:cut]}" + "{body[cut:]}"'


def _quotes(opening: str, closing: str) -> Callable[[str, random.Random], str | None]:
    def rewrite(token_text: str, rng: random.Random) -> str | None:
        body = _plain_body(token_text)
        return None if body is None else opening + body + closing

    return rewrite


def _regex_literal(token_text: str, rng: random.Random) -> str | None:
    body = _plain_body(token_text)
    if body is None or "/" in body or not re.search(r"[\^$*+?.|]", body):
        return None
    return f"/{body}/"


def _unquoted(wanted: Callable[[str], bool]) -> Callable[[str, random.Random], str | None]:
    def rewrite(token_text: str, rng: random.Random) -> str | None:
        body = _plain_body(token_text)
        return body if body is not None and body and wanted(body) else None

    return rewrite


def _is_url_or_words(body: str) -> bool:
    return bool(re.match(r"[a-z]+://", body)) or len(body.split()) > 1


def _is_identifier(body: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$-]*", body))


def escaped_document(text: str, rng: random.Random) -> Damage | None:
    """The whole document as the body of a JSON string: ``{\\"a\\": 1}``."""
    return Damage(json.dumps(text.strip())[1:-1], (text,))


def lost_backslash(grammar: str) -> Operator:
    """An escaped quote or backslash inside a string that lost its backslash."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        sites = [
            token.start + match.start()
            for token in _tokens(grammar, text, ("STRING",))
            for match in re.finditer(r'\\["\\]', token.text[1:-1])
        ]
        if not sites:
            return None
        at = rng.choice(sites) + 1  # the backslash, after the opening quote
        return Damage(text[:at] + text[at + 1 :], (text,))

    return operator


def jsonp(text: str, rng: random.Random) -> Damage | None:
    name = rng.choice(("callback", "jQuery3310_1700000000", "handleResponse"))
    return Damage(f"{name}({text.strip()});\n", (text,))


# --------------------------------------------------------------- quoting


def _needs_quotes(grammar: str) -> Sequence[Callable[[str], str]]:
    """Ways a value gets content that the format can only hold in quotes."""
    common = [
        lambda body: "*" + body,
        lambda body: "&" + body,
        lambda body: body + ": " + "draft",
        lambda body: body + " #1",
    ]
    if grammar == "toml":
        return [*common, lambda body: "1.0.0", lambda body: body + " and more"]
    return common


def value_needs_quotes(grammar: str, kinds: Sequence[str]) -> Operator:
    """A quoted value given content that needs its quotes, and written without them.

    The intended text is the document with that new value, quoted; so the
    data changes on purpose and the repair must quote it, not edit it.  A
    value that holds `` #`` also intends its part before it quoted and the
    rest a comment, where that is valid: the same text once the quotes are
    lost."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        tokens = _tokens(grammar, text, kinds)
        tokens = [t for t in tokens if "\n" not in t.text and _plain_body(t.text) is not None]
        if not tokens:
            return None
        token = rng.choice(tokens)
        body = rng.choice(_needs_quotes(grammar))(token.text[1:-1])
        intended, damaged = _replace(text, token, json.dumps(body)), _replace(text, token, body)
        if not is_valid(grammar, intended) or is_valid(grammar, damaged):
            return None  # ``1 #1`` is a valid value and a comment: no damage to see
        # ``0.3.3 #1`` is also what a value quoted up to a comment writes
        # once it loses its quotes: no repair can know which was meant
        head, comment, tail = body.partition(" #")
        commented = _replace(text, token, json.dumps(head) + comment + tail) if comment else ""
        also = (commented,) if commented and is_valid(grammar, commented) else ()
        return Damage(damaged, (intended, *also))

    return operator


# --------------------------------------------------------------- comments


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text) if m.end() < len(text))]


def lost_comment_marker(marker: str, closing: str = "") -> Operator:
    """A comment line that lost its marker (``marker`` given), or a block
    comment never closed (``closing`` given: it is the part that is lost)."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        starts = _line_starts(text)
        at = rng.choice(starts)
        line = text[at:].split("\n", 1)[0]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        phrase = rng.choice(op.COMMENT_PHRASES)
        if closing:
            damaged = text[:at] + f"{indent}{marker} {phrase}\n" + text[at:]
        else:
            damaged = text[:at] + f"{indent}{phrase}\n" + text[at:]
        return Damage(damaged, (text,))

    return operator


def tight_comment(grammar: str) -> Operator:
    """A block comment between two tokens with no blanks around it: ``"a":/*x*/1``."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        tokens = lex(grammar, text).tokens
        if len(tokens) < 2:
            return None
        token = rng.choice(tokens[:-1])
        at = token.end
        comment = f"/*{rng.choice(op.COMMENT_PHRASES)}*/"
        return Damage(text[:at] + comment + text[at:], (text,))

    return operator


# --------------------------------------------------------------- structure


def merge_conflict(grammar: str) -> Operator:
    """Conflict markers around one line: ours is the document, theirs the
    line with a number or word changed; either side is what someone may have
    meant (theirs only when it is valid)."""

    def operator(text: str, rng: random.Random) -> Damage | None:
        damage = _conflict(text, rng)
        if damage is None or is_valid(grammar, damage.intended[1]):
            return damage
        return Damage(damage.text, damage.intended[:1])

    return operator


def _conflict(text: str, rng: random.Random) -> Damage | None:
    lines = text.splitlines(keepends=True)
    candidates = [i for i, line in enumerate(lines) if re.search(r"[A-Za-z0-9]", line)]
    if not candidates:
        return None
    index = rng.choice(candidates)
    ours = lines[index]
    theirs = re.sub(r"[0-9]+|[A-Za-z]{3,}", lambda m: _changed(m.group()), ours, count=1)
    if not ours.endswith("\n"):
        ours, theirs = ours + "\n", theirs + "\n"
    conflict = f"<<<<<<< HEAD\n{ours}=======\n{theirs}>>>>>>> feature\n"
    damaged = "".join([*lines[:index], conflict, *lines[index + 1 :]])
    theirs_text = "".join([*lines[:index], theirs, *lines[index + 1 :]])
    return Damage(damaged, (text, theirs_text))


def _changed(word: str) -> str:
    return str(int(word) + 1) if word.isdigit() else word[::-1]


def lost_end_tag(text: str, rng: random.Random) -> Damage | None:
    """One end tag ``</name>`` deleted.

    It intends the original.  Where words follow the lost tag before the
    next tag (mixed content: ``<a>link</a> and more``), the damaged text
    cannot tell after which word of that run of text the element ended, so
    the end tag after any word of it (from the last tag before it to the
    next one) is intended too."""
    tokens = lex("xml", text).tokens
    sites = [
        (token.start, after.end)
        for token, after in itertools.pairwise(tokens)
        if token.kind == "END_TAG_OPEN" and after.kind == "TAG_CLOSE"
    ]
    if not sites:
        return None
    start, end = rng.choice(sites)
    damaged = text[:start] + text[end:]
    following = text[end : _next_tag(text, end)]
    if not following.strip():
        return Damage(damaged, (text,))
    tag = text[start:end]
    run_start = text.rfind(">", 0, start) + 1
    run_end = start + len(following)
    ends = [m.end() for m in re.finditer(r"\S+", damaged[run_start:run_end])]
    placed = [damaged[: run_start + at] + tag + damaged[run_start + at :] for at in ends]
    return Damage(damaged, tuple(dict.fromkeys([text, *placed])))


def _next_tag(text: str, position: int) -> int:
    found = text.find("<", position)
    return len(text) if found < 0 else found


def csv_columns(text: str, rng: random.Random) -> Damage | None:
    """One record with a field too many, one too few, or a comma inside an unquoted field.

    A field too many intends the original record.  A field too few intends
    it too, or, since no repair can know the lost value, the record with
    that field empty in its place (every other value in its column); where
    the lost value was one of a run of equal ones (``0,0,0``), the record
    is the same whichever of them was lost, so an empty field in the place
    of any of them is meant.  A comma inside a field intends the original
    (the comma was a slip) or the field with its comma, quoted (the value
    holds one and lost its quotes)."""
    lines = text.splitlines(keepends=True)
    rows = [i for i, line in enumerate(lines) if i and line.strip() and '"' not in line]
    if not rows:
        return None
    index = rng.choice(rows)
    line = lines[index]
    body, ending = line.rstrip("\r\n"), line[len(line.rstrip("\r\n")) :]
    kind = rng.choice(("more", "fewer", "comma"))
    fields = body.split(",")
    also: list[str] = []  # another record the damage may intend

    def with_record(record: list[str]) -> str:
        return "".join([*lines[:index], ",".join(record) + ending, *lines[index + 1 :]])

    if kind == "more":
        fields.insert(rng.randrange(len(fields) + 1), rng.choice(("x", "", "N/A")))
    elif kind == "fewer" and len(fields) > 1:
        at = rng.randrange(len(fields))
        left = [*fields[:at], *fields[at + 1 :]]
        for place in range(len(fields)):  # each value of a run of equal ones leaves that record
            if [*fields[:place], *fields[place + 1 :]] == left:
                also.append(with_record([*fields[:place], "", *fields[place + 1 :]]))
        fields = left
    else:
        spaced = [i for i, field in enumerate(fields) if " " in field.strip()]
        if not spaced:
            return None
        at = rng.choice(spaced)
        written = fields[at].replace(" ", ", ", 1)
        also.append(with_record([*fields[:at], f'"{written}"', *fields[at + 1 :]]))
        fields[at] = written
    return Damage(with_record(fields), (text, *also))


def duplicated_toml_entry(text: str, rng: random.Random) -> Damage | None:
    """A ``key = value`` line written twice in its table (a copy-paste slip,
    or the same setting added again further down): tomllib refuses a key
    defined twice.  The copy goes right after the line or after a later line
    of the same table; either copy removed gives the document back."""
    lines = text.splitlines(keepends=True)
    header = re.compile(r"\s*\[")
    entry = re.compile(r"\s*[A-Za-z0-9_.\"'-]+\s*=\s*\S")
    tables = [0, *(i for i, line in enumerate(lines) if header.match(line)), len(lines)]
    entries = [
        i
        for i, line in enumerate(lines)
        if entry.match(line) and line.endswith("\n") and _closed_on_its_line(line)
    ]
    if not entries:
        return None
    index = rng.choice(entries)
    end = min(bound for bound in tables if bound > index)
    own_table = [i for i in entries if index <= i < end]
    after = rng.choice(own_table)
    damaged = "".join([*lines[: after + 1], lines[index], *lines[after + 1 :]])
    return Damage(damaged, (text,))


def _closed_on_its_line(line: str) -> bool:
    """A TOML entry whose value ends on its own line (no array, inline table
    or string continued below)."""
    try:
        tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return False
    return True


def duplicated_attribute(text: str, rng: random.Random) -> Damage | None:
    """An attribute written twice in one start tag (``<a x="1" x="1">``):
    expat refuses it; the tag with one of them is the document."""
    attribute = re.compile(r"""\s[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*')""")
    tags = [m for m in re.finditer(r"<[A-Za-z_][^<>]*>", text) if attribute.search(m.group())]
    if not tags:
        return None
    tag = rng.choice(tags)
    chosen = rng.choice(list(attribute.finditer(tag.group())))
    body = tag.group()
    end = len(body) - (2 if body.endswith("/>") else 1)
    written = body[:end].rstrip() + chosen.group() + body[len(body[:end].rstrip()) :]
    return Damage(text[: tag.start()] + written + text[tag.end() :], (text,))


def ini_unindented_continuation(text: str, rng: random.Random) -> Damage | None:
    """A continuation line of a value written on several lines, its
    indentation lost.  Only in a document that continues values so (a
    ``setup.cfg``'s ``install_requires =`` and its indented lines): an
    unindented line of words under a ``key = value`` in a document that
    does not reads as prose that lost its comment marker, the
    lost-comment-marker family's damage with the other intent, and no
    repair could tell the two apart."""
    tokens = lex("ini", text).tokens
    lines = [t for t in tokens if t.kind == "CONT"]
    if not lines:
        return None
    token = rng.choice(lines)
    start = text.rfind("\n", 0, token.start) + 1
    if text[start : token.start].strip(" \t"):
        return None  # not the first token on its line
    damaged = text[:start] + text[token.start :]
    return Damage(damaged, (text,))


# --------------------------------------------------------------- the table

_JSON_VALUES = {
    "json": lambda text: _json_strings("json", text, values=True),
    "jsonc": lambda text: _json_strings("jsonc", text, values=True),
}
_JSON_KEYS = {
    "json": lambda text: _json_strings("json", text, values=False),
    "jsonc": lambda text: _json_strings("jsonc", text, values=False),
}


def _from_table(name: str) -> dict[str, Operator]:
    """The ``bench.damage`` operator ``name`` of every format that has it."""
    return {
        fmt: same(spec.operators[name])
        for fmt, spec in FORMATS.items()
        if name in spec.operators and fmt in FAMILY_FORMATS
    }


FAMILY_FORMATS = ("json", "jsonc", "yaml", "toml", "xml", "ini", "csv")


def _json_like(build: Callable[[str], Operator]) -> dict[str, Operator]:
    return {fmt: build(fmt) for fmt in ("json", "jsonc")}


def _merge(*tables: Mapping[str, Operator]) -> dict[str, list[Operator]]:
    merged: dict[str, list[Operator]] = {}
    for table in tables:
        for fmt, operator in table.items():
            merged.setdefault(fmt, []).append(operator)
    return merged


def _numbers(grammar: str) -> Callable[[str], list[Token]]:
    return lambda text: _tokens(grammar, text, ("NUMBER", "STRING"))


FAMILIES: dict[str, dict[str, list[Operator]]] = {
    "truncation": {fmt: [truncated] for fmt in FAMILY_FORMATS},
    "delimiters": _merge(
        _from_table("lost-delimiter"),
        _from_table("doubled-delimiter"),
        _from_table("trailing-delimiter"),
    ),
    "quotes": _merge(
        _from_table("lost-quote"),
        _from_table("single-quotes"),
        _json_like(lambda g: token_rewrite(g, _JSON_VALUES[g], _quotes("\u201c", "\u201d"))),
        _json_like(lambda g: token_rewrite(g, _JSON_VALUES[g], _quotes("`", "`"))),
    ),
    "tool-conventions": _merge(
        _from_table("foreign-literal"),
        _json_like(lambda g: token_rewrite(g, _numbers(g), _mongo)),
        _json_like(lambda g: token_rewrite(g, _JSON_VALUES[g], _concatenated)),
        _json_like(lambda g: token_rewrite(g, _JSON_VALUES[g], _regex_literal)),
        {"json": jsonp},
    ),
    "unquoted": _merge(
        _json_like(lambda g: token_rewrite(g, _JSON_VALUES[g], _unquoted(_is_url_or_words))),
        _json_like(lambda g: token_rewrite(g, _JSON_KEYS[g], _unquoted(_is_identifier))),
    ),
    "escapes": _merge({"json": escaped_document}, _json_like(lost_backslash)),
    "needs-quoting": _merge(
        {"yaml": value_needs_quotes("yaml", ("DQ", "SQ"))},
        {"toml": value_needs_quotes("toml", ("BASIC_STRING", "LITERAL_STRING"))},
    ),
    "comments": _merge(_from_table("foreign-comment"), {"json": tight_comment("json")}),
    "lost-comment-marker": _merge(
        {"ini": lost_comment_marker(";"), "yaml": lost_comment_marker("#")},
        {"toml": lost_comment_marker("#"), "jsonc": lost_comment_marker("/*", closing="*/")},
    ),
    "merge-conflict": {fmt: [merge_conflict(fmt)] for fmt in FAMILY_FORMATS},
    "structure": _merge(
        {"csv": csv_columns, "xml": lost_end_tag, "ini": ini_unindented_continuation},
        {"yaml": same(op.misindented)},
    ),
    "duplicates": {"toml": [duplicated_toml_entry], "xml": [duplicated_attribute]},
    "llm-output": {
        fmt: [wrapped(fmt, FORMATS[fmt].operators["wrapper"])]
        for fmt in FAMILY_FORMATS
        if "wrapper" in FORMATS[fmt].operators
    },
}
