"""PASS / FAIL / UNRESOLVED predicates calibrated on the original failing input."""

from __future__ import annotations

import re
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from inputmend.algorithms.ddset import ddset
from inputmend.core.oracle import OracleConfigError, Outcome
from inputmend.core.text import decode
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.predicates import (
    CachedPredicate,
    CallablePredicate,
    CommandPredicate,
    PythonPredicate,
)

PY = sys.executable

# exit 3 on doubled parentheses, 4 on the word "boom", sleeps on "sleep", killed on "kill"
SCRIPT = textwrap.dedent(
    """
    import os, re, signal, sys, time
    data = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    if "sleep" in data:
        time.sleep(30)
    if "kill" in data:
        os.kill(os.getpid(), signal.SIGKILL)
    if "boom" in data:
        print("other error", file=sys.stderr)
        sys.exit(4)
    if re.search(r"\\(\\(.*\\)\\)", data):
        print("error: nested" if "n" in data else "error: plain", file=sys.stderr)
        sys.exit(3)
    """
)


@pytest.fixture()
def script(tmp_path: Path) -> str:
    path = tmp_path / "calc.py"
    path.write_text(SCRIPT)
    return str(path)


def test_command_on_stdin(script: str) -> None:
    predicate = CommandPredicate([PY, script], original="((1))")
    assert predicate.failure is not None and predicate.failure.code == "3"
    assert predicate("((2))") is Outcome.FAIL
    assert predicate("(2)") is Outcome.PASS
    assert predicate("((boom))") is Outcome.UNRESOLVED  # another exit code
    assert "exit code 3" in predicate.describe()
    predicate.close()


def test_command_with_file_placeholder_cleans_up(script: str) -> None:
    before = set(Path(tempfile.gettempdir()).glob("inputmend-*"))
    predicate = CommandPredicate(f"{PY} {script} {{file}}", suffix=".expr")
    assert predicate("((1))") is Outcome.FAIL  # first call calibrates
    assert predicate("1") is Outcome.PASS
    assert predicate.program._tempdir is not None
    directory = Path(predicate.program._tempdir.name)
    assert list(directory.iterdir()) == []  # each input file removed after its run
    predicate.close()
    assert not directory.exists()
    assert set(Path(tempfile.gettempdir()).glob("inputmend-*")) == before


def test_command_fail_pattern(script: str) -> None:
    predicate = CommandPredicate([PY, script], original="((1))", fail_pattern="plain")
    assert predicate("((2))") is Outcome.FAIL
    assert predicate("((n))") is Outcome.UNRESOLVED  # same exit code, other message
    with pytest.raises(ValueError, match="does not match"):
        CommandPredicate([PY, script], original="((1))", fail_pattern="nested")


def test_command_timeout_and_signal_are_unresolved(script: str) -> None:
    predicate = CommandPredicate([PY, script], original="((1))", timeout_s=1)
    assert predicate("((sleep))") is Outcome.UNRESOLVED
    assert predicate("((kill))") is Outcome.UNRESOLVED


def test_command_same_signal_is_the_same_failure(script: str) -> None:
    predicate = CommandPredicate([PY, script], original="kill")
    assert predicate.failure is not None and predicate.failure.kind == "signal"
    assert predicate("kill 2") is Outcome.FAIL
    assert predicate("2") is Outcome.PASS


def test_command_original_must_fail(script: str) -> None:
    with pytest.raises(ValueError, match="the input does not fail"):
        CommandPredicate([PY, script], original="1")
    with pytest.raises(ValueError, match="the input does not fail"):
        CommandPredicate([PY, script], original="sleep", timeout_s=0.5)


def test_command_configuration_errors() -> None:
    with pytest.raises(OracleConfigError, match="command not found"):
        CommandPredicate("no-such-program-inputmend")
    with pytest.raises(OracleConfigError, match="empty"):
        CommandPredicate("")
    with pytest.raises(OracleConfigError, match="regex"):
        CommandPredicate([PY, "-c", "pass"], fail_pattern="(")


def test_ddset_with_a_command(script: str) -> None:
    grammar = CompiledGrammar.load("expr")
    predicate = CommandPredicate([PY, script])
    result = ddset("1 + ((2 * 3 / 4))", grammar, predicate)
    assert result.pattern == "((<expr>))"
    predicate.close()


VALIDATOR = textwrap.dedent(
    """
    import re, time

    def check(text):
        if "sleep" in text:
            time.sleep(30)
        if "boom" in text:
            raise KeyError(text)
        if re.search(r"\\(\\(.*\\)\\)", text):
            raise ValueError("doubled parentheses" if "n" not in text else "nested")
    """
)


@pytest.fixture()
def validator(tmp_path: Path) -> Path:
    path = tmp_path / "validator.py"
    path.write_text(VALIDATOR)
    return path


def test_python_predicate_in_child_process(validator: Path) -> None:
    predicate = PythonPredicate(f"{validator}:check", original="((1))", timeout_s=2)
    try:
        assert predicate.failure is not None
        assert predicate.failure.code.endswith("ValueError")
        assert predicate("((2))") is Outcome.FAIL
        assert predicate("2") is Outcome.PASS
        assert predicate("((boom))") is Outcome.UNRESOLVED  # another exception type
        assert predicate("((sleep))") is Outcome.UNRESOLVED  # timeout, child restarted
        assert predicate("((3))") is Outcome.FAIL
        assert "child process" in predicate.describe()
    finally:
        predicate.close()


def test_python_predicate_message_pattern(validator: Path) -> None:
    predicate = PythonPredicate(
        "validator:check",
        original="((1))",
        message_pattern="doubled",
        module_dir=str(validator.parent),
    )
    try:
        assert predicate("((n))") is Outcome.UNRESOLVED
        assert predicate("((2))") is Outcome.FAIL
    finally:
        predicate.close()


def test_python_predicate_errors(validator: Path) -> None:
    with pytest.raises(OracleConfigError):
        PythonPredicate(f"{validator}:missing")
    with pytest.raises(ValueError, match="the input does not fail"):
        PythonPredicate(f"{validator}:check", original="1")


def test_callable_predicate() -> None:
    def check(text: str) -> None:
        if "((" in text:
            raise ValueError("doubled")
        if "!" in text:
            raise KeyError(text)

    predicate = CallablePredicate(check)
    assert predicate("((1))") is Outcome.FAIL  # calibrates
    assert predicate("(1)") is Outcome.PASS
    assert predicate("(!)") is Outcome.UNRESOLVED
    with pytest.raises(ValueError, match="the input does not fail"):
        CallablePredicate(check, original="1")


def test_callable_returning_outcomes() -> None:
    predicate = CallablePredicate(
        lambda text: Outcome.FAIL if re.search(r"\(\(", text) else Outcome.PASS
    )
    assert predicate("((1))") is Outcome.FAIL
    assert predicate("1") is Outcome.PASS


def test_cached_predicate_runs_each_text_once() -> None:
    calls: list[str] = []

    def inner(text: str) -> Outcome:
        calls.append(text)
        return Outcome.PASS

    cached = CachedPredicate(inner)
    assert cached("a") is Outcome.PASS
    assert cached("a") is Outcome.PASS
    assert cached("b") is Outcome.PASS
    assert calls == ["a", "b"] and cached.runs == 2


def test_command_predicate_gets_the_files_encoding() -> None:
    latin1 = decode(b"", encoding="latin-1").encoding
    reader = "import sys; sys.exit(3 if sys.stdin.buffer.read() == b'\\xe9' else 0)"
    predicate = CommandPredicate([PY, "-c", reader], original="é", encoding=latin1)
    assert predicate.failure is not None and predicate.failure.code == "3"
    assert predicate("e") is Outcome.PASS
    with pytest.raises(ValueError, match="does not fail"):
        CommandPredicate([PY, "-c", reader], original="é")  # UTF-8: two bytes
