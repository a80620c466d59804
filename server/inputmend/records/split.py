"""Where records begin and end, and cutting a byte stream into partitions.

JSON Lines: a record is a physical line (``\\n``; a ``\\r`` before it is part
of the line ending).  CSV: a quoted field may hold line breaks, so a record
is a physical line unless its quotes do not balance; then it runs on to the
line where they do, *if* the joined lines are a valid row.  When they are not
(a lost quote flips the balance for the rest of the file), or the quotes do
not balance within ``max_bytes``, the record is the one physical line: a lost
quote damages one row, never the rows after it (:func:`group_rows`).  Nor
the row before or after its own: a quoted field with a line break that
lost a quote leaves two lines that are no row alone (or a row and a line that
begins with the end of a quoted field), with an odd number of quotes
between them; they are one damaged record, repaired as one (and line by
line when that repair fails, :mod:`inputmend.records.process`).

Every decision looks only at the lines from the record's start onwards, so
a partition that starts at a record boundary is split exactly as the whole
stream would be: the local and the Dask engine give the same records.

:class:`Partitioner` reads a binary stream and cuts it into partitions of
about ``partition_bytes`` that end at record boundaries; only the partitions
in flight are in memory.  A physical line longer than ``max_record_bytes``
that does not even fit in the buffer is handed out as :class:`Oversized`, to
be copied through in pieces.
"""

from __future__ import annotations

import bisect
import codecs
import itertools
import operator
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from inputmend.records.model import Format, Partition

_UTF8_BOM = codecs.BOM_UTF8
_OTHER_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


class ByteStream(Protocol):
    """What the partitioner reads: a binary file, standard input's buffer."""

    def read(self, size: int = -1, /) -> bytes: ...


class StreamError(Exception):
    """The stream cannot be read as records; the message is one line."""


def group_rows(
    quotes: Sequence[int],
    sizes: Sequence[int],
    *,
    final: bool,
    max_bytes: int,
    joins: Callable[[int, int], bool],
    broken_pair: Callable[[int, bool], bool | None] | None = None,
) -> tuple[list[int], int]:
    """Group physical lines into CSV records.

    ``quotes[i]`` is the number of quote characters of line ``i`` and
    ``sizes[i]`` its size; ``joins(first, stop)`` says whether lines
    ``first..stop-1`` together are a valid row; ``broken_pair(i, final)``
    (when given) whether lines ``i`` and ``i + 1``, no row alone, are one
    damaged row (None: later lines will tell; see :func:`_broken_pair`).  Returns the index
    after each record's last line, and how many lines were grouped: when not
    ``final``, the grouping stops before a record that later lines might
    still close or complete.
    """
    stops: list[int] = []
    first, count = 0, len(quotes)
    while first < count:
        stop = first + 1
        if quotes[first] % 2:
            closed = _closing_line(quotes, sizes, first, max_bytes)
            if closed is None and not final:
                break  # later lines may close the quote
            if closed is not None and closed > 0 and joins(first, closed):
                stop = closed
        if stop == first + 1 and broken_pair is not None:
            if first + 1 == count:
                if not final:
                    break  # the next line may be the rest of this row
            else:
                paired = broken_pair(first, final)
                if paired is None:
                    break  # the lines after may make the next line a row's start
                if paired:
                    stop = first + 2
        stops.append(stop)
        first = stop
    return stops, first


_TAIL = re.compile(rb'[^",]*"(?:,|$)')
"""A line that begins with the end of a quoted field: text, then the quote
that ends the field."""


def _broken_pair(
    lines: Lines,
    quotes: Sequence[int],
    sizes: Sequence[int],
    first: int,
    max_bytes: int,
    joins: Callable[[int, int], bool],
    *,
    columns: int,
    final: bool,
) -> bool | None:
    """Are lines ``first`` and ``first + 1`` one row whose quoted field
    with a line break lost a quote?  Neither is empty or a row alone (the
    first may be one when the second begins with the end of a quoted
    field, ``5,Ann,line one`` then ``line two"``: the field's opening quote
    was lost), and together they hold an odd number of quotes: a quote
    opens on one of them that nothing closes (``5,"line one`` then ``line
    two``; ``"Lee, Ann,6,"line one`` then ``line two"``), and the second line has fewer
    commas than a row of ``columns`` fields (the rest of a row, not two
    damaged rows one after the other).  Not when the second line starts
    a valid row of several lines (a row cut off before it); None when that
    is for later lines to tell (not ``final``)."""
    second = first + 1
    if (quotes[first] + quotes[second]) % 2 == 0 or sizes[first] + sizes[second] > max_bytes:
        return False
    if not lines.contents[first] or not lines.contents[second]:
        return False
    if lines.contents[second].count(b",") >= columns - 1:
        return False  # as many fields as a row: a row of its own
    if joins(second, second + 1):
        return False
    if joins(first, second) and not (quotes[second] % 2 and _TAIL.match(lines.contents[second])):
        return False
    if quotes[second] % 2:
        closed = _closing_line(quotes, sizes, second, max_bytes)
        if closed is None and not final:
            return None
        if closed is not None and closed > 0 and joins(second, closed):
            return False
    return True


def _closing_line(
    quotes: Sequence[int], sizes: Sequence[int], first: int, max_bytes: int
) -> int | None:
    """The index after the line that balances the quotes opened on line
    ``first``; 0 when that would take more than ``max_bytes``; ``None``
    when the lines run out first."""
    open_quotes, size = 1, sizes[first]
    for line in range(first + 1, len(quotes)):
        size += sizes[line]
        if size > max_bytes:
            return 0
        open_quotes ^= quotes[line] % 2
        if not open_quotes:
            return line + 1
    return None


_QUOTING = {
    "lines": re.compile(rb'\\.|"|\r'),  # JSON: a backslash escapes the next byte
    "csv": re.compile(rb'"|\r'),  # CSV: a quote inside a field is doubled
}


def _lone_returns(content: bytes, fmt: Format) -> list[int]:
    """The offsets of the ``\\r`` in ``content`` (a line without its
    ``\\n``) that end a line: those outside double-quoted strings.  A
    ``\\r`` inside a string was typed there; the repair escapes it."""
    cuts: list[int] = []
    inside = False
    for found in _QUOTING.get(fmt, _QUOTING["lines"]).finditer(content):
        token = found.group()
        if token == b'"':
            inside = not inside
        elif token == b"\r" and not inside:
            cuts.append(found.start())
    return cuts


@dataclass(frozen=True)
class Lines:
    """The physical lines of a run of bytes: contents without line endings."""

    contents: list[bytes]
    endings: list[bytes]

    @staticmethod
    def of(data: bytes, fmt: Format = "lines") -> Lines:
        """Split at every line ending: ``\\n``, ``\\r\\n`` or a lone ``\\r``
        (old Mac files, and records written with one) outside a
        double-quoted string (a ``\\r`` typed inside a string is part of
        it; see :func:`_lone_returns`).  Nothing after a final line break is
        a line."""
        pieces = data.split(b"\n")
        if not pieces[-1]:
            pieces.pop()
            last = len(pieces)
        else:
            last = len(pieces) - 1
        if b"\r" not in data:  # every line ends in \n (the last maybe in nothing)
            return Lines(pieces, [b"\n"] * last + [b""] * (len(pieces) - last))
        contents: list[bytes] = []
        endings: list[bytes] = []
        for index, piece in enumerate(pieces):
            newline = b"\n" if index < last else b""
            ending = b"\r" + newline if piece.endswith(b"\r") else newline
            if ending != newline:
                piece = piece[:-1]
            start = 0
            for cut in _lone_returns(piece, fmt) if b"\r" in piece else ():
                contents.append(piece[start:cut])
                endings.append(b"\r")
                start = cut + 1
            contents.append(piece[start:])
            endings.append(ending)
        return Lines(contents, endings)

    @property
    def breaks(self) -> int:
        """How many of the lines end in a line ending."""
        return len(self.endings) - self.endings.count(b"")

    def ends(self) -> list[int]:
        """The offset after each line's ending, in order."""
        sizes = map(operator.add, map(len, self.contents), map(len, self.endings))
        return list(itertools.accumulate(sizes))

    def size(self, count: int) -> int:
        """Bytes of the first ``count`` lines, with their endings."""
        return sum(map(len, self.contents[:count])) + sum(map(len, self.endings[:count]))

    def joined(self, first: int, stop: int) -> bytes:
        """The content of lines ``first..stop-1`` with the endings between them."""
        if stop == first + 1:
            return self.contents[first]
        parts: list[bytes] = []
        for index in range(first, stop - 1):
            parts += (self.contents[index], self.endings[index])
        parts.append(self.contents[stop - 1])
        return b"".join(parts)


def record_stops(
    lines: Lines,
    fmt: Format,
    *,
    final: bool,
    max_bytes: int,
    joins: Callable[[bytes], bool] | None,
    columns: int | None = None,
) -> tuple[list[int], int]:
    """Records of ``lines`` as the index after each one's last line, and how
    many lines they cover (see :func:`group_rows`).  ``columns``: the
    header's number of fields, for the rows after it (two lines may then be
    one broken row, :func:`_broken_pair`)."""
    count = len(lines.contents)
    if fmt == "lines" or joins is None:
        return list(range(1, count + 1)), count
    contents, endings = lines.contents, lines.endings
    quotes = [content.count(b'"') for content in contents]
    sizes = [len(content) + len(ending) for content, ending in zip(contents, endings, strict=True)]

    def joined(first: int, stop: int) -> bool:
        return joins(lines.joined(first, stop))

    def pair(first: int, final: bool) -> bool | None:
        assert columns is not None
        return _broken_pair(
            lines, quotes, sizes, first, max_bytes, joined, columns=columns, final=final
        )

    return group_rows(
        quotes,
        sizes,
        final=final,
        max_bytes=max_bytes,
        joins=joined,
        broken_pair=pair if columns is not None else None,
    )


def _feeds_only(data: bytes) -> bool:
    """Does every line of ``data`` end in a line feed (``\\n`` or
    ``\\r\\n``), with no lone carriage return, which may end a line too?"""
    return b"\r" not in data or data.count(b"\r") == data.count(b"\r\n")


@dataclass
class Oversized:
    """A physical line too long to hold: its pieces, to be copied through.
    Consume ``pieces`` before asking the partitioner for the next item."""

    index: int
    line: int
    pieces: Iterator[bytes]


class Partitioner:
    """Cuts a binary stream into partitions that end at record boundaries.

    ``joins`` is the CSV row test of :func:`group_rows` (on a candidate
    record's bytes) and ``columns`` the header's number of fields (see
    :func:`record_stops`); lines mode needs neither.  ``bom`` tells whether the
    stream started with a UTF-8 byte-order mark (set aside, not in any
    partition).  ``bytes_read`` counts what was read so far."""

    def __init__(
        self,
        stream: ByteStream,
        fmt: Format,
        *,
        partition_bytes: int,
        max_record_bytes: int,
        joins: Callable[[bytes], bool] | None = None,
        columns: int | None = None,
        read_bytes: int = 1 << 20,
    ) -> None:
        self.stream = stream
        self.fmt = fmt
        self.partition_bytes = partition_bytes
        self.max_record_bytes = max_record_bytes
        self.joins = joins
        self.columns = columns
        self.read_bytes = read_bytes
        self.bytes_read = 0
        self.line = 1
        self._index = 0
        self._buffer = b""
        self._eof = False
        self._fill(4)
        self.bom = self._buffer.startswith(_UTF8_BOM)
        if self.bom:
            self._buffer = self._buffer[len(_UTF8_BOM) :]
        for mark, name in _OTHER_BOMS:
            if self._buffer.startswith(mark):
                raise StreamError(f"the input is {name} text; record mode reads UTF-8")

    def _fill(self, size: int) -> None:
        while len(self._buffer) < size and not self._eof:
            chunk = self.stream.read(max(self.read_bytes, size - len(self._buffer)))
            if not chunk:
                self._eof = True
            else:
                self.bytes_read += len(chunk)
                self._buffer += chunk

    def take_header(self, is_header: Callable[[bytes], bool]) -> tuple[bytes, bytes | None, int]:
        """CSV: the bytes up to and including the header (the first record
        that is not an empty line), the header's content (``None`` for a
        stream without one) and its line.  ``is_header`` is the join test."""
        while True:
            self._fill(len(self._buffer) + self.read_bytes)
            lines = Lines.of(self._buffer, "csv")
            if not self._eof and lines.endings and lines.endings[-1] in (b"", b"\r"):
                lines = Lines(lines.contents[:-1], lines.endings[:-1])  # not whole yet
            contents = lines.contents
            blank = next((i for i, content in enumerate(contents) if content), len(contents))
            rest = Lines(contents[blank:], lines.endings[blank:])
            stops, _ = record_stops(
                rest, "csv", final=self._eof, max_bytes=self.max_record_bytes, joins=is_header
            )
            if stops or self._eof:
                count = blank + (stops[0] if stops else 0)
                header = rest.joined(0, stops[0]) if stops else None
                line = self.line + blank
                return self._consume(lines.size(count)), header, line
            if len(self._buffer) > self.max_record_bytes + self.read_bytes:
                raise StreamError(
                    f"no CSV header within the first {self.max_record_bytes} bytes "
                    "(see --max-record-bytes)"
                )

    def _consume(self, size: int) -> bytes:
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        self.line += taken.count(b"\n") if _feeds_only(taken) else Lines.of(taken, self.fmt).breaks
        return taken

    def _line_ends(self) -> list[int]:
        """The offset after each whole line of the buffer (one that ends in
        a line ending, or the last one at the end of the stream)."""
        lines = Lines.of(self._buffer, self.fmt)
        ends = lines.ends()
        if ends and not self._eof and lines.endings[-1] in (b"", b"\r"):
            ends.pop()  # the rest of this line (or the \n of its \r\n) is still to be read
        return ends

    def _cut(self) -> tuple[int, tuple[int, ...] | None]:
        """Bytes at the start of the buffer that hold whole records, about a
        partition's worth (0: not one record yet), and where those records
        end (see :meth:`_records_in`)."""
        if self.fmt == "lines" and _feeds_only(self._buffer):
            return self._newline_cut(self.partition_bytes), None
        return self._listed_cut()

    def _listed_cut(self) -> tuple[int, tuple[int, ...] | None]:
        """:meth:`_cut` from the list of where each line of the buffer ends."""
        limit = self.partition_bytes
        ends = self._line_ends()
        whole = ends[-1] if ends else 0
        while True:
            end = whole
            if whole > limit:  # the last line end within the limit, else the first after it
                below = bisect.bisect_right(ends, limit)
                end = ends[below - 1] if below else ends[0]
            cut, stops = self._records_in(end)
            if cut or end >= whole:
                return cut, stops
            limit *= 2  # the first record is longer than the window

    def _newline_cut(self, limit: int) -> int:
        """:meth:`_cut` for records that are lines ending in a line feed
        (no lone carriage return in the buffer, :func:`_feeds_only`): the
        same cut, found by searching for the line feeds around ``limit``
        instead of listing where every line ends (a partition's worth of
        lines, each a record, at each cut)."""
        buffer = self._buffer
        whole = len(buffer) if self._eof else buffer.rfind(b"\n") + 1
        if whole <= limit:
            return whole
        below = buffer.rfind(b"\n", 0, limit) + 1  # the last line end within the limit
        if below:
            return below
        after = buffer.find(b"\n", limit) + 1  # else the first after it
        return after or whole

    def _records_in(self, end: int) -> tuple[int, tuple[int, ...] | None]:
        """Bytes of ``buffer[:end]`` (whole lines) that hold whole records,
        and the index after each one's last line (CSV; None for lines,
        where each line is a record)."""
        if self.fmt == "lines" or end == 0:
            return end, None
        lines = Lines.of(self._buffer[:end], self.fmt)
        final = self._eof and end == len(self._buffer)
        stops, grouped = record_stops(
            lines,
            self.fmt,
            final=final,
            max_bytes=self.max_record_bytes,
            joins=self.joins,
            columns=self.columns,
        )
        cut = end if grouped == len(lines.contents) else lines.size(grouped)
        return cut, tuple(stops)

    def __iter__(self) -> Iterator[Partition | Oversized]:
        while True:
            self._fill(self.partition_bytes)
            if not self._buffer:
                return
            cut, stops = self._cut()
            if cut:
                first_line = self.line
                data = self._consume(cut)
                final = self._eof and not self._buffer
                yield Partition(self._index, data, first_line, final, stops)
                self._index += 1
            elif not self._line_ends() and len(self._buffer) > self.max_record_bytes:
                item = Oversized(self._index, self.line, self._rest_of_line())
                self._index += 1
                yield item
                for _ in item.pieces:  # what the consumer left
                    pass
            else:
                self._fill(len(self._buffer) + self.read_bytes)

    def _rest_of_line(self) -> Iterator[bytes]:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                yield self._consume(newline + 1)
                return
            if self._buffer:
                yield self._consume(len(self._buffer))
            if self._eof:
                return
            self._fill(self.read_bytes)
