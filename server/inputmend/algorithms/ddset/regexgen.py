"""Random strings for a regular expression (the terminals of a lark grammar).

The pattern is parsed with Python's own regex parser
(:func:`~inputmend.grammar.regex.parse_regex`) into a small tree of our own:
literals, character sets (classes, ranges, categories, negated classes),
sequences, alternatives, bounded repeats, groups and back-references.
Look-arounds and anchors produce nothing; the caller checks every generated
string against the real pattern and retries.

Unbounded repeats are capped (``x*`` is 0..3 copies by default), a negated
class picks from printable ASCII outside the set, and ``.`` from printable
ASCII.  ``minimal=True`` produces a shortest string (fewest repeats, shortest
alternative), which DDSET tries first because small values pass most often.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from inputmend.grammar.regex import RegexItem, parse_regex

PRINTABLE = tuple(chr(code) for code in range(32, 127))
_DIGITS = tuple("0123456789")
_WORD = tuple("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_SPACE = (" ", "\t", "\n")
_CATEGORIES: dict[str, tuple[str, ...]] = {
    "DIGIT": _DIGITS,
    "WORD": _WORD,
    "SPACE": _SPACE,
    "LINEBREAK": ("\n",),
}
REPEAT_CAP = 3  # extra copies beyond the minimum for an unbounded repeat
ENUMERATION_CAP = 4096


class RegexUnsupported(ValueError):
    """The pattern uses a construct we cannot generate from."""


@dataclass(frozen=True, slots=True)
class _Chars:
    """One character out of a set; ``chars`` is explicit (ASCII-sized) or
    ``ranges`` (inclusive code point ranges, possibly large)."""

    ranges: tuple[tuple[int, int], ...]

    @property
    def size(self) -> int:
        return sum(high - low + 1 for low, high in self.ranges)

    def pick(self, rng: random.Random) -> str:
        total = self.size
        index = rng.randrange(total)
        for low, high in self.ranges:
            width = high - low + 1
            if index < width:
                return chr(low + index)
            index -= width
        raise AssertionError("unreachable")

    def all(self) -> list[str]:
        return [chr(code) for low, high in self.ranges for code in range(low, high + 1)]


@dataclass(frozen=True, slots=True)
class _Seq:
    items: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class _Alt:
    options: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class _Repeat:
    item: Any
    low: int
    high: int | None  # None: unbounded


@dataclass(frozen=True, slots=True)
class _Group:
    index: int | None
    item: Any


@dataclass(frozen=True, slots=True)
class _Backref:
    index: int


_EMPTY = _Seq(())


def _ranges_of(chars: set[int]) -> tuple[tuple[int, int], ...]:
    result: list[tuple[int, int]] = []
    for code in sorted(chars):
        if result and result[-1][1] == code - 1:
            result[-1] = (result[-1][0], code)
        else:
            result.append((code, code))
    return tuple(result)


def _category_chars(category: str) -> tuple[str, tuple[str, ...]]:
    """(kind, chars) for a category name: kind is 'pos' or 'neg'."""
    name = category.replace("CATEGORY_", "").replace("UNI_", "").replace("LOC_", "")
    negated = name.startswith("NOT_")
    base = name[4:] if negated else name
    chars = _CATEGORIES.get(base)
    if chars is None:
        raise RegexUnsupported(f"character category {category}")
    return ("neg" if negated else "pos"), chars


def _with_case(code: int, ignore_case: bool) -> set[int]:
    if not ignore_case:
        return {code}
    char = chr(code)
    return {ord(c) for c in {char, char.lower(), char.upper()} if len(c) == 1}


def _class(items: list[RegexItem], ignore_case: bool) -> _Chars:
    negate = False
    explicit: set[int] = set()
    ranges: list[tuple[int, int]] = []
    members: list[tuple[str, Any]] = []  # for membership tests of negated sets
    for op, value in items:
        if op == "NEGATE":
            negate = True
        elif op == "LITERAL":
            explicit |= _with_case(value, ignore_case)
            members.append(("lit", value))
        elif op == "RANGE":
            low, high = value
            members.append(("range", (low, high)))
            if high - low < 512:
                for code in range(low, high + 1):
                    explicit |= _with_case(code, ignore_case)
            else:
                ranges.append((low, high))
        elif op == "CATEGORY":
            kind, chars = _category_chars(value)
            members.append((kind, chars))
            if kind == "pos":
                explicit |= {ord(c) for c in chars}
            else:
                explicit |= {ord(c) for c in PRINTABLE if c not in chars}
        else:
            raise RegexUnsupported(f"class item {op}")
    if not negate:
        merged = _ranges_of(explicit) + tuple(ranges)
        if not merged:
            raise RegexUnsupported("empty character class")
        return _Chars(merged)
    allowed = {ord(c) for c in PRINTABLE}
    allowed -= explicit
    for low, high in ranges:
        allowed -= set(range(low, high + 1))
    if not allowed:
        raise RegexUnsupported("negated class excludes all printable ASCII")
    return _Chars(_ranges_of(allowed))


def _convert(subpattern: list[RegexItem], ignore_case: bool) -> Any:
    items: list[Any] = []
    for op, value in subpattern:
        if op == "LITERAL":
            codes = _with_case(value, ignore_case)
            items.append(_Chars(_ranges_of(codes)))
        elif op == "NOT_LITERAL":
            allowed = {ord(c) for c in PRINTABLE} - _with_case(value, ignore_case)
            items.append(_Chars(_ranges_of(allowed)))
        elif op == "ANY":
            items.append(_Chars(((32, 126),)))
        elif op == "IN":
            items.append(_class(value, ignore_case))
        elif op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, inner = value
            items.append(_Repeat(_convert(inner, ignore_case), int(low), high))
        elif op == "BRANCH":
            items.append(_Alt(tuple(_convert(option, ignore_case) for option in value)))
        elif op == "SUBPATTERN":
            group, add_flags, del_flags, inner = value
            case = ignore_case
            if add_flags & re.IGNORECASE:
                case = True
            if del_flags & re.IGNORECASE:
                case = False
            items.append(_Group(group, _convert(inner, case)))
        elif op == "ATOMIC_GROUP":
            items.append(_Group(None, _convert(value, ignore_case)))
        elif op == "GROUPREF":
            items.append(_Backref(int(value)))
        elif op in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # anchors and look-arounds: checked afterwards by matching
        else:
            raise RegexUnsupported(f"regex construct {op}")
    if len(items) == 1:
        return items[0]
    return _Seq(tuple(items))


def _min_length(node: Any) -> int:
    if isinstance(node, _Chars):
        return 1
    if isinstance(node, _Seq):
        return sum(_min_length(item) for item in node.items)
    if isinstance(node, _Alt):
        return min(_min_length(option) for option in node.options)
    if isinstance(node, _Repeat):
        return node.low * _min_length(node.item)
    if isinstance(node, _Group):
        return _min_length(node.item)
    return 0  # back-reference: unknown, treat as empty


def _count(node: Any, cap: int) -> int | None:
    """Number of distinct derivations (an upper bound on strings), None if over ``cap``."""
    if isinstance(node, _Chars):
        size = node.size
        return size if size <= cap else None
    if isinstance(node, _Seq):
        return _count_all(node.items, cap, product=True)
    if isinstance(node, _Alt):
        return _count_all(node.options, cap, product=False)
    if isinstance(node, _Repeat):
        if node.high is None:
            return None
        part = _count(node.item, cap)
        if part is None:
            return None
        total = 0
        for copies in range(node.low, node.high + 1):
            total += part**copies
            if total > cap:
                return None
        return total
    if isinstance(node, _Group):
        return _count(node.item, cap)
    return None  # back-reference: do not enumerate


def _count_all(nodes: tuple[Any, ...], cap: int, *, product: bool) -> int | None:
    """The product (a sequence) or sum (alternatives) of the counts of ``nodes``."""
    total = 1 if product else 0
    for node in nodes:
        part = _count(node, cap)
        if part is None:
            return None
        total = total * part if product else total + part
        if total > cap:
            return None
    return total


def _enumerate(node: Any) -> list[str]:
    if isinstance(node, _Chars):
        return node.all()
    if isinstance(node, _Seq):
        results = [""]
        for item in node.items:
            parts = _enumerate(item)
            results = [prefix + part for prefix in results for part in parts]
        return results
    if isinstance(node, _Alt):
        return [s for option in node.options for s in _enumerate(option)]
    if isinstance(node, _Repeat):
        assert node.high is not None
        parts = _enumerate(node.item)
        repeated: list[str] = []
        layer = [""]
        for copies in range(node.high + 1):
            if copies >= node.low:
                repeated.extend(layer)
            layer = [prefix + part for prefix in layer for part in parts]
        return repeated
    if isinstance(node, _Group):
        return _enumerate(node.item)
    raise RegexUnsupported("cannot enumerate a back-reference")


class RegexGenerator:
    """Random strings that fully match ``pattern`` (a Python ``re`` pattern string)."""

    def __init__(self, pattern: str, *, repeat_cap: int = REPEAT_CAP) -> None:
        self.pattern = pattern
        self.repeat_cap = repeat_cap
        try:
            self._tree = _convert(parse_regex(pattern), False)
        except (re.error, OverflowError, RecursionError) as error:
            raise RegexUnsupported(f"cannot parse regex {pattern!r}: {error}") from None
        self._compiled = re.compile(pattern)
        self.count = _count(self._tree, ENUMERATION_CAP)

    def values(self) -> list[str] | None:
        """All matching strings when the language is finite and small, else None."""
        if self.count is None:
            return None
        seen = dict.fromkeys(s for s in _enumerate(self._tree) if self._compiled.fullmatch(s))
        return list(seen)

    def generate(self, rng: random.Random, *, minimal: bool = False) -> str:
        groups: dict[int, str] = {}
        out: list[str] = []
        self._emit(self._tree, rng, minimal, groups, out)
        return "".join(out)

    def _emit(
        self, node: Any, rng: random.Random, minimal: bool, groups: dict[int, str], out: list[str]
    ) -> None:
        if isinstance(node, _Chars):
            out.append(node.pick(rng))
        elif isinstance(node, _Seq):
            for item in node.items:
                self._emit(item, rng, minimal, groups, out)
        elif isinstance(node, _Alt):
            options = node.options
            if minimal:
                shortest = min(_min_length(option) for option in options)
                options = tuple(o for o in options if _min_length(o) == shortest)
            self._emit(rng.choice(options), rng, minimal, groups, out)
        elif isinstance(node, _Repeat):
            high = node.low + self.repeat_cap if node.high is None else node.high
            high = min(high, node.low + self.repeat_cap)
            copies = node.low if minimal else rng.randint(node.low, max(node.low, high))
            for _ in range(copies):
                self._emit(node.item, rng, minimal, groups, out)
        elif isinstance(node, _Group):
            start = len(out)
            self._emit(node.item, rng, minimal, groups, out)
            if node.index is not None:
                groups[node.index] = "".join(out[start:])
        elif isinstance(node, _Backref):
            out.append(groups.get(node.index, ""))

    def matches(self, text: str) -> bool:
        return self._compiled.fullmatch(text) is not None
