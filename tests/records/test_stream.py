"""The library: ``repair_stream`` over lines, JSON Lines and CSV."""

from __future__ import annotations

import pytest

from inputmend.core.budget import Budget
from inputmend.oracles.python import CallableOracle
from inputmend.records import RecordResult, Rejection, Status, repair_stream
from tests.clock import work_clock


def statuses(results: list[RecordResult]) -> list[str]:
    return [result.status.value for result in results]


def test_one_result_per_item_in_order() -> None:
    lines = ['{"a": 1}\n', '{"a": [1, 2\n', "\n", '{"b": tru}\r\n', '{"c": NaN}']
    results = list(repair_stream(lines))
    assert statuses(results) == ["valid", "repaired", "blank", "repaired", "repaired"]
    assert [r.line for r in results] == [1, 2, 3, 4, 5]
    assert [r.output for r in results] == [
        '{"a": 1}',
        '{"a": [1, 2]}',
        "",
        '{"b": true}',
        '{"c": null}',
    ]
    assert [r.ending for r in results] == ["\n", "\n", "\n", "\r\n", ""]


def test_items_without_line_endings_such_as_a_column_of_values() -> None:
    column = (f'{{"id": {n}}}' for n in range(1000))
    assert all(r.status is Status.VALID for r in repair_stream(column))


def test_a_record_with_a_line_break_stays_one_record() -> None:
    (result,) = repair_stream(['{"a":\n 1}'])
    assert result.status is Status.REPAIRED
    assert "\n" not in (result.output or "")


def test_check_only() -> None:
    results = list(repair_stream(["[1]", "[1,]"], repair=False))
    assert statuses(results) == ["valid", "invalid"]
    assert results[1].output == "[1,]" and results[1].error is not None


def test_another_oracle_and_budget() -> None:
    def even_length(text: str) -> None:
        if len(text) % 2:
            raise ValueError("odd")

    results = list(
        repair_stream(["ab", "abc"], CallableOracle(even_length), budget=Budget(max_tests=1))
    )
    assert statuses(results) == ["valid", "rejected"]
    assert results[1].rejection is Rejection.NO_REPAIR
    assert results[1].reason.startswith("no repair found (") and "budget" in results[1].reason


def test_each_record_gets_its_own_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each oracle run costs 10 ms of a clock that moves by work: each record's
    search stops after about 20 runs (0.2 s), the second as the first."""
    clock = work_clock(monkeypatch)
    runs = {"a": 0, "k": 0}

    def never(text: str) -> None:
        clock.advance(0.01)
        runs["a" if "a" in text else "k"] += 1
        raise ValueError("never valid")

    records = ["abcdefghij" * 20, "klmnopqrstu" * 20]
    results = list(repair_stream(records, CallableOracle(never), budget=Budget(timeout_s=0.2)))
    assert all(10 <= count <= 25 for count in runs.values()), runs
    for result in results:
        assert result.status is Status.REJECTED and result.rejection is Rejection.NO_REPAIR
        assert "time cap reached" in result.reason and result.capped
        assert result.output == result.text


def test_csv_header_rows_and_multi_line_fields() -> None:
    lines = [
        "\n",
        "id,name,note\n",
        "1,Ann,ok\n",
        '2,Bob,"two\n',
        'lines"\n',
        "3,Cy\n",
        "4,Dee,x,y\n",
    ]
    results = list(repair_stream(lines, records="csv"))
    assert statuses(results) == ["blank", "header", "valid", "valid", "repaired", "repaired"]
    assert [r.line for r in results] == [1, 2, 3, 4, 6, 7]
    assert results[3].text == '2,Bob,"two\nlines"'
    assert results[4].output == "3,Cy,"
    # one field too many: two neighbours quoted as one, nothing merged or lost
    assert results[5].output in ('"4,Dee",x,y', '4,"Dee,x",y', '4,Dee,"x,y"')


def test_a_csv_header_that_is_not_a_row_is_an_error() -> None:
    with pytest.raises(ValueError, match="line 1: the CSV header is not a valid row"):
        list(repair_stream(['id,"name\n', "1,2\n"], records="csv"))


def test_non_strings_are_refused() -> None:
    with pytest.raises(TypeError, match="records must be strings, not float"):
        list(repair_stream(['{"a": 1}', float("nan")]))  # type: ignore[list-item]
    with pytest.raises(ValueError, match="records must be 'lines' or 'csv'"):
        list(repair_stream([], records="xml"))  # type: ignore[arg-type]
