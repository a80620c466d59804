"""A guard process that ends the validators' process groups when the process
that started them dies, even by ``kill -9``.

A validator runs in its own process group, which its starter kills after
every run.  A starter killed by SIGKILL cleans nothing up: the parent-death
signal (:func:`~inputmend.oracles.children.exit_with_this_process`) ends the
validator itself, but not what the validator started.  So each process that
starts validators also starts, on first use, one small guard process that
reads a pipe only the starter can write to: ``+GROUP`` when a validator's
group starts, ``-GROUP`` once it has been ended.  When the pipe closes (the
starter exited, however it died) the guard kills every group still listed,
then exits.

What it does not cover: a process that left the validator's group (its own
``setsid``), and what the validator started in the instant between its start
and its group being listed.

The guard runs this file as a script (``python -I guard.py``: nothing from
the working directory or the environment is imported), so the module
imports nothing but the standard library.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from typing import IO


class GroupGuard:
    """The starter's side: the guard of this process, started on first use
    (and again in a forked process, which needs its own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0

    def watch(self, group: int) -> None:
        """Kill process group ``group`` if this process dies before :meth:`forget`."""
        self._send(f"+{group}\n")

    def forget(self, group: int) -> None:
        """Group ``group`` has been ended: no longer the guard's concern."""
        self._send(f"-{group}\n")

    def _send(self, line: str) -> None:
        with self._lock:
            if self._owner != os.getpid():
                self._process = _start_guard()
                self._owner = os.getpid()
            if self._process is None or self._process.stdin is None:
                return  # no guard here: the parent-death signal still ends each validator
            try:
                self._process.stdin.write(line.encode("ascii"))
                self._process.stdin.flush()
            except OSError:
                self._process = None  # the guard is gone (killed by someone)


def _start_guard() -> subprocess.Popen[bytes] | None:
    """Start a guard, or None where none can start."""
    if not sys.executable:
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-I", os.path.abspath(__file__)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            start_new_session=True,  # the terminal's Ctrl-C is for its starter, not for it
        )
    except OSError:
        return None


_GUARD = GroupGuard()  # one per process, as the process groups it watches are


def watch_group(group: int) -> None:
    """See :meth:`GroupGuard.watch`."""
    _GUARD.watch(group)


def forget_group(group: int) -> None:
    """See :meth:`GroupGuard.forget`."""
    _GUARD.forget(group)


def guard(commands: IO[bytes]) -> None:
    """The guard's work: follow ``+GROUP``/``-GROUP`` lines until the pipe
    closes, then kill the groups still listed."""
    groups: set[int] = set()
    for line in commands:
        with contextlib.suppress(ValueError):
            group = int(line[1:])
            if line.startswith(b"+") and group > 1:
                groups.add(group)
            elif line.startswith(b"-"):
                groups.discard(group)
    for group in groups:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)


if __name__ == "__main__":
    guard(sys.stdin.buffer)
