"""Snapshots and model values -> LSP structures.

Offsets are character offsets of the document text; LSP positions count
columns in the client's position encoding (UTF-16 unless the client chose
otherwise).  Code actions carry what a client needs in ``data`` (rank,
algorithm, whether preferred, the version the edits are for, a summary of
the edits and how much data they lose), so no client has to read titles;
each action names the diagnostics it fixes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from lsprotocol import types

from inputmend.core.model import Edit, Repair, Span
from inputmend.core.render import repair_summary
from inputmend.core.text import LineIndex, snippet
from inputmend.lsp.session import Snapshot
from inputmend.oracles.base import Feedback, Verdict

SOURCE = "inputmend"
APPLY_REPAIR = "inputmend.applyRepair"
SHOW_REPAIRS = "inputmend.showRepairs"
EXPLAIN = "inputmend.explainFailure"
AWAIT_ANALYSIS = "inputmend.awaitAnalysis"
EXPLAIN_TITLE = "Explain failure (DDSET)"


# -------------------------------------------------------------- positions
def column_units(line_text: str, encoding: str | None) -> int:
    """Length of a line prefix in the client's units (UTF-16 by default)."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(line_text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(line_text)
    return len(line_text.encode("utf-16-le", "surrogatepass")) // 2


def position(index: LineIndex, offset: int, encoding: str | None) -> types.Position:
    line, column = index.position(offset)
    start = index.starts[line]
    return types.Position(line, column_units(index.text[start : start + column], encoding))


def span_range(index: LineIndex, span: Span, encoding: str | None) -> types.Range:
    return types.Range(position(index, span.start, encoding), position(index, span.end, encoding))


def offset_of(index: LineIndex, where: types.Position, encoding: str | None) -> int:
    """A client position back to a character offset."""
    start, end = index.line_span(where.line)
    units = 0
    for column, char in enumerate(index.text[start:end]):
        if units >= where.character:
            return start + column
        units += column_units(char, encoding)
    return end


# ------------------------------------------------------------ diagnostics
def _diagnostic(
    index: LineIndex, span: Span, code: str, message: str, encoding: str | None, version: int
) -> types.Diagnostic:
    return types.Diagnostic(
        range=span_range(index, span, encoding),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
        code=code,
        # Neovim 0.7 sends diagnostics back in code-action requests with byte
        # columns; the canonical character range travels in ``data``.
        data={"kind": code, "start": span.start, "end": span.end, "version": version},
    )


def boundary_diagnostic(
    index: LineIndex, feedback: Feedback, encoding: str | None, version: int
) -> types.Diagnostic:
    """The fast-path diagnostic: where the grammar stopped accepting the text."""
    size = len(index.text)
    offset = feedback.error_offset if feedback.error_offset is not None else size
    incomplete = feedback.verdict is Verdict.INCOMPLETE
    end = offset if incomplete else min(offset + 1, size)
    if end == offset and offset > 0 and incomplete:
        offset -= 1  # mark the last character: a zero-width range at the end is hard to see
    code = "incomplete" if incomplete else "syntax"
    message = feedback.message or f"{feedback.verdict.value} input"
    return _diagnostic(index, Span(offset, max(end, offset)), code, message, encoding, version)


def span_diagnostic(
    index: LineIndex, span: Span, encoding: str | None, version: int
) -> types.Diagnostic:
    text = snippet(index.text[span.start : span.end])
    message = f"failure-inducing input `{text}`: without it the document is valid (ddmax)"
    return _diagnostic(index, span, "failure-inducing", message, encoding, version)


def validator_diagnostic(
    index: LineIndex, message: str, offset: int | None, encoding: str | None, version: int
) -> types.Diagnostic:
    """At the offset the validator reported, else over the first line."""
    start = offset if offset is not None else 0
    if offset is not None:
        end = min(start + 1, len(index.text))
    else:
        end = index.starts[1] - 1 if len(index.starts) > 1 else len(index.text)
    span = Span(start, max(end, start))
    return _diagnostic(index, span, "validator", message, encoding, version)


def note_diagnostic(code: str, message: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=message,
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
        code=code,
    )


def validator_name(snapshot: Snapshot) -> str:
    spec = snapshot.spec
    if spec is None:
        return "the validator"
    if spec.command is not None:
        command = spec.command if isinstance(spec.command, str) else " ".join(spec.command)
        return f"`{snippet(command, 60)}`"
    return f"`{spec.python}`"


def validator_rejects(snapshot: Snapshot) -> bool:
    """The grammar accepts the document (or there is none) and the validator does not."""
    fast_valid = snapshot.fast is None or snapshot.fast.valid
    return snapshot.validator is not None and not snapshot.validator.valid and fast_valid


def error_diagnostic(snapshot: Snapshot, encoding: str | None) -> types.Diagnostic | None:
    """The document's error: where the grammar stops, else the validator's objection."""
    index, version = snapshot.index, snapshot.version
    if snapshot.fast is not None and not snapshot.fast.valid:
        return boundary_diagnostic(index, snapshot.fast, encoding, version)
    if validator_rejects(snapshot):
        assert snapshot.validator is not None
        reason = snapshot.validator.message or "invalid"
        message = f"rejected by {validator_name(snapshot)}: {reason}"
        if snapshot.spec is not None and snapshot.spec.grammar is not None:
            message += f" (the grammar accepts it: use '{EXPLAIN_TITLE}')"
        offset = snapshot.validator.error_offset
        return validator_diagnostic(index, message, offset, encoding, version)
    return None


def span_diagnostics(snapshot: Snapshot, encoding: str | None) -> list[types.Diagnostic]:
    return [span_diagnostic(snapshot.index, s, encoding, snapshot.version) for s in snapshot.spans]


def diagnostics(snapshot: Snapshot, encoding: str | None) -> list[types.Diagnostic]:
    """Everything known about a snapshot, as diagnostics."""
    found = [note_diagnostic(note.code, note.message) for note in snapshot.setup.notes]
    if snapshot.validator_error is not None:
        found.append(note_diagnostic("validator-error", snapshot.validator_error))
    error = error_diagnostic(snapshot, encoding)
    if error is not None:
        found.append(error)
    found.extend(span_diagnostics(snapshot, encoding))
    if snapshot.background_note:
        found.append(note_diagnostic("background", snapshot.background_note))
    return found


# ---------------------------------------------------------------- actions
def text_edits(
    index: LineIndex, edits: Iterable[Edit], encoding: str | None
) -> list[types.TextEdit]:
    return [
        types.TextEdit(span_range(index, Span(edit.offset, edit.end), encoding), edit.insert)
        for edit in edits
    ]


def workspace_edit(
    uri: str, version: int, edits: list[types.TextEdit], document_changes: bool
) -> types.WorkspaceEdit:
    """Versioned document changes where the client supports them."""
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri, version),
                    edits=list(edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})


def repair_edit(
    snapshot: Snapshot, edits: Sequence[Edit], encoding: str | None, document_changes: bool
) -> types.WorkspaceEdit:
    """The workspace edit that applies ``edits`` to the snapshot's version."""
    changes = text_edits(snapshot.index, edits, encoding)
    return workspace_edit(snapshot.uri, snapshot.version, changes, document_changes)


def repair_data(snapshot: Snapshot, repair: Repair, rank: int) -> dict[str, Any]:
    """What a client needs to know about a repair action, without its title."""
    return {
        "kind": "repair",
        "rank": rank,
        "preferred": rank == 1,
        "algorithm": repair.algorithm,
        "version": snapshot.version,
        "summary": repair_summary(snapshot.index, repair.edits, rank),
        "edits": len(repair.edits),
        "distance": repair.distance,
        "data_lost": repair.data_lost,
        "tokens_kept": repair.tokens_kept,
        "lossy": repair.lossy,
        "inserted": repair.inserted,
    }


def repair_actions(
    snapshot: Snapshot, encoding: str | None, document_changes: bool
) -> list[types.CodeAction]:
    """The ranked repairs (best first, preferred), then removing every
    failure-inducing span."""
    error = error_diagnostic(snapshot, encoding)
    fixes = [error] if error is not None else []
    actions = []
    for rank, repair in enumerate(snapshot.repairs or (), 1):
        data = repair_data(snapshot, repair, rank)
        actions.append(
            types.CodeAction(
                title=f"{data['summary']} ({repair.algorithm})",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=fixes,
                edit=repair_edit(snapshot, repair.edits, encoding, document_changes),
                is_preferred=rank == 1,
                data=data,
            )
        )
    if snapshot.spans:
        deletions = [Edit(span.start, span.end - span.start) for span in snapshot.spans]
        summary = "Remove all failure-inducing spans"
        actions.append(
            types.CodeAction(
                title=f"{summary} (ddmax)",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=span_diagnostics(snapshot, encoding),
                edit=repair_edit(snapshot, deletions, encoding, document_changes),
                data={
                    "kind": "remove-spans",
                    "algorithm": "ddmax",
                    "version": snapshot.version,
                    "summary": summary,
                    "edits": len(deletions),
                    "data_lost": sum(edit.delete for edit in deletions),
                },
            )
        )
    return actions


def explain_action(snapshot: Snapshot, encoding: str | None) -> types.CodeAction | None:
    """DDSET, offered when the grammar accepts a document the validator rejects."""
    if not validator_rejects(snapshot) or snapshot.spec is None or snapshot.spec.grammar is None:
        return None
    error = error_diagnostic(snapshot, encoding)
    return types.CodeAction(
        title=EXPLAIN_TITLE,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[error] if error is not None else [],
        command=types.Command(EXPLAIN_TITLE, EXPLAIN, arguments=[snapshot.uri]),
        data={"kind": "explain", "version": snapshot.version},
    )
