"""End-to-end: headless Emacs with eglot as a real LSP client of the inputmend server.

Emacs (``--batch``) loads the documented set-up as its ``init.el``, pasted
as a user would, with the ``inputmend`` command on ``PATH`` as after
activating the virtual environment, and ``HOME`` in a temporary folder.  It
opens a corrupt JSON file in a project folder whose ``json.py``,
``inputmend.py``, ... leave a marker when imported (eglot starts servers in
the project's root folder); the set-up starts the server through eglot, and
``eglot-repair.el`` waits for the diagnostic in Flymake, runs
``eglot-code-actions`` at it once the preferred quick fix is offered, takes
the default choice, saves the file and shuts the server down.  The test then
reads the file back and checks that no marker appeared and that no process
was left running.  Skipped when Emacs or eglot is not installed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.documentation import fenced, page, section
from tests.e2e.clients import (
    CASES,
    EditorRun,
    activated_path,
    document_in_hostile_project,
    run_editor,
)

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "eglot-repair.el"
TIMEOUT_S = 90
DIAGNOSTIC = "inputmend [syntax]: unexpected `\"`; expected `,`, `}`"


def _emacs() -> str:
    emacs = shutil.which("emacs")
    if emacs is None:
        pytest.skip("emacs not found; `apt-get install emacs-nox` to run the end-to-end test")
    probe = subprocess.run(
        [emacs, "--batch", "--eval", "(kill-emacs (if (locate-library \"eglot\") 0 1))"],
        capture_output=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    if probe.returncode != 0:
        pytest.skip("eglot not found (Emacs 29, or `apt-get install elpa-eglot` on Emacs 28)")
    return emacs


def _documented_init() -> str:
    """The documented Emacs set-up (its one elisp block)."""
    blocks = fenced(section(page("editors.md"), "## Emacs"), "elisp")
    assert len(blocks) == 1, "the Emacs section should hold exactly one elisp set-up"
    return blocks[0]


def _run_emacs(tmp_path: Path, document: Path) -> tuple[EditorRun, str, dict[str, Any]]:
    """Open `document` in batch Emacs with the documented set-up, from the
    document's folder (the project); (the run, its output, the result)."""
    result_path = tmp_path / "result.json"
    init = tmp_path / "init.el"
    init.write_text(_documented_init(), encoding="utf-8")
    home = tmp_path / "home"  # no ~/.emacs.d of the user's, nothing written there
    home.mkdir()
    config = {
        "file": str(document),
        "result": str(result_path),
        "timeout_ms": (TIMEOUT_S - 20) * 1000,
    }
    env = {
        "PATH": activated_path(),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "INPUTMEND_E2E": json.dumps(config),
    }
    run = run_editor(
        [_emacs(), "--batch", "-l", str(init), "-l", str(SCRIPT)],
        cwd=document.parent,
        env=env,
        timeout_s=TIMEOUT_S,
    )
    output = f"--- emacs stdout\n{run.stdout}\n--- emacs stderr\n{run.stderr}\n"
    result: dict[str, Any] = {}
    if result_path.exists():
        result = json.loads(result_path.read_text(encoding="utf-8"))
        output += f"--- result\n{json.dumps(result, indent=2, ensure_ascii=False)}\n"
    return run, output, result


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
@pytest.mark.parametrize("case", sorted(CASES))
def test_emacs_eglot_applies_the_preferred_repair(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    document, markers = document_in_hostile_project(tmp_path, text)

    run, output, result = _run_emacs(tmp_path, document)

    assert run.status == 0, f"emacs exited with {run.status}\n{output}"
    assert result.get("ok"), output
    assert result["cmd"] == ["inputmend", "lsp"], output
    assert sorted(path.name for path in markers.iterdir()) == [], f"project code ran\n{output}"
    assert result["diagnostics"] == [DIAGNOSTIC], output
    # RET took the default of eglot's prompt: the preferred fix
    assert result["chosen"] == result["preferred"], output
    assert result["chosen"].startswith("Insert missing `,` after "), output
    repaired = document.read_text(encoding="utf-8")
    assert json.loads(repaired) == expected, output
    assert result["cleared"], f"diagnostics did not clear after the repair\n{output}"
    assert result["shutdown_answered"], output
    assert run.left_behind == [], f"processes left running\n{output}"
