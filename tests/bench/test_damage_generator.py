"""The everyday-damage generator: seed documents, operators and cases."""

from __future__ import annotations

import random

import pytest
from bench.damage import operators as op
from bench.damage.corpus import generate, valid_seeds
from bench.damage.formats import FORMATS, OPERATORS
from bench.damage.lexing import is_valid, lex
from bench.damage.seeds import generated_csv, generated_dot, generated_json

PAIRS = [(fmt, name) for fmt, spec in FORMATS.items() for name in spec.operators]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_operator_is_applicable_or_says_why_not(fmt: str) -> None:
    spec = FORMATS[fmt]
    assert set(spec.operators) | set(spec.not_applicable) == set(OPERATORS)
    assert not set(spec.operators) & set(spec.not_applicable)
    assert all(reason for reason in spec.not_applicable.values())


@pytest.mark.parametrize(
    ("fmt", "documents"),
    [("json", generated_json), ("csv", generated_csv), ("dot", generated_dot)],
)
def test_generated_seed_documents_are_valid_and_fixed(fmt: str, documents) -> None:  # type: ignore[no-untyped-def]
    seeds = documents()
    assert len(seeds) >= 30
    assert all(is_valid(fmt, seed.text) for seed in seeds)
    assert seeds == documents()


@pytest.mark.parametrize(("fmt", "operator"), PAIRS)
def test_each_operator_yields_invalid_text(fmt: str, operator: str) -> None:
    seeds, _ = valid_seeds(FORMATS[fmt])
    if not seeds:
        pytest.skip("no seed documents (the study's corpus is not beside the repository)")
    generated = generate(FORMATS[fmt], operator, seeds, count=5, seed=0, tries=40)
    assert len(generated.cases) == 5
    originals = {seed.text for seed in seeds}
    for case in generated.cases:
        assert case.original in originals
        assert case.damaged != case.original
        assert not is_valid(fmt, case.damaged)
        assert (case.format, case.operator) == (fmt, operator)


def test_cases_are_seeded_and_a_prefix_of_a_larger_run() -> None:
    spec = FORMATS["json"]
    seeds, _ = valid_seeds(spec)
    first = generate(spec, "lost-quote", seeds, count=8, seed=3, tries=40)
    again = generate(spec, "lost-quote", seeds, count=8, seed=3, tries=40)
    larger = generate(spec, "lost-quote", seeds, count=12, seed=3, tries=40)
    other = generate(spec, "lost-quote", seeds, count=8, seed=4, tries=40)
    assert first == again
    assert larger.cases[:8] == first.cases
    assert other.cases != first.cases


def _all(operator: op.Operator, text: str) -> set[str | None]:
    return {operator(text, random.Random(i)) for i in range(60)}


def test_lost_and_doubled_delimiters() -> None:
    lost = _all(op.lost_delimiter("json", ",:"), '{"a": 1, "b": 2}')
    assert lost == {'{"a" 1, "b": 2}', '{"a": 1 "b": 2}', '{"a": 1, "b" 2}'}
    doubled = _all(op.doubled_delimiter("ini", "="), "[s]\nkey = 1\n")
    assert doubled == {"[s]\nkey == 1\n"}
    assert _all(op.lost_delimiter("json", ","), "[1]") == {None}


def test_trailing_separator_goes_after_the_last_element() -> None:
    trailing = _all(op.trailing_separator("json", ",", "]}", "[{"), '{"a": [1, 2], "b": []}')
    assert trailing == {'{"a": [1, 2,], "b": []}', '{"a": [1, 2], "b": [],}'}


def test_lost_quote_and_single_quotes() -> None:
    assert _all(op.lost_quote("json", {"STRING"}), '["ab"]') == {'[ab"]', '["ab]'}
    quoted = _all(op.single_quotes("json", {"STRING"}), '{"a": "it\'s", "b": "x"}')
    assert quoted == {
        '{\'a\': "it\'s", "b": "x"}',
        '{"a": "it\'s", \'b\': "x"}',
        '{"a": "it\'s", "b": \'x\'}',
    }


def test_foreign_comment_stays_out_of_tokens() -> None:
    text = '{\n  "a": "line\\nbreak",\n  "b": 2\n}\n'
    for damaged in _all(op.foreign_comment("json", ("//", "#")), text):
        assert damaged is not None
        lines = [line for line in damaged.split("\n") if not line.strip().startswith(("//", "#"))]
        assert "\n".join(line.split(" //")[0].split(" #")[0] for line in lines) == text


def test_foreign_literal_keeps_the_value() -> None:
    swaps = {"NULL": lambda text, rng: "None", "NUMBER": lambda text, rng: "+" + text}
    assert _all(op.foreign_literal("json", swaps), "[null, 5]") == {"[None, 5]", "[null, +5]"}


def test_wrapper_and_truncation() -> None:
    assert op.fenced("json")("[1]\n") == "```json\n[1]\n```\n"
    assert op.around("var x = ", ";")("[1]\n") == "var x = [1];"
    cuts = _all(op.truncation, "[1, 2]")
    assert cuts == {"[", "[1", "[1,", "[1, ", "[1, 2"}
    assert op.truncation("x", random.Random(0)) is None


def test_yaml_tokens_are_pyyamls_named_as_the_grammars_terminals() -> None:
    text = "a: [1, 'x']\n- b\n"
    lexed = lex("yaml", text)
    assert not lexed.complete and lexed.stop == text.index("-")
    kinds = [(token.kind, token.text) for token in lexed.tokens]
    assert kinds == [
        ("PLAIN", "a"),
        ("COLON", ":"),
        ("LSQB", "["),
        ("PLAIN", "1"),
        ("COMMA", ","),
        ("SQ", "'x'"),
        ("RSQB", "]"),
    ]
    assert lex("yaml", "a: [1, 'x']\n").complete


def test_the_reference_parser_has_the_last_word_where_lark_is_not_the_whole_verdict() -> None:
    assert not is_valid("xml", "<a></b>")
    assert not is_valid("toml", "a = 1\na = 2\n")
    assert is_valid("xml", "<a></a>") and is_valid("toml", "a = 1\n")
