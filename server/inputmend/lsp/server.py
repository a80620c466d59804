"""The inputmend language server (pygls 2): thin ``(server, params)`` handlers.

Handlers translate: documents and positions in, pipeline calls out, results
to diagnostics, code actions and messages.  The work happens in
:mod:`inputmend.lsp.pipeline` (fast checks in process, analyses in a process
pool); conversions live in :mod:`inputmend.lsp.convert`.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from inputmend import __version__
from inputmend.config import CONFIG_NAME
from inputmend.lsp import convert
from inputmend.lsp.pipeline import DocumentState, Pipeline
from inputmend.lsp.settings import merge
from inputmend.text import snippet

log = logging.getLogger(__name__)

APPLY_REPAIR = "inputmend.applyRepair"
EXPLAIN = "inputmend.explainFailure"
SHOW_REPAIRS = "inputmend.showRepairs"


class WorkDoneProgress:
    """Work-done progress for background analyses, when the client supports it."""

    def __init__(self, server: InputmendServer) -> None:
        self.server = server
        self.tokens: dict[str, str] = {}

    def _supported(self) -> bool:
        window = self.server.client_capabilities.window
        return bool(window is not None and window.work_done_progress)

    async def begin(self, document: DocumentState, message: str) -> None:
        if not self._supported():
            return
        token = f"inputmend-{uuid.uuid4().hex}"
        created = self.server.work_done_progress.create_async(token)
        try:
            # shielded: a cancelled analysis must not cancel the pending request
            # (its late answer would then hit a cancelled future)
            await asyncio.wait_for(asyncio.shield(created), 5)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - progress is a courtesy, never a failure
            return
        self.tokens[document.uri] = token
        self.server.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title=f"inputmend: {self._label(document)}", message=message, cancellable=False
            ),
        )

    def _label(self, document: DocumentState) -> str:
        """The document's path relative to the workspace (unique in a window)."""
        root = self.server.pipeline.root
        if root is not None:
            try:
                return document.path.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                pass
        return document.path.name

    def report(self, document: DocumentState, message: str) -> None:
        token = self.tokens.get(document.uri)
        if token is not None:
            self.server.work_done_progress.report(
                token, types.WorkDoneProgressReport(message=message)
            )

    def end(self, document: DocumentState) -> None:
        token = self.tokens.pop(document.uri, None)
        if token is not None:
            self.server.work_done_progress.end(token, types.WorkDoneProgressEnd())


class InputmendServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("inputmend", __version__)
        self.progress_reporter = WorkDoneProgress(self)
        self.pipeline = Pipeline(self.publish, self.progress_reporter)

    @property
    def encoding(self) -> str | None:
        encoding = self.workspace.position_encoding
        return None if encoding is None else str(encoding)

    def document_changes(self) -> bool:
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        return bool(edit is not None and edit.document_changes)

    def publish(self, document: DocumentState) -> None:
        """Publish everything known about the current version of a document."""
        try:
            diagnostics = self.diagnostics(document)
        except Exception:
            log.exception("building diagnostics failed")
            diagnostics = []
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=document.uri, diagnostics=diagnostics, version=document.version
            )
        )

    def diagnostics(self, document: DocumentState) -> list[types.Diagnostic]:
        index = document.index
        encoding, version = self.encoding, document.version
        found = [convert.note_diagnostic(code, message) for code, message in document.notes]
        if document.fast is not None and not document.fast.valid:
            found.append(convert.boundary_diagnostic(index, document.fast, encoding, version))
        outcome = document.validator
        if outcome is not None and outcome.error is not None:
            found.append(convert.note_diagnostic("validator-error", outcome.error))
        elif (
            outcome is not None
            and outcome.valid is False
            and (document.fast is None or document.fast.valid)
        ):
            validator = _validator_name(document)
            message = f"rejected by {validator}: {outcome.message or 'invalid'}"
            if document.spec is not None and document.spec.grammar is not None:
                message += " (the grammar accepts it: use 'Explain failure (DDSET)')"
            found.append(
                convert.validator_diagnostic(index, message, outcome.offset, encoding, version)
            )
        for start, end in document.spans:
            found.append(convert.span_diagnostic(index, start, end, encoding, version))
        if document.background_note:
            found.append(convert.note_diagnostic("background", document.background_note))
        return found


def _validator_name(document: DocumentState) -> str:
    spec = document.spec
    if spec is None:
        return "the validator"
    if spec.command is not None:
        command = spec.command if isinstance(spec.command, str) else " ".join(spec.command)
        return f"`{snippet(command, 60)}`"
    return f"`{spec.python}`"


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


# --------------------------------------------------------------------- actions
def repair_actions(ls: InputmendServer, document: DocumentState) -> list[types.CodeAction]:
    index = document.index
    encoding, changes = ls.encoding, ls.document_changes()
    actions: list[types.CodeAction] = []
    for rank, repair in enumerate(document.repairs or (), 1):
        edits = convert.text_edits(index, repair.edits, encoding)
        title = convert.describe_edits(index, repair.edits, rank)
        actions.append(
            types.CodeAction(
                title=f"{title} ({repair.algorithm})",
                kind=types.CodeActionKind.QuickFix,
                edit=convert.workspace_edit(document.uri, document.version, edits, changes),
                is_preferred=rank == 1,
            )
        )
    if document.spans:
        deletions = [(start, end - start, "") for start, end in document.spans]
        actions.append(
            types.CodeAction(
                title="Remove all failure-inducing spans (ddmax)",
                kind=types.CodeActionKind.QuickFix,
                edit=convert.workspace_edit(
                    document.uri,
                    document.version,
                    convert.text_edits(index, deletions, encoding),
                    changes,
                ),
            )
        )
    return actions


def explain_action(document: DocumentState) -> types.CodeAction | None:
    outcome = document.validator
    if outcome is None or outcome.valid is not False:
        return None
    if document.spec is None or document.spec.grammar is None:
        return None
    if document.fast is not None and not document.fast.valid:
        return None
    return types.CodeAction(
        title="Explain failure (DDSET)",
        kind=types.CodeActionKind.QuickFix,
        command=types.Command("Explain failure (DDSET)", EXPLAIN, arguments=[document.uri]),
    )


def _generated_document(name: str, content: str) -> Path:
    """A read-only file with generated content (shown with window/showDocument)."""
    folder = Path(tempfile.gettempdir()) / "inputmend-explanations"
    folder.mkdir(exist_ok=True)
    path = folder / name
    if path.exists():
        path.chmod(0o644)
    path.write_text(content, encoding="utf-8")
    path.chmod(0o444)
    return path


async def show_text(ls: InputmendServer, name: str, content: str, fallback: str) -> None:
    """Show generated text as a document where supported, else as a message."""
    window = ls.client_capabilities.window
    supported = (
        window is not None and window.show_document is not None and (window.show_document.support)
    )
    if supported:
        path = _generated_document(name, content)
        try:
            result = await asyncio.wait_for(
                ls.window_show_document_async(
                    types.ShowDocumentParams(uri=path.as_uri(), take_focus=True)
                ),
                10,
            )
            if result.success:
                return
        except Exception:
            log.warning("showDocument failed", exc_info=True)
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, fallback))


def _repairs_listing(document: DocumentState) -> str:
    index = document.index
    lines = [f"Ranked repairs of {document.path.name} (version {document.version})", ""]
    for rank, repair in enumerate(document.repairs or (), 1):
        title = convert.describe_edits(index, repair.edits, rank)
        lines.append(f"{rank}. {title} — {repair.algorithm}, distance {repair.distance}")
        for offset, delete, insert in repair.edits:
            removed = snippet(document.text[offset : offset + delete])
            lines.append(f"     at {index.human(offset)}: `{removed}` -> `{snippet(insert)}`")
    if not document.repairs:
        lines.append("No repair was found.")
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- server
def create_server() -> InputmendServer:
    server = InputmendServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: InputmendServer, params: types.InitializeParams) -> None:
        pipeline = ls.pipeline
        pipeline.settings = merge(pipeline.settings, params.initialization_options)
        root = params.root_uri or (
            params.workspace_folders[0].uri if params.workspace_folders else None
        )
        pipeline.root = _path(root) if root else None

    @server.feature(types.INITIALIZED)
    async def initialized(ls: InputmendServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        if workspace is None or not workspace.configuration:
            return
        try:
            result = await asyncio.wait_for(
                ls.workspace_configuration_async(
                    types.ConfigurationParams([types.ConfigurationItem(section="inputmend")])
                ),
                5,
            )
        except Exception:  # noqa: BLE001 - a client that does not answer keeps the defaults
            log.info("workspace/configuration not answered")
            return
        if result and isinstance(result[0], dict):
            ls.pipeline.settings = merge(ls.pipeline.settings, result[0])
            ls.pipeline.reconfigure_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(
        ls: InputmendServer, params: types.DidChangeConfigurationParams
    ) -> None:
        ls.pipeline.settings = merge(ls.pipeline.settings, params.settings)
        ls.pipeline.reconfigure_all()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: InputmendServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        document = ls.pipeline.open(item.uri, _path(item.uri), item.version, item.text)
        await ls.pipeline.fast_check(document)
        ls.pipeline.schedule(document, delay=0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: InputmendServer, params: types.DidChangeTextDocumentParams) -> None:
        document = ls.pipeline.documents.get(params.text_document.uri)
        if document is None:
            return
        text = ls.workspace.get_text_document(document.uri).source
        ls.pipeline.change(document, params.text_document.version, text)
        await ls.pipeline.fast_check(document)
        ls.pipeline.schedule(document)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: InputmendServer, params: types.DidSaveTextDocumentParams) -> None:
        document = ls.pipeline.documents.get(params.text_document.uri)
        if document is not None and document.path.name == CONFIG_NAME:
            ls.pipeline.reconfigure_all()
            return
        if document is None or ls.pipeline.settings.on_save == "off":
            return
        await suggest_on_save(ls, document)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: InputmendServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.pipeline.close(params.text_document.uri)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(
        ls: InputmendServer, params: types.CodeActionParams
    ) -> list[types.CodeAction | types.Command] | None:
        document = ls.pipeline.documents.get(params.text_document.uri)
        if document is None or not document.invalid:
            return None
        actions: list[types.CodeAction | types.Command] = []
        actions.extend(repair_actions(ls, document))
        explain = explain_action(document)
        if explain is not None:
            actions.append(explain)
        return actions or None

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: InputmendServer, params: types.HoverParams) -> types.Hover | None:
        document = ls.pipeline.documents.get(params.text_document.uri)
        if document is None or not document.invalid:
            return None
        index = document.index
        offset = convert.offset_of(index, params.position, ls.encoding)
        parts = []
        fast = document.fast
        near_boundary = (
            fast is not None
            and fast.error_offset is not None
            and abs(fast.error_offset - offset) <= 1
        )
        in_span = any(start <= offset <= end for start, end in document.spans)
        if not (near_boundary or in_span or document.explanation):
            return None
        if fast is not None and not fast.valid:
            parts.append(f"**inputmend**: {fast.message}")
        if document.repairs:
            best = document.repairs[0]
            parts.append(
                f"Best repair: {convert.describe_edits(index, best.edits, 1)} ({best.algorithm})"
            )
        if document.explanation:
            parts.append(f"Failure pattern (DDSET): `{document.explanation}`")
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, "\n\n".join(parts))
        )

    @server.command(APPLY_REPAIR)
    async def apply_repair(ls: InputmendServer, uri: str, rank: int = 1) -> bool:
        document = ls.pipeline.documents.get(uri)
        if document is None or not document.repairs or not 1 <= rank <= len(document.repairs):
            return False
        return await _apply(ls, document, rank)

    @server.command(SHOW_REPAIRS)
    async def show_repairs(ls: InputmendServer, uri: str) -> None:
        document = ls.pipeline.documents.get(uri)
        if document is not None:
            listing = _repairs_listing(document)
            await show_text(ls, f"{document.path.name}.repairs.txt", listing, listing)

    @server.command(EXPLAIN)
    async def explain_failure(ls: InputmendServer, uri: str) -> str | None:
        document = ls.pipeline.documents.get(uri)
        if document is None:
            return None
        version = document.version
        outcome = await ls.pipeline.explain(document)
        if outcome.error is not None:
            ls.window_show_message(
                types.ShowMessageParams(
                    types.MessageType.Warning, f"inputmend: cannot explain: {outcome.error}"
                )
            )
            return None
        pattern = (outcome.pattern or "").strip()
        if document.version == version:
            document.explanation = pattern
        content = "\n".join(
            [
                f"Abstract failure-inducing input of {document.path.name} (DDSET)",
                "",
                f"    {pattern}",
                "",
                f"Reduced input: {(outcome.reduced or '').strip()}",
                f"Predicate runs: {outcome.tests}",
                "",
                "More inputs that fail the same way:",
                *[f"    {instance.strip()}" for instance in outcome.instances],
            ]
        )
        await show_text(
            ls,
            f"{document.path.name}.explanation.txt",
            content + "\n",
            f"inputmend: {document.path.name} fails for inputs like `{pattern}`",
        )
        return pattern

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: InputmendServer, params: Any) -> None:
        ls.pipeline.shutdown()

    return server


async def _apply(ls: InputmendServer, document: DocumentState, rank: int) -> bool:
    assert document.repairs is not None
    repair = document.repairs[rank - 1]
    index = document.index
    edit = convert.workspace_edit(
        document.uri,
        document.version,
        convert.text_edits(index, repair.edits, ls.encoding),
        ls.document_changes(),
    )
    result = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label="inputmend: apply repair")
    )
    return bool(result.applied)


async def suggest_on_save(ls: InputmendServer, document: DocumentState) -> None:
    """When a saved document is invalid: offer the best repair, or all of them."""
    if not document.invalid:
        return
    version = document.version
    if not await ls.pipeline.wait_for_analysis(document, timeout=30):
        return
    if document.version != version or not document.repairs:
        return
    index = document.index
    best = document.repairs[0]
    title = convert.describe_edits(index, best.edits, 1)
    apply, show = (
        types.MessageActionItem("Apply repair"),
        types.MessageActionItem("Show all repairs"),
    )
    message = f"{document.path.name} is invalid. Best repair: {title}."
    try:
        choice = await ls.window_show_message_request_async(
            types.ShowMessageRequestParams(types.MessageType.Warning, message, [apply, show])
        )
    except Exception:  # noqa: BLE001 - the user dismissed it or the client cannot ask
        return
    if choice is None or document.version != version:
        return
    if choice.title == apply.title:
        await _apply(ls, document, 1)
    elif choice.title == show.title:
        listing = _repairs_listing(document)
        await show_text(ls, f"{document.path.name}.repairs.txt", listing, listing)


def serve(*, tcp_port: int | None = None) -> None:
    """Run the server on stdio (or TCP for debugging); logs go to stderr only."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    server = create_server()
    if tcp_port is not None:
        server.start_tcp("127.0.0.1", tcp_port)
    else:
        server.start_io()
