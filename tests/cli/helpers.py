"""Running the command line in this process."""

from __future__ import annotations

import pytest

from inputmend.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``inputmend ARGS``."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err
