"""Whom the language server obeys: workspace configuration files only from
inside the open workspace folders, grammar paths that stay inside, and the
client's relative paths starting at the workspace."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.lsp.conftest import codes, open_document, replace_text, session, wait_until

TRUST = {"inputmend": {"trustWorkspaceCommands": True}}


def _config_with_marking_command(folder: Path, mark: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    script = f"open({str(mark)!r}, 'w').close()"
    (folder / ".inputmend.toml").write_text(
        f'[[oracle]]\nfiles = "*.expr"\ngrammar = "expr"\n'
        f'command = ["{sys.executable}", "-c", "{script}"]\n'
    )


async def test_a_document_outside_the_workspace_never_gets_its_ancestors_validators(
    tmp_path: Path,
) -> None:
    workspace, outside, mark = tmp_path / "workspace", tmp_path / "elsewhere", tmp_path / "ran"
    workspace.mkdir()
    _config_with_marking_command(outside, mark)
    async with session(root=workspace, init_options=TRUST) as (client, _):
        uri = open_document(client, outside / "calc.expr", "1 + 2", "plaintext")
        await wait_until(lambda: "untrusted-validator" in codes(client, uri))
        [note] = [d for d in client.diagnostics[uri] if d.code == "untrusted-validator"]
        assert "outside the open workspace folders" in note.message
    assert not mark.exists()


async def test_a_workspace_configuration_inside_the_workspace_is_obeyed(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    _config_with_marking_command(tmp_path / "workspace", mark)
    async with session(root=tmp_path / "workspace", init_options=TRUST) as (client, _):
        uri = open_document(client, tmp_path / "workspace" / "sub" / "a.expr", "1 + 2", "plaintext")
        await wait_until(mark.exists)
        assert "untrusted-validator" not in codes(client, uri)


async def test_a_workspace_grammar_path_must_stay_inside_the_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (tmp_path / "secret.txt").write_text("TOPSECRET hunter2\n")
    (workspace / ".inputmend.toml").write_text(
        '[[oracle]]\nfiles = "*.data"\ngrammar = "../secret.txt"\n'
    )
    async with session(root=workspace) as (client, _):
        uri = open_document(client, workspace / "a.data", "x", "plaintext")
        await wait_until(lambda: "configuration" in codes(client, uri))
        messages = " ".join(d.message for d in client.diagnostics[uri])
        assert "outside" in messages and "TOPSECRET" not in messages


async def test_relative_paths_in_the_clients_settings_start_at_the_workspace(
    tmp_path: Path,
) -> None:
    """The server runs in a neutral folder: `validators.py` is the workspace's."""
    (tmp_path / "validators.py").write_text(
        "def check(text):\n    if '((' in text:\n        raise ValueError('doubled')\n"
    )
    oracle = {"files": "*.expr", "grammar": "expr", "python": "validators.py:check"}
    options = {"inputmend": {"oracles": [oracle], "trustWorkspaceCommands": True}}
    async with session(root=tmp_path, init_options=options) as (client, _):
        uri = open_document(client, tmp_path / "calc.expr", "1 + ((2))", "plaintext")
        await wait_until(lambda: "validator" in codes(client, uri))
        [diagnostic] = [d for d in client.diagnostics[uri] if d.code == "validator"]
        assert "doubled" in diagnostic.message


@pytest.mark.skipif(os.geteuid() != 0, reason="changing owners needs root")
async def test_a_workspace_configuration_owned_by_someone_else_is_not_obeyed(
    tmp_path: Path,
) -> None:
    workspace, mark = tmp_path / "workspace", tmp_path / "ran"
    _config_with_marking_command(workspace, mark)
    os.chown(workspace / ".inputmend.toml", 65534, 65534)
    async with session(root=workspace, init_options=TRUST) as (client, _):
        uri = open_document(client, workspace / "a.expr", "1 + 2", "plaintext")
        await wait_until(lambda: "untrusted-validator" in codes(client, uri))
        [note] = [d for d in client.diagnostics[uri] if d.code == "untrusted-validator"]
        assert "owned by another user (uid 65534)" in note.message
    assert not mark.exists()


def _workspace_code(workspace: Path, mark: Path) -> dict[str, dict[str, str]]:
    """Validators of the workspace's own: a program and a Python file that
    leave ``mark`` when they run; the client settings naming each."""
    (workspace / "tools").mkdir(parents=True)
    program = workspace / "tools" / "validate"
    program.write_text(f"#!/bin/sh\ntouch {mark}\ncat >/dev/null\n")
    program.chmod(0o755)
    (workspace / "checks").mkdir()
    (workspace / "checks" / "cfg.py").write_text(
        f"open({str(mark)!r}, 'w').close()\ndef check(text):\n    pass\n"
    )
    return {
        "program": {"files": "*.expr", "grammar": "expr", "command": "tools/validate"},
        "python file": {"files": "*.expr", "grammar": "expr", "python": "checks/cfg.py:check"},
    }


@pytest.mark.parametrize("kind", ["program", "python file"])
async def test_an_untrusted_workspace_runs_none_of_its_own_files(
    tmp_path: Path, kind: str
) -> None:
    workspace, mark = tmp_path / "workspace", tmp_path / "ran"
    oracle = _workspace_code(workspace, mark)[kind]
    options = {"inputmend": {"oracles": [oracle]}}
    async with session(root=workspace, init_options=options) as (client, _):
        uri = open_document(client, workspace / "a.expr", "1 + 2", "plaintext")
        await wait_until(lambda: "untrusted-validator" in codes(client, uri))
        [note] = [d for d in client.diagnostics[uri] if d.code == "untrusted-validator"]
        assert "trustWorkspaceCommands" in note.message
        replace_text(client, uri, 2, "1 +")
        await wait_until(lambda: any(d.severity == 1 for d in client.diagnostics[uri]))
    assert not mark.exists(), "the grammar still judges; the workspace's file never ran"


@pytest.mark.parametrize("kind", ["program", "python file"])
async def test_a_trusted_workspace_runs_its_own_files(tmp_path: Path, kind: str) -> None:
    workspace, mark = tmp_path / "workspace", tmp_path / "ran"
    oracle = _workspace_code(workspace, mark)[kind]
    options = {"inputmend": {"oracles": [oracle], "trustWorkspaceCommands": True}}
    async with session(root=workspace, init_options=options) as (client, _):
        open_document(client, workspace / "a.expr", "1 + 2", "plaintext")
        await wait_until(mark.exists)


async def test_a_client_settings_grammar_outside_the_workspace_is_not_read(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    secret = tmp_path / "shadow"
    secret.write_text("root:TOPSECRET:19000:0:99999:7:::\n")
    oracle = {"files": "*.data", "grammar": str(secret)}
    async with session(root=workspace, init_options={"inputmend": {"oracles": [oracle]}}) as (
        client,
        _,
    ):
        uri = open_document(client, workspace / "a.data", "x", "plaintext")
        await wait_until(lambda: "configuration" in codes(client, uri))
        messages = " ".join(d.message for d in client.diagnostics[uri])
        assert "outside" in messages and "TOPSECRET" not in messages
