"""Syntactic ddmax over tokens (ddmax paper, Section 4) and the hybrid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inputmend.algorithms.configurations import difference
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.syntactic import TokenMaximized, hybrid_ddmax, syntactic_ddmax
from inputmend.core.budget import Budget
from inputmend.core.model import apply_edits
from inputmend.core.oracle import Oracle
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lexer import lex_tokens
from inputmend.grammar.recovery import recovery_units
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.python import CallableOracle

JSON_GRAMMAR = """\
// title: JSON (test)
?start: value
?value: object | array | string | SIGNED_NUMBER | "true" -> true | "false" -> false | "null" -> null
array  : "[" [value ("," value)*] "]"
object : "{" [pair ("," pair)*] "}"
pair   : string ":" value
string : ESCAPED_STRING
COMMENT: "//" /[^\\n]*/
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
%ignore COMMENT
"""

JSON_ORACLE = CallableOracle(json.loads)


@pytest.fixture(scope="module")
def grammar(tmp_path_factory: pytest.TempPathFactory) -> CompiledGrammar:
    path: Path = tmp_path_factory.mktemp("grammar") / "json.lark"
    path.write_text(JSON_GRAMMAR, encoding="utf-8")
    return CompiledGrammar.load(str(path))


@pytest.fixture(params=["lark", "json.loads"])
def oracle(request: pytest.FixtureRequest, grammar: CompiledGrammar) -> Oracle:
    return ReferenceGrammarOracle(grammar) if request.param == "lark" else JSON_ORACLE


def _pieces(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[start:end] for start, end in spans]


def test_lexer_on_corrupt_input(grammar: CompiledGrammar) -> None:
    text = '{ "item": "Apple", "price": **3.45 }'
    assert _pieces(text, lex_tokens(grammar, text)) == [
        "{", '"item"', ":", '"Apple"', ",", '"price"', ":", "*", "*", "3.45", "}",
    ]  # fmt: skip
    junk = "[tru, 1\udc80 @\n2] // note\n"
    assert _pieces(junk, lex_tokens(grammar, junk)) == [
        "[", "t", "r", "u", ",", "1", "\udc80", "@", "2", "]",
    ]  # fmt: skip
    assert _pieces("true  false", lex_tokens(grammar, "true  false")) == ["true", "false"]
    assert lex_tokens(grammar, "") == []


def test_missing_colon_needs_few_tests(grammar: CompiledGrammar, oracle: Oracle) -> None:
    """Figure 9 of the ddmax paper."""
    text = '{ "item": "Apple", "price" 3.45 }'
    tokens = lex_tokens(grammar, text)
    assert len(tokens) == 8
    syntactic = syntactic_ddmax(text, oracle, tokens=tokens)
    lexical = ddmax_text(text, oracle)
    assert syntactic.valid and oracle.check(syntactic.text).valid
    assert '"item"' in syntactic.text
    assert syntactic.units == 8
    # Flat terminals fall into ddmax's "increase to subset" trap here (the
    # lone string ``"item"`` passes first), but with a fraction of the tests.
    assert syntactic.stats.tests * 4 < lexical.stats.tests
    # With the faulty pair as one unit, like the paper's ANTLR error node
    # (Figure 11), syntactic ddmax finds Figure 10 in as few tests as the paper.
    error_node = [(0, 1), (2, 8), (8, 9), (10, 17), (17, 18), (19, 31), (32, 33)]
    grouped = syntactic_ddmax(text, oracle, tokens=error_node)
    assert grouped.text == '{ "item": "Apple" }'
    assert grouped.valid and grouped.stats.tests <= 9


def test_hybrid_recovers_faulty_token_characters(grammar: CompiledGrammar, oracle: Oracle) -> None:
    text = '{ "item": "Apple", "price": **3.45 }'
    tokens = lex_tokens(grammar, text)
    syntactic = syntactic_ddmax(text, oracle, tokens=tokens)
    hybrid = hybrid_ddmax(text, oracle, tokens=tokens)
    assert syntactic.valid and hybrid.valid
    assert hybrid.algorithm == "ddmax-hybrid"
    assert hybrid.text == '{ "item": "Apple", "price": 3.45 }'
    assert len(hybrid.text) >= len(syntactic.text)
    assert hybrid.stats.tests > syntactic.stats.tests  # includes the syntactic phase
    repair = hybrid.to_repair()
    assert apply_edits(text, repair.edits) == hybrid.text and repair.distance == 2


def test_hybrid_asks_how_many_runs_its_lexical_phase_may_use(
    grammar: CompiledGrammar, oracle: Oracle
) -> None:
    text = '{ "item": "Apple", "price": **3.45 }'
    tokens = lex_tokens(grammar, text)
    syntactic = syntactic_ddmax(text, oracle, tokens=tokens)
    asked: list[str] = []

    def none(first: TokenMaximized) -> int:
        asked.append(first.text)
        return 0

    hybrid = hybrid_ddmax(text, oracle, tokens=tokens, lexical_runs=none)
    assert asked == [syntactic.text]
    assert hybrid.text == syntactic.text and hybrid.algorithm == "ddmax-hybrid"
    assert hybrid.stats.tests == syntactic.stats.tests  # no lexical phase
    unlimited = hybrid_ddmax(text, oracle, tokens=tokens)
    enough = hybrid_ddmax(
        text,
        oracle,
        tokens=tokens,
        lexical_runs=lambda first: unlimited.stats.tests - syntactic.stats.tests,
    )
    assert enough.text == unlimited.text == '{ "item": "Apple", "price": 3.45 }'


def test_layout_is_preserved(grammar: CompiledGrammar, oracle: Oracle) -> None:
    text = '{\n    "a": 1,\n    "b": 2 @,\n\t"c": [3, 4]  // list\n}\n'
    result = syntactic_ddmax(text, oracle, tokens=[])
    assert result.text == text and not result.valid  # no units: nothing to remove
    if oracle is JSON_ORACLE:
        text = text.replace("  // list", "")
    tokens = lex_tokens(grammar, text)
    result = syntactic_ddmax(text, oracle, tokens=tokens)
    assert result.valid
    assert result.text == text.replace(" @", "")
    assert result.removed == ((text.index(" @"), text.index(" @") + 2),)


def test_removed_line_takes_its_layout(grammar: CompiledGrammar, oracle: Oracle) -> None:
    text = '{\n    "a": 1,\n    "b": \n    "c": [3, 4]\n}\n'
    result = syntactic_ddmax(text, oracle, tokens=lex_tokens(grammar, text))
    assert result.valid
    assert result.text == '{\n    "a": 1,\n    "b": [3, 4]\n}\n'


def test_junk_units_are_removed(grammar: CompiledGrammar, oracle: Oracle) -> None:
    text = "[1, 2 @@ 3, 4]"
    result = syntactic_ddmax(text, oracle, tokens=lex_tokens(grammar, text))
    assert result.valid and "@" not in result.text
    assert result.text.startswith("[1,") and result.text.endswith("3, 4]")
    bad = '{"a": [1, 2\udc80]}'
    result = syntactic_ddmax(bad, oracle, tokens=lex_tokens(grammar, bad))
    assert result.valid and result.text == '{"a": [1, 2]}'


def test_valid_input_is_unchanged(grammar: CompiledGrammar, oracle: Oracle) -> None:
    text = '{"a": [1, 2]}'
    for algorithm in (syntactic_ddmax, hybrid_ddmax):
        result = algorithm(text, oracle, tokens=lex_tokens(grammar, text))
        assert result.input_valid and result.valid and result.text == text
        assert result.removed == () and result.stats.tests == 1


def test_budget_is_shared_and_respected(grammar: CompiledGrammar) -> None:
    text = '{ "item": "Apple", "price": **3.45, "more": [1, 2, *3] }'
    tokens = lex_tokens(grammar, text)
    oracle = ReferenceGrammarOracle(grammar)
    for limit in (0, 1, 5, 20, 60):
        for algorithm in (syntactic_ddmax, hybrid_ddmax):
            result = algorithm(text, oracle, tokens=tokens, budget=Budget(max_tests=limit))
            assert result.stats.tests <= limit
            assert result.text  # never empty: at worst the input
            if result.valid:
                assert oracle.check(result.text).valid
    syntactic = syntactic_ddmax(text, oracle, tokens=tokens)
    hybrid = hybrid_ddmax(text, oracle, tokens=tokens)
    assert syntactic.valid and hybrid.valid
    assert difference(syntactic.kept, hybrid.kept) == ()  # the hybrid only adds


def test_bad_token_spans_are_rejected() -> None:
    with pytest.raises(ValueError):
        syntactic_ddmax("[1, 2]", JSON_ORACLE, tokens=[(2, 3), (0, 1)])
    with pytest.raises(ValueError):
        syntactic_ddmax("[1, 2]", JSON_ORACLE, tokens=[(0, 9)])


def test_error_recovery_units_reproduce_the_papers_missing_colon_example(
    grammar: CompiledGrammar, oracle: Oracle
) -> None:
    """Fig. 9-11 of the ddmax paper: the parser's error recovery makes the
    abandoned `, "price" 3.45` one unit, and syntactic ddmax removes it."""
    text = '{ "item": "Apple", "price" 3.45 }'
    units = recovery_units(grammar, text)
    assert [text[a:b] for a, b in units] == ["{", '"item"', ":", '"Apple"', ', "price" 3.45', "}"]
    result = syntactic_ddmax(text, oracle, tokens=units)
    assert result.text == '{ "item": "Apple" }'
    assert result.stats.tests <= 9  # the paper needed 9 runs
    lexical = ddmax_text(text, oracle)
    assert lexical.stats.tests > 5 * result.stats.tests
