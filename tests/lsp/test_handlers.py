"""Handlers are plain functions: called here without a client or a process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from inputmend.core.model import Edit, Repair
from inputmend.core.oracle import Feedback, Verdict
from inputmend.lsp import actions, lifecycle
from inputmend.lsp.action_data import ActionData
from inputmend.lsp.app import create_server
from inputmend.lsp.server import InputmendServer
from inputmend.lsp.transport import Frame

DAVE = '{ "name": "Dave" "age": 42 }'
COMMA = DAVE.index(' "age"')


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[InputmendServer]:
    server = create_server()
    server.protocol.client_capabilities = client_capabilities("visual-studio-code")
    published: list[types.PublishDiagnosticsParams] = []
    monkeypatch.setattr(server, "text_document_publish_diagnostics", published.append)
    server.published = published  # type: ignore[attr-defined]
    yield server
    server.scheduler.shutdown()


def _open(server: InputmendServer, tmp_path: Path, text: str = DAVE) -> str:
    uri = (tmp_path / "dave.json").as_uri()
    snapshot = server.session.open(uri, tmp_path / "dave.json", 1, text)
    fast = Feedback(Verdict.INCORRECT, COMMA + 1, 'unexpected `"`')
    repair = Repair(DAVE[:COMMA] + "," + DAVE[COMMA:], (Edit(COMMA, 0, ","),), "fsynth", True, 1)
    server.session.update(snapshot, fast=fast, repairs=(repair,), final=True, analysed=True)
    return uri


def _range() -> types.Range:
    return types.Range(types.Position(0, 0), types.Position(0, 0))


def test_code_actions_of_an_analysed_document(server: InputmendServer, tmp_path: Path) -> None:
    uri = _open(server, tmp_path)
    params = types.CodeActionParams(
        types.TextDocumentIdentifier(uri), _range(), types.CodeActionContext(diagnostics=[])
    )
    result = actions.code_action(server, params)
    assert result is not None
    [action] = result
    assert isinstance(action, types.CodeAction)
    data = ActionData.read(action.data)
    assert data.rank == 1 and data.preferred and data.version == 1
    assert action.title == 'Insert missing `,` after `"Dave"`'
    unknown = types.CodeActionParams(
        types.TextDocumentIdentifier("file:///nowhere.json"),
        _range(),
        types.CodeActionContext(diagnostics=[]),
    )
    assert actions.code_action(server, unknown) is None


def test_hover_at_the_error_only(server: InputmendServer, tmp_path: Path) -> None:
    uri = _open(server, tmp_path)
    at_error = actions.hover(
        server, types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 17))
    )
    assert at_error is not None and isinstance(at_error.contents, types.MarkupContent)
    assert 'Best repair: Insert missing `,` after `"Dave"` (found by fsynth)' in (
        at_error.contents.value
    )
    elsewhere = actions.hover(
        server, types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 2))
    )
    assert elsewhere is None


async def test_settings_changes_reconfigure_open_documents(
    server: InputmendServer, tmp_path: Path
) -> None:
    lifecycle.initialize(
        server,
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=tmp_path.as_uri(),
            initialization_options={"inputmend": {"top": 2}},
        ),
    )
    assert server.session.root == tmp_path and server.session.settings.top == 2
    uri = (tmp_path / "x.data").as_uri()
    server.session.open(uri, tmp_path / "x.data", 1, "[1, 2,]")
    assert server.session.get(uri).spec is None  # type: ignore[union-attr]
    settings = {"inputmend": {"oracles": [{"files": "*.data", "grammar": "json"}]}}
    params = types.DidChangeConfigurationParams(settings=settings)
    lifecycle.did_change_configuration(server, params)
    snapshot = server.session.get(uri)
    assert snapshot is not None and snapshot.fast is not None and not snapshot.fast.valid
    [published] = server.published  # type: ignore[attr-defined]
    assert published.version == 1 and [d.code for d in published.diagnostics] == ["syntax"]


def test_a_response_to_a_cancelled_request_is_dropped(server: InputmendServer) -> None:
    # A background task that waited for the client's answer (progress creation)
    # is cancelled by a newer edit; the answer arrives afterwards.
    protocol = server.protocol
    protocol.initialize_received = True
    future = protocol.send_request(types.WINDOW_WORK_DONE_PROGRESS_CREATE, None, msg_id="late")
    future.cancel()
    protocol.receive(Frame(b'{"jsonrpc": "2.0", "id": "late", "result": null}'))
    answered = protocol.send_request(types.WINDOW_WORK_DONE_PROGRESS_CREATE, None, msg_id="on-time")
    protocol.receive(Frame(b'{"jsonrpc": "2.0", "id": "on-time", "result": null}'))
    assert answered.result() is None
