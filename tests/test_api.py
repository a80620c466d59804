"""The one-call library API: inputmend.repair and inputmend.check."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
import textwrap
from pathlib import Path

import pytest

import inputmend
from inputmend.core.model import RepairResult
from inputmend.core.oracle import Feedback, OracleConfigError, Verdict

BROKEN = '{ "item": "Apple", "price": **3.45 }'
FIXED = '{ "item": "Apple", "price": 3.45 }'


def test_repair_with_a_bundled_grammar_returns_the_frozen_result() -> None:
    result = inputmend.repair(BROKEN, grammar="json")
    assert isinstance(result, RepairResult)
    assert not result.input_valid
    assert result.repairs[0].text == FIXED
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.repairs = ()  # type: ignore[misc]


def test_repair_of_a_valid_text_has_no_repairs() -> None:
    result = inputmend.repair(FIXED, grammar="json")
    assert result.input_valid and result.repairs == ()


def test_check_says_where_a_text_goes_wrong() -> None:
    assert inputmend.check(FIXED, grammar="json") == Feedback(Verdict.COMPLETE)
    feedback = inputmend.check('{"a": 1,}', grammar="json")
    assert feedback.verdict is Verdict.INCORRECT
    assert feedback.error_offset == 8
    assert inputmend.check('{"a": ', grammar="json").verdict is Verdict.INCOMPLETE


def test_top_and_max_tests_bound_the_answer() -> None:
    result = inputmend.repair("[1 2 3 4", grammar="json", top=1, max_tests=50, timeout=None)
    assert len(result.repairs) <= 1
    assert result.stats.tests <= 50 + 1 or result.stats.budget_exhausted


def test_equivalent_repairs_are_merged_as_on_the_command_line() -> None:
    result = inputmend.repair("[1, 2", grammar="json", top=5)
    texts = [repair.text for repair in result.repairs]
    assert len(texts) == len(set(texts))


def test_a_command_validates_as_on_the_command_line(tmp_path: Path) -> None:
    script = tmp_path / "needs_ok.py"
    script.write_text("import sys\nsys.exit(0 if sys.stdin.read().startswith('ok') else 1)\n")
    command = f"{sys.executable} {script.name}"
    assert inputmend.check("ok then", command=command, base_dir=tmp_path).valid
    assert not inputmend.check("not ok", command=command, base_dir=tmp_path).valid


def test_a_python_function_validates_in_a_child_process(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text(
        textwrap.dedent(
            """
            def positive(text):
                if int(text) <= 0:
                    raise ValueError("not positive")
            """
        )
    )
    assert inputmend.check("3", python="rules.py:positive", base_dir=tmp_path).valid
    assert not inputmend.check("-3", python="rules.py:positive", base_dir=tmp_path).valid


def test_grammar_and_command_must_both_accept(tmp_path: Path) -> None:
    script = tmp_path / "short.py"
    script.write_text("import sys\nsys.exit(0 if len(sys.stdin.read()) < 5 else 1)\n")
    command = f"{sys.executable} {script.name}"
    assert inputmend.check("[1]", grammar="json", command=command, base_dir=tmp_path).valid
    long_but_json = "[1, 2, 3]"
    assert not inputmend.check(
        long_but_json, grammar="json", command=command, base_dir=tmp_path
    ).valid
    assert not inputmend.check("[1", grammar="json", command=command, base_dir=tmp_path).valid


def test_no_oracle_is_a_clear_error() -> None:
    with pytest.raises(OracleConfigError, match="grammar=, command= or python="):
        inputmend.check("x")
    with pytest.raises(OracleConfigError, match="no-such-grammar"):
        inputmend.repair("x", grammar="no-such-grammar")


@pytest.mark.parametrize("options", [{"top": 0}, {"max_tests": 0}])
def test_bad_budgets_are_refused(options: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        inputmend.repair("[1", grammar="json", **options)  # type: ignore[arg-type]


def test_every_call_closes_its_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    from inputmend import api

    closed: list[str] = []
    build = api._oracle

    def recording(*args: object) -> object:
        oracle = build(*args)  # type: ignore[arg-type]
        original = oracle.close

        def close() -> None:
            closed.append(oracle.describe())
            original()

        monkeypatch.setattr(oracle, "close", close)
        return oracle

    monkeypatch.setattr(api, "_oracle", recording)
    inputmend.check("[1]", grammar="json")
    inputmend.repair("[1", grammar="json")
    with pytest.raises(ValueError, match="unknown repair algorithm"):
        inputmend.repair("[1", grammar="json", algorithm="no-such-algorithm")
    assert len(closed) == 3


def test_the_functions_stay_the_packages_attributes_whatever_is_imported() -> None:
    """A submodule named like a function (``inputmend.repair``) would replace
    the function on the package the moment it is imported."""
    for module in pkgutil.walk_packages(inputmend.__path__, "inputmend."):
        importlib.import_module(module.name)
    assert inputmend.repair.__module__ == "inputmend.api"
    assert inputmend.check.__module__ == "inputmend.api"


def test_check_says_when_a_rule_beyond_the_syntax_refused() -> None:
    twice = inputmend.check("a = 1\nb = 2\na = 1\n", grammar="toml")
    assert not twice.valid and twice.beyond_syntax
    assert "overwrite" in twice.message
    broken = inputmend.check("a = [1,\n", grammar="toml")
    assert not broken.valid and not broken.beyond_syntax
