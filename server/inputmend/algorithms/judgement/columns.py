"""The columns of a table the input holds (``fields`` hints): how many fields
its records share, each column's shape and forms, the records beside a
stretch of lines.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from inputmend.algorithms.fieldforms import ColumnForms, ColumnShapes
from inputmend.algorithms.judgement.text import LINE
from inputmend.core.text import line_start
from inputmend.grammar.tolerant import Lexeme, TolerantLexer

TABLE_LINES = 64
"""Lines at the start of a table whose records say how many fields they all
have (``fields`` hints): a few dozen outvote a damaged header, and reading
them costs the same on a table of any length."""

COLUMN_SAMPLE = 16384
"""Characters at the start of the input whose records say each column's shape."""


class TableColumns:
    """The columns of a table the input holds (``fields`` hints): how many
    fields its records share, the shape and forms of each column's values,
    the records beside a stretch; each read when first asked."""

    def __init__(self, original: str, lexer: TolerantLexer) -> None:
        self.original = original
        self.lexer = lexer
        self._header: int | None = None  # see :meth:`header_fields`
        self._shapes: ColumnShapes | None = None  # see :meth:`column_shapes`
        self._forms = ColumnForms((), ())
        self._beside: dict[tuple[int, int], tuple[list[str], list[str]]] = {}

    def header_fields(self) -> int | None:
        """The number of field separators the input's records share
        (``fields`` hints): the count most of the records on its first
        :data:`TABLE_LINES` lines have, of equal counts the one seen first.
        Not the first record's alone: the damage may be in the header, and
        then every record would read as misshapen.  The records are read as
        the format reads them (a quoted field may hold line breaks), unless
        a quoted field is still open at the end of those lines: a quote the
        damage left unpaired ran the records after it together, so each
        line is read alone."""
        separator = self.lexer.hints.fields
        if separator is None:
            return None
        if self._header is None:
            ends = [
                match.end()
                for match in itertools.islice(LINE.finditer(self.original), TABLE_LINES)
            ]
            end = ends[-1] if ends else 0
            lexemes = self.lexer.lex(self.original, 0, end)
            if lexemes and lexemes[-1].partial:
                starts = [0, *ends[:-1]]
                lines = [
                    self.lexer.lex(self.original, low, high)
                    for low, high in zip(starts, ends, strict=True)
                ]
                records = [line for line in lines if line]
            else:
                records = records_of(self.original, lexemes)
                if end < len(self.original) and len(records) > 1:
                    records.pop()  # may go on past the lines read
            counts = [sum(1 for t in record if t.value == separator) for record in records]
            self._header = max(counts, key=counts.count) if counts else 0
        return self._header

    def column_shapes(self) -> tuple[str | None, ...]:
        """The shape nearly every value of each column has, read in the
        records of the input's first :data:`COLUMN_SAMPLE` characters that
        have the header's number of fields (None for a column without one;
        empty without ``fields`` hints); also the digits pattern nearly
        every value has, where one has (a year's ``9999``, a price's
        ``9.99``, a date's ``9999-99-99``: :class:`ColumnShapes
        <inputmend.algorithms.fieldforms.ColumnShapes>`), and the forms
        the columns' values have (:class:`ColumnForms
        <inputmend.algorithms.fieldforms.ColumnForms>`)."""
        separator = self.lexer.hints.fields
        header = self.header_fields()
        if separator is None or header is None:
            return ()
        if self._shapes is None:
            end = self.original.rfind("\n", 0, COLUMN_SAMPLE) + 1 or len(self.original)
            lexemes = self.lexer.lex(self.original, 0, end)
            rows = [
                field_values(record, separator) for record in records_of(self.original, lexemes)
            ]
            self._forms = ColumnForms.of(rows[1:], header + 1)
            self._shapes = ColumnShapes.of(rows[1:], header + 1)
        return self._shapes.shapes

    def beside(self, start: int, end: int) -> tuple[list[str], list[str]]:
        """The field values (:func:`field_values`) of the input's records on
        the lines just above ``start`` and just below ``end`` (a stretch of
        whole lines: empty lists where it is not, or where there is no such
        line, or it is the header)."""
        separator = self.lexer.hints.fields
        text = self.original
        if separator is None:
            return [], []
        known = self._beside.get((start, end))
        if known is not None:
            return known
        above: list[str] = []
        if start > 0 and text[start - 1] == "\n":
            low = line_start(text, start - 1)
            if low > 0:  # not the header
                above = field_values(self.lexer.lex(text, low, start), separator)
        below: list[str] = []
        low = end if end == 0 or text[end - 1] == "\n" else text.find("\n", end) + 1
        if 0 < low < len(text) and (end == low or text[end:low].strip() == ""):
            high = text.find("\n", low)
            high = len(text) if high < 0 else high + 1
            if text[low:high].strip():
                below = field_values(self.lexer.lex(text, low, high), separator)
        self._beside[(start, end)] = above, below
        return above, below

    def empty_column(self) -> bool:
        """Has the table a column whose field is empty in every record read
        for :meth:`column_shapes` (two or more)?  An empty field there is
        the table's own (``a,b,`` on every row)."""
        self.column_shapes()
        return self._shapes is not None and self._shapes.empty

    def led_columns(self) -> frozenset[int]:
        """The columns whose values the table writes after a blank in two or
        more of the records read for :meth:`column_shapes` (``7, .01138``):
        a blank after a separator before such a column is the table's way
        to write it, not the blank of a value that held the separator
        (``Smith, John``)."""
        self.column_shapes()
        return frozenset() if self._shapes is None else self._shapes.led

    def gap_columns(self) -> frozenset[int]:
        """The columns whose field is empty in two or more of the records
        read for :meth:`column_shapes` (values missing): an empty field
        there may be the table's own, not a field too many."""
        self.column_shapes()
        return frozenset() if self._shapes is None else self._shapes.gaps

    def unaligned(self, values: Sequence[str]) -> float:
        """How unlikely a record's ``values`` are under their columns, in
        nats (:meth:`ColumnForms.misfit <inputmend.algorithms.fieldforms.ColumnForms.misfit>`,
        from the records read for :meth:`column_shapes`; 0 for a record of
        another width than the table's)."""
        self.column_shapes()
        return self._forms.misfit(values)

    def misfits(self, values: Sequence[str]) -> int:
        """How many of a record's ``values`` (its fields' text, in order) are
        not of their column's shape or digits pattern (:meth:`column_shapes`),
        or have a form that none of their column's values has, or are
        numbers far outside the span of their column's
        (:meth:`ColumnForms.strange <inputmend.algorithms.fieldforms.ColumnForms.strange>`).
        Forms are compared only in a record of the table's width: in a
        shorter or longer one, which column a value stands in is the open
        question (a field lost or added), and a record cut off by the end of
        the input holds values cut short, of no column's form."""
        self.column_shapes()
        if self._shapes is None:
            return 0
        shapes, whole = self._shapes, len(values) == len(self._forms.seen)
        return sum(
            shapes.misfit(column, value) or (whole and self._forms.strange(column, value))
            for column, value in enumerate(values[: len(shapes.shapes)])
        )


def field_values(record: list[Lexeme], separator: str) -> list[str]:
    """The values of a record's fields (blank lexemes, such as its line
    break, left out)."""
    values = [""]
    for lexeme in record:
        if lexeme.value == separator:
            values.append("")
        elif lexeme.value.strip():
            values[-1] += lexeme.value
    return values


def records_of(text: str, lexemes: list[Lexeme]) -> list[list[Lexeme]]:
    """Lexemes grouped into records: a line break between two lexemes ends one."""
    records: list[list[Lexeme]] = []
    for index, lexeme in enumerate(lexemes):
        if index == 0 or "\n" in text[lexemes[index - 1].end : lexeme.start]:
            records.append([])
        records[-1].append(lexeme)
    return records
