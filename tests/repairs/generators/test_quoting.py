"""Quoting a value that needs quotes, by the grammar's string quotes."""

from __future__ import annotations

from weakref import WeakKeyDictionary

import pytest

from inputmend import services
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators import quoting
from inputmend.repairs.generators.quoting import (
    LINE,
    QUOTING,
    SPANS,
    failing_lines,
    value_spans,
)
from tests.repairs.generators.run import context, proposed, texts


def test_a_yaml_value_that_starts_like_an_alias_is_quoted_whole() -> None:
    found = texts(proposed(QUOTING, "name: demo\nkey: *draft\nother: 1\n", "yaml"))
    assert 'name: demo\nkey: "*draft"\nother: 1\n' in found
    assert "name: demo\nkey: '*draft'\nother: 1\n" in found


def test_it_is_not_wanted_after_a_repair_that_keeps_everything() -> None:
    lost = 'id,name,"last, first",city\n2,Ada Lovelace,Lovelace, Ada",Lima\n'
    found = context(lost, "csv")
    at = lost.index("Lovelace, ")
    quoted = lost[:at] + '"' + lost[at:]  # the field's lost opening quote put back
    kept = Repair(quoted, (Edit(at, 0, '"'),), "test", True, 1)
    assert not QUOTING.wanted(found, (kept,))
    # a repair that loses a character (the comma) leaves room for quoting
    comma = lost.index(", Ada")
    joined = Repair(lost[:comma] + lost[comma + 1 :], (Edit(comma, 1, ""),), "test", True, 1)
    assert QUOTING.wanted(found, (joined,))
    assert QUOTING.wanted(found, ())


def test_a_value_holding_a_colon_is_quoted_to_the_end_of_its_line() -> None:
    found = texts(proposed(QUOTING, "name: demo\nkey: value: draft\nother: 1\n", "yaml"))
    assert found[0] == 'name: demo\nkey: "value: draft"\nother: 1\n'


def test_a_toml_version_is_quoted_in_either_quote() -> None:
    found = texts(proposed(QUOTING, 'name = "demo"\nversion = 1.0.0\n', "toml"))
    assert set(found) == {
        'name = "demo"\nversion = "1.0.0"\n',
        "name = \"demo\"\nversion = '1.0.0'\n",
    }


def test_a_quote_inside_the_value_is_escaped_as_the_grammar_escapes_it() -> None:
    found = texts(proposed(QUOTING, "key = *it's\n", "toml"))
    assert found == ['key = "*it\'s"\n']  # a literal string cannot hold an apostrophe
    found = texts(proposed(QUOTING, 'key: *say\\ "hi\n', "yaml"))
    assert 'key: "*say\\\\ \\"hi"\n' in found
    found = texts(proposed(QUOTING, "a: 1\nkey: *it's\n", "yaml"))
    assert "a: 1\nkey: '*it''s'\n" in found


def test_a_value_ends_before_a_comment_or_at_the_end_of_its_line() -> None:
    found = texts(proposed(QUOTING, "a = 1\nkey = *x #1\n", "toml"))
    assert 'a = 1\nkey = "*x" #1\n' in found
    assert 'a = 1\nkey = "*x #1"\n' in found


def test_a_value_that_holds_strings_did_not_lose_its_quotes() -> None:
    assert texts(proposed(QUOTING, '{"a": ISODate("2024")}', "json")) == []


def test_structure_is_never_quoted_into_a_string() -> None:
    assert texts(proposed(QUOTING, "{name: demo}", "json")) == []
    spans = value_spans(context('{"a": ObjectId("5f1d"), "b": 1}', "json"), 6)
    assert all("{" not in '{"a": ObjectId("5f1d"), "b": 1}'[a:b] for a, b in spans)


def test_a_grammar_without_string_quotes_gets_nothing() -> None:
    found = proposed(QUOTING, "[a]\nkey = value\nwords\n", "ini")
    assert found.repairs == () and found.cost.tests == 0


def test_the_line_before_the_error_is_read_too() -> None:
    text = "a: 1\n\nb: 2\n"
    assert failing_lines(text, text.index("b")) == [(6, 10), (0, 4)]


def test_the_oracle_runs_are_bounded() -> None:
    line = "key: " + ": ".join(f"v{i}" for i in range(40)) + " *x\n"
    # each span in two quotes, and one run to tell junk around a value
    assert proposed(QUOTING, line, "yaml").cost.tests <= 3 * SPANS


def test_junk_around_a_value_is_not_quoted_in() -> None:
    found = proposed(QUOTING, '{"item": "Apple", "price": **3.45}', "json")
    assert found.repairs == () and found.cost.tests == 1  # the value without its junk


def test_a_string_that_lost_a_quote_is_not_quoted_again() -> None:
    assert texts(proposed(QUOTING, '{"a": demo", "b": 1}', "json")) == []


def test_a_value_may_start_a_word_the_lexer_reads_with_a_dash() -> None:
    text = "tags:\n  - &v*  # on tags like v1\nother: 1\n"
    found = texts(proposed(QUOTING, text, "yaml"))
    assert 'tags:\n  - "&v*"  # on tags like v1\nother: 1\n' in found
    assert 'tags:\n  "- &v*"  # on tags like v1\nother: 1\n' not in found  # `-` is structure


def test_a_value_ends_at_a_closer_a_comment_hid() -> None:
    text = "a: 1\nbranches: [* #1]\n"
    assert 'a: 1\nbranches: ["* #1"]\n' in texts(proposed(QUOTING, text, "yaml"))


def test_a_line_of_a_document_written_on_one_line_is_not_read() -> None:
    text = "key: " + "a" * LINE + " *x\n"
    assert proposed(QUOTING, text, "yaml").cost.tests == 0


def test_plain_words_need_no_quotes() -> None:
    assert texts(proposed(QUOTING, '{"id": 3, "ok": tru}', "json")) == []
    assert texts(proposed(QUOTING, "a = 1\nkey = value and more\n", "toml")) == []


def test_a_value_in_brackets_ends_at_the_first_separator_or_closer() -> None:
    assert texts(proposed(QUOTING, "[1, 2, **3, 4]\n", "json")) == []


def test_a_value_ends_at_the_first_punctuation_that_stands_apart() -> None:
    # the `.` inside `triagebot.toml` is the value's, the `,` before the line
    # break ends it
    damaged = 'paths = [\n    */triagebot.toml,\n    "x",\n]\n'
    found = texts(proposed(QUOTING, damaged, "toml"))
    assert damaged.replace("*/triagebot.toml", '"*/triagebot.toml"') in found


def test_an_indicator_of_the_grammar_is_not_junk_around_a_value() -> None:
    # YAML's `*` and `&` begin aliases and anchors: a value that starts with
    # one and is no alias or anchor needs quotes, though deleting it leaves
    # a value
    found = texts(proposed(QUOTING, "a: 1\nkey: *$CI_REF:$RUST\n", "yaml"))
    assert 'a: 1\nkey: "*$CI_REF:$RUST"\n' in found
    assert 'a: 1\ndirectory: "&/"\n' in texts(proposed(QUOTING, "a: 1\ndirectory: &/\n", "yaml"))
    assert 'a: 1\nresource: "*"\n' in texts(proposed(QUOTING, "a: 1\nresource: *\n", "yaml"))
    # TOML reads no `&`: before a number it is junk
    assert texts(proposed(QUOTING, 'a = "b"\nversion = &0.1\n', "toml")) == []


def test_a_value_in_a_flow_sequence_ends_at_a_comma_the_lexer_read_into_it() -> None:
    text = "a: 1\nv: ['3.10', *3.11, '3.12']\n"
    assert "a: 1\nv: ['3.10', \"*3.11\", '3.12']\n" in texts(proposed(QUOTING, text, "yaml"))


def test_a_value_in_brackets_is_one_item_up_to_its_closer() -> None:
    # never two items quoted as one; an item that holds ': ' up to the closer
    found = texts(proposed(QUOTING, "a: 1\nv: [*3.11, stable]\n", "yaml"))
    assert 'a: 1\nv: ["*3.11", stable]\n' in found
    assert 'a: 1\nv: ["*3.11, stable"]\n' not in found
    found = texts(proposed(QUOTING, "a: 1\nv: [x, *: all]\n", "yaml"))
    assert 'a: 1\nv: [x, "*: all"]\n' in found
    # a closer in a comment is text: a key and its value are not one item
    found = texts(proposed(QUOTING, "a: 1\nv: {k: a, note: for sale #1}\n", "yaml"))
    assert 'a: 1\nv: {k: a, "note: for sale #1"}\n' not in found


def test_brackets_inside_a_longer_text_are_text() -> None:
    text = "a: 1\nname: *{{ company }}.widget.{{ project }}\n"
    found = texts(proposed(QUOTING, text, "yaml"))
    assert 'a: 1\nname: "*{{ company }}.widget.{{ project }}"\n' in found


def test_a_grammar_with_more_openers_than_closers_is_read_by_its_bracket_pattern() -> None:
    # Lisp opens with `(` and `#(` and closes both with `)`
    text = "Here is the fixed code\n\n```lisp\n(list #(1 2) 'a)\n```\n"
    result = services.repair(text, IncrementalGrammarOracle("sexp"), budget=Budget(max_tests=500))
    assert result.repairs[0].text == "(list #(1 2) 'a)\n"


def test_a_collection_with_junk_after_it_is_not_made_a_string() -> None:
    oracle = IncrementalGrammarOracle("json")
    result = services.repair("[1]@@@@@@@@", oracle, budget=Budget(max_tests=500))
    assert all(not repair.text.startswith('"') for repair in result.repairs)


def test_a_key_ends_at_a_colon_the_lexer_read_into_a_comment() -> None:
    # `#1:` reads as a comment: the key `200 #1` ends at the colon, which the
    # grammar writes as a pattern, not a literal
    text = "responses:\n  200 #1:\n    description: OK\n"
    found = texts(proposed(QUOTING, text, "yaml"))
    assert 'responses:\n  "200 #1":\n    description: OK\n' in found


def test_an_item_of_a_list_one_a_line_ends_before_the_separator_that_ends_its_line() -> None:
    damaged = 'status = [\n  "ci (a, b)",\n  ci (c, d) #1,\n  "ci (e, f)",\n]\n'
    found = texts(proposed(QUOTING, damaged, "toml"))
    assert damaged.replace("ci (c, d) #1", '"ci (c, d) #1"') in found


def test_the_separators_are_read_once_for_each_lexer(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    punctuation = quoting._punctuation

    def counted(found: RepairContext) -> str:
        read.append(found.text)
        return punctuation(found)

    monkeypatch.setattr(quoting, "_punctuation", counted)
    monkeypatch.setattr(quoting, "_SEPARATORS", WeakKeyDictionary())
    first, second = context("key: *draft\n", "yaml"), context("a: 1\nb: *x y\n", "yaml")
    assert first.guidance.lexer is second.guidance.lexer  # one grammar, one lexer
    spans = value_spans(first, first.text.index("*"))
    assert value_spans(second, second.text.index("*")) and read == [first.text]
    assert value_spans(first, first.text.index("*")) == spans


def test_only_the_nearest_spans_are_tested_as_values(monkeypatch: pytest.MonkeyPatch) -> None:
    tested: list[str] = []
    value_like = quoting._value_like

    def counted(found: RepairContext, body: str) -> bool:
        tested.append(body)
        return value_like(found, body)

    monkeypatch.setattr(quoting, "_value_like", counted)
    line = "key: " + " ".join(f"*v{i}" for i in range(200)) + "\n"
    spans = value_spans(context(line, "yaml"), len(line) - 1)
    assert len(spans) == SPANS
    assert len(tested) < 2 * SPANS  # of about three spans for each of the 200 words
