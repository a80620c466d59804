"""What the records of a table say about each of its columns.

A record that lost a field, or got one too many, shifts every value after
the damage into the next column; the place of the repair is the one that
puts the values back where the other records have theirs.  So each column
is described by what nearly all of its values share, read from the
records that have the table's number of fields (:func:`profile`):

- their *shape*: an integer, a decimal, text with letters, other
  characters (a date, a range); after a blank or not (``blank text``: the
  words after a comma in prose, `` and Barbuda``).  Integers and decimals
  mixed make a column of numbers; a whole number fits a column of decimals
  (many writers put ``1`` for ``1.0``);
- the *digits* of values without letters, each digit written ``9`` (a
  year's ``9999``, a date's ``9999-99-99``, a price's ``9.99``);
- whether values with letters also have digits or blanks (a column of
  surnames has neither, one of street addresses both), and their *length*
  (codes: ``US``);
- the *values* themselves, where the column repeats a few of them (a
  category, a flag, a constant): a value not among them is another
  column's;
- whether it is ever *empty*, in a table whose records leave some fields
  empty: an empty field belongs in a column that has them;
- whether a value of it runs over *lines*: one that does where none of the
  others do has swallowed the records after it;
- their *order*: a column whose values never fall from one record to the
  next (ids, times) takes no value that falls below the record's
  neighbour above or rises above the one below (nor, never rising, the
  other way round).

A property says something only where nearly all (9 in 10) of at least
:data:`SAMPLE` values share it (the shape and digits: 2).  A value counts
one for each property of its column it lacks (:meth:`Column.lacks`: text
in a column of two-digit numbers lacks both the shape and the digits, and
is further off than an empty field where the column has none); a value
lacking none fits.  Pure functions and frozen values.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

SAMPLE = 4
"""Values of a column, at least, that say its characters, length, values and
whether it is ever empty (a few values may share them by chance)."""
REPEATS = 3
"""How many times each value of a column of a few values is seen, on average
at least: the column holds values from a set (a category, a flag)."""

_INTEGER = re.compile(r"[-+]?\d+")
_DECIMAL = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_DIGIT = re.compile(r"\d")
_NUMBERS = ("integer", "decimal")
_T = TypeVar("_T")


@dataclass(frozen=True)
class Column:
    """What nearly every value of one column shares (None: nothing said)."""

    shape: str | None = None
    """The shape (:func:`shape`): ``number`` where integers and decimals mix."""
    digits: str | None = None
    """The digits pattern of its values without letters (:func:`digits`)."""
    characters: frozenset[str] | None = None
    """The characters of its values with letters besides them (:func:`characters`)."""
    length: int | None = None
    """The length of its values with letters."""
    values: frozenset[str] | None = None
    """Its values, where it repeats a few of them."""
    empty: bool | None = None
    """Whether a field of it may be empty; None where the table says nothing."""
    lines: bool = False
    """Whether a value of it runs over lines."""
    order: int = 0
    """1 where its values never fall from a record to the next (and rise at
    least once), -1 where they never rise (and fall), else 0."""

    @property
    def informed(self) -> bool:
        """Does the column say anything about its values?"""
        return self != _NOTHING

    def fits(self, value: str) -> bool:
        """Is ``value`` (a field's text) of this column: empty where fields of it
        may be, or with what nearly all of the column's values share?"""
        return not self.lacks(value)

    def lacks(self, value: str) -> int:
        """How many of what nearly all of the column's values share ``value``
        (a field's text) lacks: an empty one, that it may be empty; another,
        its shape, its digits pattern (a value with letters has none), its
        characters, its length, being one of its values."""
        written = _bare(value)
        if not written:
            return self.empty is False
        lettered = any(c.isalpha() for c in written)
        return (
            (not _fits(shape(value), self.shape))
            + (self.digits not in (None, digits(value)))
            + (lettered and self.characters not in (None, characters(value)))
            + (lettered and self.length not in (None, len(written)))
            + (self.values is not None and written not in self.values)
        )


_NOTHING = Column()


def profile(records: Iterable[Sequence[str]], width: int) -> tuple[Column, ...]:
    """The ``width`` columns of a table, read in its ``records`` (each the
    text of its fields) that have ``width`` fields."""
    columns: list[list[str]] = [[] for _ in range(width)]
    for record in records:
        if len(record) == width:
            for column, value in zip(columns, record, strict=True):
                column.append(value)
    gaps = any(not _bare(value) for column in columns for value in column)
    return tuple(_column(column, gaps) for column in columns)


def empty_column(records: Iterable[Sequence[str]], width: int) -> bool:
    """Has the table a column whose field is empty in every one (two or more)
    of its ``records`` that have ``width`` fields (``a,b,`` on every row)?"""
    rows = [record for record in records if len(record) == width]
    return len(rows) > 1 and any(
        not any(_bare(record[index]) for record in rows) for index in range(width)
    )


def _column(values: list[str], gaps: bool) -> Column:
    """What ``values`` share; whether they are ever empty where the table's
    records have ``gaps`` (empty fields)."""
    written = [_bare(value) for value in values]
    filled = [value for value, bare in zip(values, written, strict=True) if bare]
    lettered = [value for value in filled if any(c.isalpha() for c in value)]
    numbers = [value for value in filled if not any(c.isalpha() for c in value)]
    counts = Counter(bare for bare in written if bare)
    return Column(
        shape=_dominant(Counter(shape(value) for value in filled)),
        digits=_most([digits(value) for value in numbers], 2),
        characters=_most([characters(value) for value in lettered], SAMPLE),
        length=_most([len(_bare(value)) for value in lettered], SAMPLE),
        values=(
            frozenset(counts)
            if len(filled) >= SAMPLE and REPEATS * len(counts) <= len(filled)
            else None
        ),
        empty=(len(filled) < len(values)) if gaps and len(values) >= SAMPLE else None,
        lines=any("\n" in value for value in filled),
        order=_order(values),
    )


def misfits(
    columns: Sequence[Column],
    values: Sequence[str],
    neighbours: Sequence[Sequence[str]] = (),
) -> int:
    """What a record's ``values`` (its fields' text, in order) lack of what
    their ``columns`` share (:meth:`Column.lacks`), and, for each line break
    in a value of a column whose values are on one line, a misfit for each
    column: the break stands for a record swallowed into the value (a quote
    closed lines later), whose own values are no longer there to count;
    given the records before and after it (``neighbours``, each None where
    there is none in view), one for each value out of its column's order
    between theirs.  Values past the last column are not counted."""
    found = sum(
        column.lacks(value) + (0 if column.lines else len(columns) * value.count("\n"))
        for column, value in zip(columns, values, strict=False)
    )
    if len(neighbours) == 2:
        above, below = neighbours
        for index, (column, value) in enumerate(zip(columns, values, strict=False)):
            if column.order:
                steps = (
                    _step(above[index] if index < len(above) else "", value),
                    _step(value, below[index] if index < len(below) else ""),
                )
                found += any(step == -column.order for step in steps)
    return found


def _key(value: str) -> float | str | None:
    """What orders a value: its number, else its text (None when empty)."""
    written = _bare(value)
    if not written:
        return None
    try:
        number = float(written)
    except ValueError:
        return written
    return None if math.isnan(number) else number


def _step(first: str, second: str) -> int:
    """1 where ``second`` is more than ``first``, -1 where less, 0 where
    equal or not comparable (one empty, a number and a text)."""
    low, high = _key(first), _key(second)
    if low is None or high is None:
        return 0
    if isinstance(low, float) and isinstance(high, float):
        return (high > low) - (high < low)
    if isinstance(low, str) and isinstance(high, str):
        return (high > low) - (high < low)
    return 0


def _order(values: list[str]) -> int:
    """1 where ``values`` (a column's, record after record) never fall and
    rise at least once, over at least :data:`SAMPLE` comparable steps; -1
    the other way round; else 0."""
    steps = [_step(a, b) for a, b in itertools.pairwise(values) if _bare(a) and _bare(b)]
    if len(steps) < SAMPLE:
        return 0
    for direction in (1, -1):
        if -direction not in steps and direction in steps:
            comparable = all(
                type(_key(a)) is type(_key(b))
                for a, b in itertools.pairwise(values)
                if _bare(a) and _bare(b)
            )
            return direction if comparable else 0
    return 0


def _bare(value: str) -> str:
    """A field's value without the blanks and quotes around it."""
    return value.strip().strip('"').strip()


def shape(value: str) -> str | None:
    """What kind of value a field holds: ``integer``, ``decimal``, ``text``
    (a letter in it), ``other`` (digits and punctuation: a date, a range),
    None when empty; written after a blank, it is another shape (``blank
    text``: the words after a comma in prose, `` and Barbuda``)."""
    blank = "blank " if value[:1].isspace() else ""
    value = _bare(value)
    if not value:
        return None
    if _INTEGER.fullmatch(value):
        return blank + "integer"
    if _DECIMAL.fullmatch(value):
        return blank + "decimal"
    return blank + ("text" if any(c.isalpha() for c in value) else "other")


def digits(value: str) -> str | None:
    """A value of digits and punctuation with each digit written ``9``
    (``9999-99-99`` for a date, ``-9.99`` for a price): how many digits it
    has where; None when empty or when it holds a letter (text has no
    such pattern)."""
    value = _bare(value)
    if not value or any(c.isalpha() for c in value):
        return None
    return _DIGIT.sub("9", value)


def characters(value: str) -> frozenset[str]:
    """The kinds of characters of a value besides its letters and punctuation:
    ``digit``, ``blank`` (a surname has neither, a street address has both;
    punctuation is left out: free text quotes and brackets at will)."""
    return frozenset(
        "digit" if c.isdigit() else "blank" for c in _bare(value) if c.isdigit() or c.isspace()
    )


def _most(found: list[_T], least: int) -> _T | None:
    """What at least 9 in 10 of ``found`` (at least ``least`` of them) share."""
    if len(found) < least:
        return None
    key, count = Counter(found).most_common(1)[0]
    return key if 10 * count >= 9 * len(found) else None


def _dominant(column: Counter[str | None]) -> str | None:
    """The shape of at least 9 in 10 of a column's (at least 2) non-empty
    values; ``number`` where integers and decimals together are."""
    shapes = {kind: n for kind, n in column.items() if kind is not None}
    total = sum(shapes.values())
    if total < 2:
        return None
    kind, count = max(shapes.items(), key=lambda item: item[1])
    if 10 * count >= 9 * total:
        return kind
    numbers = sum(shapes.get(kind, 0) for kind in _NUMBERS)
    return "number" if 10 * numbers >= 9 * total else None


def _fits(found: str | None, wanted: str | None) -> bool:
    """Does a value of shape ``found`` fit a column of shape ``wanted``?  A
    whole number fits a column of decimals."""
    if found is None or wanted is None or found == wanted:
        return True
    return (wanted == "number" and found in _NUMBERS) or (wanted, found) == ("decimal", "integer")
