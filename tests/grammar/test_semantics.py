"""Checks of the rules that are not syntax (grammar headers' ``semantics``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.grammar import registry
from inputmend.grammar.semantics import CHECKS, check_tomllib
from inputmend.oracles.base import OracleConfigError, Verdict
from inputmend.oracles.incremental import IncrementalGrammarOracle


def test_tomllib_objections_are_placed_where_it_says() -> None:
    text = "[t]\na = 1\n[t]\n"
    feedback = check_tomllib(text)
    assert feedback.verdict is Verdict.INCORRECT
    assert feedback.message == "Cannot declare ('t',) twice"
    assert feedback.error_offset == text.rindex("]")  # line 3, column 3
    assert check_tomllib("a = 1\n").valid
    unfinished = check_tomllib("a = ")
    assert (unfinished.error_offset, unfinished.message) == (4, "Invalid value")


def test_the_toml_grammar_names_tomllib() -> None:
    assert registry.resolve("toml").semantics == "tomllib"
    oracle = IncrementalGrammarOracle("toml")
    text = "a = 1\na = 2\n"
    assert oracle.check(text).valid
    found = oracle.check_semantics(text)
    assert found is not None and found.message == "Cannot overwrite a value"
    assert IncrementalGrammarOracle("json").check_semantics("1") is None


def test_only_known_checks_can_be_named(tmp_path: Path) -> None:
    path = tmp_path / "g.lark"
    path.write_text('// semantics: os.system\nstart: "x"\n')
    with pytest.raises(OracleConfigError, match=r"unknown semantics 'os.system' \(known: tomllib"):
        registry.read_info(path)
    assert set(CHECKS) == {"tomllib"}
