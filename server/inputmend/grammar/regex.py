"""What inputmend needs to know about the regular expressions of terminals.

* :func:`parse_regex`: Python's own parse of a pattern (``re._parser``, a
  private module, read here and nowhere else), as plain data with opcode names;
* :func:`first_chars`: the characters a match can start with;
* :func:`prefix_extent`: how much of a text is, or can still grow into, a
  match (partial matching of the ``regex`` module).
"""

from __future__ import annotations

import re
from re import _constants as sre_constants
from re import _parser as sre_parse
from typing import Any, NamedTuple


class RegexItem(NamedTuple):
    """One item of a parsed pattern: Python's opcode name and its argument.

    Arguments, by opcode: ``LITERAL``/``NOT_LITERAL`` a code point; ``ANY``
    None; ``IN`` a list of items (``LITERAL`` code, ``RANGE`` (low, high),
    ``CATEGORY`` a category name such as ``CATEGORY_DIGIT``, ``NEGATE`` None);
    ``BRANCH`` a list of alternatives (each a list of items); ``SUBPATTERN``
    (group number or None, flags added, flags removed, items);
    ``MAX_REPEAT``/``MIN_REPEAT``/``POSSESSIVE_REPEAT`` (low, high or None when
    unbounded, items); ``ATOMIC_GROUP`` items; ``GROUPREF`` a group number;
    ``AT`` an anchor name; ``ASSERT``/``ASSERT_NOT`` (direction, items).
    """

    op: str
    arg: Any


def parse_regex(pattern: str) -> list[RegexItem]:
    """Python's parse of ``pattern`` (raises ``re.error`` when it is not one).
    A global ``(?i)`` becomes a case-insensitive group around everything."""
    parsed = sre_parse.parse(pattern)
    items = _items(parsed)
    if parsed.state.flags & re.IGNORECASE:
        return [RegexItem("SUBPATTERN", (None, re.IGNORECASE, 0, items))]
    return items


def _items(subpattern: Any) -> list[RegexItem]:
    return [_item(op, arg) for op, arg in subpattern]


def _item(op: Any, arg: Any) -> RegexItem:
    name = str(op)
    if name == "IN":
        return RegexItem(name, [_item(kind, value) for kind, value in arg])
    if name == "BRANCH":
        return RegexItem(name, [_items(option) for option in arg[1]])
    if name == "SUBPATTERN":
        group, added, removed, inner = arg
        return RegexItem(name, (group, added, removed, _items(inner)))
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, inner = arg
        return RegexItem(
            name, (low, None if high == sre_constants.MAXREPEAT else high, _items(inner))
        )
    if name == "ATOMIC_GROUP":
        return RegexItem(name, _items(arg))
    if name in ("ASSERT", "ASSERT_NOT"):
        return RegexItem(name, (arg[0], _items(arg[1])))
    if name in ("CATEGORY", "AT"):
        return RegexItem(name, str(arg))
    return RegexItem(name, arg)


def first_chars(pattern: str) -> frozenset[str] | None:
    """Characters a match of ``pattern`` can start with (``None``: any, or
    not known)."""
    try:
        items = parse_regex(pattern)
    except re.error:
        return None
    return _first_of_sequence(items)


def _first_of_sequence(items: list[RegexItem]) -> frozenset[str] | None:
    result: set[str] = set()
    for item in items:
        first, nullable = _first_of_item(item)
        if first is None:
            return None
        result |= first
        if not nullable:
            return frozenset(result)
    return None  # the sequence can match the empty string: anything may follow


def _first_of_item(item: RegexItem) -> tuple[frozenset[str] | None, bool]:
    op, arg = item
    if op == "LITERAL":
        return frozenset(chr(arg)), False
    if op == "IN":
        chars: set[str] = set()
        for kind, value in arg:
            if kind == "LITERAL":
                chars.add(chr(value))
            elif kind == "RANGE" and value[1] - value[0] < 1024:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            else:
                return None, False
        return frozenset(chars), False
    if op == "SUBPATTERN":
        _group, added, _removed, inner = arg
        if added & re.IGNORECASE:
            return None, False  # either case may start a match
        first = _first_of_sequence(inner)
        return first, first is None
    if op == "BRANCH":
        union: set[str] = set()
        for option in arg:
            first = _first_of_sequence(option)
            if first is None:
                return None, False
            union |= first
        return frozenset(union), False
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        low, _high, inner = arg
        return _first_of_sequence(inner), low == 0
    return None, False


def prefix_extent(pattern: Any, text: str, start: int, end: int | None = None) -> int:
    """Longest ``k`` such that ``text[start:start+k]`` (within ``end``) is, or
    can still grow into, a match of ``pattern`` (a ``regex`` pattern)."""
    end = len(text) if end is None else end
    if start >= end or pattern.fullmatch(text, start, start + 1, partial=True) is None:
        return 0  # cannot even start here: the common case, one regex call
    if pattern.fullmatch(text, start, end, partial=True) is not None:
        return end - start
    low, high = 0, end - start  # extent ``low`` is always possible (k=0)
    while low < high:
        middle = (low + high + 1) // 2
        if pattern.fullmatch(text, start, start + middle, partial=True) is not None:
            low = middle
        else:
            high = middle - 1
    return low
