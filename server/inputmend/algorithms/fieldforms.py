"""The shapes and forms of a table's field values, and those each column has shown.

A field lost or added in a record shifts the values after it into the
neighbouring columns.  Where a column's values nearly all share one shape
(an integer, a year's ``9999``), a shifted value stands out by breaking it
(:class:`ColumnShapes`, see ``Judgement.misplaced``); many columns share no such shape and still
hold values of a few forms: decimals of five places after the point next
to decimals of ten, positive numbers next to signed ones, two-letter codes
next to names.  A value whose form no value of its column has (among
enough of them, :data:`FEW`) does not belong there, whatever the others'
mix.  The forms of a value (:func:`forms`): for a number, its kind
(integer or decimal), its sign, its count of digits before and after the
point; for other text, its letters and digits written as one ``a`` or
``9`` a run (``a/a`` for ``N/A``, ``9a`` for ``9E``, ``a a a.`` for
``Envoy Air Inc.``).  Each form is counted on its own, so a value fits
when each of them has been seen in its column, not necessarily together.
Columns of numbers of one form still differ in their size (loads of 0.4 to
0.9 next to prices of 1.3 to 1.5): a number far outside the span of its
column's numbers (beyond its ends by more than :data:`MARGIN` of its
width) does not belong there either.

Where those tests leave several places for a lost field alike (columns of
flags, of times, of ids), the values still say more or less where they
belong: how often a column shows each form of a value, where among its
numbers a number falls (the middle of them, or beyond them all), how often
the column is empty.  :meth:`ColumnForms.cost` reads that as a cost in nats
(how unlikely the value is in the column, estimated from the column's own
values), and a record's cost is the sum of its values' (:meth:`ColumnForms.misfit`):
of two alignments of the same values, the one with the lower cost puts
them where they are more alike their columns.  Pure functions and
immutable values.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

FEW = 4
"""Values a column needs before a form that none of them has counts against
a value (fewer say too little about the column)."""
SPAN = 8
"""Numbers a column needs before a number far outside their span counts
against a value: a few values' span is narrow by chance."""
MARGIN = 0.25
"""How far beyond the ends of its column's span, as a share of the span's
width, a number may lie and still fit (a column's sample seldom holds its
smallest and largest values)."""

_NUMBER = re.compile(r"[-+]?(\d*)(?:\.(\d*))?(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[^\W\d_]+")
_DIGITS = re.compile(r"\d+")


def forms(value: str) -> tuple[str, ...]:
    """The forms of one field's text (blanks and quotes around it left out;
    none for an empty field, which fits any column)."""
    value = _bare(value)
    if not value:
        return ()
    number = _NUMBER.fullmatch(value)
    if number is not None and (number.group(1) or number.group(2)):
        whole, fraction = number.group(1), number.group(2)
        return (
            "decimal" if fraction is not None else "integer",
            "signed" if value[0] == "-" else "unsigned",
            f"{len(whole)} before",
            f"{len(fraction or '')} after",
        )
    kind = "text" if any(c.isalpha() for c in value) else "other"
    return kind, _DIGITS.sub("9", _WORD.sub("a", value))


def _bare(value: str) -> str:
    """A field's text without the blanks and quotes around it."""
    return value.strip().strip('"').strip()


def number(value: str) -> float | None:
    """The number a field holds (None for other text, an empty field and
    what is not finite)."""
    value = _bare(value)
    found = _NUMBER.fullmatch(value)
    if found is None or not (found.group(1) or found.group(2)):
        return None
    read = float(value)
    return read if math.isfinite(read) else None


_INTEGER = re.compile(r"[-+]?\d+")
_DECIMAL = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def value_shape(value: str) -> str | None:
    """What kind of value a field holds: ``integer``, ``decimal``, ``text``
    (a letter in it), ``other`` (digits and punctuation: a date, a range),
    None when empty; written after a blank, it is another shape (``blank
    text``: the words after a comma in prose, `` and Barbuda``)."""
    blank = "blank " if value[:1].isspace() else ""
    value = value.strip().strip('"').strip()
    if not value:
        return None
    if _INTEGER.fullmatch(value):
        return blank + "integer"
    if _DECIMAL.fullmatch(value):
        return blank + "decimal"
    return blank + ("text" if any(c.isalpha() for c in value) else "other")


_NUMBERS = ("integer", "decimal")

_DIGIT = re.compile(r"\d")


def digit_pattern(value: str) -> str | None:
    """A value of digits and punctuation with each digit written ``9``
    (``9999-99-99`` for a date, ``-9.99`` for a price): how many digits it
    has where; None when empty or when it holds a letter (text has no
    such pattern)."""
    value = value.strip().strip('"').strip()
    if not value or any(c.isalpha() for c in value):
        return None
    return _DIGIT.sub("9", value)


def _most(column: dict[str | None, int]) -> str | None:
    """What at least 9 in 10 of a column's (at least 2) values that have
    one share (None where they share none)."""
    found = {key: n for key, n in column.items() if key is not None}
    total = sum(found.values())
    if total < 2:
        return None
    key, count = max(found.items(), key=lambda item: item[1])
    return key if 10 * count >= 9 * total else None


def _dominant(column: dict[str | None, int]) -> str | None:
    """The shape of at least 9 in 10 of a column's (at least 2) non-empty
    values (:func:`_most`); ``number`` where integers and decimals together are."""
    shape = _most(column)
    if shape is not None:
        return shape
    total = sum(n for kind, n in column.items() if kind is not None)
    numbers = sum(column.get(kind, 0) for kind in _NUMBERS)
    return "number" if total >= 2 and 10 * numbers >= 9 * total else None


def _fits(shape: str | None, wanted: str | None) -> bool:
    """Does a value of ``shape`` fit a column of shape ``wanted``?"""
    if shape is None or wanted is None or shape == wanted:
        return True
    return wanted == "number" and shape in _NUMBERS


def matched_values(upper: list[str], lower: list[str], fields: int) -> int:
    """How many values of two adjacent records (their fields' text, in
    order) equal the other's in their column: none unless both have the
    table's number of ``fields``; an empty field matches nothing.  A field
    lost or added shifts the values after it out of their columns, away
    from the values that the records beside it hold there (a flag, a year,
    a code that a column repeats); put back, they meet them again.  Counted
    per pair of records, so that a repair whose window reaches a record
    further is not counted the matches of that record twice."""
    if len(upper) != fields or len(lower) != fields:
        return 0
    return sum(1 for up, low in zip(upper, lower, strict=True) if up.strip() and up == low)


@dataclass(frozen=True)
class ColumnShapes:
    """The shape (:func:`value_shape`) and the digits pattern
    (:func:`digit_pattern`) nearly every value of each column of a table
    has (None for a column without one), whether a column is empty in
    every record (two or more: ``a,b,`` on every row, where an empty field
    is the table's own), the columns whose values the table writes
    after a blank (``led``) and those it leaves empty (``gaps``)."""

    shapes: tuple[str | None, ...]
    patterns: tuple[str | None, ...]
    empty: bool
    led: frozenset[int] = frozenset()
    """Columns with a value written after a blank in two or more records
    (``7, .01138`` on every row): the table's own way to write them, where
    a blank after a separator says nothing of a value that held it
    (``Smith, John``)."""
    gaps: frozenset[int] = frozenset()
    """Columns whose field is empty in two or more records (values
    missing): an empty field there may be the table's own."""

    @classmethod
    def of(cls, records: Iterable[Sequence[str]], width: int) -> ColumnShapes:
        """The shapes of the ``records`` (their fields' text) that have
        ``width`` fields; the others are left out (one may be the damaged)."""
        seen: list[dict[str | None, int]] = [{} for _ in range(width)]
        patterns: list[dict[str | None, int]] = [{} for _ in range(width)]
        led = [0] * width
        gaps = [0] * width
        for values in records:
            if len(values) == width:
                for index, value in enumerate(values):
                    shape, written = value_shape(value), digit_pattern(value)
                    seen[index][shape] = seen[index].get(shape, 0) + 1
                    patterns[index][written] = patterns[index].get(written, 0) + 1
                    led[index] += value[:1].isspace() and bool(value.strip())
                    gaps[index] += not value.strip()
        return cls(
            tuple(_dominant(column) for column in seen),
            tuple(_most(pattern) for pattern in patterns),
            any(list(column) == [None] and column[None] > 1 for column in seen),
            frozenset(index for index, count in enumerate(led) if count > 1),
            frozenset(index for index, count in enumerate(gaps) if count > 1),
        )

    def misfit(self, column: int, value: str) -> bool:
        """Is ``value`` not of ``column``'s shape or digits pattern?  False
        for a column the table does not have."""
        if column >= len(self.shapes):
            return False
        return not _fits(value_shape(value), self.shapes[column]) or not _fits(
            digit_pattern(value), self.patterns[column]
        )


@dataclass(frozen=True)
class ColumnForms:
    """The forms (:func:`forms`) the values of each column of a table have
    shown, how many non-empty values each column had, and the smallest and
    largest of its numbers and how many it had."""

    seen: tuple[frozenset[str], ...]
    counts: tuple[int, ...]
    spans: tuple[tuple[float, float, int], ...] = ()
    tallies: tuple[Counter[str], ...] = field(default=(), compare=False)
    """How many of each column's values have each form."""
    numbers: tuple[tuple[float, ...], ...] = field(default=(), compare=False)
    """Each column's numbers, in ascending order."""
    records: int = 0
    """How many records of the table's width were read."""

    @classmethod
    def of(cls, records: Iterable[Sequence[str]], width: int) -> ColumnForms:
        """The forms of the ``records`` (their fields' text) that have
        ``width`` fields; the others are left out (one may be the damaged)."""
        seen: list[set[str]] = [set() for _ in range(width)]
        counts = [0] * width
        tallies: list[Counter[str]] = [Counter() for _ in range(width)]
        numbers: list[list[float]] = [[] for _ in range(width)]
        read_records = 0
        for record in records:
            if len(record) != width:
                continue
            read_records += 1
            for column, value in enumerate(record):
                found = forms(value)
                if found:
                    seen[column].update(found)
                    counts[column] += 1
                tallies[column].update(found)
                read = number(value)
                if read is not None:
                    numbers[column].append(read)
        spans = tuple((min(n, default=0.0), max(n, default=0.0), len(n)) for n in numbers)
        return cls(
            tuple(frozenset(column) for column in seen),
            tuple(counts),
            spans,
            tuple(tallies),
            tuple(tuple(sorted(n)) for n in numbers),
            read_records,
        )

    def strange(self, column: int, value: str) -> bool:
        """Has ``value`` a form that none of at least :data:`FEW` values of
        ``column`` had, or is it a number far outside the span of at least
        :data:`FEW` numbers of ``column`` (:data:`MARGIN`)?  False for a
        column the table does not have."""
        if column >= len(self.seen) or self.counts[column] < FEW:
            return False
        if any(form not in self.seen[column] for form in forms(value)):
            return True
        read = number(value)
        if read is None or column >= len(self.spans):
            return False
        low, high, many = self.spans[column]
        margin = (high - low) * MARGIN
        return many >= SPAN and not low - margin <= read <= high + margin

    def cost(self, column: int, value: str) -> float:
        """How unlikely ``value`` is in ``column``, in nats, from the
        column's values: for an empty field, the share of the column's
        records that leave it empty; for another, the share of its values
        that have each of its forms (:func:`forms`, each on its own); for a
        number also how far out among the column's numbers it falls (the
        smaller share of them on either side of it: none beyond all of
        them, half at their median).  Shares are estimated with one value
        more of each kind (a form no value has is unlikely, not
        impossible).  0 for a column the table does not have or one of
        fewer than :data:`FEW` values: they say too little."""
        if column >= len(self.tallies) or self.records < FEW:
            return 0.0
        found = forms(value)
        values = self.counts[column]
        if not found:
            return math.log((self.records + 2) / (self.records - values + 1))
        if values < FEW:
            return 0.0
        tally = self.tallies[column]
        total = sum(math.log((values + 2) / (tally[form] + 1)) for form in found)
        read = number(value)
        numbers = self.numbers[column]
        if read is not None and len(numbers) >= FEW:
            below = bisect.bisect_right(numbers, read)
            above = len(numbers) - bisect.bisect_left(numbers, read)
            total += math.log((len(numbers) + 2) / (2 * min(below, above) + 2))
        return total

    def misfit(self, values: Sequence[str]) -> float:
        """The sum of the costs (:meth:`cost`) of a record's ``values``
        under the columns they stand in; 0 for a record of another width
        than the table's (where a field is lost or added, which column a
        value stands in is the open question)."""
        if len(values) != len(self.tallies):
            return 0.0
        return sum(self.cost(column, value) for column, value in enumerate(values))
