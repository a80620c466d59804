"""A quote inside a string that lost its backslash, escaped again."""

from __future__ import annotations

from inputmend.repairs.generators.escapes import ESCAPES, QUOTES, proposals, unescaped_quotes
from tests.repairs.generators.run import proposed, texts


def test_a_quote_that_lost_its_backslash_gets_it_back() -> None:
    text = '{"test": "echo "Error: no test\\" && exit 1", "n": 1}'
    found = texts(proposed(ESCAPES, text, "json"))
    assert found == ['{"test": "echo \\"Error: no test\\" && exit 1", "n": 1}']


def test_also_before_a_colon_where_it_reads_as_a_key_s_end() -> None:
    text = '{\n  // a pattern\n  "p": "\\"pre[^\\"]+":/gm"\n}\n'
    found = texts(proposed(ESCAPES, text, "jsonc"))
    assert found == ['{\n  // a pattern\n  "p": "\\"pre[^\\"]+\\":/gm"\n}\n']


def test_not_on_a_line_that_escapes_no_quote_where_it_would_join_two_strings() -> None:
    # the quote after `a` was lost; a backslash before the next would make
    # one string `a, "b` of two
    text = '{"args": ["a, "b", "c"], "n": 1}'
    found = proposed(ESCAPES, text, "json")
    assert found.repairs == () and found.cost.tests == 0


def test_escaped_quotes_and_escaped_backslashes_are_read_as_pairs() -> None:
    assert unescaped_quotes('"a\\"b\\\\"', 0, 8, '"') == [0, 7]


def test_the_quotes_nearest_the_error_are_tried_first_and_bounded() -> None:
    text = '["\\"", "' + '", "'.join("x" * 40) + '"]'
    error = len(text) // 2
    offsets = [edits[0].offset for edits in proposals(text, error, ('"',))]
    assert len(offsets) == QUOTES
    assert [abs(offset - error) for offset in offsets] == sorted(
        abs(offset - error) for offset in offsets
    )


def test_a_grammar_whose_strings_no_backslash_escapes_gets_nothing() -> None:
    found = proposed(ESCAPES, 'a,b\n1,"x"y",3\n', "csv")
    assert found.repairs == () and found.cost.tests == 0


def test_not_before_a_quote_that_begins_a_string_after_a_separator() -> None:
    # `"all` lost its closing quote; the quote after `, ` begins the next
    # string: escaping it would make one string of two
    text = '{"e": "a \\"b\\"", "tags": ["all , "Meta tag"]}'
    found = texts(proposed(ESCAPES, text, "json"))
    assert '{"e": "a \\"b\\"", "tags": ["all , \\"Meta tag"]}' not in found
