"""The format's loader as the last word after its grammar (oracles/loader.py)."""

from __future__ import annotations

import pytest

from inputmend.config.schema import OracleSpec
from inputmend.core.oracle import Verdict
from inputmend.grammar import semantics
from inputmend.grammar.semantics import LOADERS, check_yaml
from inputmend.oracles.factory import build_oracle, grammar_only_note
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.loader import LoaderOracle
from inputmend.oracles.wrappers import find_part

DUPLICATE = "a = 1\nb = 2\na = 3\n"


def test_the_loader_objects_where_it_says_and_is_named() -> None:
    found = LoaderOracle(LOADERS["tomllib"]).check(DUPLICATE)
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == DUPLICATE.rindex("a = 3") + 5
    assert found.message == "rejected by tomllib: Cannot overwrite a value"
    assert LoaderOracle(LOADERS["tomllib"]).check("a = 1\n").valid


def test_built_oracles_ask_the_loader_after_the_grammar() -> None:
    oracle = build_oracle(OracleSpec(grammar="toml"))
    assert find_part(oracle, IncrementalGrammarOracle) is not None
    assert oracle.check(DUPLICATE).message == "rejected by tomllib: Cannot overwrite a value"
    # an unfinished prefix stays the grammar's to judge: the loader never sees it
    assert oracle.check("a = 1\nb = ").verdict is Verdict.INCOMPLETE
    assert build_oracle(OracleSpec(grammar="csv")).check("a,b\n1,2,3\n").verdict is (
        Verdict.INCORRECT
    )
    assert build_oracle(OracleSpec(grammar="json")).check("[1]").valid


def test_without_the_library_the_check_is_the_grammars_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert grammar_only_note(OracleSpec(grammar="yaml")) is None
    missing = semantics.Loader("yaml", check_yaml, "no_such_module_for_yaml", extra="yaml")
    monkeypatch.setitem(LOADERS, "yaml", missing)
    oracle = build_oracle(OracleSpec(grammar="yaml"))
    assert find_part(oracle, LoaderOracle) is None
    assert oracle.check("? [a]\n: 1\n").valid
    note = grammar_only_note(OracleSpec(grammar="yaml"))
    assert note is not None and note.startswith("yaml: checked by the grammar only")
    assert grammar_only_note(OracleSpec(grammar="json")) is None
