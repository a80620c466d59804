"""``inputmend lsp --tcp``: only a client holding the token is served, and
the server says loudly when it runs as root."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from inputmend.lsp import app
from tests.lsp.raw import SERVER, frame, notification, request


class TcpClient:
    """A byte-level client on a socket."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=60)
        self._buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (lost when the server closed the connection)."""
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.socket.sendall(frame(message))

    def receive(self) -> dict[str, Any] | None:
        """The next message; None once the server closed the connection."""
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = int(re.findall(rb"Content-Length: (\d+)", self._buffer[:end])[0])
                if len(self._buffer) >= end + 4 + length:
                    body = self._buffer[end + 4 : end + 4 + length]
                    self._buffer = self._buffer[end + 4 + length :]
                    return json.loads(body)  # type: ignore[no-any-return]
            try:
                chunk = self.socket.recv(1 << 16)
            except ConnectionResetError:
                return None
            if not chunk:
                return None
            self._buffer += chunk

    def answer(self, number: int) -> dict[str, Any] | None:
        """The response to request ``number``; None if the connection closes first."""
        while (message := self.receive()) is not None:
            if message.get("id") == number and "method" not in message:
                return message
        return None

    def close(self) -> None:
        self.socket.close()


@contextmanager
def tcp_server(runtime: Path) -> Iterator[tuple[int, Path, subprocess.Popen[bytes]]]:
    """``inputmend lsp --tcp 0``: its port, its token file, the process."""
    runtime.mkdir(mode=0o700)
    process = subprocess.Popen(
        [*SERVER, "--tcp", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
    )
    assert process.stderr is not None
    try:
        said, deadline = b"", time.monotonic() + 60
        while b"listening on" not in said:
            ready, _, _ = select.select([process.stderr], [], [], deadline - time.monotonic())
            chunk = os.read(process.stderr.fileno(), 4096) if ready else b""
            assert chunk, f"the server did not say where it listens: {said.decode()}"
            said += chunk
        token_file = Path(re.findall(r"the token in (\S+) as", said.decode())[0])
        port = int(re.findall(r"listening on 127\.0\.0\.1:(\d+)", said.decode())[0])
        yield port, token_file, process
    finally:
        process.kill()
        process.wait(10)
        process.stderr.close()


def _marking_settings(mark: Path, token: str | None) -> dict[str, Any]:
    """Settings whose command validator leaves ``mark`` when it runs."""
    script = f"open({str(mark)!r}, 'w').close()"
    oracle = {"files": "*.expr", "grammar": "expr", "command": [sys.executable, "-c", script]}
    options: dict[str, Any] = {"inputmend": {"oracles": [oracle]}}
    if token is not None:
        options["token"] = token
    return {"processId": None, "capabilities": {}, "initializationOptions": options}


def _open_expr(client: TcpClient, path: Path) -> None:
    item = {"uri": path.as_uri(), "languageId": "plaintext", "version": 1, "text": "1 + 2"}
    client.send(notification("textDocument/didOpen", {"textDocument": item}))


def test_a_client_without_the_token_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    with tcp_server(tmp_path / "run") as (port, token_file, _):
        assert token_file.parent == tmp_path / "run" / "inputmend"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700

        early = TcpClient(port)  # requests before initialize
        early.send(request(1, "textDocument/hover", {}))
        answer = early.answer(1)
        assert answer is not None and "send the token first" in answer["error"]["message"]
        early.close()

        for token in (None, "not-the-token"):
            stranger = TcpClient(port)
            stranger.send(request(1, "initialize", _marking_settings(mark, token)))
            answer = stranger.answer(1)
            assert answer is not None and "wrong or missing token" in answer["error"]["message"]
            stranger.send(notification("initialized", {}))
            _open_expr(stranger, tmp_path / "a.expr")
            stranger.send(request(2, "shutdown"))
            assert stranger.answer(2) is None, "the connection is closed"
            stranger.close()
    assert not mark.exists()


def test_a_client_with_the_token_is_served(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    with tcp_server(tmp_path / "run") as (port, token_file, process):
        stranger = TcpClient(port)
        stranger.send(request(1, "initialize", _marking_settings(mark, "wrong")))
        assert stranger.answer(1) is not None
        stranger.close()

        token = token_file.read_text().strip()
        client = TcpClient(port)
        settings = _marking_settings(mark, token)
        settings["initializationOptions"]["inputmend"]["trustWorkspaceCommands"] = True
        client.send(request(1, "initialize", settings))
        answer = client.answer(1)
        assert answer is not None and "result" in answer
        client.send(notification("initialized", {}))
        _open_expr(client, tmp_path / "a.expr")
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert mark.exists(), "the command validator ran for the admitted client"
        client.send(request(2, "shutdown"))
        assert client.answer(2) is not None
        client.send(notification("exit"))
        assert process.wait(30) == 0
        client.close()


def test_the_server_warns_loudly_when_it_runs_as_root(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    app.warn_if_root()
    assert "WARNING: the language server runs as root" in capsys.readouterr().err
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    app.warn_if_root()
    assert capsys.readouterr().err == ""


def test_the_token_file_must_be_private(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    (runtime / "inputmend").mkdir(parents=True)
    os.chmod(runtime / "inputmend", 0o755)
    result = subprocess.run(
        [*SERVER, "--tcp", "0"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
        timeout=60,
    )
    assert result.returncode == 2
    assert b"is open to other users (mode 755)" in result.stderr
