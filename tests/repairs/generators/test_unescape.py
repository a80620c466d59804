"""A document escaped as a string, read back."""

from __future__ import annotations

from inputmend.repairs.generators.unescape import UNESCAPE, unescaped
from tests.repairs.generators.run import proposed, texts


def test_an_escaped_document_is_read_back() -> None:
    text = '{\\n  \\"name\\": \\"caf\\u00e9\\",\\n  \\"path\\": \\"a\\\\\\\\b\\"\\n}'
    assert texts(proposed(UNESCAPE, text, "json")) == [
        '{\n  "name": "café",\n  "path": "a\\\\b"\n}'
    ]


def test_the_quotes_around_it_go_too() -> None:
    found = texts(proposed(UNESCAPE, '"{\\"a\\": [1, 2]}"\n', "json"))
    assert found == ['{"a": [1, 2]}\n']


def test_surrogate_pairs_are_one_character() -> None:
    assert unescaped("\\ud83d\\ude00") == "\U0001f600"


def test_an_unknown_escape_is_not_read() -> None:
    assert unescaped('\\"a\\q') is None


def test_a_text_without_escaped_quotes_is_left_alone() -> None:
    found = proposed(UNESCAPE, '{"a": "b\\\\n" ', "json")
    assert found.repairs == () and found.cost.tests == 0
