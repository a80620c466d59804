"""Judging and repairing the records of a partition."""

from __future__ import annotations

import dataclasses
import json
import random

from inputmend.core.loss import LossLimit
from inputmend.records.model import Counts, Partition, Rejection, Status
from inputmend.records.oracles import LineAccept, record_oracle
from inputmend.records.process import RecordProcessor, RecordSettings

VALID = b'{"id": 1, "tags": ["a", "b"], "ok": true}\n'


def processor(fmt: str = "lines", columns: int | None = None, **options: object) -> RecordProcessor:
    oracle, fast = record_oracle(fmt, None, columns=columns)  # type: ignore[arg-type]
    return RecordProcessor(fmt, oracle, fast, RecordSettings(**options))  # type: ignore[arg-type]


def run(data: bytes, **options: object) -> tuple[bytes, Counts, list[object]]:
    result = processor(**options).partition(Partition(0, data, 10, True))  # type: ignore[arg-type]
    return result.output, result.counts, list(result.results)


def test_valid_records_come_out_byte_for_byte_and_are_only_counted() -> None:
    data = VALID * 3 + b"  \t\r\n" + VALID.replace(b"\n", b"\r\n") + b'"\xc3\xa9"'
    output, counts, results = run(data)
    assert output is data
    assert counts == Counts(records=5, valid=5, blank=1)
    assert results == []


def test_a_damaged_record_is_repaired_in_place_with_its_line_ending() -> None:
    data = VALID + b'{"id": 2, "tags": ["a" "b"]}\r\n' + VALID
    output, counts, results = run(data)
    assert output == VALID + b'{"id": 2, "tags": ["a", "b"]}\r\n' + VALID
    assert counts == Counts(records=3, valid=2, repaired=1)
    (result,) = results
    assert result.line == 11 and result.status is Status.REPAIRED  # type: ignore[attr-defined]
    assert result.ending == "\r\n" and result.lost == 0  # type: ignore[attr-defined]
    assert result.error.error_offset == 23  # type: ignore[attr-defined]


def test_a_repair_that_loses_too_much_is_rejected_and_the_record_kept() -> None:
    data = b'{"a": 1}\n[1]@@@@@@@@\n'
    output, counts, results = run(data)
    assert output == data
    assert counts.rejected == 1
    (result,) = results
    assert result.rejection is Rejection.LOSSY  # type: ignore[attr-defined]
    assert "of 11 characters (limit 10% or 64 characters)" in result.reason  # type: ignore[attr-defined]
    output, counts, _ = run(data, allow_loss=True)
    assert output != data and counts.repaired == 1
    output, counts, _ = run(data, loss=LossLimit(0.8, 64))
    assert counts.repaired == 1


def test_rejected_records_can_be_left_out() -> None:
    data = b"[1]@@@@@@@@\n" + VALID + b"[3]@@@@@@@@"
    output, counts, _ = run(data, drop_rejected=True)
    assert output == VALID
    assert counts == Counts(records=3, valid=1, rejected=2)


def test_a_record_over_the_size_limit_is_not_judged() -> None:
    big = json.dumps(list(range(100))).encode()
    output, counts, results = run(big + b"\n[1]\n", max_record_bytes=50)
    assert output == big + b"\n[1]\n"
    (result,) = results
    assert result.rejection is Rejection.TOO_LARGE  # type: ignore[attr-defined]
    assert counts == Counts(records=2, valid=1, rejected=1)


def test_undecodable_bytes_are_damage_even_inside_strings() -> None:
    data = b'{"name": "caf\xe9"}\n'
    output, counts, _ = run(data)
    assert counts.repaired == 1
    assert output == b'{"name": "caf\xc3\xa9"}\n'  # the byte is re-read as cp1252, nothing lost


def test_check_mode_reports_and_changes_nothing() -> None:
    data = VALID + b'{"id": 2,, "x": 1}\n'
    output, counts, results = run(data, repair=False)
    assert output is data
    assert counts == Counts(records=2, valid=1, invalid=1)
    (result,) = results
    assert result.status is Status.INVALID and result.error.error_offset == 9  # type: ignore[attr-defined]


def test_every_result_when_asked() -> None:
    result = processor().partition(Partition(0, b"[1]\n\n[2\n", 1, True), everything=True)
    assert [r.status for r in result.results] == [Status.VALID, Status.BLANK, Status.REPAIRED]
    assert [r.output for r in result.results] == ["[1]", "", "[2]"]


def test_csv_rows_are_judged_against_the_header_count() -> None:
    data = b'1,Ann,3\n2,"Bob\nSmith",4\n3,Cy\n4,"Dee,5\n5,Eve,6,7\n'
    result = processor("csv", columns=3).partition(Partition(0, data, 2, True))
    # one column too many: two fields are quoted into one (a value that held a
    # comma), every character kept; not merged (`67`) nor one of them dropped
    head = b'1,Ann,3\n2,"Bob\nSmith",4\n3,Cy,\n4,"Dee",5\n'
    rows = (b'"5,Eve",6,7\n', b'5,"Eve,6",7\n', b'5,Eve,"6,7"\n')
    assert result.output in [head + row for row in rows]
    assert result.counts == Counts(records=5, valid=2, repaired=3)
    assert [r.line for r in result.results] == [5, 6, 7]
    assert "more fields than the header's 3" in result.results[2].error.message  # type: ignore[union-attr]


def test_a_csv_value_that_lost_its_quotes_gets_them_back() -> None:
    data = b"Smith, John,Oslo\nLee,Rome\n"
    result = processor("csv", columns=2).partition(Partition(0, data, 2, True))
    assert result.output == b'"Smith, John",Oslo\nLee,Rome\n'


def test_a_partition_s_records_pre_checked_at_once_get_what_one_at_a_time_gets() -> None:
    # every kind of record the pre-check of a whole partition must hand on
    lines = [
        VALID.rstrip(b"\n"),
        b" [1] ",  # whitespace around the value: the decoder's, read in Python
        b"",
        b"  \t",
        b'{"a": NaN}',
        b'["\xff"]',  # undecodable: the whole partition goes one at a time
        b"[" + b"1," * 40 + b"1]",  # over the size limit below
        b'{"id": 2, "tags": ["a" "b"]}',
        b'"\xc3\xa9"',
    ]
    for fmt, rows in (("lines", lines), ("csv", [b"a,b", b'"x\n y",2', b"1", b"1,2,3", b"3,4"])):
        for count in range(1, len(rows) + 1):
            for ending in (b"\n", b"\r\n"):
                data = ending.join(rows[:count]) + ending
                options = {"max_record_bytes": 64} if fmt == "lines" else {}
                columns = 2 if fmt == "csv" else None
                judge = processor(fmt, columns, **options)
                at_once = judge.partition(Partition(0, data, 1, True))
                one_by_one = judge.partition(Partition(0, data, 1, True), everything=True)
                assert at_once.output == one_by_one.output, (fmt, count, ending)
                assert at_once.counts == one_by_one.counts, (fmt, count, ending)
                shown = [
                    r for r in one_by_one.results if r.status not in (Status.VALID, Status.BLANK)
                ]
                assert list(at_once.results) == shown, (fmt, count, ending)


def test_a_partition_read_by_the_check_over_lines_gets_what_the_decoded_records_get() -> None:
    """With the accept check's pass over a partition's bytes (the C
    extension's) and without it, the same output, counts and results, on
    random partitions of valid, damaged, blank, undecodable and long lines
    (ending in line feeds, or carriage returns and line feeds)."""
    oracle, fast = record_oracle("lines", None)
    assert isinstance(fast, LineAccept)
    without = LineAccept(dataclasses.replace(fast.check, lines=None))
    settings = RecordSettings(repair=False, max_record_bytes=200)
    both = (
        RecordProcessor("lines", oracle, fast, settings),
        RecordProcessor("lines", oracle, without, settings),
    )
    rng = random.Random(20261129)
    kinds = [
        lambda: json.dumps({"id": rng.randint(0, 99), "v": [1.5, None, "é"]}).encode(),
        lambda: json.dumps({"t": "x" * rng.randint(150, 250)}).encode(),  # about the limit
        lambda: b'{"id": 2, "tags": ["a" "b"]}',
        lambda: rng.choice([b"", b"  ", b" [1] ", b'"\xff"', b"[1]\r", b'{"a": NaN}']),
    ]
    for _ in range(150):
        lines = [rng.choice(kinds)() for _ in range(rng.randint(1, 8))]
        ending = rng.choice([b"\n", b"\r\n"])
        data = ending.join(lines) + rng.choice([b"", ending])
        partition = Partition(0, data, 5, True)
        fast_one, slow_one = (judge.partition(partition) for judge in both)
        assert fast_one == slow_one, data
    oracle.close()


def test_a_field_with_a_line_break_that_lost_its_closing_quote_is_repaired_whole() -> None:
    data = b'1,Ann,3\n2,"Bob\nSmith,4\n3,Cy,5\n'
    result = processor("csv", columns=3).partition(Partition(0, data, 2, True))
    assert result.output == b'1,Ann,3\n2,"Bob\nSmith",4\n3,Cy,5\n'
    assert result.counts == Counts(records=3, valid=2, repaired=1)
    assert [r.line for r in result.results] == [3]


def test_lines_read_as_one_broken_row_are_judged_alone_when_its_repair_fails() -> None:
    data = b'1,Ann,3\n2,"Bob\nSmith,4\n3,Cy,5\n'
    result = processor("csv", columns=3, max_tests=1).partition(Partition(0, data, 2, True))
    assert result.output == data
    assert result.counts == Counts(records=4, valid=2, rejected=2)
    assert [r.line for r in result.results] == [3, 4]
    assert all(r.rejection is Rejection.NO_REPAIR for r in result.results)
