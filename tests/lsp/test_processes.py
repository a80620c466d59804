"""A server killed with SIGKILL at any moment leaves no process behind."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.lsp.raw import notification, raw_server, request
from tests.processes import marked, new_mark, survivors

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize("delay", [0.0, 0.2, 0.6, 3.0])
def test_kill_9_of_the_server_leaves_no_worker_validator_or_tracker(
    tmp_path: Path, delay: float
) -> None:
    """Killed before, while and after its workers and the validator start."""
    mark = new_mark()
    options = {"oracles": [{"files": "*.json", "grammar": "json", "python": "json:loads"}]}
    with raw_server(env=mark) as server:
        server.send(
            request(1, "initialize", {"capabilities": {}, "initializationOptions": options})
        )
        server.answer(1)
        server.send(notification("initialized", {}))
        for number in range(3):
            document = {"uri": (tmp_path / f"{number}.json").as_uri(), "languageId": "json"}
            server.send(
                notification(
                    "textDocument/didOpen",
                    {"textDocument": {**document, "version": 1, "text": '{"a": 1,, "b": 2}'}},
                )
            )
        time.sleep(delay)
        if delay >= 3:  # by now the workers and the validator run
            assert len(marked(mark)) >= 4, "server, tracker, workers and validator"
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        assert survivors(mark) == []
