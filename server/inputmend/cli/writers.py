"""Which other processes have a file open for writing (Linux ``/proc``).

A file is rewritten in place by renaming a new version over its name.  A
process that holds the old file open (a program appending to its log) goes
on writing into the old, now nameless file: everything it writes after the
rename is lost, even when it wrote nothing while the repair ran.  So an
in-place rewrite asks first whether any process has the file open for
writing, and refuses if one does.

Only the processes this user may inspect are seen (all of them for root);
where ``/proc`` does not exist, none are.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

_PROC = "/proc"


@dataclass(frozen=True)
class Writer:
    """A process that has the file open for writing."""

    pid: int
    name: str


def _opened_for_writing(pid: str, descriptor: str) -> bool:
    """Whether the descriptor's open flags (``/proc/PID/fdinfo``) allow writing."""
    try:
        with open(f"{_PROC}/{pid}/fdinfo/{descriptor}") as info:
            for line in info:
                if line.startswith("flags:"):
                    access = int(line.split()[1], 8) & os.O_ACCMODE
                    return access in (os.O_WRONLY, os.O_RDWR)
    except (OSError, ValueError, IndexError):
        pass
    return False


def _name(pid: str) -> str:
    try:
        with open(f"{_PROC}/{pid}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return "?"


def open_writers(info: os.stat_result) -> list[Writer]:
    """The other processes that have the file ``info`` describes (by device
    and inode) open for writing."""
    try:
        pids = [entry for entry in os.listdir(_PROC) if entry.isdigit()]
    except OSError:
        return []
    me = str(os.getpid())
    found = []
    for pid in pids:
        if pid == me:
            continue
        try:
            descriptors = os.listdir(f"{_PROC}/{pid}/fd")
        except OSError:
            continue  # gone, or not ours to inspect
        for descriptor in descriptors:
            try:
                opened = os.stat(f"{_PROC}/{pid}/fd/{descriptor}")
            except OSError:
                continue
            same = (opened.st_dev, opened.st_ino) == (info.st_dev, info.st_ino)
            if same and _opened_for_writing(pid, descriptor):
                found.append(Writer(int(pid), _name(pid)))
                break
    return found


def describe_writers(writers: list[Writer]) -> str:
    """``process 123 (tail)``, ``processes 1 (a), 2 (b)``."""
    listed = ", ".join(f"{writer.pid} ({writer.name})" for writer in writers)
    return f"process{'es' if len(writers) > 1 else ''} {listed}"
