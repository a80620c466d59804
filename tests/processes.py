"""Finding the processes a test started, by a mark in their environment
(every child inherits it), to check that none survives."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

MARK = "INPUTMEND_TEST_MARK"


def new_mark() -> dict[str, str]:
    """An environment entry that marks the processes of one test."""
    return {MARK: uuid.uuid4().hex}


def marked(mark: dict[str, str]) -> list[int]:
    """Live processes carrying ``mark`` in their environment (zombies excluded)."""
    needle = f"{MARK}={mark[MARK]}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            found.append(int(entry.name))
    return found


def running(mark: dict[str, str], count: int, within: float = 60.0) -> list[int]:
    """The marked processes once there are ``count`` of them (``within`` is
    only a hang guard: it returns as soon as they run, however slow the machine)."""
    deadline = time.monotonic() + within
    while len(alive := marked(mark)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def survivors(mark: dict[str, str], within: float = 60.0) -> list[str]:
    """The command lines of marked processes still alive after ``within``
    seconds (a hang guard: it returns as soon as none is left); they are
    killed, so that a failing test leaves nothing behind."""
    deadline = time.monotonic() + within
    while (alive := marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    described = []
    for pid in alive:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            described.append(command.replace(b"\0", b" ").decode())
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
    return described
