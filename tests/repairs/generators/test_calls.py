"""Calls of other tools' conventions replaced by their argument."""

from __future__ import annotations

from inputmend.repairs.generators.calls import UNWRAP_CALLS, calls, closing
from tests.repairs.generators.run import proposed, texts


def test_mongo_shell_calls_are_replaced_by_their_argument() -> None:
    found = texts(proposed(UNWRAP_CALLS, '{"a": ObjectId("5f1d"), "b": NumberLong(12)}', "json"))
    assert found == ['{"a": "5f1d", "b": 12}']


def test_a_jsonp_callback_goes_with_its_semicolon() -> None:
    found = texts(proposed(UNWRAP_CALLS, 'callback({"a": [1, 2]});\n', "json"))
    assert found == ['{"a": [1, 2]}\n']


def test_a_call_of_several_arguments_is_not_one_value() -> None:
    assert calls("f(1, 2) g([1, 2]) h('a,b')", "'") == [(8, 17, "[1, 2]"), (18, 26, "'a,b'")]


def test_the_argument_ends_at_its_own_parenthesis() -> None:
    assert closing('f("a,)" + (b))c', 2, '"') == (13, False)
    assert closing("f(a", 2, '"') is None


def test_parentheses_inside_strings_are_text() -> None:
    found = texts(proposed(UNWRAP_CALLS, '{"a": Wrap("x)")}', "json"))
    assert found == ['{"a": "x)"}']


def test_reading_stops_at_a_call_that_never_closes() -> None:
    assert calls("f(a) g(b h(c)", "") == [(0, 4, "a")]
