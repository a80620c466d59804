"""Results -> LSP structures.  Offsets are character offsets of the document
text; LSP positions count columns in the client's position encoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from inputmend.oracles.base import Feedback, Verdict
from inputmend.text import LineIndex, snippet

SOURCE = "inputmend"


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


def span_range(index: LineIndex, start: int, end: int, encoding: str | None) -> types.Range:
    return types.Range(position(index, start, encoding), position(index, end, encoding))


def offset_of(index: LineIndex, where: types.Position, encoding: str | None) -> int:
    """A client position back to a character offset."""
    if where.line >= len(index.starts):
        return len(index.text)
    start = index.starts[where.line]
    end = index.starts[where.line + 1] if where.line + 1 < len(index.starts) else len(index.text)
    line = index.text[start:end]
    units = 0
    for column, char in enumerate(line):
        if units >= where.character:
            return start + column
        units += column_units(char, encoding)
    return end


def _data(kind: str, start: int, end: int, version: int) -> dict[str, Any]:
    # Neovim 0.7 sends diagnostics back in code-action requests with byte
    # columns; the canonical character range travels in ``data``.
    return {"kind": kind, "start": start, "end": end, "version": version}


def boundary_diagnostic(
    index: LineIndex, feedback: Feedback, encoding: str | None, version: int
) -> types.Diagnostic:
    """The fast-path diagnostic: where the grammar stopped accepting the text."""
    text = index.text
    offset = feedback.error_offset if feedback.error_offset is not None else len(text)
    end = offset if feedback.verdict is Verdict.INCOMPLETE else min(offset + 1, len(text))
    if end == offset and offset > 0 and feedback.verdict is Verdict.INCOMPLETE:
        offset -= 1  # mark the last character: a zero-width range at the end is hard to see
    code = "incomplete" if feedback.verdict is Verdict.INCOMPLETE else "syntax"
    return types.Diagnostic(
        range=span_range(index, offset, max(end, offset), encoding),
        message=feedback.message or f"{feedback.verdict.value} input",
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
        code=code,
        data=_data(code, offset, max(end, offset), version),
    )


def span_diagnostic(
    index: LineIndex, start: int, end: int, encoding: str | None, version: int
) -> types.Diagnostic:
    text = index.text[start:end]
    return types.Diagnostic(
        range=span_range(index, start, end, encoding),
        message=f"failure-inducing input `{snippet(text)}`: without it the document is valid "
        "(ddmax)",
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
        code="failure-inducing",
        data=_data("failure-inducing", start, end, version),
    )


def validator_diagnostic(
    index: LineIndex, message: str, offset: int | None, encoding: str | None, version: int
) -> types.Diagnostic:
    start = offset if offset is not None else 0
    end = (
        min(start + 1, len(index.text))
        if offset is not None
        else index.starts[1] - 1
        if len(index.starts) > 1
        else len(index.text)
    )
    return types.Diagnostic(
        range=span_range(index, start, max(end, start), encoding),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
        code="validator",
        data=_data("validator", start, max(end, start), version),
    )


def note_diagnostic(code: str, message: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=message,
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
        code=code,
    )


def describe_edits(index: LineIndex, edits: Sequence[tuple[int, int, str]], rank: int) -> str:
    """A code action title that says what the repair does."""
    text = index.text
    if len(edits) == 1:
        offset, delete, insert = edits[0]
        where = index.human(offset)
        removed = snippet(text[offset : offset + delete])
        if delete and insert:
            return f"Replace `{removed}` with `{snippet(insert)}` at {where}"
        if delete:
            return f"Delete `{removed}` at {where}"
        return f"Insert `{snippet(insert)}` at {where}"
    return f"Apply repair {rank} ({len(edits)} edits)"


def text_edits(
    index: LineIndex, edits: Sequence[tuple[int, int, str]], encoding: str | None
) -> list[types.TextEdit]:
    return [
        types.TextEdit(span_range(index, offset, offset + delete, encoding), insert)
        for offset, delete, insert in edits
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
