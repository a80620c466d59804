"""Character columns <-> code-unit columns, on lines of any length.

An editor counts columns in the code units of its position encoding (UTF-16
unless it chose UTF-8 or UTF-32); the text is indexed by characters.  A line
that is ASCII (or any line in UTF-32) needs no conversion.  Otherwise
:class:`LineColumns` keeps *checkpoints*: character columns at most
:data:`COLUMN_BLOCK` apart, each with the code units before it.  A
conversion bisects them and encodes part of one gap; an edit inside the line
keeps the checkpoints around it (:meth:`LineColumns.replaced`), so a change
never re-encodes the whole line.  Pure functions and immutable values.
"""

from __future__ import annotations

import bisect
from itertools import accumulate, pairwise

POSITION_ENCODINGS = ("utf-8", "utf-16", "utf-32")
"""The code units an editor may count columns in (LSP position encodings)."""
COLUMN_BLOCK = 4096
"""Characters between checkpoints (at most): a conversion encodes part of
one gap, a few times."""


def encoded_length(text: str, encoding: str) -> int:
    """``text``'s length in code units of a position encoding (one of
    :data:`POSITION_ENCODINGS`); a lone surrogate counts as it is written
    (three bytes, one UTF-16 unit)."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _uniform(length: int) -> list[int]:
    """Every :data:`COLUMN_BLOCK`-th column of a line of ``length``, and its end."""
    return [*range(0, length, COLUMN_BLOCK), length]


def _checkpoints(part: str, encoding: str) -> tuple[list[int], list[int]]:
    """Checkpoints of ``part`` on its own: every :data:`COLUMN_BLOCK`-th
    character and its end, with the code units before each."""
    chars = _uniform(len(part))
    if encoding == "utf-32" or part.isascii():
        return chars, list(chars)
    sizes = (encoded_length(part[a:b], encoding) for a, b in pairwise(chars))
    return chars, [0, *accumulate(sizes)]


class LineColumns:
    """The columns of one line (its line break excluded) in one encoding.

    ``chars``/``units`` are the checkpoints (None: one unit per character);
    they are shared between versions and never changed in place."""

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        encoding: str,
        *,
        checkpoints: tuple[list[int], list[int]] | None = None,
    ) -> None:
        self._text, self._start, self.length, self._encoding = text, start, end - start, encoding
        if checkpoints is None and encoding != "utf-32" and not text[start:end].isascii():
            checkpoints = _checkpoints(text[start:end], encoding)
        self._checkpoints = checkpoints

    def _gap(self, column: int) -> int:
        """The checkpoint at or before ``column``."""
        assert self._checkpoints is not None
        return bisect.bisect_right(self._checkpoints[0], column) - 1

    def units(self, column: int) -> int:
        """The code units before character ``column`` of the line (a column in
        the line break counts the break's characters, one unit each)."""
        if self._checkpoints is None:
            return column
        chars, units = self._checkpoints
        inside = min(column, self.length)
        gap = self._gap(inside)
        part = self._text[self._start + chars[gap] : self._start + inside]
        return units[gap] + encoded_length(part, self._encoding) + column - inside

    def column(self, units: int) -> int:
        """The first character column at or after ``units`` code units (a unit
        inside a character stands for the column after it); the line's
        length for anything past its end."""
        if self._checkpoints is None or units <= 0:
            return max(0, min(units, self.length))
        chars, marks = self._checkpoints
        if units >= marks[-1]:
            return self.length
        gap = bisect.bisect_right(marks, units) - 1
        if marks[gap] == units:
            return chars[gap]
        low, high = chars[gap], chars[gap + 1]
        base = self._start + low
        while high - low > 1:  # units before low < units <= units before high
            middle = (low + high) // 2
            part = self._text[base : self._start + middle]
            if marks[gap] + encoded_length(part, self._encoding) >= units:
                high = middle
            else:
                low = middle
        return high

    def moved(self, text: str, start: int) -> LineColumns:
        """The same line, unchanged, at ``start`` of a new ``text``."""
        return LineColumns(
            text, start, start + self.length, self._encoding, checkpoints=self._checkpoints
        )

    def replaced(self, text: str, begin: int, end: int, insert: str) -> LineColumns:
        """The line's columns once its characters ``[begin, end)`` are
        replaced by ``insert`` (no line break in it), in the new ``text``:
        the checkpoints outside the change are kept (those after it shifted),
        those of ``insert`` are counted."""
        length = self.length - (end - begin) + len(insert)
        if self._checkpoints is None and (self._encoding == "utf-32" or insert.isascii()):
            return LineColumns(text, self._start, self._start + length, self._encoding)
        if self._checkpoints is None:  # one unit per character so far
            chars = units = _uniform(self.length)
        else:
            chars, units = self._checkpoints
        before, after = self.units(begin), self.units(end)
        added_chars, added_units = _checkpoints(insert, self._encoding)
        keep = bisect.bisect_left(chars, begin)  # checkpoints before the change
        later = bisect.bisect_right(chars, end)  # checkpoints after it
        shift_chars, shift_units = len(insert) - (end - begin), added_units[-1] - (after - before)
        new_chars = [
            *chars[:keep],
            *(begin + c for c in added_chars),
            *(c + shift_chars for c in chars[later:]),
        ]
        new_units = [
            *units[:keep],
            *(before + u for u in added_units),
            *(u + shift_units for u in units[later:]),
        ]
        return LineColumns(
            text,
            self._start,
            self._start + length,
            self._encoding,
            checkpoints=(new_chars, new_units),
        )
