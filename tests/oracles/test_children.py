"""Nothing a validator or a command starts outlives its run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inputmend.oracles.command import CommandOracle
from inputmend.oracles.python import PythonOracle
from tests.processes import MARK, new_mark, survivors

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

SPAWNER = f"""
import os, subprocess

def check(text):
    # a child that would outlive us, holding our stderr open
    subprocess.Popen(["sleep", "300"], env={{**os.environ, "{MARK}": text}})
"""


@pytest.fixture
def spawner(tmp_path: Path) -> Path:
    path = tmp_path / "spawner.py"
    path.write_text(SPAWNER)
    return path


def test_what_a_python_validator_starts_ends_after_every_call(spawner: Path) -> None:
    mark = new_mark()
    oracle = PythonOracle(f"{spawner}:check")
    try:
        assert oracle.check(mark[MARK]).valid
        assert survivors(mark, within=5) == [], "ended before the oracle is closed"
    finally:
        oracle.close()


def test_what_a_command_starts_ends_with_it() -> None:
    mark = new_mark()
    oracle = CommandOracle(["sh", "-c", f"{MARK}={mark[MARK]} sleep 300 & exit 0"])
    try:
        assert oracle.check("x").valid
        assert survivors(mark, within=5) == []
    finally:
        oracle.close()


def test_a_validators_child_does_not_keep_the_callers_pipe_open(
    spawner: Path, tmp_path: Path
) -> None:
    """A caller reading inputmend's output got its end only when the
    validator's `sleep 300` ended."""
    mark = new_mark()
    data = tmp_path / "data.json"
    data.write_text(mark[MARK])
    try:
        result = subprocess.run(
            [sys.executable, "-m", "inputmend", "check", "--python", f"{spawner}:check", str(data)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
    finally:
        assert survivors(mark, within=5) == []
