"""Running the command line in this process."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``inputmend ARGS``."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


BROKEN_JSON = '{"a": 1,\n "b": [1, 2,, 3]}\n'
"""Invalid at 2:13 (offset 21); the best repair removes the second comma."""


def mixed_folder(folder: Path) -> Path:
    """``folder`` with a valid file, an incorrect one (``bad.json``:
    :data:`BROKEN_JSON`) and one that ends too early (``short.yaml``)."""
    (folder / "good.json").write_text('{"a": 1}\n')
    (folder / "bad.json").write_text(BROKEN_JSON)
    (folder / "short.yaml").write_text("a: [1, 2\n")
    return folder
