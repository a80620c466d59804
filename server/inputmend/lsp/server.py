"""The inputmend language server (pygls 2): thin handlers only.

For every open document it checks the text with the document's oracle and
publishes a diagnostic at the parse boundary.  Only grammar oracles run in
the server: external commands and Python validators from workspace files
need an explicit trust setting, which this server does not grant.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import replace
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from inputmend import __version__
from inputmend.config import settings_for
from inputmend.lsp.convert import SOURCE, boundary_diagnostic
from inputmend.oracles import build_oracle
from inputmend.oracles.base import Oracle, OracleConfigError
from inputmend.text import LineIndex

log = logging.getLogger(__name__)


class InputmendServer(LanguageServer):
    """Keeps one oracle per document path (grammar oracles are reusable)."""

    def __init__(self) -> None:
        super().__init__("inputmend", __version__)
        self.oracles: dict[str, Oracle | str] = {}

    def oracle_for(self, path: str) -> Oracle | str:
        """The oracle for a file, or a one-line reason why there is none."""
        cached = self.oracles.get(path)
        if cached is not None:
            return cached
        try:
            spec = settings_for(Path(path)).spec
            if spec.command is not None or spec.python is not None:
                if spec.grammar is None:
                    raise OracleConfigError(
                        f"{spec.source}: external validators are not run by the language "
                        "server unless the workspace is trusted"
                    )
                spec = replace(spec, command=None, python=None)
            oracle: Oracle | str = build_oracle(spec)
        except OracleConfigError as error:
            oracle = str(error)
        self.oracles[path] = oracle
        return oracle


def publish(ls: InputmendServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    oracle = ls.oracle_for(document.path)
    diagnostics: list[types.Diagnostic] = []
    if isinstance(oracle, str):
        if not oracle.endswith("map it in .inputmend.toml"):
            diagnostics.append(
                types.Diagnostic(
                    range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                    message=oracle,
                    severity=types.DiagnosticSeverity.Information,
                    source=SOURCE,
                    code="configuration",
                )
            )
    else:
        text = document.source
        feedback = oracle.check(text)
        if not feedback.valid:
            encoding = ls.workspace.position_encoding
            diagnostics.append(boundary_diagnostic(LineIndex(text), feedback, encoding))
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version)
    )


def create_server() -> InputmendServer:
    server = InputmendServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: InputmendServer, params: types.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: InputmendServer, params: types.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: InputmendServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    return server


def serve(*, tcp_port: int | None = None) -> None:
    """Run the server on stdio (or TCP for debugging); logs go to stderr only."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    server = create_server()
    if tcp_port is not None:
        server.start_tcp("127.0.0.1", tcp_port)
    else:
        server.start_io()
