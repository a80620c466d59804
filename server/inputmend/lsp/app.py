"""The server assembled: every handler registered, and :func:`serve`."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol.json_rpc import JsonRPCProtocol

from inputmend.lsp import actions, commands, lifecycle, sync
from inputmend.lsp.admission import TokenError, token_file
from inputmend.lsp.protocol import QuietStructureErrors
from inputmend.lsp.server import InputmendServer

__all__ = ["TokenError", "create_server", "serve", "warn_if_root"]

LOOPBACK = "127.0.0.1"
"""The TCP server's only address: never reachable from other machines."""

FEATURES: tuple[tuple[str, Callable[..., Any], Any], ...] = (
    (types.INITIALIZE, lifecycle.initialize, None),
    (types.INITIALIZED, lifecycle.initialized, None),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, lifecycle.did_change_configuration, None),
    (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, lifecycle.did_change_workspace_folders, None),
    (types.SHUTDOWN, lifecycle.shutdown, None),
    (types.TEXT_DOCUMENT_DID_OPEN, sync.did_open, None),
    (types.TEXT_DOCUMENT_DID_CHANGE, sync.did_change, None),
    (types.TEXT_DOCUMENT_DID_SAVE, sync.did_save, None),
    (types.TEXT_DOCUMENT_DID_CLOSE, sync.did_close, None),
    (types.TEXT_DOCUMENT_CODE_ACTION, actions.code_action, actions.CODE_ACTION_OPTIONS),
    (types.TEXT_DOCUMENT_HOVER, actions.hover, None),
)


def create_server() -> InputmendServer:
    server = InputmendServer()
    for method, handler, options in FEATURES:
        server.feature(method, options)(handler)
    for name, command in commands.COMMANDS.items():
        server.command(name)(command)
    return server


ROOT_WARNING = """\
inputmend: WARNING: the language server runs as root.
inputmend: WARNING: every validator it starts (commands and Python functions from
inputmend: WARNING: the editor's settings and trusted .inputmend.toml files) runs as root.
inputmend: WARNING: run the editor and the server as an ordinary user."""


def warn_if_root() -> None:
    """Say loudly on stderr when the server runs as root."""
    if os.geteuid() == 0:
        print(ROOT_WARNING, file=sys.stderr)


def serve(*, tcp_port: int | None = None) -> int:
    """Run the server on stdio (or, for debugging, on TCP to a client that
    presents the token of :func:`~inputmend.lsp.admission.token_file`) until
    ``exit``; logs go to stderr only.  The exit status: 0 after ``shutdown``,
    else 1.  Raises :class:`~inputmend.lsp.admission.TokenError` when the
    token cannot be kept private."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    logging.getLogger(JsonRPCProtocol.__module__).addFilter(QuietStructureErrors())
    warn_if_root()
    # a neutral working directory: the workers start there, and nothing
    # resolves a path against it (settings' relative paths start at the workspace)
    os.chdir(Path(Path.cwd().anchor))
    if tcp_port is None:
        return create_server().serve_stdio()
    path, token = token_file()
    print(
        f"inputmend: TCP clients must send the token in {path} "
        "as initializationOptions.token",
        file=sys.stderr,
    )
    return create_server().serve_tcp(LOOPBACK, tcp_port, token=token)
