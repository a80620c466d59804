"""The server assembled: every handler registered, and :func:`serve`."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

from inputmend.lsp import actions, commands, lifecycle, sync
from inputmend.lsp.server import InputmendServer

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


def serve(*, tcp_port: int | None = None) -> int:
    """Run the server on stdio (or TCP for debugging) until ``exit``; logs go
    to stderr only.  The exit status: 0 after ``shutdown``, else 1."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    # a neutral working directory: the workers start there, and nothing
    # resolves a path against it (settings' relative paths start at the workspace)
    os.chdir(Path(Path.cwd().anchor))
    server = create_server()
    if tcp_port is not None:
        return server.serve_tcp("127.0.0.1", tcp_port)
    return server.serve_stdio()
