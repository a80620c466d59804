"""``make dist``'s packages work where inputmend is not: the wheel, built
from the sdist as ``python -m build`` does, installs into a fresh virtual
environment (its dependencies from the package index) and runs ``inputmend
check`` and ``inputmend lsp`` from a folder outside the source tree."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lsp.raw import notification, raw_server, request

GRAMMARS = sorted(path.name for path in (ROOT / "grammars").glob("*.lark"))


def _run(*command: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.timeout(1800)
def test_the_wheel_works_in_a_fresh_environment(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = _run(sys.executable, "-m", "build", "--outdir", dist, ROOT, cwd=tmp_path)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    [sdist] = dist.glob("inputmend-*.tar.gz")
    [wheel] = dist.glob("inputmend-*.whl")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        assert all(any(n.endswith(f"/grammars/{g}") for n in names) for g in GRAMMARS)
    with zipfile.ZipFile(wheel) as archive:
        packaged = {n.rsplit("/", 1)[1] for n in archive.namelist() if "/data/grammars/" in n}
    assert sorted(n for n in packaged if n.endswith(".lark")) == GRAMMARS

    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    python, inputmend = venv / "bin" / "python", venv / "bin" / "inputmend"
    installed = _run(python, "-m", "pip", "install", "--quiet", wheel, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr[-3000:]

    work = tmp_path / "work"
    work.mkdir()
    (work / "valid.json").write_text('{"a": [1, 2]}\n')
    (work / "invalid.yaml").write_text("a: [1, 2\nb: 3\n")
    where = _run(python, "-c", "import inputmend; print(inputmend.__file__)", cwd=work)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    valid = _run(inputmend, "check", "valid.json", cwd=work)
    assert (valid.returncode, valid.stdout) == (0, "valid.json: valid\n"), valid.stderr
    invalid = _run(inputmend, "check", "invalid.yaml", cwd=work)
    assert invalid.returncode == 1, invalid.stderr
    assert invalid.stdout.startswith("invalid.yaml:2:3: error:")
    listed = _run(inputmend, "grammars", cwd=work)
    assert len(listed.stdout.splitlines()) == len(GRAMMARS)

    with raw_server(command=[str(inputmend), "lsp"], cwd=work) as server:
        server.send(request(1, "initialize", {"processId": None, "capabilities": {}}))
        answer = server.answer(1, timeout=120)
        assert answer["result"]["serverInfo"]["name"] == "inputmend"
        server.send(notification("initialized", {}))
        uri = (work / "invalid.yaml").as_uri()
        item = {"uri": uri, "languageId": "yaml", "version": 1, "text": "a: [1, 2\nb: 3\n"}
        server.send(notification("textDocument/didOpen", {"textDocument": item}))
        while True:
            message = server.receive(timeout=120)
            assert message is not None, "no diagnostics for the invalid document"
            if (
                message.get("method") == "textDocument/publishDiagnostics"
                and (message["params"]["diagnostics"])
            ):
                break
        server.send(request(2, "shutdown"))
        assert server.answer(2, timeout=60)["result"] is None
        server.send(notification("exit"))
        assert server.process.wait(60) == 0
