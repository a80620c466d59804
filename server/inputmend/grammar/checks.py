"""Name checks beside the parser: what a context-free grammar cannot say.

XML's end tag must repeat the start tag's name, an attribute may not appear
twice in a tag, an entity reference must name a declared entity; YAML's
aliases must name an anchor of the same document, and an anchor may not be
defined twice.  A grammar asks for such checks in its header, one per line::

    // check: match open=TAG_OPEN close=END_TAG_OPEN end=EMPTY_TAG_END
    // check: unique ATTRIBUTE_NAME reset=TAG_OPEN
    // check: declared ENTITY_REF by=ENTITY_NAME known=lt,gt,amp,apos,quot

A token's *name* is its text without the fixed characters its terminal's
pattern starts and ends with (``<`` of ``<svg``, ``&`` and ``;`` of ``&amp;``).

* ``match open=A close=B [end=C,...] [close-start=E,...] [attributes=D]
  [namespaces=xmlns known=xml]``: a stack of open names.  An ``A`` token
  opens its name, a ``B`` token must name the innermost open one and closes
  it, an ``end`` token closes it without naming it (``/>``).  With
  ``namespaces``, names are qualified (``prefix:local``): an attribute ``D``
  named ``xmlns:p`` declares the prefix ``p`` for its element and the
  elements inside it (the ``known`` prefixes are always declared), and the
  prefixes of the element's name and of its attributes must be declared when
  its start tag ends, at an ``end`` token or an ``E`` token (``>``, which ends
  a start tag without closing the element).
* ``unique A,... [reset=B,...]``: no name twice among the ``A`` tokens since
  the last ``B`` token.
* ``declared A,... by=B,... [known=x,y] [reset=C,...]``: an ``A`` token must
  name one of ``known`` or of the ``B`` tokens seen before it (since the last
  ``C`` token).

The scanner runs the checks on every token the parser accepts, and keeps
their state in its checkpoints: check states are immutable and hashable
tuples (stacks of names are interned nodes: equal stacks are one object), so
the scanner can intern whole states and rejoin a base by identity.
A token a check rejects makes the text incorrect at the first character from
which no name can be right (the ``c`` of ``</abc`` where ``</ab`` is open),
or incomplete when that is the end of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar.regex import RegexItem, parse_regex


class NameNode:
    """An interned persistent stack of names (``None`` is the empty stack)."""

    __slots__ = ("name", "parent", "prefixes")

    def __init__(self, name: str, parent: NameNode | None, prefixes: frozenset[str]) -> None:
        self.name = name
        self.parent = parent
        self.prefixes = prefixes  # namespace prefixes in scope inside this element


class Rejected(NamedTuple):
    """A check's objection: the offset in the token from which it is wrong."""

    offset: int
    message: str


@dataclass(frozen=True)
class _Affix:
    prefix: int
    suffix: int

    def name(self, text: str) -> str:
        return text[self.prefix : len(text) - self.suffix]


def _literal_run(items: Iterable[RegexItem]) -> int:
    count = 0
    for item in items:
        if item.op != "LITERAL":
            break
        count += 1
    return count


def affix(pattern: str) -> tuple[int, int]:
    """How many fixed characters a pattern's matches start and end with."""
    try:
        items = parse_regex(pattern)
    except re.error:
        return 0, 0
    if len(items) == 1 and items[0].op == "SUBPATTERN" and not items[0].arg[1]:
        items = items[0].arg[3]
    prefix = _literal_run(items)
    suffix = _literal_run(reversed(items[prefix:]))
    return prefix, suffix


def _common(a: str, b: str) -> int:
    size = min(len(a), len(b))
    for index in range(size):
        if a[index] != b[index]:
            return index
    return size


class _Match(NamedTuple):
    open: frozenset[str]
    close: frozenset[str]
    end: frozenset[str]
    close_start: frozenset[str]
    attributes: frozenset[str]
    namespaces: str | None
    known: frozenset[str]


class _Unique(NamedTuple):
    names: frozenset[str]
    reset: frozenset[str]


class _Declared(NamedTuple):
    uses: frozenset[str]
    by: frozenset[str]
    known: frozenset[str]
    reset: frozenset[str]


Check = _Match | _Unique | _Declared

# The state of the checks: per check, its part (a NameNode or None for
# ``match``, plus the start tag under way; a frozenset for the others).
State = tuple[object, ...]


class _Tag(NamedTuple):
    """A start tag under way (namespaces): its qualified names so far."""

    names: tuple[str, ...]
    declared: frozenset[str]


class NameChecks:
    """The checks a grammar's header asks for, over its terminals."""

    def __init__(self, checks: list[Check], affixes: dict[str, _Affix]) -> None:
        self.checks = checks
        self._affixes = affixes
        self.terminals = frozenset(affixes)
        # the terminals whose whole text the name stack dictates (end tags)
        self.dictated = frozenset(
            name for check in checks if isinstance(check, _Match) for name in check.close
        )
        self._nodes: dict[tuple[str, int, frozenset[str]], NameNode] = {}
        self.initial: State = tuple(self._start(check) for check in checks)

    @classmethod
    def parse(cls, lines: list[str], patterns: dict[str, str]) -> NameChecks | None:
        """The checks of a header's ``check:`` lines (None if there are none);
        ``patterns`` are the grammar's terminals and their regexes."""
        if not lines:
            return None
        checks = [_parse_line(line, patterns) for line in lines]
        used: set[str] = set()
        for check in checks:
            for field in check:
                if isinstance(field, frozenset):
                    used |= {name for name in field if name in patterns}
        affixes = {name: _Affix(*affix(patterns[name])) for name in used}
        return cls(checks, affixes)

    def _start(self, check: Check) -> object:
        if isinstance(check, _Match):
            return (None, None)
        if isinstance(check, _Declared):
            return check.known
        return frozenset()

    def clear(self) -> None:
        """Forget the interned name stacks (states made before compare unequal
        to the ones made after, which only makes scans rejoin less)."""
        self._nodes.clear()

    def _push(self, name: str, parent: NameNode | None, prefixes: frozenset[str]) -> NameNode:
        key = (name, id(parent), prefixes)
        node = self._nodes.get(key)
        if node is None:
            node = self._nodes[key] = NameNode(name, parent, prefixes)
        return node

    # -- checking tokens -----------------------------------------------------

    def step(self, state: State, kind: str, text: str) -> State | Rejected:
        """The state after the token ``text`` of terminal ``kind`` (one the
        parser accepted), or the check's objection to it."""
        if kind not in self.terminals:
            return state
        parts = list(state)
        for index, check in enumerate(self.checks):
            found = self._step(check, parts[index], kind, text)
            if isinstance(found, Rejected):
                return found
            parts[index] = found
        return tuple(parts)

    def _step(self, check: Check, part: object, kind: str, text: str) -> object:
        if isinstance(check, _Unique):
            assert isinstance(part, frozenset)
            if kind in check.reset:
                part = frozenset()
            if kind in check.names:
                name = self._affixes[kind].name(text)
                if name in part:
                    return Rejected(len(text), f"`{name}` appears twice")
                part = part | {name}
            return part
        if isinstance(check, _Declared):
            assert isinstance(part, frozenset)
            if kind in check.reset:
                part = check.known
            if kind in check.uses:
                name = self._affixes[kind].name(text)
                if name not in part:
                    prefix = self._affixes[kind].prefix
                    reach = max((_common(name, known) for known in part), default=0)
                    return Rejected(prefix + reach, f"`{name}` is not declared")
            if kind in check.by:
                part = part | {self._affixes[kind].name(text)}
            return part
        return self._match(check, part, kind, text)

    def _match(self, check: _Match, part: object, kind: str, text: str) -> object:
        assert isinstance(part, tuple)
        stack, tag = part
        assert stack is None or isinstance(stack, NameNode)
        assert tag is None or isinstance(tag, _Tag)
        if kind in check.open:
            name = self._affixes[kind].name(text)
            prefixes = stack.prefixes if stack is not None else check.known
            stack = self._push(name, stack, prefixes)
            return (stack, _Tag((name,), frozenset()) if check.namespaces else None)
        if tag is not None and kind in check.attributes:
            name = self._affixes[kind].name(text)
            declared = tag.declared
            if check.namespaces is not None:
                if name.startswith(check.namespaces + ":"):
                    declared = declared | {name[len(check.namespaces) + 1 :]}
                elif name != check.namespaces:
                    return (stack, _Tag((*tag.names, name), declared))
            return (stack, _Tag(tag.names, declared))
        if tag is not None and (kind in check.close_start or kind in check.end):
            assert stack is not None
            scope = stack.prefixes | tag.declared
            for qualified in tag.names:
                prefix, colon, local = qualified.partition(":")
                if colon and not (prefix and local and ":" not in local):
                    return Rejected(0, f"`{qualified}` is not a qualified name (prefix:local)")
                if colon and prefix not in scope:
                    return Rejected(0, f"the prefix of `{qualified}` is not declared")
            stack = self._push(stack.name, stack.parent, scope)
            tag = None
        if kind in check.end:
            assert stack is not None
            return (stack.parent, tag)
        if kind in check.close:
            affixed = self._affixes[kind]
            name = affixed.name(text)
            if stack is None:
                return Rejected(affixed.prefix, f"`{name}` closes nothing")
            if name != stack.name:
                reach = _common(name, stack.name)
                message = f"`{name}` closes `{stack.name}`"
                return Rejected(affixed.prefix + reach, message)
            return (stack.parent, tag)
        return (stack, tag)

    # -- partial tokens ------------------------------------------------------

    def _wanted(self, state: State, kind: str) -> list[frozenset[str]]:
        """The names each check that names ``kind`` tokens accepts in ``state``."""
        wanted: list[frozenset[str]] = []
        for check, part in zip(self.checks, state, strict=True):
            if isinstance(check, _Declared) and kind in check.uses:
                assert isinstance(part, frozenset)
                wanted.append(part)
            elif isinstance(check, _Match) and kind in check.close:
                assert isinstance(part, tuple)
                stack = part[0]
                wanted.append(frozenset((stack.name,) if isinstance(stack, NameNode) else ()))
        return wanted

    def limit(self, state: State, kind: str, text: str) -> int:
        """How much of ``text``, the start of a ``kind`` token, can still
        become a token the checks accept (``len(text)`` when all of it can)."""
        if kind not in self.terminals:
            return len(text)
        best = len(text)
        affixed = self._affixes[kind]
        name = text[affixed.prefix :]
        if len(text) <= affixed.prefix:
            return best
        for wanted in self._wanted(state, kind):
            reach = max((_common(name, candidate) for candidate in wanted), default=0)
            if reach < len(name):
                best = min(best, affixed.prefix + reach)
        return best

    def fit(self, state: State, kind: str, start: str, text: str) -> str | None:
        """The shortest text of a ``kind`` token that starts with ``start``
        and names what the checks accept in ``state`` (completion: the end
        tag of the open element, a declared entity): ``text``, a token of the
        terminal, when they ask nothing of its name, else ``text``'s fixed
        start and end around a name they accept; None when none fits."""
        wanted = self._wanted(state, kind) if kind in self.terminals else []
        if not wanted:
            return text
        affixed = self._affixes[kind]
        head, tail = text[: affixed.prefix], text[len(text) - affixed.suffix :]
        names = frozenset.intersection(*wanted)
        fitting = [head + name + tail for name in names]
        return min(
            (token for token in fitting if token.startswith(start)),
            key=lambda token: (len(token), token),
            default=None,
        )

    def expected_close(self, state: State) -> list[str]:
        """The names an element's end must give, innermost first (for completion)."""
        names = []
        for check, part in zip(self.checks, state, strict=True):
            if isinstance(check, _Match):
                assert isinstance(part, tuple)
                node = part[0]
                while isinstance(node, NameNode):
                    names.append(node.name)
                    node = node.parent
        return names


def _parse_line(line: str, patterns: dict[str, str]) -> Check:
    words = line.split()
    if not words:
        raise OracleConfigError("empty check: in the grammar header")
    kind, rest = words[0], words[1:]
    plain: list[str] = []
    keyed: dict[str, frozenset[str]] = {}
    for word in rest:
        key, equals, value = word.partition("=")
        if equals:
            keyed[key] = frozenset(v for v in value.split(",") if v)
        else:
            plain.extend(v for v in word.split(",") if v)
    allowed = {
        "match": {"open", "close", "end", "close-start", "attributes", "namespaces", "known"},
        "unique": {"reset"},
        "declared": {"by", "known", "reset"},
    }
    if kind not in allowed:
        raise OracleConfigError(f"unknown check {kind!r} (known: match, unique, declared)")
    unknown = set(keyed) - allowed[kind]
    if unknown:
        raise OracleConfigError(f"check {kind}: unknown option {sorted(unknown)[0]!r}")
    for key, names in keyed.items():
        if key not in ("known", "namespaces"):
            _require_terminals(kind, names, patterns)
    _require_terminals(kind, frozenset(plain), patterns)
    if kind == "match":
        if plain or "open" not in keyed or "close" not in keyed:
            raise OracleConfigError("check match needs open=TERMINAL and close=TERMINAL")
        namespaces = keyed.get("namespaces")
        return _Match(
            keyed["open"],
            keyed["close"],
            keyed.get("end", frozenset()),
            keyed.get("close-start", frozenset()),
            keyed.get("attributes", frozenset()),
            min(namespaces) if namespaces else None,
            keyed.get("known", frozenset()),
        )
    if not plain:
        raise OracleConfigError(f"check {kind} needs the terminals it checks")
    if kind == "unique":
        return _Unique(frozenset(plain), keyed.get("reset", frozenset()))
    if "by" not in keyed:
        raise OracleConfigError("check declared needs by=TERMINAL")
    return _Declared(
        frozenset(plain),
        keyed["by"],
        keyed.get("known", frozenset()),
        keyed.get("reset", frozenset()),
    )


def _require_terminals(kind: str, names: frozenset[str], patterns: dict[str, str]) -> None:
    for name in sorted(names):
        if name not in patterns:
            raise OracleConfigError(f"check {kind}: {name!r} is not a terminal of the grammar")
