"""Record boundaries and partitions: the same records however the stream is cut."""

from __future__ import annotations

import io
import random

import pytest

from inputmend.records.model import Partition
from inputmend.records.oracles import CsvFastCheck
from inputmend.records.split import (
    Lines,
    Oversized,
    Partitioner,
    StreamError,
    _feeds_only,
    group_rows,
    record_stops,
)


def test_lines_keep_their_endings_apart() -> None:
    lines = Lines.of(b'{"a":1}\r\n\n{"b":2}\n{"c"')
    assert lines.contents == [b'{"a":1}', b"", b'{"b":2}', b'{"c"']
    assert lines.endings == [b"\r\n", b"\n", b"\n", b""]
    assert Lines.of(b"x\n").contents == [b"x"]
    assert Lines.of(b"").contents == []
    assert Lines.of(b"x\r").endings == [b"\r"]
    assert Lines.of(b'1,"a\r\nb"\n').joined(0, 2) == b'1,"a\r\nb"'


def test_a_lone_carriage_return_ends_a_line_outside_strings_only() -> None:
    lines = Lines.of(b'{"a": 1}\r{"b": "x\ry"}\r\n{"c": "\\"\r"}\r')
    assert lines.contents == [b'{"a": 1}', b'{"b": "x\ry"}', b'{"c": "\\"\r"}']
    assert lines.endings == [b"\r", b"\r\n", b"\r"]
    # CSV doubles a quote inside a field: no backslash escapes
    rows = Lines.of(b'1,"a\\"\r2,"b""\rc"\r', "csv")
    assert rows.contents == [b'1,"a\\"', b'2,"b""\rc"']


def test_line_numbers_count_lone_carriage_returns() -> None:
    data = b"".join(b'{"n": %d}\r' % number for number in range(1, 40))
    items = _partitions(data, "lines", size=64)
    assert all(isinstance(item, Partition) for item in items)
    found = [r for item in items for r in _records(item, "lines")]  # type: ignore[arg-type]
    assert found == [(number, b'{"n": %d}' % number) for number in range(1, 40)]


def _rows(text: bytes, *, final: bool = True, valid: bool = True, max_bytes: int = 1 << 20):
    lines = Lines.of(text)
    return record_stops(lines, "csv", final=final, max_bytes=max_bytes, joins=lambda data: valid)


def test_a_quoted_field_with_line_breaks_is_one_record() -> None:
    assert _rows(b'1,"a\nb\nc",2\n3,x,y\n') == ([3, 4], 4)


def test_a_lost_quote_damages_one_row_not_the_rows_after_it() -> None:
    # the quotes of line 0 balance only at line 2, and those lines are no row
    assert _rows(b'1,"a,2\n3,b,4\n5,"c,6\n', valid=False) == ([1, 2, 3], 3)
    # never balanced: the line alone
    assert _rows(b'1,"a,2\n3,b,4\n') == ([1, 2], 2)


def test_an_unbalanced_line_waits_for_more_lines_unless_final() -> None:
    assert _rows(b'1,x\n2,"a\n3,b\n', final=False) == ([1], 1)
    assert _rows(b'1,x\n2,"a\n3,b\n', final=True) == ([1, 2, 3], 3)


def test_a_record_never_grows_past_the_size_limit() -> None:
    text = b'1,"a\n' + b"x" * 50 + b'\n",2\n'
    assert _rows(text, max_bytes=1000) == ([3], 3)
    # too long to join: each line alone (the last one waits for lines that may close it)
    assert _rows(text, max_bytes=20, final=False) == ([1, 2], 2)
    assert _rows(text, max_bytes=20) == ([1, 2, 3], 3)


def test_group_rows_asks_the_join_test_only_for_unbalanced_lines() -> None:
    asked: list[tuple[int, int]] = []

    def joins(first: int, stop: int) -> bool:
        asked.append((first, stop))
        return True

    stops, done = group_rows(
        [0, 1, 0, 1, 2], [4, 4, 4, 4, 4], final=True, max_bytes=100, joins=joins
    )
    assert (stops, done) == ([1, 4, 5], 5)
    assert asked == [(1, 4)]


def _partitions(data: bytes, fmt: str, size: int, max_record: int = 1 << 20) -> list[object]:
    partitioner = Partitioner(
        io.BytesIO(data),
        fmt,  # type: ignore[arg-type]
        partition_bytes=size,
        max_record_bytes=max_record,
        joins=(lambda record: True) if fmt == "csv" else None,
        read_bytes=7,
    )
    items: list[object] = []
    for item in partitioner:
        if isinstance(item, Oversized):
            items.append((item.line, b"".join(item.pieces)))
        else:
            items.append(item)
    return items


def _records(partition: Partition, fmt: str) -> list[tuple[int, bytes]]:
    lines = Lines.of(partition.data, fmt)  # type: ignore[arg-type]
    stops, _ = record_stops(
        lines,
        fmt,
        final=True,
        max_bytes=1 << 20,
        joins=(lambda record: True),  # type: ignore[arg-type]
    )
    first, found = 0, []
    for stop in stops:
        found.append((partition.first_line + first, lines.joined(first, stop)))
        first = stop
    return found


def _random_csv(rng: random.Random) -> bytes:
    rows = []
    for number in range(rng.randint(0, 40)):
        note = rng.choice(["plain", '"two\nlines"', '"three\r\nlines\nhere"', '"q ""x"""', ""])
        rows.append(f"{number},{note}" + rng.choice(["\n", "\r\n", "\r"]))
    return "".join(rows).encode() + (b"tail,x" if rng.random() < 0.5 else b"")


@pytest.mark.parametrize("fmt", ["lines", "csv"])
def test_partitions_cover_the_stream_and_split_it_as_a_whole(fmt: str) -> None:
    rng = random.Random(7)
    for _ in range(60):
        data = _random_csv(rng)
        whole = _records(Partition(0, data, 1, True), fmt)
        for size in (1, 5, 17, 64, 1 << 20):
            parts = _partitions(data, fmt, size)
            assert all(isinstance(p, Partition) for p in parts)
            assert b"".join(p.data for p in parts) == data  # type: ignore[attr-defined]
            assert [p.index for p in parts] == list(range(len(parts)))  # type: ignore[attr-defined]
            pieces = [r for p in parts for r in _records(p, fmt)]  # type: ignore[arg-type]
            assert pieces == whole, (data, size)
            # the partitioner hands its grouping on: the worker's, made again
            for part in parts:
                assert isinstance(part, Partition)
                if fmt == "csv":
                    lines = Lines.of(part.data, fmt)
                    again, _ = record_stops(
                        lines, fmt, final=True, max_bytes=1 << 20, joins=lambda record: True
                    )
                    assert part.stops == tuple(again), (data, size)
                else:
                    assert part.stops is None


def test_lines_ending_in_line_feeds_are_cut_where_the_listed_line_ends_cut_them() -> None:
    """The cut found by searching for line feeds is the one made from the
    list of every line's end, wherever the buffer and the window end."""
    rng = random.Random(11)
    for _ in range(300):
        lines = [b"x" * rng.choice([0, 1, 3, 9, 40]) for _ in range(rng.randint(0, 12))]
        ending = rng.choice([b"\n", b"\r\n"])
        data = ending.join(lines) + (ending if rng.random() < 0.5 else b"")
        buffer = data[: rng.randint(0, len(data))] if rng.random() < 0.5 else data
        if not _feeds_only(buffer):  # cut inside a \r\n: the listed cut's alone
            continue
        for eof in (False, True):
            for limit in (1, 4, 10, 33, 1 << 20):
                partitioner = Partitioner(
                    io.BytesIO(b""), "lines", partition_bytes=limit, max_record_bytes=1 << 20
                )
                partitioner._buffer, partitioner._eof = buffer, eof
                listed, _ = partitioner._listed_cut()
                assert partitioner._newline_cut(limit) == listed, (buffer, eof, limit)


def test_a_line_too_long_to_hold_is_handed_out_in_pieces() -> None:
    data = b"short\n" + b"x" * 100 + b"\nafter\n"
    items = _partitions(data, "lines", size=8, max_record=30)
    assert isinstance(items[0], Partition) and items[0].data == b"short\n"
    assert items[1] == (2, b"x" * 100 + b"\n")
    assert isinstance(items[2], Partition) and items[2].data == b"after\n"
    assert items[2].first_line == 3 and items[2].index == 2


def test_a_utf8_byte_order_mark_is_set_aside_and_utf16_refused() -> None:
    partitioner = Partitioner(
        io.BytesIO(b"\xef\xbb\xbf[1]\n"), "lines", partition_bytes=64, max_record_bytes=64
    )
    assert partitioner.bom
    assert [p.data for p in partitioner] == [b"[1]\n"]  # type: ignore[union-attr]
    with pytest.raises(StreamError, match="UTF-16"):
        Partitioner(io.BytesIO(b"\xff\xfe[\x00"), "lines", partition_bytes=64, max_record_bytes=64)


def test_the_csv_header_is_the_first_record_after_empty_lines() -> None:
    partitioner = Partitioner(
        io.BytesIO(b'\n\n"id","a\nb"\r\n1,2\n'), "csv", partition_bytes=64, max_record_bytes=64
    )
    head, header, line = partitioner.take_header(lambda record: True)
    assert head == b'\n\n"id","a\nb"\r\n'
    assert header == b'"id","a\nb"'
    assert line == 3
    parts = list(partitioner)
    assert parts[0].data == b"1,2\n" and parts[0].first_line == 5  # type: ignore[union-attr]


def test_a_stream_without_header_has_none() -> None:
    partitioner = Partitioner(io.BytesIO(b"\n\n"), "csv", partition_bytes=64, max_record_bytes=64)
    assert partitioner.take_header(lambda record: True) == (b"\n\n", None, 3)
    assert list(partitioner) == []


def _header_rows(text: bytes, *, final: bool = True) -> tuple[list[int], int]:
    """Rows under a header of three fields, judged by the pre-check."""
    row = CsvFastCheck(3)
    lines = Lines.of(text)
    return record_stops(
        lines,
        "csv",
        final=final,
        max_bytes=1 << 20,
        joins=lambda data: row(data.decode()),
        columns=3,
    )


def test_a_field_with_a_line_break_that_lost_a_quote_keeps_its_lines_together() -> None:
    # the closing quote lost: `"x` then `y`, neither a row alone
    assert _header_rows(b'1,a,"x\ny\n2,b,c\n') == ([2, 3], 3)
    # the opening quote lost after a field that lost its closing one
    assert _header_rows(b'1,"a,"x\ny"\n2,b,c\n') == ([2, 3], 3)
    # a first line that is a row alone, then the end of a quoted field
    # (its opening quote lost on the line before): one row too
    assert _header_rows(b'1,a,x\ny"\n2,b,c\n') == ([2, 3], 3)
    # but not a line that opens a quoted field after a row
    assert _header_rows(b'1,a,x\n"y\n2,b,c\n') == ([1, 2, 3], 3)


def test_two_damaged_rows_are_not_read_as_one() -> None:
    # the second line has the commas of a row: a row of its own
    assert _header_rows(b'1,a,"x\n2,3,4,5\n2,b,c\n') == ([1, 2, 3], 3)
    # a row cut off before a valid row of two lines
    assert _header_rows(b'1,a\n2,b,"x\ny"\n3,c,d\n') == ([1, 3, 4], 4)
    # without a header (or for the header itself), lines are never paired
    lines = Lines.of(b'1,a,"x\ny\n')
    assert record_stops(lines, "csv", final=True, max_bytes=99, joins=lambda d: False) == (
        [1, 2],
        2,
    )


def test_a_row_s_last_line_waits_for_the_next_unless_final() -> None:
    assert _header_rows(b"1,a,b\n2,a\n", final=False) == ([1], 1)
    assert _header_rows(b"1,a,b\n2,a\n", final=True) == ([1, 2], 2)
    assert _header_rows(b"1,a,b\n2,a,c\n", final=False) == ([1], 1)
    # the next line starts a row of several lines that later lines may close
    assert _header_rows(b'1,a\nb,"x\n', final=False) == ([], 0)
    assert _header_rows(b'1,a\nb,"x\n', final=True) == ([2], 2)


def _broken_csv(rng: random.Random) -> bytes:
    """Rows of three fields, some with a field over two lines, some of
    them damaged: a quote lost, a row cut short, a row with a field too many."""
    rows = []
    for number in range(rng.randint(0, 30)):
        row = rng.choice([f"{number},a,b", f'{number},"x, y",b', f'{number},a,"one\ntwo"'])
        damage = rng.random()
        if damage < 0.15:
            at = [i for i, c in enumerate(row) if c == '"']
            if at:
                cut = rng.choice(at)
                row = row[:cut] + row[cut + 1 :]
        elif damage < 0.25:
            row = row[: rng.randrange(1, len(row))]
        elif damage < 0.3:
            row += ",z"
        rows.append(row + rng.choice(["\n", "\r\n"]))
    return "".join(rows).encode()


def test_broken_rows_are_grouped_the_same_however_the_stream_is_cut() -> None:
    row = CsvFastCheck(3)

    def joins(data: bytes) -> bool:
        return row(data.decode())

    rng = random.Random(11)
    for _ in range(80):
        data = _broken_csv(rng)
        whole, _ = record_stops(
            Lines.of(data, "csv"), "csv", final=True, max_bytes=1 << 20, joins=joins, columns=3
        )
        for size in (1, 7, 23, 1 << 20):
            partitioner = Partitioner(
                io.BytesIO(data),
                "csv",
                partition_bytes=size,
                max_record_bytes=1 << 20,
                joins=joins,
                columns=3,
                read_bytes=5,
            )
            stops: list[int] = []
            for part in partitioner:
                assert isinstance(part, Partition)
                found, _ = record_stops(
                    Lines.of(part.data, "csv"),
                    "csv",
                    final=True,
                    max_bytes=1 << 20,
                    joins=joins,
                    columns=3,
                )
                offset = part.first_line - 1
                stops += [offset + stop for stop in found]
            assert stops == whole, (data, size)
