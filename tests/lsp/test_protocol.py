"""JSON-RPC errors as the specification says, and framing that recovers from
a wrong Content-Length; against the real server over raw pipes (and its
writer, which drops what is sent after `exit`)."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from lsprotocol import types

from inputmend.lsp.app import create_server
from inputmend.lsp.protocol import StdoutWriter
from tests.lsp.raw import frame, notification, raw_server, request

HOVER = {"textDocument": {"uri": "file:///tmp/a.json"}, "position": {"line": 0, "character": 0}}


def _error(message: dict[str, object]) -> tuple[object, object]:
    error = message.get("error")
    assert isinstance(error, dict), message
    return message.get("id", "missing"), error["code"]


# --------------------------------------------------------------- the server
def test_errors_before_initialize_and_for_bad_messages() -> None:
    with raw_server() as server:
        server.send(request(7, "textDocument/hover", HOVER))
        assert _error(server.answer(7)) == (7, -32002)
        server.send(b"Content-Length: 9\r\n\r\n{not json")
        assert _error(server.receive() or {}) == (None, -32700)
        server.send(frame([request(8, "shutdown")]))
        assert _error(server.receive() or {}) == (None, -32600)
        server.send(frame({"id": 9, "method": "shutdown"}))  # no "jsonrpc"
        assert _error(server.answer(9)) == (9, -32600)
        server.send(frame({"jsonrpc": "2.0", "id": [1], "method": "shutdown"}))
        assert _error(server.receive() or {}) == (None, -32600)
        server.send(frame({"jsonrpc": "2.0", "id": 10, "method": 5}))
        assert _error(server.answer(10)) == (10, -32600)
        server.initialize()


@pytest.mark.parametrize(
    "position", [{"line": -1, "character": 0}, {"line": 0, "character": 2**31}, {"line": 2**40}]
)
def test_invalid_params_are_answered(position: dict[str, int], tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    with raw_server(log=log) as server:
        server.initialize()
        server.send(request(5, "textDocument/hover", {**HOVER, "position": position}))
        assert _error(server.answer(5)) == (5, -32602)
        server.send(request(6, "textDocument/hover", HOVER))
        assert "result" in server.answer(6)
    logged = log.read_text()
    assert "invalid params" in logged and "Traceback" not in logged


def test_a_wrong_content_length_does_not_leave_the_server_deaf() -> None:
    with raw_server() as server:
        server.initialize()
        too_long = frame(request(2, "textDocument/hover", HOVER)).replace(
            b"Content-Length: ", b"Content-Length: 9"
        )
        server.send(too_long)
        server.send(request(3, "textDocument/hover", HOVER))
        assert "result" in server.answer(3)
        body = frame(request(4, "textDocument/hover", HOVER)).split(b"\r\n\r\n", 1)[1]
        server.send(b"Content-Length: 10\r\n\r\n" + body)  # too short
        server.send(request(5, "textDocument/hover", HOVER))
        assert "result" in server.answer(5)


def test_requests_after_shutdown_are_invalid_and_exit_says_how_it_ended() -> None:
    with raw_server() as server:
        server.initialize()
        server.send(request(2, "shutdown"))
        assert server.answer(2).get("result", "missing") is None
        server.send(request(3, "textDocument/hover", HOVER))
        assert _error(server.answer(3)) == (3, -32600)
        server.send(notification("exit"))
        assert server.process.wait(10) == 0


def test_exit_without_shutdown_exits_with_1() -> None:
    with raw_server() as server:
        server.initialize()
        server.send(notification("exit"))
        assert server.process.wait(10) == 1


@pytest.mark.parametrize("how", ["exit", "client gone"])
def test_messages_after_exit_are_dropped_quietly(
    how: str, caplog: pytest.LogCaptureFixture
) -> None:
    # a cancelled analysis that ends after `exit` still ends its progress:
    # the write must not set off pygls's error reports (each fails again)
    server = create_server()
    stream = io.BytesIO()
    writer = StdoutWriter(stream)
    server.protocol.set_writer(writer)
    if how == "exit":
        writer.close()
    else:
        stream.close()
    message = types.LogMessageParams(types.MessageType.Info, "late")
    with caplog.at_level(logging.DEBUG):
        server.protocol.notify(types.WINDOW_LOG_MESSAGE, message)
        server.protocol.notify(types.WINDOW_LOG_MESSAGE, message)
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    "length",
    [b"9223372036854775807", b"99999999999999999999999", b"9" * 5000, b"-5", b"abc", b"", None],
)
def test_absurd_content_lengths_are_answered_and_reading_goes_on(length: bytes | None) -> None:
    with raw_server() as server:
        server.initialize()
        body = frame(request(2, "textDocument/hover", HOVER)).split(b"\r\n\r\n", 1)[1]
        header = b"" if length is None else b"Content-Length: " + length + b"\r\n"
        server.send(header + b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + body)
        server.send(request(3, "textDocument/hover", HOVER))
        first = server.receive() or {}
        assert _error(first) == (None, -32700)
        assert "Content-Length" in str(first["error"])
        assert "result" in server.answer(3)
        assert server.process.poll() is None
