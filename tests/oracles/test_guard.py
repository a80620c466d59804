"""The guard kills the process groups still listed when its pipe closes."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from inputmend.oracles.guard import guard

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups")


def _group() -> subprocess.Popen[bytes]:
    """A process leading its own group, as a validator does."""
    return subprocess.Popen(["sleep", "300"], start_new_session=True)


def test_groups_still_listed_are_killed_and_forgotten_ones_are_not() -> None:
    listed, forgotten = _group(), _group()
    try:
        commands = f"+{listed.pid}\n+{forgotten.pid}\n-{forgotten.pid}\n+1\nnoise\n"
        guard(io.BytesIO(commands.encode()))
        assert listed.wait(timeout=30) == -9
        assert forgotten.poll() is None
    finally:
        for process in (listed, forgotten):
            process.kill()
            process.wait()
