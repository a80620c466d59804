"""bench/startup.py: reading ``python -X importtime``, and the commands it times."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from bench.startup import ImportTime, commands, environment, import_times

from bench import run_all


def test_import_times_are_read_from_python_s_own_report() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import json"],
        capture_output=True,
        text=True,
        check=True,
    )
    found = {entry.module: entry for entry in import_times(done.stderr)}
    assert "json" in found and "json.decoder" in found
    assert found["json"].cumulative_us >= found["json"].self_us >= 0


def test_lines_that_are_not_entries_are_skipped() -> None:
    report = (
        "import time: self [us] | cumulative | imported package\n"
        "import time:       120 |        340 |   lark.utils\n"
        "some other warning\n"
    )
    assert import_times(report) == [ImportTime("lark.utils", 120, 340)]


def test_the_peer_comes_first_and_every_inputmend_command_has_a_goal() -> None:
    peer, *measured = commands()
    assert "json.tool" in peer.argv and peer.goal_s is None
    assert {command.argv[-2] for command in measured} == {"check", "repair"}
    first_runs = [command for command in measured if command.environment]
    assert all(command.goal_s is not None for command in measured if command not in first_runs)
    assert first_runs and all(
        dict(command.environment) == {"INPUTMEND_CACHE": "0"} for command in first_runs
    )


def test_the_commands_keep_their_grammar_cache_and_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", "/elsewhere")
    for command in commands():
        settings = environment(tmp_path, command)
        assert "PYTHONDONTWRITEBYTECODE" not in settings
        assert Path(settings["XDG_CACHE_HOME"]).parent == tmp_path
        assert dict(command.environment).items() <= settings.items()


def test_make_bench_writes_its_table() -> None:
    assert "startup" in {benchmark.name for benchmark in run_all.BENCHMARKS}
    readme = run_all.README.read_text(encoding="utf-8")
    assert "startup" in run_all.tables_in(readme)
