"""Finding the processes that have a file open for writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.cli.writers import Writer, describe_writers, open_writers
from tests.cli.helpers import held_open


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize(("how", "writes"), [("r", False), ("a", True), ("r+", True)])
def test_only_processes_that_may_write_count(tmp_path: Path, how: str, writes: bool) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text("{}\n")
    other = tmp_path / "other.jsonl"
    other.write_text("{}\n")
    with held_open(path, how) as holder, other.open("a"):  # this process never counts
        found = open_writers(path.stat())
        assert open_writers(other.stat()) == []
    assert [writer.pid for writer in found] == ([holder.pid] if writes else [])


def test_writers_are_named_by_pid_and_program() -> None:
    assert describe_writers([Writer(12, "tail")]) == "process 12 (tail)"
    assert describe_writers([Writer(1, "a"), Writer(2, "b")]) == "processes 1 (a), 2 (b)"
