"""The pygls behaviour :mod:`inputmend.lsp.protocol` builds on.

The protocol uses pygls's public surface only, but relies on how it
behaves there: which messages ``structure_message`` raises for and with what
cause, the name of the function whose traceback log is quieted, that
``lsp_shutdown`` is a generator handler, and that a late response to a
cancelled request raises ``InvalidStateError`` out of ``handle_message``.
If one of these tests fails after a pygls upgrade, adapt
:mod:`inputmend.lsp.protocol` (and only it), then the pin in pyproject.toml.
"""

from __future__ import annotations

import inspect
import logging
from concurrent.futures import InvalidStateError

import cattrs
import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import JsonRPCProtocol

from inputmend.lsp.app import create_server
from inputmend.lsp.protocol import QuietStructureErrors


def _parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_the_public_methods_have_the_expected_signatures() -> None:
    protocol = LanguageServerProtocol
    assert _parameters(protocol.structure_message) == ["self", "data"]
    assert _parameters(protocol.handle_message) == ["self", "message"]
    assert _parameters(protocol.set_writer) == ["self", "writer", "include_headers"]
    assert _parameters(protocol.send_request) == ["self", "method", "params", "callback", "msg_id"]
    assert inspect.isgeneratorfunction(protocol.lsp_shutdown)
    assert getattr(protocol.lsp_shutdown, "method_name", None) == types.SHUTDOWN
    assert lsp_method("x")(lambda: None).method_name == "x"  # type: ignore[attr-defined]
    assert isinstance(inspect.getattr_static(create_server().protocol.fm, "features"), property)


INVALID = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": types.TEXT_DOCUMENT_HOVER,
    "params": {"textDocument": {"uri": "file:///a"}, "position": {"line": -1}},
}


def test_invalid_params_raise_a_json_rpc_error_caused_by_cattrs() -> None:
    protocol = create_server().protocol
    with pytest.raises(JsonRpcException) as raised:
        protocol.structure_message(INVALID)
    assert isinstance(raised.value.__cause__, cattrs.ClassValidationError)


def test_the_traceback_of_an_invalid_message_is_logged_by_structure_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    protocol = create_server().protocol
    logger = logging.getLogger(JsonRPCProtocol.__module__)
    with caplog.at_level(logging.ERROR, logger=logger.name), pytest.raises(JsonRpcException):
        protocol.structure_message(INVALID)
    [record] = caplog.records
    assert record.funcName == "structure_message"
    assert not QuietStructureErrors().filter(record)


def test_a_late_response_to_a_cancelled_request_raises_invalid_state() -> None:
    protocol = create_server().protocol
    future = protocol.send_request(types.WINDOW_WORK_DONE_PROGRESS_CREATE, None, msg_id="late")
    future.cancel()
    response = protocol.structure_message({"jsonrpc": "2.0", "id": "late", "result": None})
    with pytest.raises(InvalidStateError):
        protocol.handle_message(response)
