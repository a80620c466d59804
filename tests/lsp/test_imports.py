"""Opening a folder never runs its code: the server, its workers and its
validators import nothing from the working directory or the workspace,
however the server was started."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.lsp.raw import raw_server, request

# Modules a worker or a validator would import; each leaves a mark if it runs.
SHADOWED = ["pickle", "socket", "json", "multiprocessing", "selectors", "struct", "lark", "regex"]
VALIDATOR = "plistlib"  # a user-level validator `plistlib:loads`, not loaded by inputmend
BIN = Path(sys.executable).parent


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    """A project folder whose modules shadow the standard library."""
    project, marks = tmp_path / "project", tmp_path / "marks"
    project.mkdir()
    marks.mkdir()
    for name in [*SHADOWED, VALIDATOR]:
        (project / f"{name}.py").write_text(f"open({str(marks / name)!r}, 'w').close()\n")
    (project / "bad.json").write_text('{"a": 1,, "b": 2}')
    return project, marks


@pytest.mark.parametrize(
    "command",
    [[str(BIN / "inputmend"), "lsp"], [sys.executable, "-P", "-m", "inputmend", "lsp"]],
    ids=["console script", "python -P -m"],
)
def test_a_server_started_in_the_project_imports_nothing_from_it(
    hostile: tuple[Path, Path], command: list[str]
) -> None:
    project, marks = hostile
    oracles = [{"files": "*.json", "grammar": "json", "python": f"{VALIDATOR}:loads"}]
    with raw_server(cwd=project, command=command) as server:
        server.initialize(
            rootUri=project.as_uri(), initializationOptions={"inputmend": {"oracles": oracles}}
        )
        uri = server.open(project / "bad.json", (project / "bad.json").read_text())
        server.send(
            request(
                2,
                "workspace/executeCommand",
                {"command": "inputmend.awaitAnalysis", "arguments": [uri]},
            )
        )
        answer = server.answer(2, timeout=120)
        assert answer.get("result") is True, answer
    assert sorted(p.name for p in marks.iterdir()) == []
