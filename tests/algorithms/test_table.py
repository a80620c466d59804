"""What the records of a table say about each of its columns."""

from __future__ import annotations

from inputmend.algorithms.table import Column, empty_column, misfits, profile


def _table(text: str) -> list[list[str]]:
    return [line.split(",") for line in text.splitlines()]


CARS = _table(
    "Mazda RX4,21.0,6,4\nDatsun 710,22.8,4,4\nHornet Sportabout,18.7,8,3\n"
    "Valiant,18.1,6,3\nDuster 360,14.3,8,3\nMerc 240D,24.4,4,4\n"
)


def test_a_column_of_a_few_values_repeated_takes_those_only() -> None:
    gear = profile(CARS, 4)[3]
    assert gear.values == frozenset({"3", "4"})
    assert gear.fits("4") and not gear.fits("5")
    assert profile(CARS, 4)[1].values is None  # mpg: nearly every value its own


def test_a_whole_number_fits_a_column_of_decimals() -> None:
    weight = profile(_table("2.62\n2.875\n3.215\n3.44\n11.5\n"), 1)[0]
    assert (weight.shape, weight.digits) == ("decimal", None)
    assert weight.fits("3") and not weight.fits("heavy")
    assert not profile(CARS, 4)[1].fits("21")  # mpg writes each 99.9


def test_text_with_digits_or_blanks_is_not_of_a_column_of_words() -> None:
    rows = _table("Doe,12 Elm St.\nRoe,3 Oak Rd.\nPoe,80 Pine Av.\nLee,7 Ash Way\n")
    surname, street = profile(rows, 2)
    assert surname.characters == frozenset() and not surname.fits("220 hobo Av.")
    assert street.fits("220 hobo Av.") and not street.fits("Smith")


def test_codes_of_one_length_take_no_longer_value() -> None:
    rows = _table("9E,Endeavor\nAA,American\nAS,Alaska\nB6,JetBlue\nDL,Delta\n")
    code = profile(rows, 2)[0]
    assert code.length == 2
    assert code.fits("UA") and code.lacks("N/A") == 1


def test_an_empty_field_belongs_in_a_column_that_has_them() -> None:
    rows = _table("1,a,\n2,b,x\n3,c,\n4,d,y\n")
    _, name, note = profile(rows, 3)
    assert note.empty and note.fits("")
    assert name.empty is False and not name.fits("")
    # a table without empty fields says nothing of where one belongs
    assert profile(CARS, 4)[0].empty is None and profile(CARS, 4)[0].fits("")


def test_a_few_values_say_nothing() -> None:
    rows = _table("Bob,3\nAnn,4\n")
    name, count = profile(rows, 2)
    assert (name.length, name.values, name.characters) == (None, None, None)
    assert count.shape == "integer" and not count.fits("x")  # shapes from two values on
    assert not Column().informed and count.informed


def test_a_value_lacking_more_of_its_column_counts_more() -> None:
    rows = _table("10,EU\n11,DE\n12,CH\n13,AT\n14,\n15,HU\n")
    code, country = profile(rows, 2)
    assert code.lacks("AT") == 2  # no number, not two digits
    assert code.lacks("") == 1  # the codes are never empty
    assert misfits((code, country), ["", "AT"]) < misfits((code, country), ["AT", ""])


def test_a_value_over_lines_counts_the_records_it_swallowed() -> None:
    columns = profile(CARS, 4)
    one = misfits(columns, ["Valiant", "18.1", "6", "3"])
    swallowed = misfits(columns, ["Valiant", "18.1", "6", "3\nDuster 360,14.3,8,3"])
    assert one == 0 and swallowed >= len(columns)


def test_a_column_empty_in_every_record_is_the_table_s_own() -> None:
    assert empty_column(_table("a,b,\nc,d,\n"), 3)
    assert not empty_column(_table("a,b,\nc,d,e\n"), 3)
    assert not empty_column(_table("a,b,\n"), 3)  # one record says nothing


def test_a_value_out_of_its_column_s_order_between_its_neighbours_is_a_misfit() -> None:
    rows = _table("1,1,0\n1,2,1\n2,1,0\n2,2,0\n3,1,1\n3,2,0\n3,3,1\n")
    columns = profile(rows, 3)
    assert [column.order for column in columns] == [1, 0, 0]
    above, below = ["3", "1", "1"], ["3", "3", "0"]
    assert misfits(columns, ["", "2", "0"], (above, below)) == 0  # the id lost
    assert misfits(columns, ["2", "", "0"], (above, below)) == 1  # 2 after a 3
    assert misfits(columns, ["2", "", "0"]) == 0  # no neighbours: no order to keep
    assert profile(_table("b\na\nc\nd\ne\nf\n"), 1)[0].order == 0  # falls once
    assert profile(_table("f\ne\nd\nc\nb\na\n"), 1)[0].order == -1
