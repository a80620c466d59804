"""The language server object: the session, the scheduler, the analyser, and
what the client can do (position encoding, versioned edits).

It holds state and publishes diagnostics; the handlers are module-level
functions in :mod:`~inputmend.lsp.lifecycle`, :mod:`~inputmend.lsp.sync`,
:mod:`~inputmend.lsp.actions` and :mod:`~inputmend.lsp.commands`, registered
by :func:`inputmend.lsp.app.create_server`.
"""

from __future__ import annotations

import logging

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from inputmend import __version__
from inputmend.lsp import convert
from inputmend.lsp.analysis import Analyser
from inputmend.lsp.progress import WorkDoneProgress
from inputmend.lsp.scheduler import Scheduler
from inputmend.lsp.session import Session, Snapshot

log = logging.getLogger(__name__)


class InputmendServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("inputmend", __version__)
        self.session = Session()
        self.scheduler = Scheduler()
        self.analyser = Analyser(
            self.session, self.scheduler, self.publish, WorkDoneProgress(self)
        )
        self._published: dict[str, tuple[int, list[types.Diagnostic]]] = {}

    @property
    def encoding(self) -> str | None:
        """The negotiated position encoding (None before ``initialize``: UTF-16)."""
        try:
            encoding = self.workspace.position_encoding
        except RuntimeError:
            return None
        return None if encoding is None else str(encoding)

    @property
    def document_changes(self) -> bool:
        """Does the client take versioned document changes in workspace edits?"""
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        return bool(edit is not None and edit.document_changes)

    def publish(self, snapshot: Snapshot) -> None:
        """Publish everything known about a snapshot, unless exactly that was
        published for its revision already (each set once per version)."""
        try:
            diagnostics = convert.diagnostics(snapshot, self.encoding)
        except Exception:
            log.exception("building diagnostics failed")
            diagnostics = []
        if self._published.get(snapshot.uri) == (snapshot.revision, diagnostics):
            return
        for closed in [uri for uri in self._published if uri not in self.session.snapshots]:
            del self._published[closed]
        self._published[snapshot.uri] = (snapshot.revision, diagnostics)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=snapshot.uri, diagnostics=diagnostics, version=snapshot.version
            )
        )
