"""Python oracles: classification of known parsers' errors, isolation in a child."""

from __future__ import annotations

import configparser
import json
import sys
import tomllib
from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError, Verdict
from inputmend.oracles.python import CallableOracle, PythonOracle


@pytest.mark.parametrize(
    ("text", "verdict", "offset"),
    [
        ('{"a": 1}', Verdict.COMPLETE, None),
        ('{"a": [1, 2', Verdict.INCOMPLETE, 11),
        ('{"a": tr', Verdict.INCOMPLETE, 8),
        ('{"a": "ab', Verdict.INCOMPLETE, 9),
        ("[1.", Verdict.INCOMPLETE, 3),
        ("-", Verdict.INCOMPLETE, 1),
        ('{"a": 1 "b": 2}', Verdict.INCORRECT, 8),
        ('{"a": trux}', Verdict.INCORRECT, 6),
        ("[1, *]", Verdict.INCORRECT, 4),
        ('{ "name": "Dave" "age', Verdict.INCORRECT, 17),
        ("[1 2", Verdict.INCORRECT, 3),
        ('{"a": 1, "b', Verdict.INCOMPLETE, 11),
    ],
)
def test_json_errors(text: str, verdict: Verdict, offset: int | None) -> None:
    feedback = CallableOracle(json.loads).check(text)
    assert feedback.verdict is verdict
    assert feedback.error_offset == offset


def test_toml_errors() -> None:
    oracle = CallableOracle(tomllib.loads)
    assert oracle.check('a = "x"\n').verdict is Verdict.COMPLETE
    assert oracle.check('a = "x').verdict is Verdict.INCOMPLETE
    wrong = oracle.check('a = "x"\nb = = 1\n')
    assert wrong.verdict is Verdict.INCORRECT
    assert wrong.error_offset is not None and wrong.error_offset >= 8


def _ini(text: str) -> None:
    configparser.ConfigParser().read_string(text)


def test_configparser_errors() -> None:
    oracle = CallableOracle(_ini)
    assert oracle.check("[s]\na = 1\n").verdict is Verdict.COMPLETE
    assert oracle.check("a = 1\n[s]\n").verdict is Verdict.INCORRECT
    missing = oracle.check("[s]\n[s]\n")
    assert missing.verdict is Verdict.INCORRECT and missing.error_offset == 4


def test_syntax_errors_from_compile() -> None:
    oracle = CallableOracle(lambda text: compile(text, "<input>", "exec"))
    assert oracle.check("x = (1,\n").verdict is Verdict.INCOMPLETE
    assert oracle.check("x = )\n").verdict is Verdict.INCORRECT


def test_any_exception_is_a_verdict_even_system_exit() -> None:
    def validator(text: str) -> None:
        raise SystemExit(3)

    assert CallableOracle(validator).check("x").verdict is Verdict.INCORRECT


@pytest.fixture
def validators(tmp_path: Path) -> Path:
    (tmp_path / "myvalidators.py").write_text(
        "import json, os, sys, time\n"
        "def strict(text):\n"
        "    print('noise on stdout')\n"
        "    json.loads(text)\n"
        "def hangs(text):\n"
        "    if text == 'hang':\n"
        "        time.sleep(60)\n"
        "def dies(text):\n"
        "    if text == 'die':\n"
        "        os._exit(7)\n"
        "def interrupted(text):\n"
        "    if text == 'stop':\n"
        "        raise KeyboardInterrupt\n"
    )
    return tmp_path


def test_module_function_in_a_child_process(
    validators: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    oracle = PythonOracle("myvalidators:strict", module_dir=str(validators))
    try:
        assert oracle.check("[1]").verdict is Verdict.COMPLETE
        assert oracle.check("[1,").verdict is Verdict.INCOMPLETE
        assert oracle.check("[1,]").verdict is Verdict.INCORRECT
    finally:
        oracle.close()
    out, _ = capfd.readouterr()
    assert "noise" not in out, "the validator's prints never reach our stdout"


def test_a_file_path_spec(validators: Path) -> None:
    oracle = PythonOracle(f"{validators / 'myvalidators.py'}:strict")
    try:
        assert oracle.check("{}").verdict is Verdict.COMPLETE
    finally:
        oracle.close()


def test_a_hanging_validator_times_out_and_the_oracle_recovers(validators: Path) -> None:
    oracle = PythonOracle("myvalidators:hangs", module_dir=str(validators), timeout_s=0.5)
    try:
        feedback = oracle.check("hang")  # it sleeps 60 s: only the timeout says "timed out"
        assert feedback.verdict is Verdict.INCORRECT and "timed out" in feedback.message
        assert oracle.check("fine").verdict is Verdict.COMPLETE
    finally:
        oracle.close()


def test_a_crashing_validator_is_a_verdict_and_the_oracle_recovers(validators: Path) -> None:
    oracle = PythonOracle("myvalidators:dies", module_dir=str(validators))
    try:
        feedback = oracle.check("die")
        assert feedback.verdict is Verdict.INCORRECT and "crashed" in feedback.message
        assert oracle.check("fine").verdict is Verdict.COMPLETE
    finally:
        oracle.close()


def test_a_keyboard_interrupt_in_a_validator_is_its_verdict_without_a_traceback(
    validators: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The child leads its own process group: no Ctrl-C of the user reaches
    it, so an interruption there is the validator's own failure."""
    oracle = PythonOracle("myvalidators:interrupted", module_dir=str(validators))
    try:
        feedback = oracle.check("stop")
        assert feedback.verdict is Verdict.INCORRECT
        assert "KeyboardInterrupt" in feedback.message and "crashed" not in feedback.message
        assert oracle.check("fine").verdict is Verdict.COMPLETE
    finally:
        oracle.close()
    _, err = capfd.readouterr()
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_xyz:f", "cannot import"),
        ("json:no_such_function", "no callable"),
        ("justamodule", "MODULE:FUNCTION"),
        ("/nonexistent/file.py:f", "not found"),
    ],
)
def test_configuration_errors(spec: str, message: str) -> None:
    with pytest.raises(OracleConfigError, match=message):
        PythonOracle(spec)


def test_stdlib_json_as_validator() -> None:
    oracle = PythonOracle("json:loads")
    try:
        assert oracle.check('{"a": [1, 2').verdict is Verdict.INCOMPLETE
        assert oracle.check("\udcff").verdict is Verdict.INCORRECT
    finally:
        oracle.close()
    assert sys.modules.get("myvalidators") is None
