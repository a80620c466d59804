"""A pytest-lsp client session against the real server process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

SERVER = [sys.executable, "-m", "inputmend", "lsp"]


class Recorder:
    """What the server sent besides diagnostics' latest state."""

    def __init__(self) -> None:
        self.published: list[tuple[str, int | None, list[types.Diagnostic], float]] = []
        self.applied: list[types.WorkspaceEdit] = []
        self.requests: list[types.ShowMessageRequestParams] = []
        self.answer: str | None = None


def _client_factory(recorder: Recorder) -> Callable[[], LanguageClient]:
    def make() -> LanguageClient:
        client = make_test_lsp_client()

        @client.feature(types.WORKSPACE_APPLY_EDIT)
        def apply_edit(ls: LanguageClient, params: types.ApplyWorkspaceEditParams) -> Any:
            recorder.applied.append(params.edit)
            return types.ApplyWorkspaceEditResult(applied=True)

        @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
        def message_request(ls: LanguageClient, params: types.ShowMessageRequestParams) -> Any:
            recorder.requests.append(params)
            return next((a for a in params.actions or [] if a.title == recorder.answer), None)

        features = client.protocol.fm.features
        original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def publish(params: types.PublishDiagnosticsParams) -> Any:
            recorder.published.append(
                (params.uri, params.version, list(params.diagnostics), time.monotonic())
            )
            return original(params)

        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish

        # lsprotocol decodes a CodeAction carrying a command as a Command:
        # tell the two apart by the type of ``command``.
        converter = client.protocol._converter

        def action_or_command(data: Any, _: Any) -> Any:
            if isinstance(data.get("command"), str):
                return converter.structure(data, types.Command)
            return converter.structure(data, types.CodeAction)

        converter.register_structure_hook(types.CodeAction | types.Command, action_or_command)
        return client

    return make


@contextlib.asynccontextmanager
async def session(
    *,
    capabilities: types.ClientCapabilities | None = None,
    init_options: Any = None,
    configuration: dict[str, Any] | None = None,
    root: Path | None = None,
    env: dict[str, str] | None = None,
) -> AsyncIterator[tuple[LanguageClient, Recorder]]:
    recorder = Recorder()
    config = ClientServerConfig(
        server_command=SERVER,
        client_factory=_client_factory(recorder),
        server_env=None if env is None else {**os.environ, **env},
    )
    client = await config.start()
    assert isinstance(client, LanguageClient)
    if configuration is not None:
        client.set_configuration(configuration)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or client_capabilities("visual-studio-code"),
            initialization_options=init_options,
            root_uri=root.as_uri() if root else None,
        )
    )
    try:
        yield client, recorder
    finally:
        await client.shutdown_session()
        await client.stop()


def open_document(client: LanguageClient, path: Path, text: str, language: str = "json") -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, language, 1, text))
    )
    return uri


def replace_text(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def wait_until(condition: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("condition not met in time")


def codes(client: LanguageClient, uri: str) -> list[str]:
    return [str(d.code) for d in client.diagnostics.get(uri, [])]


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions, single-line ASCII texts in tests)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


def edits_of(action: types.CodeAction) -> list[types.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        change = action.edit.document_changes[0]
        assert isinstance(change, types.TextDocumentEdit)
        return [e for e in change.edits if isinstance(e, types.TextEdit)]
    assert action.edit.changes
    return list(next(iter(action.edit.changes.values())))


async def code_actions(client: LanguageClient, uri: str) -> list[types.CodeAction]:
    """The quick fixes offered for the whole document now."""
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=list(client.diagnostics.get(uri, []))),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


async def analysed(client: LanguageClient, uri: str) -> None:
    """Wait until the background analysis of the document's version is over."""
    done = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("inputmend.awaitAnalysis", [uri])
    )
    assert done is True
