"""What the editor end-to-end tests share: the documents to repair, a
project that leaves a mark when its code runs, and running an editor
bounded in time with nothing left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.processes import new_mark, survivors

# What a hostile project can plant in front of the server's imports.
HOSTILE_MODULES = ("inputmend", "json", "lark", "pygls", "pickle", "socket")

# name: (corrupt document, what it holds once the preferred fix is applied)
CASES = {
    "ascii": ('{ "name": "Dave" "age": 42 }', {"name": "Dave", "age": 42}),
    # Before the error on its line: CJK (1 UTF-16 unit, 3 bytes) and emoji
    # (2 UTF-16 units, 4 bytes), so characters, UTF-16 units and bytes differ.
    "non-ascii": (
        '{\n  "名前": "デイブ 😀",\n  "emoji": "🎉🎉🎉 猫" "age": 42\n}\n',
        {"名前": "デイブ 😀", "emoji": "🎉🎉🎉 猫", "age": 42},
    ),
}


def activated_path() -> str:
    """PATH as `. .venv/bin/activate` leaves it: the `inputmend` command first."""
    command = Path(sys.executable).parent / "inputmend"
    if not command.exists():
        pytest.skip(f"no `inputmend` command next to {sys.executable} (pip install -e . first)")
    return os.pathsep.join([str(command.parent), os.environ.get("PATH", "")])


def document_in_hostile_project(root: Path, text: str) -> tuple[Path, Path]:
    """``root/project/person.json`` holding ``text``, next to modules named
    like the server's imports, each of which writes a file into
    ``root/markers`` if it is ever imported; (the document, the markers)."""
    project, markers = root / "project", root / "markers"
    project.mkdir()
    markers.mkdir()
    for module in HOSTILE_MODULES:
        (project / f"{module}.py").write_text(
            f"import pathlib\npathlib.Path({str(markers / module)!r}).write_text('imported')\n",
            encoding="utf-8",
        )
    document = project / "person.json"
    document.write_text(text, encoding="utf-8")
    return document, markers


@dataclass(frozen=True)
class EditorRun:
    """How an editor run ended."""

    status: int  # -1: killed after the time limit
    stdout: str
    stderr: str
    left_behind: list[str]  # command lines of its processes alive after it ended


def run_editor(
    command: list[str], *, cwd: Path, env: dict[str, str], timeout_s: float
) -> EditorRun:
    """Run an editor in its own process group with no input.  After
    ``timeout_s`` it is killed; the processes it started and left running
    (a language server, its workers) are listed and killed."""
    mark = new_mark()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env={**env, **mark},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,  # its own process group: nothing survives a hang
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout_s)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        status = -1
        stderr += f"\n(killed: {Path(command[0]).name} did not finish in {timeout_s} s)"
    finally:
        left_behind = survivors(mark)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    return EditorRun(status, stdout, stderr, left_behind)
