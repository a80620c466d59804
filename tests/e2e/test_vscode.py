"""End to end in a real VS Code: the packaged extension in code-server, driven by Chromium.

``make vsix`` builds the extension; ``tests/e2e/vscode/install-tools.sh`` (run by
``make e2e-tools``) installs code-server, Debian's chromium and playwright-core.
This module installs the vsix into a fresh profile, opens a folder in Restricted
Mode (the folder is hostile: its ``json.py``, ``inputmend.py``, ... and its
workspace settings would leave marker files if anything ran them), and lets
``vscode/drive.js`` use the workbench as a person would.  Each check of the
driver is one test here; a last test checks that no marker appeared.

Nothing is set up but the extension, as for a new user: no interpreter setting, and
``python3`` on ``PATH`` is a fresh virtual environment with nothing installed, so
the extension must find it and run the server it carries (``bundled/``).

Skipped, saying why, when the tools or the vsix are missing.  On a failure (or
with ``INPUTMEND_E2E_KEEP=1``) the screenshots, the driver's result and
code-server's logs are kept in ``tests/e2e/artifacts/`` (git-ignored); the
failure message names the folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CLIENT = REPO / "client-vscode"
DRIVER = HERE / "vscode" / "drive.js"
ARTIFACTS = HERE / "artifacts"
CHECK_TIMEOUT_S = 60
DRIVER_TIMEOUT_S = 480

# In the order drive.js runs them.
CHECKS = (
    "activation",
    "squiggle-and-problems",
    "quick-fix-list",
    "preferred-fix",
    "auto-fix",
    "on-save",
    "on-save-show-all",
    "show-repairs",
    "repair-document",
    "one-problem",
    "explain-ddset",
    "restricted-mode",
    "status-states",
    "restart",
    "server-log",
)
# The document each repairing check saves; it must be valid JSON on disk afterwards.
SAVED = {
    "preferred-fix": "person.json",
    "auto-fix": "order.json",
    "on-save": "save.json",
    "on-save-show-all": "listing.json",
    "show-repairs": "choose.json",
    "repair-document": "repair.json",
}
DOCUMENTS = {
    "person.json": '{ "name": "Dave" "age": 42 }\n',
    "order.json": '{ "item": "Apple", "price": **3.45 }\n',
    "save.json": '{"a": 1, "b": [true, null]}\n',
    "listing.json": '{"a": [1, 2]}',
    "package.json": '{\n  "name": "inputmend",\n  "version": "0.1.0"\n  "private": true\n}\n',
    "choose.json": "[1, 2,, 3]\n",
    "repair.json": '{"list": [1 2 3]}\n',
    "calc.expr": "1 + ((2 * 3 / 4))\n",
    "notes.csv": "a,b\n1,2\n",
}
# Modules a hostile folder can plant in front of the server's imports: the
# server itself, its dependencies, and what multiprocessing's spawned workers
# import before they restore the parent's sys.path.
HOSTILE_MODULES = ("inputmend", "json", "lark", "pygls", "pickle", "socket")
# The program under test of the DDSET check: it fails on doubled parentheses.
DOUBLE_PARENS = (
    "import re, sys\nsys.exit(1 if re.search(r'\\(\\(.*\\)\\)', sys.stdin.read()) else 0)\n"
)


@dataclass(frozen=True)
class Tools:
    code_server: str
    playwright_core: str
    chromium: str
    node: str


def _tools() -> Tools:
    cache = Path(
        os.environ.get("INPUTMEND_E2E_CACHE")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "inputmend-e2e"
    )
    how = "`make e2e-tools` installs them (as root with apt and npm, as in CI)"
    try:
        found = json.loads((cache / "tools.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pytest.skip(f"code-server, chromium or playwright-core is not installed in {cache}; {how}")
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not found")
    tools = Tools(found["code_server"], found["playwright_core"], found["chromium"], node)
    for path in (tools.code_server, tools.playwright_core, tools.chromium):
        if not Path(path).exists():
            pytest.skip(f"{path} is gone; {how}")
    return tools


def _vsix() -> Path:
    version = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))["version"]
    vsix = CLIENT / f"inputmend-{version}.vsix"
    if not vsix.exists():
        pytest.skip(f"{vsix.relative_to(REPO)} not built; `make vsix` builds it")
    sources = [
        CLIENT / "package.json",
        CLIENT / "bundled/tool/server.py",
        *(CLIENT / "src").glob("*.ts"),
    ]
    newer = [str(p.relative_to(REPO)) for p in sources if p.stat().st_mtime > vsix.stat().st_mtime]
    if newer:
        pytest.skip(f"{vsix.relative_to(REPO)} is older than {', '.join(newer)}; `make vsix`")
    return vsix


def _write_folder(folder: Path, markers: Path) -> None:
    """The documents, and code that must never run: each piece leaves a marker."""
    for name, text in DOCUMENTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    for module in HOSTILE_MODULES:
        (folder / f"{module}.py").write_text(
            f"import pathlib\npathlib.Path({str(markers / module)!r}).write_text('imported')\n",
            encoding="utf-8",
        )
    evil_python = folder / "evil-python"
    evil_python.write_text(f"#!/bin/sh\ntouch {markers / 'evil-python'}\nexit 1\n")
    evil_python.chmod(0o755)
    touch = ["sh", "-c", f"touch {markers / 'workspace-command'}"]
    (folder / ".vscode").mkdir()
    (folder / ".vscode" / "settings.json").write_text(
        json.dumps(
            {
                "inputmend.server.pythonPath": "${workspaceFolder}/evil-python",
                "inputmend.oracles": [{"files": "*.json", "command": touch}],
                "inputmend.trustWorkspaceCommands": True,
            }
        ),
        encoding="utf-8",
    )
    (folder / ".inputmend.toml").write_text(
        f'[[oracle]]\nfiles = "*.csv"\ngrammar = "csv"\ncommand = {json.dumps(touch)}\n',
        encoding="utf-8",
    )


def _plain_python(where: Path) -> Path:
    """A fresh virtual environment without pip or anything else: its python3
    cannot import inputmend or any of its dependencies."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python3"
    for module in ("inputmend", "pygls", "lark"):
        found = subprocess.run([python, "-c", f"import {module}"], capture_output=True, cwd=where)
        assert found.returncode != 0, f"{python} imports {module}: not a plain interpreter"
    return python


def _user_settings(python: Path, validator: Path) -> dict[str, Any]:
    return {
        "inputmend.oracles": [
            {"files": "*.expr", "grammar": "expr", "command": [str(python), str(validator)]}
        ],
        # Restricted Mode without the trust dialog.
        "security.workspace.trust.startupPrompt": "never",
        # Only inputmend's squiggles in JSON files.
        "json.validate.enable": False,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.enableExperiments": False,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "extensions.ignoreRecommendations": True,
        "git.enabled": False,
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def _code_server(tools: Tools, profile: Path, folder: Path, env: dict[str, str]) -> Iterator[str]:
    """code-server on a free loopback port, in its own process group."""
    port = _free_port()
    config = profile / "config.yaml"
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
    log = (profile / "code-server.log").open("w")
    command = [
        tools.code_server,
        *("--config", str(config), "--user-data-dir", str(profile / "data")),
        *("--extensions-dir", str(profile / "extensions")),
        *("--disable-telemetry", "--disable-update-check", "--disable-getting-started-override"),
        str(folder),
    ]
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"code-server did not start; see {log.name}") from None
                time.sleep(0.3)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # language servers and their workers
        process.wait()
        log.close()


@dataclass(frozen=True)
class Run:
    checks: dict[str, dict[str, Any]]
    markers: list[str]
    folder: Path
    report: str


def _keep(run_dir: Path, output: str) -> Path:
    """Screenshots, the driver's result and code-server's logs, kept for a failure."""
    kept = ARTIFACTS / f"vscode-{time.strftime('%Y%m%d-%H%M%S')}"
    kept.mkdir(parents=True, exist_ok=True)
    (kept / "driver-output.txt").write_text(output, encoding="utf-8")
    for name in ("screenshots", "result.json", "profile/code-server.log", "profile/data/logs"):
        source = run_dir / name
        target = kept / Path(name).name
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy2(source, target)
    return kept


def _run_vscode(run_dir: Path) -> Run:
    tools = _tools()
    vsix = _vsix()
    python = _plain_python(run_dir / "plain-python")
    profile, folder, markers = run_dir / "profile", run_dir / "folder", run_dir / "markers"
    for path in (profile / "data" / "User", profile / "data" / "Machine", folder, markers):
        path.mkdir(parents=True)
    validator = run_dir / "double_parens.py"
    validator.write_text(DOUBLE_PARENS, encoding="utf-8")
    _write_folder(folder, markers)
    (profile / "data" / "User" / "settings.json").write_text(
        json.dumps(_user_settings(python, validator), indent=2)
    )
    machine_settings = profile / "data" / "Machine" / "settings.json"
    machine_settings.write_text("{}")

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(python.parent), env.get("PATH", "")])
    # The extension host gets this PATH, not one that a login shell's profile makes
    # (VS Code's server reads the shell's environment unless started from its CLI).
    env["VSCODE_CLI"] = "1"
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(run_dir / "xdg" / name.lower())
    subprocess.run(
        [
            tools.code_server,
            *("--config", str(profile / "install.yaml")),
            *("--user-data-dir", str(profile / "data")),
            *("--extensions-dir", str(profile / "extensions")),
            *("--install-extension", str(vsix)),
        ],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )

    result_path = run_dir / "result.json"
    output = ""
    with _code_server(tools, profile, folder, env) as url:
        config = {
            "url": url,
            "folder": str(folder),
            "chromium": tools.chromium,
            "playwright": tools.playwright_core,
            "artifacts": str(run_dir / "screenshots"),
            "result": str(result_path),
            "logs": str(profile / "data" / "logs"),
            "machineSettings": str(machine_settings),
            "python": "python3",
            "timeoutMs": CHECK_TIMEOUT_S * 1000,
        }
        try:
            driver = subprocess.run(
                [tools.node, str(DRIVER)],
                env={**env, "INPUTMEND_VSCODE_E2E": json.dumps(config)},
                capture_output=True,
                text=True,
                timeout=DRIVER_TIMEOUT_S,
            )
            output = f"exit {driver.returncode}\n{driver.stdout}\n{driver.stderr}"
        except subprocess.TimeoutExpired as timeout:
            output = f"the driver did not finish in {DRIVER_TIMEOUT_S} s\n{timeout.stderr!r}"
    result = json.loads(result_path.read_text()) if result_path.exists() else {}
    checks = {check["name"]: check for check in result.get("checks", [])}
    found = sorted(path.name for path in markers.iterdir())
    report = output
    failed = found or len(checks) < len(CHECKS) or not all(c["ok"] for c in checks.values())
    if failed or os.environ.get("INPUTMEND_E2E_KEEP"):
        report += f"\nscreenshots and logs kept in {_keep(run_dir, output)}"
    return Run(checks, found, folder, report)


@pytest.fixture(scope="module")
def vscode_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return _run_vscode(tmp_path_factory.mktemp("vscode"))


@pytest.mark.skipif(sys.platform != "linux", reason="code-server and Debian's chromium")
@pytest.mark.timeout(DRIVER_TIMEOUT_S + 180)
@pytest.mark.parametrize("name", CHECKS)
def test_vscode(vscode_run: Run, name: str) -> None:
    check = vscode_run.checks.get(name)
    assert check is not None, f"{name} was not reached\n{vscode_run.report}"
    assert check["ok"], f"{name}: {check['detail']}\n{vscode_run.report}"
    saved = SAVED.get(name)
    if saved is not None:
        json.loads((vscode_run.folder / saved).read_text(encoding="utf-8"))


@pytest.mark.skipif(sys.platform != "linux", reason="code-server and Debian's chromium")
@pytest.mark.timeout(DRIVER_TIMEOUT_S + 180)
def test_opening_the_folder_runs_none_of_its_code(vscode_run: Run) -> None:
    assert vscode_run.checks, f"the driver did not run\n{vscode_run.report}"
    assert vscode_run.markers == [], f"code of the opened folder ran\n{vscode_run.report}"
