"""End-to-end: headless Neovim (0.7+) as a real LSP client of the inputmend server.

Neovim runs the documented set-up (docs/editors.md) as its ``init.lua``, pasted as a user would,
with the ``inputmend`` command on ``PATH`` as after ``make demo`` and activating
the virtual environment.  It opens a corrupt JSON file in a project folder
whose ``json.py``, ``inputmend.py``, ... leave a marker when imported; the set-up
starts the server, and ``repair.lua`` waits for the diagnostic, asks for code
actions until the preferred quick fix is there, applies its WorkspaceEdit in the
client's offset encoding (UTF-16 in 0.7), writes the file and quits.  The test
then reads the file back and checks that no marker appeared.  The page's
other Neovim snippets (nvim-lspconfig, Neovim 0.11) are checked to compile.
Skipped when ``nvim`` is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.documentation import fenced, page, section
from tests.e2e.clients import (
    CASES,
    activated_path,
    document_in_hostile_project,
    run_editor,
)

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "repair.lua"
TIMEOUT_S = 60
HEADLESS = ("--headless", "--clean", "-i", "NONE", "-n")  # no shada, no swap file


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("neovim not found; `apt-get install neovim` to run the end-to-end test")
    return nvim


def _documented_lua() -> list[str]:
    """The Lua blocks of the editors page's Neovim section, the init.lua set-up first."""
    return fenced(section(page("editors.md"), "## Neovim"), "lua")


def _environment(tmp_path: Path, config: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = activated_path()
    env.pop("PYTHONPATH", None)
    # keep Neovim's state (lsp.log, shada) out of the user's home
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / "xdg" / name.lower())
    env["INPUTMEND_E2E"] = json.dumps(config)
    return env


def _lsp_log(tmp_path: Path) -> str:
    logs = sorted((tmp_path / "xdg").rglob("lsp.log"))
    return "\n".join(log.read_text(errors="replace")[-20_000:] for log in logs)


def _run_neovim(tmp_path: Path, document: Path) -> tuple[int, str, dict[str, Any]]:
    """Open `document` in headless Neovim with the documented set-up, from the
    document's folder (the project); (exit status, output, result)."""
    result_path = tmp_path / "result.json"
    init = tmp_path / "init.lua"
    init.write_text(_documented_lua()[0], encoding="utf-8")
    config = {
        "file": str(document),
        "result": str(result_path),
        "timeout_ms": (TIMEOUT_S - 10) * 1000,
    }
    run = run_editor(
        [_nvim(), *HEADLESS, "-u", str(init), "-c", f"luafile {SCRIPT}"],
        cwd=document.parent,
        env=_environment(tmp_path, config),
        timeout_s=TIMEOUT_S,
    )
    output = f"--- nvim stdout\n{run.stdout}\n--- nvim stderr\n{run.stderr}\n"
    output += f"--- lsp.log (tail)\n{_lsp_log(tmp_path)}\n"
    result: dict[str, Any] = {}
    if result_path.exists():
        result = json.loads(result_path.read_text(encoding="utf-8"))
        output += f"--- result\n{json.dumps(result, indent=2, ensure_ascii=False)}\n"
    return run.status, output, result


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
@pytest.mark.parametrize("case", sorted(CASES))
def test_neovim_applies_the_preferred_repair(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    document, markers = document_in_hostile_project(tmp_path, text)

    status, output, result = _run_neovim(tmp_path, document)

    assert status == 0, f"nvim exited with {status}\n{output}"
    assert result.get("ok"), output
    assert result["cmd"] == ["inputmend", "lsp"], output
    assert sorted(path.name for path in markers.iterdir()) == [], f"project code ran\n{output}"
    assert "syntax" in result["diagnostics"], output
    assert result["offset_encoding"] in ("utf-8", "utf-16", "utf-32"), output
    repaired = document.read_text(encoding="utf-8")
    assert json.loads(repaired) == expected, output
    assert result["cleared"], f"diagnostics did not clear after the repair\n{output}"
    assert result["stopped"] and result["server_exit"]["code"] == 0, output


def test_every_documented_snippet_compiles(tmp_path: Path) -> None:
    snippets = _documented_lua()
    assert len(snippets) >= 3, "the editors page's Neovim section lost its set-ups"
    files = []
    for number, snippet in enumerate(snippets):
        files.append(tmp_path / f"snippet{number}.lua")
        files[-1].write_text(snippet, encoding="utf-8")
    check = "; ".join(f"assert(loadfile({json.dumps(str(f))}))" for f in files)
    lua = (
        f"lua local ok, e = pcall(function() {check} end) "
        "if not ok then io.stderr:write(tostring(e)) vim.cmd('cquit 1') end"
    )
    completed = subprocess.run(
        [_nvim(), *HEADLESS, "-u", "NONE", "-c", lua, "-c", "qa!"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    assert completed.returncode == 0, completed.stderr
