"""The language server object: the session, the scheduler, the analyser, and
what the client can do (position encoding, versioned edits).

It holds state and publishes diagnostics; the handlers are module-level
functions in :mod:`~inputmend.lsp.lifecycle`, :mod:`~inputmend.lsp.sync`,
:mod:`~inputmend.lsp.actions` and :mod:`~inputmend.lsp.commands`, registered
by :func:`inputmend.lsp.app.create_server`.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from inputmend import __version__
from inputmend.lsp import convert
from inputmend.lsp.admission import AdmittingProtocol
from inputmend.lsp.analysis import Analyser
from inputmend.lsp.progress import WorkDoneProgress
from inputmend.lsp.protocol import StdoutWriter, stdin_reader
from inputmend.lsp.scheduler import Scheduler
from inputmend.lsp.session import Session, Snapshot
from inputmend.lsp.show import GeneratedFiles

log = logging.getLogger(__name__)


class InputmendServer(LanguageServer):
    protocol: AdmittingProtocol

    def __init__(self) -> None:
        super().__init__("inputmend", __version__, protocol_cls=AdmittingProtocol)
        self.session = Session()
        self.generated = GeneratedFiles()
        self.scheduler = Scheduler()
        self.analyser = Analyser(
            self.session, self.scheduler, self.publish, WorkDoneProgress(self)
        )
        self._published: dict[str, tuple[int, list[types.Diagnostic]]] = {}

    def serve_stdio(self) -> int:
        """Serve on stdin and stdout until ``exit``; the exit status."""

        async def run() -> int:
            self.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
            return await self.protocol.serve(stdin_reader(sys.stdin.fileno()))

        try:
            return asyncio.run(run())
        finally:
            self.close()

    def serve_tcp(self, host: str, port: int, *, token: str) -> int:
        """Serve one client at a time on a TCP port (0: any free one, said on
        stderr) until an admitted client ends the session; the exit status.
        A client is served only once it presented ``token``
        (:class:`~inputmend.lsp.admission.AdmittingProtocol`); a refused one
        is disconnected and the server waits for the next."""

        async def run() -> int:
            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            busy = False

            async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
                nonlocal busy
                if busy or done.done():
                    writer.close()
                    return
                busy = True
                self.protocol.expect(token)
                self.protocol.set_writer(writer)

                async def read() -> bytes:
                    return b"" if self.protocol.refused else await reader.read(1 << 16)

                try:
                    status = await self.protocol.serve(read)
                finally:
                    busy = False
                if self.protocol.admitted and not done.done():
                    done.set_result(status)
                else:
                    writer.close()

            async with await asyncio.start_server(connected, host, port) as listening:
                bound = listening.sockets[0].getsockname()[1]
                print(f"inputmend: language server listening on {host}:{bound}", file=sys.stderr)
                sys.stderr.flush()
                return await done

        try:
            return asyncio.run(run())
        finally:
            self.close()

    def close(self) -> None:
        """Stop the background work and remove the generated documents;
        called once the server stops serving."""
        self.scheduler.shutdown()
        self.generated.remove()

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
