"""Answers are for the document the client has now: a code action asked right
after a change is for the changed text, its edits name their version, and
``inputmend.applyRepair`` takes the version and the repair's id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.lsp.raw import RawServer, frame, notification, raw_server, request

DAVE = '{ "name": "Dave" "age": 42 }'
UNCLOSED = '{"sizes": [1, 2, 3}'  # two repairs: `]` inserted, or `3` replaced by `null]`
CHANGED = '{"zzzzzzzzz" "a": 0, "b": 1}'
VERSIONED = {"workspace": {"workspaceEdit": {"documentChanges": True}}}


def _change(uri: str, version: int, text: str) -> dict[str, Any]:
    return notification(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}],
        },
    )


def _code_action(number: int, uri: str) -> dict[str, Any]:
    where = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    return request(
        number,
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": where, "context": {"diagnostics": []}},
    )


def _analysed(server: RawServer, number: int, uri: str) -> None:
    server.send(
        request(
            number,
            "workspace/executeCommand",
            {"command": "inputmend.awaitAnalysis", "arguments": [uri]},
        )
    )
    assert server.answer(number, timeout=120).get("result") is True


def _repairs(server: RawServer, number: int, uri: str) -> list[dict[str, Any]]:
    server.send(_code_action(number, uri))
    result = server.answer(number, timeout=30).get("result") or []
    return [action for action in result if action.get("data", {}).get("kind") == "repair"]


def test_a_code_action_right_after_a_change_is_for_the_changed_text(tmp_path: Path) -> None:
    with raw_server() as server:
        server.initialize(capabilities=VERSIONED)
        uri = server.open(tmp_path / "dave.json", DAVE)
        _analysed(server, 2, uri)
        assert _repairs(server, 3, uri), "the first version has repairs"
        # one write: the server reads both messages at once
        server.send(frame(_change(uri, 2, CHANGED)) + frame(_code_action(4, uri)))
        answer = server.answer(4, timeout=30).get("result") or []
        for action in answer:
            assert action["data"]["version"] == 2, action
            for change in action.get("edit", {}).get("documentChanges", []):
                assert change["textDocument"]["version"] == 2, action
        assert all("changes" not in action.get("edit", {}) for action in answer)


def _apply(server: RawServer, number: int, arguments: list[Any]) -> Any:
    server.send(
        request(
            number,
            "workspace/executeCommand",
            {"command": "inputmend.applyRepair", "arguments": arguments},
        )
    )
    while True:  # answer the server's workspace/applyEdit, if it asks
        message = server.receive(timeout=30)
        assert message is not None, "no answer to applyRepair"
        if message.get("method") == "workspace/applyEdit":
            server.applied.append(message["params"]["edit"])  # type: ignore[attr-defined]
            server.send({"jsonrpc": "2.0", "id": message["id"], "result": {"applied": True}})
        elif message.get("id") == number and "method" not in message:
            return message.get("result")


def test_apply_repair_takes_the_version_and_the_repairs_id(tmp_path: Path) -> None:
    with raw_server() as server:
        server.applied = []  # type: ignore[attr-defined]
        server.initialize(capabilities=VERSIONED)
        uri = server.open(tmp_path / "sizes.json", UNCLOSED)
        _analysed(server, 2, uri)
        repairs = _repairs(server, 3, uri)
        second = repairs[1]["data"]
        assert isinstance(second["id"], str) and second["version"] == 1
        assert _apply(server, 4, [uri, 2, second["id"]]) is False, "not the current version"
        assert _apply(server, 5, [uri, 1, "no such repair"]) is False
        assert server.applied == []  # type: ignore[attr-defined]
        assert _apply(server, 6, [uri, 1, second["id"]]) is True
        [edit] = server.applied  # type: ignore[attr-defined]
        assert edit == repairs[1]["edit"]
        assert edit["documentChanges"][0]["textDocument"]["version"] == 1
        server.send(_change(uri, 2, CHANGED))
        assert _apply(server, 7, [uri, 1, second["id"]]) is False, "the document changed"
        assert len(server.applied) == 1  # type: ignore[attr-defined]
        assert json.dumps(edit)  # plain JSON
