"""End-to-end: headless Neovim (0.7+) as a real LSP client of the inputmend server.

Neovim opens a corrupt JSON file, starts ``python -m inputmend lsp`` through its
built-in client, waits for the diagnostic, asks for code actions until the
preferred quick fix is there, applies its WorkspaceEdit in the client's offset
encoding (UTF-16 in 0.7), writes the file and quits (see ``repair.lua``).
The test then reads the file back.  Skipped when ``nvim`` is not installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import inputmend

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "repair.lua"
TIMEOUT_S = 60

CASES = {
    "ascii": ('{ "name": "Dave" "age": 42 }', {"name": "Dave", "age": 42}),
    # Before the error on its line: CJK (1 UTF-16 unit, 3 bytes) and emoji
    # (2 UTF-16 units, 4 bytes), so characters, UTF-16 units and bytes differ.
    "non-ascii": (
        '{\n  "名前": "デイブ 😀",\n  "emoji": "🎉🎉🎉 猫" "age": 42\n}\n',
        {"名前": "デイブ 😀", "emoji": "🎉🎉🎉 猫", "age": 42},
    ),
}


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("neovim not found; `apt-get install neovim` to run the end-to-end test")
    return nvim


def _environment(tmp_path: Path, config: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    # the server is `sys.executable -m inputmend`: make this very package importable
    package_root = str(Path(inputmend.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_root, *filter(None, [env.get("PYTHONPATH")])])
    # keep Neovim's state (lsp.log, shada) out of the user's home
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / "xdg" / name.lower())
    env["INPUTMEND_E2E"] = json.dumps(config)
    return env


def _lsp_log(tmp_path: Path) -> str:
    logs = sorted((tmp_path / "xdg").rglob("lsp.log"))
    return "\n".join(log.read_text(errors="replace")[-20_000:] for log in logs)


def _run_neovim(tmp_path: Path, document: Path) -> tuple[int, str, dict[str, Any]]:
    """Run the Lua script in headless Neovim; (exit status, output, result)."""
    result_path = tmp_path / "result.json"
    config = {
        "file": str(document),
        "cmd": [sys.executable, "-m", "inputmend", "lsp"],
        "root": str(tmp_path),
        "result": str(result_path),
        "timeout_ms": (TIMEOUT_S - 10) * 1000,
        "init_options": {"debounceMs": 50},
    }
    command = [
        _nvim(),
        "--headless",
        "--clean",
        "-u",
        "NONE",
        "-i",
        "NONE",
        "-n",
        "-c",
        f"luafile {SCRIPT}",
    ]
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=_environment(tmp_path, config),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,  # its own process group: nothing survives a hang
    )
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT_S)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        status = -1
        stderr += f"\n(killed: neovim did not finish in {TIMEOUT_S} s)"
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # a server or worker left behind
    output = f"--- nvim stdout\n{stdout}\n--- nvim stderr\n{stderr}\n"
    output += f"--- lsp.log (tail)\n{_lsp_log(tmp_path)}\n"
    result: dict[str, Any] = {}
    if result_path.exists():
        result = json.loads(result_path.read_text(encoding="utf-8"))
        output += f"--- result\n{json.dumps(result, indent=2, ensure_ascii=False)}\n"
    return status, output, result


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
@pytest.mark.parametrize("case", sorted(CASES))
def test_neovim_applies_the_preferred_repair(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    document = tmp_path / "person.json"
    document.write_text(text, encoding="utf-8")

    status, output, result = _run_neovim(tmp_path, document)

    assert status == 0, f"nvim exited with {status}\n{output}"
    assert result.get("ok"), output
    assert "syntax" in result["diagnostics"], output
    assert result["offset_encoding"] in ("utf-8", "utf-16", "utf-32"), output
    repaired = document.read_text(encoding="utf-8")
    assert json.loads(repaired) == expected, output
    assert result["cleared"], f"diagnostics did not clear after the repair\n{output}"
    assert result["stopped"] and result["server_exit"]["code"] == 0, output
