"""Repair hints: what people and programs write instead of a grammar's syntax.

A grammar ``NAME.lark`` may have a hints file ``NAME.hints.toml`` beside it
(bundled grammars and user grammars alike).  It describes foreign syntax and
its canonical form as data: comments in another language's style, another
language's strings or literals, text around the data, fixes for common slips.
The repair engine uses them to *propose* candidates ("the grammar proposes,
the oracle decides": every candidate is still checked by the real oracle), and
the ranking uses them to recognise foreign tokens, so that ``'a'`` read as the
string ``"a"`` is kept by ``{"a": 2}`` and changed by ``{"'a'": 2}``.

The format (every key optional; unknown keys are errors)::

    filler = "null"              # the value to put where one is missing
    fields = ","                 # records (lines) have as many of these as the first
    names = 't|nil'              # words that are code, never a string's text
    contextual = true            # read each token as what can follow the one before

    [roles]                      # terminal -> "data" | "structure" | "layout"
    COMMENT = "layout"           # when lark's naming conventions do not tell

    [kinds]                      # terminals that hold the same kind of value
    QUOTED = "TEXT"              # "7" and 7 are both a field

    [endings]                    # how a token cut off at the end is finished, where
    XML_DECL = ['<?xml version="1.0" encoding="UTF-8"?>']  # one fits (completion)

    [literals]                   # foreign words -> canonical text (whole words)
    True = "true"

    [[comment]]                  # foreign comment syntax: removed, or `replace`d
    name = "// line comment"
    pattern = '//[^\\r\\n]*'

    [[token]]                    # a foreign token and its canonical form
    name = "single-quoted string"
    pattern = "'(?P<body>[^'\\r\\n]*)'"
    replace = '"{body}"'         # {0}: the match, {1}/{name}: its groups
    escape = { '"' = '\\"' }     # applied to the groups in `replace`

    [[fix]]                      # a rewrite tried only where the oracle rejects
    name = "trailing comma"
    pattern = ',(?=\\s*[\\]}])'
    replace = ""

    [[wrapper]]                  # text around the data, removed
    name = "markdown code fence"
    before = '\\A```[\\w-]*\\n'   # matched at the start of the text
    after = '\\n```\\s*\\Z'       # matched at its end; with both, both must match

    [concatenated]               # several documents in a row, joined into one
    open = "["
    separator = ","
    close = "]"

Patterns are Python regular expressions (the ``regex`` module, multi-line
mode: ``^`` and ``$`` match at line breaks, ``\\A`` and ``\\Z`` at the ends of
the text).  Comments, tokens and literals are *foreign tokens*: the
error-tolerant lexer reads one where it matches at least as much as any of the
grammar's terminals (so only where the grammar sees junk or text it cannot
accept, if the pattern is precise).  Fixes are never read as tokens: they are
tried only where the oracle reports an error.  A wrapper's ``after`` must
begin within the last :data:`WRAPPER_REACH` characters.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar import patterns
from inputmend.grammar.regex import first_chars, last_char, required_chars
from inputmend.grammar.small_files import read_small_text

T = TypeVar("T")
Role = Literal["data", "structure", "layout"]
ROLES: tuple[Role, ...] = ("data", "structure", "layout")

WRAPPER_REACH = 4096
"""Characters from the end of the text within which a wrapper's ``after`` starts."""

_FLAGS = re.MULTILINE


@functools.cache
def _field() -> Any:
    """A field of a replacement (``{name}``, ``{{``, ``}}``), compiled on first use."""
    return patterns.compile(r"\{\{|\}\}|\{(\w+)\}")


_WORD = r"A-Za-z0-9_$"


@dataclass(frozen=True)
class Rewrite:
    """A foreign token (comment, token, literal) or a fix, and its canonical form."""

    name: str
    pattern: Any  # a compiled ``regex`` pattern
    replace: str = ""
    escape: tuple[tuple[str, str], ...] = ()
    kind: Literal["comment", "token", "fix"] = "token"
    origin: str = ""  # where it is written: the hints file and its entry

    @functools.cached_property
    def first_chars(self) -> frozenset[str] | None:
        """The characters a match can start with (None: any, or not known)."""
        return first_chars(self.pattern.pattern)

    @functools.cached_property
    def required_chars(self) -> tuple[frozenset[str], ...]:
        """Sets of characters every match holds one of each (empty: not known)."""
        if self.pattern.flags & re.IGNORECASE:
            return ()
        return required_chars(self.pattern.pattern)

    @functools.cached_property
    def last_char(self) -> str | None:
        """A character every match ends with, after its first (None: not known)."""
        return None if self.pattern.flags & re.IGNORECASE else last_char(self.pattern.pattern)

    @functools.cached_property
    def _escaper(self) -> Any:
        if not self.escape:
            return None
        keys = sorted((key for key, _ in self.escape), key=len, reverse=True)
        return patterns.compile("|".join(re.escape(key) for key in keys))

    @functools.cached_property
    def _template(self) -> tuple[str | tuple[int | str, bool], ...]:
        """:attr:`replace` in pieces, read once: literal text (a doubled brace
        as one), or a field's group and whether its value is escaped."""
        pieces: list[str | tuple[int | str, bool]] = []
        at = 0
        for found in _field().finditer(self.replace):
            pieces.append(self.replace[at : found.start()])
            at = found.end()
            name = found.group(1)
            if name is None:  # a doubled brace
                pieces.append(str(found.group(0)[0]))
            else:
                group = int(name) if name.isdigit() else name
                pieces.append((group, self._escaper is not None and name != "0"))
        pieces.append(self.replace[at:])
        return tuple(piece for piece in pieces if piece != "")

    def _escaped(self, hit: Any) -> str:
        """The escape of one match of :attr:`_escaper`."""
        return dict(self.escape)[hit.group(0)]

    def canonical(self, match: Any) -> str:
        """The canonical text of one match of :attr:`pattern`."""
        parts: list[str] = []
        for piece in self._template:
            if isinstance(piece, str):
                parts.append(piece)
                continue
            group, escaped = piece
            value = match.group(group) or ""
            if escaped:
                value = self._escaper.sub(self._escaped, value)
            parts.append(str(value))
        return "".join(parts)


@dataclass(frozen=True)
class Wrapper:
    """Text around the data: ``before`` at the start, ``after`` at the end."""

    name: str
    before: Any | None
    after: Any | None
    origin: str = ""  # where it is written: the hints file and its entry

    def match(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """How far the wrapper reaches into ``text[start:end]`` from each end:
        ``(body start, body end)``, or ``None`` when it does not match."""
        body_start, body_end = start, end
        if self.before is not None:
            found = self.before.match(text, start, end)
            if found is None:
                return None
            body_start = found.end()
        if self.after is not None:
            reach = max(body_start, end - WRAPPER_REACH)
            found = self.after.search(text, reach, end)
            if found is None or found.end() != end:
                return None
            body_end = found.start()
        if body_start > body_end or (body_start, body_end) == (start, end):
            return None
        return body_start, body_end


@dataclass(frozen=True)
class Concatenation:
    """How to join documents written one after another into one."""

    open: str
    separator: str
    close: str


@dataclass(frozen=True)
class Hints:
    """The repair hints of one grammar (empty when it has none)."""

    source: Path | None = None
    tokens: tuple[Rewrite, ...] = ()  # comments, tokens and literals: the lexer reads these
    fixes: tuple[Rewrite, ...] = ()
    wrappers: tuple[Wrapper, ...] = ()
    filler: str | None = None
    roles: Mapping[str, Role] = field(default_factory=dict)
    concatenated: Concatenation | None = None
    fields: str | None = None  # every record (line) has as many of these as the first
    kinds: Mapping[str, str] = field(default_factory=dict)  # terminal -> kind of value it holds
    contextual: bool = False  # the tolerant lexer prefers what may follow the token before
    endings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # terminal -> models
    names: Any = None  # compiled pattern: words that are code, never the text of a string
    heads: Any = None  # compiled pattern: words that come first in their brackets (`define`)
    skipped: int = 0  # entries left out: their patterns need the ``regex`` module

    @property
    def rewrites(self) -> tuple[Rewrite, ...]:
        """Every rewrite: foreign tokens first, then fixes."""
        return self.tokens + self.fixes

    def wrapper_regions(self, text: str) -> list[tuple[int, int, str]]:
        """The wrappers around ``text``, outermost first, as ``(start, end,
        name)`` regions to remove (a wrapper inside a wrapper is found too)."""
        regions: list[tuple[int, int, str]] = []
        start, end = 0, len(text)
        peeled = True
        while peeled:
            peeled = False
            for wrapper in self.wrappers:
                body = wrapper.match(text, start, end)
                if body is None:
                    continue
                if body[0] > start:
                    regions.append((start, body[0], wrapper.name))
                if body[1] < end:
                    regions.append((body[1], end, wrapper.name))
                start, end = body
                peeled = True
        return sorted(regions)

    def matches_at(self, text: str, position: int) -> Iterator[tuple[Rewrite, Any]]:
        """Every rewrite that matches ``text`` at ``position``."""
        for rewrite in self.rewrites:
            found = rewrite.pattern.match(text, position)
            if found is not None and found.end() > position:
                yield rewrite, found


NO_HINTS = Hints()


# ------------------------------------------------------------------ loading
class HintsError(OracleConfigError):
    """A hints file that cannot be read or does not follow the format."""


class NeedsRegexModule(HintsError):
    """A pattern that ``re`` cannot read (a look-behind of varying width)
    while the ``regex`` module, which can, is not installed."""


_TOP_KEYS = {
    "filler",
    "fields",
    "names",
    "heads",
    "contextual",
    "endings",
    "kinds",
    "roles",
    "literals",
    "comment",
    "token",
    "fix",
    "wrapper",
    "concatenated",
}


def _fail(source: Path, where: str, problem: str) -> HintsError:
    return HintsError(f"hints file {source}: {where}: {problem}")


def _string(source: Path, where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _fail(source, where, f"expected a string, got {type(value).__name__}")
    return value


Known = dict[tuple[str, int], Any]
"""Patterns compiled before, by source and flags (see :func:`_known_patterns`)."""


def _compile(source: Path, where: str, value: Any, known: Known) -> Any:
    text = _string(source, where, value)
    try:
        compiled = known.get((text, _FLAGS))
        if compiled is None:
            compiled = known[text, _FLAGS] = patterns.compile(text, _FLAGS)
    except patterns.errors() as error:
        if not patterns.compiled():
            raise NeedsRegexModule(
                f"hints file {source}: {where}: not a regular expression for Python's re "
                f"({error}); the regex module, which reads it, is not installed"
            ) from None
        raise _fail(source, where, f"not a regular expression ({error})") from None
    if compiled.fullmatch("") is not None:
        raise _fail(source, where, "the pattern matches the empty text")
    return compiled


def _table(source: Path, where: str, value: Any, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, where, "expected a table")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise _fail(source, where, f"unknown key {unknown[0]!r} (known: {', '.join(sorted(keys))})")
    return value


def _mapping(source: Path, where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, where, "expected a table")
    return value


def _entries(source: Path, data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise _fail(source, key, f"expected [[{key}]] entries")
    return value


def _rewrite(
    source: Path, where: str, entry: Any, kind: Literal["comment", "token", "fix"], known: Known
) -> Rewrite:
    table = _table(source, where, entry, {"name", "pattern", "replace", "escape"})
    if "pattern" not in table:
        raise _fail(source, where, "a pattern is required")
    pattern = _compile(source, f"{where}.pattern", table["pattern"], known)
    name = _string(source, f"{where}.name", table.get("name", table["pattern"]))
    if kind == "token" and "replace" not in table:
        raise _fail(source, where, "a token needs its canonical form: replace = ...")
    replace = _string(source, f"{where}.replace", table.get("replace", ""))
    for found in _field().finditer(replace):
        group = found.group(1)
        if group is None:
            continue
        known = group.isdigit() and int(group) <= pattern.groups
        if not known and group not in pattern.groupindex:
            raise _fail(source, f"{where}.replace", f"the pattern has no group {group!r}")
    escape = _mapping(source, f"{where}.escape", table.get("escape", {}))
    pairs = tuple(
        (key, _string(source, f"{where}.escape.{key}", value)) for key, value in escape.items()
    )
    if any(not key for key, _ in pairs):
        raise _fail(source, f"{where}.escape", "an empty text cannot be escaped")
    return Rewrite(name, pattern, replace, pairs, kind, f"{where} of hints file {source}")


def _literal(source: Path, word: str, canonical: Any, known: Known) -> Rewrite:
    replace = _string(source, f"literals.{word}", canonical)
    if not word:
        raise _fail(source, "literals", "an empty word")
    text = rf"(?<![{_WORD}]){re.escape(word)}(?![{_WORD}])"
    pattern = known.get((text, _FLAGS))
    if pattern is None:
        pattern = known[text, _FLAGS] = patterns.compile(text, _FLAGS)
    return Rewrite(
        f"{word} -> {replace}",
        pattern,
        replace.replace("{", "{{").replace("}", "}}"),
        origin=f"literals.{word} of hints file {source}",
    )


def _wrapper(source: Path, where: str, entry: Any, _kind: Any, known: Known) -> Wrapper:
    table = _table(source, where, entry, {"name", "before", "after"})
    before, after = (
        _compile(source, f"{where}.{side}", table[side], known) if side in table else None
        for side in ("before", "after")
    )
    if before is None and after is None:
        raise _fail(source, where, "a wrapper needs before, after or both")
    name = _string(source, f"{where}.name", table.get("name", where))
    return Wrapper(name, before, after, f"{where} of hints file {source}")


def parse_hints(data: dict[str, Any], source: Path, *, known: Known | None = None) -> Hints:
    """Hints from the parsed TOML of ``source`` (raises :class:`HintsError`).
    ``known`` holds patterns compiled before; the ones compiled now are
    added to it."""
    known = {} if known is None else known
    _table(source, "top level", data, _TOP_KEYS)
    filler, fields = (
        _string(source, key, data[key]) if key in data else None for key in ("filler", "fields")
    )
    names, heads = (
        _compile(source, key, data[key], known) if key in data else None
        for key in ("names", "heads")
    )
    contextual = data.get("contextual", False)
    if not isinstance(contextual, bool):
        raise _fail(source, "contextual", f"expected true or false, got {contextual!r}")
    roles: dict[str, Role] = {}
    for terminal, role in _mapping(source, "roles", data.get("roles", {})).items():
        if role not in ROLES:
            raise _fail(source, f"roles.{terminal}", f"expected one of {', '.join(ROLES)}")
        roles[terminal] = role
    kinds = {
        terminal: _string(source, f"kinds.{terminal}", kind)
        for terminal, kind in _mapping(source, "kinds", data.get("kinds", {})).items()
    }
    endings: dict[str, tuple[str, ...]] = {}
    for terminal, models in _mapping(source, "endings", data.get("endings", {})).items():
        where = f"endings.{terminal}"
        if not isinstance(models, list) or not models:
            raise _fail(source, where, "expected a list of texts")
        endings[terminal] = tuple(_string(source, where, model) for model in models)
    literals = _mapping(source, "literals", data.get("literals", {}))
    comments, skipped_comments = _each(source, data, "comment", _rewrite, known)
    tokens, skipped_tokens = _each(source, data, "token", _rewrite, known)
    fixes, skipped_fixes = _each(source, data, "fix", _rewrite, known)
    wrappers, skipped_wrappers = _each(source, data, "wrapper", _wrapper, known)
    tokens = [
        *(_literal(source, word, canonical, known) for word, canonical in literals.items()),
        *comments,
        *tokens,
    ]
    concatenated = None
    if "concatenated" in data:
        table = _table(source, "concatenated", data["concatenated"], {"open", "separator", "close"})
        parts = {key: _string(source, f"concatenated.{key}", table.get(key, "")) for key in table}
        concatenated = Concatenation(
            parts.get("open", ""), parts.get("separator", ""), parts.get("close", "")
        )
    return Hints(
        source,
        tuple(tokens),
        tuple(fixes),
        tuple(wrappers),
        filler,
        roles,
        concatenated,
        fields,
        kinds,
        contextual,
        endings,
        names,
        heads,
        skipped_comments + skipped_tokens + skipped_fixes + skipped_wrappers,
    )


def _each(
    source: Path,
    data: dict[str, Any],
    kind: Any,
    build: Callable[[Path, str, Any, Any, Known], T],
    known: Known,
) -> tuple[list[T], int]:
    """The entries of one kind, built; and how many were left out because
    their patterns need the ``regex`` module (any other fault is raised)."""
    built: list[T] = []
    skipped = 0
    for index, entry in enumerate(_entries(source, data, kind)):
        try:
            built.append(build(source, f"{kind}[{index}]", entry, kind, known))
        except NeedsRegexModule:
            skipped += 1
    return built, skipped


def load_hints(path: Path) -> Hints:
    """The hints in ``path`` (raises :class:`HintsError` with a one-line reason)."""
    try:
        mtime = path.stat().st_mtime_ns
    except OSError as error:
        raise HintsError(f"cannot read hints file {path}: {error.strerror}") from None
    return _load(str(path), mtime)


@functools.lru_cache(maxsize=32)
def _load(path: str, mtime: int) -> Hints:
    del mtime  # part of the cache key only: an edited file is read again
    source = Path(path)
    try:
        text = read_small_text(source)
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise HintsError(f"cannot read hints file {source}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise HintsError(f"hints file {source} is not valid TOML: {error}") from None
    known, facts = _known_patterns(data, source, text)
    hints = parse_hints(data, source, known=known)
    for rewrite in hints.rewrites:
        found = facts.get(rewrite.pattern.pattern)
        if found is not None:  # the values of its cached properties, read from the cache
            for name, value in zip(_FACTS, found, strict=True):
                vars(rewrite).setdefault(name, value)
    return hints


_FACTS = ("first_chars", "required_chars", "last_char")
"""What a :class:`Rewrite` reads from its pattern's source, kept with the
hints' patterns in the grammar cache: parsing the patterns again for them
takes longer than a small file takes to repair."""

Facts = dict[str, tuple[Any, ...]]
"""The :data:`_FACTS` of each rewrite's pattern, by its source."""


def _known_patterns(data: dict[str, Any], source: Path, text: str) -> tuple[Known, Facts]:
    """The patterns of the hints in ``text`` (parsed as ``data``), and what
    their rewrites read from them (:data:`_FACTS`), from the grammar cache
    (:func:`inputmend.grammar.cache.cached`) when it holds them for this
    very text: the ``regex`` module compiles a pattern in Python, and a
    hints file's patterns take longer to compile than a small file takes
    to repair.  Empty where the patterns cannot be kept (without the
    ``regex`` module, or with the cache off); hints that cannot be read
    raise :class:`HintsError` as :func:`parse_hints` does."""
    from inputmend.grammar import cache

    if not patterns.keepable() or not cache.enabled():
        return {}, {}

    def build() -> tuple[Known, Facts]:
        known: Known = {}
        hints = parse_hints(data, source, known=known)
        facts = {
            rewrite.pattern.pattern: tuple(getattr(rewrite, name) for name in _FACTS)
            for rewrite in hints.rewrites
        }
        return known, facts

    def encode(value: tuple[Known, Facts]) -> tuple[Any, ...]:
        known, facts = value
        return patterns.to_plain(known), tuple((key, *found) for key, found in facts.items())

    def decode(plain: Any) -> tuple[Known, Facts]:
        if type(plain) is not tuple or len(plain) != 2 or type(plain[1]) is not tuple:
            raise ValueError("not the patterns of hints")
        facts: Facts = {}
        for entry in plain[1]:
            if type(entry) is not tuple or len(entry) != 1 + len(_FACTS):
                raise ValueError("not the facts of a pattern")
            key, first, required, last = entry
            if (
                type(key) is not str
                or not (first is None or _chars(first))
                or not (type(required) is tuple and all(_chars(chars) for chars in required))
                or not (last is None or (type(last) is str and len(last) == 1))
            ):
                raise ValueError("not the facts of a pattern")
            facts[key] = (first, required, last)
        return patterns.from_plain(plain[0]), facts

    parts = [
        b"hints patterns",
        *patterns.engine_parts(),
        cache.stamp(Path(__file__)),
        cache.stamp(Path(__file__).with_name("regex.py")),
        text.encode("utf-8", "surrogatepass"),
    ]
    return cache.cached(parts, build, encode, decode)


def _chars(value: Any) -> bool:
    """Is ``value`` a frozen set of characters?"""
    return type(value) is frozenset and all(type(c) is str and len(c) == 1 for c in value)


def hints_path(grammar_path: Path) -> Path:
    """Where the hints of a grammar file live: ``x.lark`` -> ``x.hints.toml``."""
    return grammar_path.with_name(grammar_path.stem + ".hints.toml")


def hints_beside(grammar_path: Path) -> Hints:
    """The hints file beside a grammar, or no hints when there is none."""
    path = hints_path(grammar_path)
    return load_hints(path) if path.is_file() else NO_HINTS
