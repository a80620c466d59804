"""A server killed with SIGKILL at any moment leaves no process behind."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.lsp.raw import notification, raw_server, request
from tests.processes import marked, new_mark, running, survivors

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize("delay", [0.0, 0.2, 0.6, 3.0])
def test_kill_9_of_the_server_leaves_no_worker_validator_or_tracker(
    tmp_path: Path, delay: float
) -> None:
    """Killed before, while and after its workers and the validator start."""
    mark = new_mark()
    options = {"oracles": [{"files": "*.json", "grammar": "json", "python": "json:loads"}]}
    with raw_server(env=mark) as server:
        server.initialize(initializationOptions=options)
        for number in range(3):
            server.open(tmp_path / f"{number}.json", '{"a": 1,, "b": 2}')
        time.sleep(delay)
        if delay >= 3:  # after the workers and the validator started, however long that takes
            assert len(running(mark, 4)) >= 4, "server, tracker, workers and validator"
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        assert survivors(mark) == []


@pytest.mark.parametrize("shutdown_first", [True, False])
def test_stopping_with_jobs_running_prints_no_traceback(
    tmp_path: Path, shutdown_first: bool
) -> None:
    """Restarting the server while a validator runs printed 'RuntimeError:
    Event loop is closed' from callbacks of the pool's futures."""
    (tmp_path / "slow.py").write_text("import time\ndef check(text):\n    time.sleep(3)\n")
    mark, log = new_mark(), tmp_path / "server.log"
    oracle = {"files": "*.json", "grammar": "json", "python": f"{tmp_path / 'slow.py'}:check"}
    options = {"oracles": [oracle], "debounceMs": 1}
    with raw_server(env=mark, log=log) as server:
        server.initialize(rootUri=tmp_path.as_uri(), initializationOptions=options)
        for number in range(4):
            server.open(tmp_path / f"{number}.json", '{"a": 1}')
        time.sleep(2.5)  # the validators are running
        if shutdown_first:
            server.send(request(2, "shutdown"))
            server.answer(2)
        server.send(notification("exit"))
        assert server.process.wait(20) == (0 if shutdown_first else 1)
    assert survivors(mark) == []
    errors = log.read_text()
    assert "Traceback" not in errors and "Event loop is closed" not in errors, errors


def test_kill_9_of_the_server_ends_a_command_validator_and_what_it_forked(
    tmp_path: Path,
) -> None:
    mark = new_mark()
    command = ["sh", "-c", "sleep 300 & sleep 300; exit 0"]
    options = {"oracles": [{"files": "*.json", "command": command, "testTimeout": 600}]}
    with raw_server(env=mark) as server:
        server.initialize(initializationOptions=options)
        server.open(tmp_path / "data.json", '{"a": 1,, "b": 2}')
        deadline = time.monotonic() + 60
        while _sleeps(mark) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _sleeps(mark) == 2, "the validator did not start"
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        assert survivors(mark, within=30) == []


def _sleeps(mark: dict[str, str]) -> int:
    """How many marked processes are ``sleep 300``."""
    count = 0
    for pid in marked(mark):
        try:
            count += Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"sleep\x00300\x00")
        except OSError:
            continue
    return count
