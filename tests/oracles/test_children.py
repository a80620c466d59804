"""Nothing a validator or a command starts outlives its run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inputmend.oracles.command import CommandOracle
from inputmend.oracles.python import PythonOracle
from tests.processes import MARK, marked, new_mark, survivors

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
        assert survivors(mark) == [], "ended before the oracle is closed"
    finally:
        oracle.close()


def test_what_a_command_starts_ends_with_it() -> None:
    mark = new_mark()
    oracle = CommandOracle(["sh", "-c", f"{MARK}={mark[MARK]} sleep 300 & exit 0"])
    try:
        assert oracle.check("x").valid
        assert survivors(mark) == []
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
        assert survivors(mark) == []


SLEEPER = """
import subprocess, time

def check(text):
    if text.startswith("fork"):
        subprocess.Popen(["sleep", "300"])  # a grandchild of the command line
    time.sleep(300)
"""

VALIDATORS = {
    "command": ["--command", "sleep 300"],
    "command that forks": ["--command", "sh -c 'sleep 300 & sleep 300; exit 0'"],
    "python": ["--python", "{sleeper}:check"],
    "python that forks": ["--python", "{sleeper}:check"],
}


@pytest.mark.parametrize("validator", list(VALIDATORS))
def test_kill_9_of_the_command_line_ends_its_validator_and_what_it_started(
    tmp_path: Path, validator: str
) -> None:
    """The validator (and its process group: what it forked) dies with the
    command line, even when that is killed by SIGKILL and cannot clean up."""
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text(SLEEPER)
    data = tmp_path / "data.txt"
    data.write_text("fork" if validator.endswith("forks") else "wait")
    options = [option.format(sleeper=sleeper) for option in VALIDATORS[validator]]
    mark = new_mark()
    cli = subprocess.Popen(
        [sys.executable, "-m", "inputmend", "check", *options, "--test-timeout", "600", str(data)],
        env={**os.environ, **mark},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    python = validator.startswith("python")
    expected = {"sleep": (0 if python else 1) + validator.endswith("forks"), "python": python}
    try:
        deadline = time.monotonic() + 60
        while _started(mark) != expected and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _started(mark) == expected, "the validator did not start"
        assert cli.poll() is None, "the run ended before it could be killed"
    finally:
        cli.kill()
        cli.wait(10)
    assert survivors(mark, within=30) == []


def _started(mark: dict[str, str]) -> dict[str, int]:
    """How many of the marked processes are ``sleep 300``, and whether one
    is a Python validator's process."""
    commands = []
    for pid in marked(mark):
        try:
            commands.append(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"))
        except OSError:
            continue
    return {
        "sleep": sum(command[:2] == [b"sleep", b"300"] for command in commands),
        "python": any(b"spawn_main" in b" ".join(command) for command in commands),
    }
