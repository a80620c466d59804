"""The lenient JSON dialect: RFC 8259 plus raw control characters in strings."""

from __future__ import annotations

import json

import pytest

from inputmend.core.oracle import Verdict
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.conftest import CORPUS


@pytest.mark.parametrize(
    "text", ['{"a\\nb": "line\\none"}', '["tab\there"]', '"\\u00e9"', "[1, 2.5e3, true, null]"]
)
def test_accepts_what_lenient_parsers_accept(text: str) -> None:
    text = text.replace("\\n", "\n") if "\\u" not in text else text
    assert IncrementalGrammarOracle("cjson").check(text).valid
    json.loads(text, strict=False)


@pytest.mark.parametrize("text", ['{"a": 1,}', "[01]", "[NaN]", '{"a": "x" // c\n}', "'a'"])
def test_rejects_everything_else_rfc_rejects(text: str) -> None:
    assert IncrementalGrammarOracle("cjson").check(text).verdict is not Verdict.COMPLETE


def _reject(constant: str) -> object:
    raise ValueError(f"{constant} is not JSON")


def test_agrees_with_python_json_strict_false_on_the_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip("corpus not found")
    oracle = IncrementalGrammarOracle("cjson")
    for path in sorted(CORPUS.glob("json-*/*")):
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        if any("\udc80" <= ch <= "\udcff" for ch in text):
            continue
        try:
            json.loads(
                text, strict=False, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c))
            )
            expected = True
        except (ValueError, RecursionError):
            expected = False
        assert oracle.check(text).valid == expected, path.name
