"""The forms of field values and the forms each column of a table has shown."""

from __future__ import annotations

from inputmend.algorithms.fieldforms import FEW, SPAN, ColumnForms, ColumnShapes, forms, number


def test_a_number_s_forms_are_its_kind_sign_and_digits_before_and_after_the_point() -> None:
    assert forms("-0.05993") == ("decimal", "signed", "1 before", "5 after")
    assert forms(" 4268326 ") == ("integer", "unsigned", "7 before", "0 after")
    assert forms("50.") == ("decimal", "unsigned", "2 before", "0 after")
    assert forms('"1e5"') == ("integer", "unsigned", "1 before", "0 after")


def test_text_is_written_with_one_letter_and_one_digit_a_run() -> None:
    assert forms("N/A") == ("text", "a/a")
    assert forms("9E") == ("text", "9a")
    assert forms("Envoy Air Inc.") == ("text", "a a a.")
    assert forms("2019-10-03 13:06:52") == ("other", "9-9-9 9:9:9")
    assert forms("  ") == ()


def _table() -> list[list[str]]:
    codes = ["AA", "B6", "DL", "EV", "UA"]
    return [[code, f"{index}.25", "x"] for index, code in enumerate(codes)]


def test_a_value_with_a_form_its_column_never_had_is_strange() -> None:
    columns = ColumnForms.of(_table(), 3)
    assert columns.strange(0, "N/A")  # two letters, or a letter and a digit, until now
    assert not columns.strange(0, "VX")
    assert columns.strange(1, "4.125")  # three places after the point, not two
    assert columns.strange(1, "-4.25")  # no value was signed
    assert not columns.strange(1, "7.25")
    assert not columns.strange(1, "")  # an empty field fits any column


def test_a_column_of_few_values_and_records_of_another_width_say_nothing() -> None:
    rows = _table()[: FEW - 1]
    assert not ColumnForms.of(rows, 3).strange(0, "N/A")
    assert not ColumnForms.of(_table(), 4).strange(0, "N/A")  # no record of four fields
    assert not ColumnForms.of(_table(), 3).strange(3, "N/A")  # no such column


def test_a_number_far_outside_its_column_s_span_is_strange() -> None:
    rows = [[f"0.{40 + 6 * n}", f"1.{30 + 2 * n}"] for n in range(SPAN)]  # 0.40-0.82, 1.30-1.44
    columns = ColumnForms.of(rows, 2)
    assert columns.strange(0, "1.38")  # a second column's value
    assert columns.strange(1, "0.72")
    assert not columns.strange(0, "0.86")  # beyond the end, by less than the margin
    assert not ColumnForms.of(rows[: SPAN - 1], 2).strange(0, "1.38")  # too few numbers


def test_a_number_is_read_where_the_field_holds_one_and_is_finite() -> None:
    assert number(' "-4.5e2" ') == -450.0
    assert number("1e999") is None
    assert number("N/A") is None
    assert number("") is None


def _series() -> list[list[str]]:
    """A small table of times, a column of small numbers, one of larger."""
    solar = ["0", "0", "3", "2", "0", "1", "3"]
    load = ["4", "4", "5", "6", "4", "5", "6"]
    pairs = enumerate(zip(solar, load, strict=True))
    return [[f"2020-01-0{i + 1} 00:00", s, n] for i, (s, n) in pairs]


def test_a_number_costs_more_the_further_out_among_its_column_s_numbers() -> None:
    columns = ColumnForms.of(_series(), 3)
    assert columns.cost(2, "5") < columns.cost(2, "4") < columns.cost(2, "2")
    assert columns.cost(1, "2") < columns.cost(2, "2")  # 2 is among the small ones
    assert columns.cost(0, "3") > columns.cost(0, "2020-01-09 00:00")  # a number among times
    assert columns.cost(1, "") > 0  # no record left the column empty


def test_a_record_s_misfit_sums_its_values_costs_under_their_columns() -> None:
    columns = ColumnForms.of(_series(), 3)
    lost_load = ["2020-01-09 00:00", "2", ""]  # 2 stays under solar
    lost_solar = ["2020-01-09 00:00", "", "2"]  # 2 read as a load
    assert columns.misfit(lost_load) < columns.misfit(lost_solar)
    assert columns.misfit(lost_load) == sum(
        columns.cost(column, value) for column, value in enumerate(lost_load)
    )
    assert columns.misfit(["2020-01-09 00:00", "2"]) == 0  # another width: no columns to read


def test_a_table_of_few_records_says_nothing_of_its_values_costs() -> None:
    columns = ColumnForms.of(_series()[: FEW - 1], 3)
    assert columns.cost(2, "2") == columns.cost(1, "") == 0
    assert ColumnForms((), ()).cost(0, "x") == 0


def test_a_column_written_after_a_blank_in_two_records_is_led() -> None:
    rows = [["7", " .01138"], ["9", " .02299"], ["13", ".064"]]
    assert ColumnShapes.of(rows, 2).led == frozenset({1})
    assert ColumnShapes.of(rows[1:], 2).led == frozenset()  # one blank is no way of writing


def test_a_column_empty_in_two_records_has_gaps() -> None:
    rows = [["7", "", "a"], ["9", "", "b"], ["13", "1", ""]]
    assert ColumnShapes.of(rows, 3).gaps == frozenset({1})
