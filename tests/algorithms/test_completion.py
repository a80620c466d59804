"""Completion as a repair: append what a valid prefix lacks; complete the
part before an error."""

from __future__ import annotations

from inputmend.algorithms.completion import CompletionOptions, complete_text
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, apply_edits
from inputmend.oracles.factory import build_oracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.wrappers import AllOf
from tests.conftest import CountingOracle


def _options(oracle: IncrementalGrammarOracle) -> CompletionOptions:
    return CompletionOptions(oracle.completion, oracle.last_token_start)


def test_an_incomplete_text_is_completed_by_appending() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '{"a": [{"b": 1'
    result = complete_text(text, oracle, options=_options(oracle))
    (repair,) = result.repairs
    assert repair.text == text + "}]}" and repair.algorithm == "completion"
    assert repair.edits == (Edit(len(text), 0, "}]}"),) and repair.distance == 3
    assert result.stats.tests == 2  # the verdict on the text, then the check of the repair


def test_a_text_cut_off_in_a_line_comment_is_completed_on_the_next_line() -> None:
    oracle = IncrementalGrammarOracle("jsonc")
    text = '{\n  "a": [1, 2],\n  // settings checked in from a Wi'
    (repair,) = complete_text(text, oracle, options=_options(oracle)).repairs
    assert repair.text == text + "\n}"  # not `Wi}`, inside the comment


def test_a_construct_is_closed_in_front_of_the_refused_token_and_the_rest_kept() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '{"a": {"b": [1, 2}, "c": 3}'
    repairs = complete_text(text, oracle, options=_options(oracle)).repairs
    closed = [r for r in repairs if r.text == '{"a": {"b": [1, 2]}, "c": 3}']
    assert [r.edits for r in closed] == [(Edit(text.index("}"), 0, "]"),)]  # the rest kept


def test_an_incorrect_text_keeps_the_part_before_the_error() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '[{"a": 1}, {"b": 2 @@#garbage'
    repairs = complete_text(text, oracle, options=_options(oracle)).repairs
    assert [r.text for r in repairs] == ['[{"a": 1}, {"b": 2 }]', '[{"a": 1}, {"b": null}]']
    for repair in repairs:
        assert apply_edits(text, repair.edits) == repair.text
    # the edits are minimal: the closers replace the start of the dropped tail
    assert repairs[0].edits == (Edit(19, len(text) - 19, "}]"),)


def test_every_completion_is_checked_by_the_whole_oracle() -> None:
    grammar = IncrementalGrammarOracle("json")
    picky = AllOf([grammar, CountingOracle(lambda text: "]" not in text)])
    assert complete_text("[1, 2", picky, options=_options(grammar)).repairs == ()


def test_nothing_to_do_and_no_budget() -> None:
    oracle = IncrementalGrammarOracle("json")
    assert complete_text("[1]", oracle, options=_options(oracle)).repairs == ()
    stopped = complete_text("[1", oracle, options=_options(oracle), budget=Budget(max_tests=1))
    assert stopped.repairs == () and stopped.stats.budget_exhausted


def test_a_text_cut_off_after_a_delimiter_is_also_closed_without_it() -> None:
    oracle = IncrementalGrammarOracle("json")
    repairs = complete_text('{"k": [7, 8,', oracle, options=_options(oracle)).repairs
    assert [r.text for r in repairs] == ['{"k": [7, 8,null]}', '{"k": [7, 8]}']
    # a cut-off word or string is finished, never dropped
    (finished,) = complete_text('{"k": tr', oracle, options=_options(oracle)).repairs
    assert finished.text == '{"k": true}'


def test_a_text_cut_off_after_an_opener_is_closed_not_shortened() -> None:
    oracle = IncrementalGrammarOracle("tinyc")
    (closed,) = complete_text("{{", oracle, options=_options(oracle)).repairs
    assert closed.text == "{{}}"


def test_a_text_cut_off_after_a_closer_keeps_it_as_written() -> None:
    # the start tag's `>` is not re-read as `/>`: that rewrites what was cut off
    oracle = IncrementalGrammarOracle("xml")
    (closed,) = complete_text('<a xmlns="urn:x">', oracle, options=_options(oracle)).repairs
    assert closed.text == '<a xmlns="urn:x"></a>'


def test_a_text_that_breaks_at_its_final_newline_keeps_it() -> None:
    oracle = IncrementalGrammarOracle("toml")
    text = 'deps = { python = "^3.11"\n'  # an inline table may not span lines
    (first, *_) = complete_text(text, oracle, options=_options(oracle)).repairs
    assert first.text == 'deps = { python = "^3.11"}\n'


def test_a_record_cut_short_gets_the_empty_fields_it_lacks() -> None:
    # the grammar completes the quoted field; the loader counts the fields
    oracle = build_oracle(OracleSpec(grammar="csv"))
    grammar = IncrementalGrammarOracle("csv")
    header = ",".join(f"c{i}" for i in range(40))
    text = header + '\n1,"tw'
    try:
        plain = complete_text(text, oracle, options=_options(grammar))
        options = CompletionOptions(grammar.completion, grammar.last_token_start, fields=",")
        result = complete_text(text, oracle, options=options)
        (whole,) = complete_text(header + "\n1", oracle, options=options).repairs
    finally:
        oracle.close()
    assert plain.repairs == ()  # `1,"tw"` is a record of 2 fields, not 40
    (repair,) = result.repairs
    assert repair.text == text + '"' + "," * 38
    assert repair.edits == (Edit(len(text), 0, '"' + "," * 38),)
    # doubling to 64, then halving: not one oracle run per field
    assert result.stats.tests <= 16
    assert whole.text == header + "\n1" + "," * 39


def test_a_field_cut_off_with_a_separator_inside_gets_no_empty_fields() -> None:
    # `"Dee,x` may have lost its closing quote after `Dee`: the hints' reading
    oracle = build_oracle(OracleSpec(grammar="csv"))
    grammar = IncrementalGrammarOracle("csv")
    options = CompletionOptions(grammar.completion, grammar.last_token_start, fields=",")
    try:
        found = complete_text('id,name,note\n4,"Dee,x', oracle, options=options).repairs
    finally:
        oracle.close()
    assert found == ()


def test_a_field_with_a_separator_cut_off_early_in_its_record_gets_empty_fields() -> None:
    # the record lacks more fields than `"Dee, x` holds commas: no quote put
    # back before its comma makes it whole, it was cut off; and a record
    # whose string is closed (`"Dee, x"`) was cut off after it
    oracle = build_oracle(OracleSpec(grammar="csv"))
    grammar = IncrementalGrammarOracle("csv")
    options = CompletionOptions(grammar.completion, grammar.last_token_start, fields=",")
    header = "id,name,note,city,date\n"
    try:
        (open_field,) = complete_text(header + '4,"Dee, x', oracle, options=options).repairs
        (closed,) = complete_text(header + '4,"Dee,x"', oracle, options=options).repairs
        (one_short,) = complete_text(header + '4,2,3,"Dee,x"', oracle, options=options).repairs
    finally:
        oracle.close()
    assert open_field.text == header + '4,"Dee, x",,,'
    assert closed.text == header + '4,"Dee,x",,,'
    assert one_short.text == header + '4,2,3,"Dee,x",'


def test_a_rest_that_may_not_be_dropped_is_only_kept_after_a_closed_construct() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '{"a": {"b": [1, 2}, "c": 3}'
    asked: list[int] = []

    def droppable(whole: str, cut: int, suffix: str) -> bool:
        assert whole == text and suffix.strip()  # what completes the prefix
        asked.append(cut)
        return False

    options = CompletionOptions(oracle.completion, oracle.last_token_start, droppable=droppable)
    repairs = complete_text(text, oracle, options=options).repairs
    # each cut asked; none dropped: the construct closed in place, the rest kept
    assert asked == [text.index("}"), text.index("2")]
    assert [r.text for r in repairs] == ['{"a": {"b": [1, 2]}, "c": 3}']


def test_an_incomplete_text_is_completed_whatever_may_be_dropped() -> None:
    oracle = IncrementalGrammarOracle("json")
    options = CompletionOptions(
        oracle.completion, oracle.last_token_start, droppable=lambda text, cut, suffix: False
    )
    (repair,) = complete_text('{"a": [1', oracle, options=options).repairs
    assert repair.text == '{"a": [1]}'
