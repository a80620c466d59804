"""Running the command line in this process."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from inputmend.cli import main

_HOLD = "import sys; f = open(sys.argv[1], sys.argv[2]); print(flush=True); sys.stdin.read()"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``inputmend ARGS``."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@contextmanager
def held_open(path: Path, mode: str) -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``path`` open (``mode`` as for ``open``), as a
    program holds the log it appends to."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "\n"
        yield holder
    finally:
        holder.communicate("", timeout=60)


BROKEN_JSON = '{"a": 1,\n "b": [1, 2,, 3]}\n'
"""Invalid at 2:13 (offset 21); the best repair removes the second comma."""


def mixed_folder(folder: Path) -> Path:
    """``folder`` with a valid file, an incorrect one (``bad.json``:
    :data:`BROKEN_JSON`) and one that ends too early (``short.yaml``)."""
    (folder / "good.json").write_text('{"a": 1}\n')
    (folder / "bad.json").write_text(BROKEN_JSON)
    (folder / "short.yaml").write_text("a: [1, 2\n")
    return folder
