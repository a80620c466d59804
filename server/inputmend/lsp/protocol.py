"""JSON-RPC as the specification says, where pygls does otherwise.

pygls answers nothing to a body that is not JSON or whose parameters do not
validate (a negative position), answers requests sent before ``initialize``,
silently drops requests after ``shutdown``, and exits with status 0 whatever
happened.  :class:`InputmendProtocol` receives the frames of
:class:`~inputmend.lsp.transport.Framer` and answers:

* -32700 (parse error) for a body that is not JSON, or a broken frame;
* -32600 (invalid request) for JSON that is not a request, notification or
  response, and for requests after ``shutdown``;
* -32002 (server not initialized) for requests before ``initialize``
  (notifications then are dropped, except ``exit``);
* -32602 (invalid params) for parameters that do not validate.

``exit`` ends the server with status 0 after ``shutdown``, else 1; so does
the end of the input stream.  The server keeps the document texts itself
(:mod:`~inputmend.lsp.sync`): pygls's copy, which breaks lines where
clients do not, is not kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import Awaitable, Callable, Generator
from concurrent.futures import InvalidStateError
from typing import Any, BinaryIO

import cattrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

from inputmend.core.text import printable
from inputmend.lsp.transport import Frame, Framer, framed

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002

READ_SIZE = 1 << 16

Read = Callable[[], Awaitable[bytes]]
"""The next bytes of the input stream; empty at its end."""


def _request_id(data: dict[str, Any]) -> tuple[int | str | None, str | None]:
    """The message's id, and what is wrong with it."""
    if "id" not in data:
        return None, None
    value = data["id"]
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None, f"the id must be a number or a string, got {json.dumps(value)}"
    return value, None


def envelope_problem(data: Any) -> str | None:
    """Why ``data`` is not a JSON-RPC 2.0 request, notification or response."""
    if not isinstance(data, dict):
        return "a message must be a JSON object (batches are not part of LSP)"
    if data.get("jsonrpc") != "2.0":
        return 'a message must have "jsonrpc": "2.0"'
    _, problem = _request_id(data)
    if problem is not None:
        return problem
    if "method" in data:
        if not isinstance(data["method"], str):
            return "the method must be a string"
        params = data.get("params")
        if params is not None and not isinstance(params, dict | list):
            return "params must be an object or an array"
        return None
    if "id" in data and ("result" in data or "error" in data):
        return None
    return "a message must have a method, or be a response with a result or an error"


class QuietStructureErrors(logging.Filter):
    """Drops pygls's traceback for a message that does not validate: the
    client gets an invalid-params answer and the log one warning line, so a
    client that sends many cannot fill the log with tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.funcName != "structure_message"


class InputmendProtocol(LanguageServerProtocol):
    """pygls's language server protocol with the specification's error answers.

    It goes through pygls's public surface: ``structure_message``,
    ``handle_message``, ``set_writer``/``writer``, ``fm.features`` and
    overridden ``lsp_method`` handlers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initialize_received = False
        self.shut_down = False

    def reject(self, message_id: int | str | None, code: int, message: str) -> None:
        """Answer with an error (``"id": null`` when the id is unknown)."""
        error = {"code": code, "message": printable(message)}
        response = {"jsonrpc": "2.0", "id": message_id, "error": error}
        if self.writer is not None:
            self.writer.write(framed(json.dumps(response).encode()))

    def receive(self, frame: Frame) -> None:
        """Handle one frame: answer errors the specification's way, hand the
        rest to pygls."""
        if frame.body is None:
            self.reject(None, PARSE_ERROR, f"parse error: {frame.problem}")
            return
        try:
            data = json.loads(frame.body)
        except ValueError as error:  # also UnicodeDecodeError
            self.reject(None, PARSE_ERROR, f"parse error: {error}")
            return
        problem = envelope_problem(data)
        if problem is not None:
            message_id = _request_id(data)[0] if isinstance(data, dict) else None
            self.reject(message_id, INVALID_REQUEST, f"invalid request: {problem}")
            return
        method = data.get("method")
        request = method is not None and "id" in data
        if method is not None and not self._accepts(method):
            if request:
                code, why = (
                    (INVALID_REQUEST, "the server is shutting down")
                    if self.shut_down
                    else (SERVER_NOT_INITIALIZED, "the server is not initialized")
                )
                self.reject(data["id"], code, f"{method}: {why}")
            return
        try:
            message = self.structure_message(data)
        except JsonRpcException as error:
            cause = error.__cause__ if error.__cause__ is not None else error
            detail = printable("; ".join(cattrs.transform_error(cause)))
            log.warning("%s: invalid params (%s)", printable(str(method)), detail)
            if request:
                self.reject(data["id"], INVALID_PARAMS, f"{method}: invalid params ({detail})")
            return
        if method == types.INITIALIZE:
            self.initialize_received = True
        try:
            self.handle_message(message)
        except InvalidStateError:
            # pygls sets the result of the request this responds to; the task
            # that waited for it was cancelled meanwhile (a newer edit ended it)
            log.info("dropped a response to a cancelled request: %s", data.get("id"))

    def _accepts(self, method: str) -> bool:
        """May a message with ``method`` be handled now?"""
        if method == types.EXIT:
            return True
        if self.shut_down:
            return False
        return self.initialize_received or method == types.INITIALIZE

    async def serve(self, read: Read) -> int:
        """Read and handle messages until ``exit`` or the end of the input;
        the exit status: 0 after ``shutdown``, else 1."""
        framer = Framer()
        try:
            while data := await read():
                for frame in framer.feed(data):
                    self.receive(frame)
        except SystemExit as exit_:  # pygls's exit handler
            return exit_.code if isinstance(exit_.code, int) else 1
        return 0 if self.shut_down else 1

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's shutdown (the user handler, pending requests cancelled),
        then no request is accepted any more."""
        yield from super().lsp_shutdown(*args)
        self.shut_down = True

    # The server keeps the texts itself: pygls's workspace copies are not kept.
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield self.fm.features[types.TEXT_DOCUMENT_DID_OPEN], (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield self.fm.features[types.TEXT_DOCUMENT_DID_CHANGE], (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield self.fm.features[types.TEXT_DOCUMENT_DID_CLOSE], (params,), None


def stdin_reader(fd: int) -> Read:
    """Reads of a file descriptor in a daemon thread (a blocked read must not
    keep the process alive once the server has exited)."""
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()

    def pump() -> None:
        while True:
            try:
                chunk = os.read(fd, READ_SIZE)
            except OSError:
                chunk = b""
            try:
                loop.call_soon_threadsafe(chunks.put_nowait, chunk)
            except RuntimeError:  # the loop is closed: the server has exited
                return
            if not chunk:
                return

    threading.Thread(target=pump, name="lsp-stdin", daemon=True).start()
    return chunks.get


class StdoutWriter:
    """Writes the server's messages to stdout, and drops them once it is
    closed (by ``exit``) or the client is gone.

    A background task that ends after ``exit`` (a cancelled analysis ending
    its progress) still sends: pygls would then report the failed write to
    the client, which fails again, recursively, and fill stderr with
    thousands of chained tracebacks while the process lingers."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._closed = False

    def write(self, data: bytes) -> None:
        if self._closed:
            return
        try:
            self._stream.write(data)
            self._stream.flush()
        except (OSError, ValueError):  # the pipe is closed: nobody reads any more
            self._closed = True

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(OSError, ValueError):
            self._stream.close()
