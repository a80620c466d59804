"""A byte-level client of the real server, for what pytest-lsp cannot send:
malformed JSON, wrong headers, messages out of order; and for process tests."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "inputmend", "lsp"]


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(number: int, method: str, params: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "method": method, "params": params}


def notification(method: str, params: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


class RawServer:
    """The server process with raw pipes."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._buffer = b""

    def send(self, data: bytes | dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data if isinstance(data, bytes) else frame(data))
        self.process.stdin.flush()

    def _fill(self, deadline: float) -> bool:
        assert self.process.stdout is not None
        ready, _, _ = select.select(
            [self.process.stdout], [], [], max(0.0, deadline - time.monotonic())
        )
        if not ready:
            return False
        chunk = os.read(self.process.stdout.fileno(), 1 << 16)
        self._buffer += chunk
        return bool(chunk)

    def receive(self, timeout: float = 60.0) -> dict[str, Any] | None:
        """The next message, or None when none comes in time."""
        deadline = time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end >= 0:
                headers = self._buffer[:end].decode()
                length = int(headers.split("Content-Length:")[1].split("\r\n")[0])
                if len(self._buffer) >= end + 4 + length:
                    body = self._buffer[end + 4 : end + 4 + length]
                    self._buffer = self._buffer[end + 4 + length :]
                    return json.loads(body)  # type: ignore[no-any-return]
            if not self._fill(deadline):
                return None

    def answer(self, number: int, timeout: float = 60.0) -> dict[str, Any]:
        """The response to request ``number`` (skipping notifications)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.0, deadline - time.monotonic()))
            assert message is not None, f"no answer to request {number}"
            if message.get("id") == number and "method" not in message:
                return message

    def initialize(self, **params: Any) -> None:
        """``initialize`` (request 1) with ``params``, then ``initialized``."""
        self.send(request(1, "initialize", {"processId": None, "capabilities": {}, **params}))
        assert "result" in self.answer(1)
        self.send(notification("initialized", {}))

    def open(self, path: Path, text: str, language: str = "json") -> str:
        """``didOpen`` of ``path`` with ``text``; its URI."""
        uri = path.as_uri()
        item = {"uri": uri, "languageId": language, "version": 1, "text": text}
        self.send(notification("textDocument/didOpen", {"textDocument": item}))
        return uri


@contextmanager
def raw_server(
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    command: list[str] = SERVER,
    log: Path | None = None,
) -> Iterator[RawServer]:
    """The server process; its stderr goes to ``log`` when given."""
    stderr = log.open("wb") if log is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        cwd=cwd,
        env=None if env is None else {**os.environ, **env},
    )
    try:
        yield RawServer(process)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        if log is not None:
            stderr.close()  # type: ignore[union-attr]
