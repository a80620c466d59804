"""A record with one field too few or too many, by the header's number of fields."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inputmend import services
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.core.model import apply_edits
from inputmend.oracles.factory import build_oracle
from inputmend.repairs.generators.columns import COLUMNS, proposals
from tests.repairs.generators.run import context, proposed, texts

CARS = "make,mpg,cyl,disp\nMazda RX4,21.0,6,160.0\nDatsun 710,22.8,4,108.0\nValiant,18.1,6,225.0\n"


def _placed(
    record: str, fields: int, misfits: Callable[[Sequence[str]], int] | None = None
) -> list[str]:
    separators = [i for i, c in enumerate(record) if c == ","]
    return [
        apply_edits(record, edits)
        for edits in proposals(record, 0, len(record), separators, ",", fields, misfits=misfits)
    ]


def _not_numbers(wanted: tuple[bool, ...]) -> Callable[[Sequence[str]], int]:
    """Misfits for columns that hold numbers where ``wanted`` is true."""

    def misfits(values: Sequence[str]) -> int:
        pairs = zip(wanted, values, strict=False)
        return sum(number and not value.strip().isdigit() for number, value in pairs)

    return misfits


def test_one_field_too_few_gets_an_empty_field_at_each_place() -> None:
    assert _placed("a,b", 3) == [",a,b", "a,,b", "a,b,"]


def test_one_field_too_many_loses_an_empty_one_only() -> None:
    assert _placed("a,,b", 2) == ["a,b"]
    assert _placed(",a,b", 2) == ["a,b"]
    assert _placed("a,b,", 2) == ["a,b"]
    assert _placed("a,x,b", 2) == []  # a value is the hints' to quote, not to drop
    assert _placed("a,b", 2) == []  # the right number: nothing to do


def test_a_value_too_many_is_dropped_where_the_columns_say() -> None:
    numbers = _not_numbers((True, False, True))
    # `x` or `C` leave every value in its column; `1` leaves `x` under a number
    assert _placed("1,x,C,5", 3, numbers) == ["1,C,5", "1,x,5"]
    assert _placed("1,C,5,x", 3, numbers) == ["1,C,5"]  # the last, with the separator before
    assert _placed("1,,C,5", 3, numbers) == ["1,C,5"]  # the empty one, no value
    # where the table leaves the column empty in other records, the empty field may be its own
    record = "1,,C,5,x"
    separators = [i for i, c in enumerate(record) if c == ","]
    columns = _not_numbers((True, False, False, True))
    both = proposals(
        record, 0, len(record), separators, ",", 4, misfits=columns, gaps=frozenset({1})
    )
    assert [apply_edits(record, edits) for edits in both] == ["1,C,5,x", "1,,C,5"]
    dropped = proposals(record, 0, len(record), separators, ",", 4, misfits=columns)
    assert [apply_edits(record, edits) for edits in dropped] == ["1,C,5,x"]  # no gap: the empty
    assert _placed("3,4,", 2, _not_numbers((True, True))) == ["3,4"]
    assert _placed("1,x,C", 3, numbers) == []  # one too few: no value dropped
    # ` John` is the rest of `Smith, John`, a value that lost its quotes
    assert _placed("7,Smith, John", 2, _not_numbers((True, False))) == []
    blanks = _placed("7, Smith, x, 5", 3, _not_numbers((True, False, True)))
    assert blanks == ["7, x, 5", "7, Smith, 5"]  # a table written with a blank after each one


def test_a_blank_where_the_table_writes_one_is_no_value_that_held_the_separator() -> None:
    record = "11,N/A, .06450"  # the table writes its second column after a blank
    separators = [i for i, c in enumerate(record) if c == ","]

    def words(values: Sequence[str]) -> int:  # a table of numbers
        return sum(any(c.isalpha() for c in value) for value in values)

    def placed(led: frozenset[int]) -> list[str]:
        found = proposals(record, 0, len(record), separators, ",", 2, misfits=words, led=led)
        return [apply_edits(record, edits) for edits in found]

    assert placed(frozenset({1})) == ["11, .06450"]
    assert placed(frozenset()) == []  # ` .06450` would be the rest of `N/A, .06450`


def test_the_loader_verifies_each_place() -> None:
    text = CARS + "Honda Civic,30.4,75.7\n"
    found = texts(proposed(COLUMNS, text, "csv"))
    assert CARS + "Honda Civic,30.4,,75.7\n" in found
    assert len(found) == 4
    assert texts(proposed(COLUMNS, CARS, "csv")) == []  # valid: nothing


def test_the_ranking_keeps_the_values_under_their_columns() -> None:
    text = CARS + "Honda Civic,30.4,75.7\n"
    oracle = build_oracle(OracleSpec(grammar="csv"))
    result = services.repair(text, oracle, budget=Budget(max_tests=2000))
    assert result.repairs[0].text == CARS + "Honda Civic,30.4,,75.7\n"


def test_only_for_a_format_with_fields() -> None:
    assert not COLUMNS.wanted(context("a: 1\nb\n", "yaml"), ())
