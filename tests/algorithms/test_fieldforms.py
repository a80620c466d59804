"""The forms of field values and the forms each column of a table has shown."""

from __future__ import annotations

from inputmend.algorithms.fieldforms import FEW, SPAN, ColumnForms, forms, number


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
