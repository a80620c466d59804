"""Results -> LSP structures.  Offsets are character offsets of the document
text; LSP positions count columns in the client's position encoding."""

from __future__ import annotations

from lsprotocol import types

from inputmend.oracles.base import Feedback, Verdict
from inputmend.text import LineIndex

SOURCE = "inputmend"


def column_units(line_text: str, column: int, encoding: str | None) -> int:
    """Convert a code-point column to the client's units (utf-16 by default)."""
    prefix = line_text[:column]
    if encoding == types.PositionEncodingKind.Utf8:
        return len(prefix.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(prefix)
    return len(prefix.encode("utf-16-le", "surrogatepass")) // 2


def position(index: LineIndex, offset: int, encoding: str | None) -> types.Position:
    line, column = index.position(offset)
    start = index.starts[line]
    return types.Position(line, column_units(index.text[start : start + column], column, encoding))


def span_range(index: LineIndex, start: int, end: int, encoding: str | None) -> types.Range:
    return types.Range(position(index, start, encoding), position(index, end, encoding))


def boundary_diagnostic(
    index: LineIndex, feedback: Feedback, encoding: str | None
) -> types.Diagnostic:
    """The fast-path diagnostic: where the oracle stopped accepting the text."""
    text = index.text
    offset = feedback.error_offset if feedback.error_offset is not None else len(text)
    end = offset if feedback.verdict is Verdict.INCOMPLETE else min(offset + 1, len(text))
    if end == offset and offset > 0 and feedback.verdict is Verdict.INCOMPLETE:
        offset -= 1  # mark the last character: a zero-width range at EOF is hard to see
    code = "incomplete" if feedback.verdict is Verdict.INCOMPLETE else "syntax"
    message = feedback.message or f"{feedback.verdict.value} input"
    return types.Diagnostic(
        range=span_range(index, offset, max(end, offset), encoding),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
        code=code,
    )
