"""Snapshots and model values -> LSP structures.

Offsets are character offsets of the document text; LSP positions count
columns in the client's position encoding (UTF-16 unless the client chose
otherwise).  Titles say what a repair changes in the user's words
(:mod:`inputmend.core.render`, with the document's grammar tokens); code
actions carry what a client needs in ``data``
(:class:`~inputmend.lsp.action_data.ActionData`: the repair's id, rank,
algorithm, whether preferred, the version the edits are for, the title and
how much data the edits lose), so no client has to read titles; each action
names the diagnostics it fixes, and its edits name the version they are for
(where the client takes versioned document changes).  Only the final
ranked list of a version marks a fix preferred.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from lsprotocol import types

from inputmend import services
from inputmend.core.columns import POSITION_ENCODINGS
from inputmend.core.conflicts import conflict_message
from inputmend.core.loss import significant
from inputmend.core.model import Edit, Repair, Span, apply_edits, spans_to_edits
from inputmend.core.oracle import Feedback, Verdict, error_span
from inputmend.core.render import Lexer, Where, describe_repair, distinct
from inputmend.core.text import LineIndex, snippet
from inputmend.lsp.action_data import ActionData, repair_id
from inputmend.lsp.session import Snapshot

SOURCE = "inputmend"
APPLY_REPAIR = "inputmend.applyRepair"
SHOW_REPAIRS = "inputmend.showRepairs"
EXPLAIN = "inputmend.explainFailure"
AWAIT_ANALYSIS = "inputmend.awaitAnalysis"
EXPLAIN_TITLE = "Explain failure (DDSET)"
HANDFUL = 3
"""At most this many failure-inducing regions are shown (more say nothing
about where to look), and the preferred fix's further places are marked only
up to this many."""


# -------------------------------------------------------------- positions
def units_of(encoding: str | None) -> str:
    """The code units of a client's position encoding (UTF-16 unless it chose)."""
    return encoding if encoding in POSITION_ENCODINGS else "utf-16"


def position(index: LineIndex, offset: int, encoding: str | None) -> types.Position:
    return types.Position(*index.encoded_position(offset, units_of(encoding)))


def span_range(index: LineIndex, span: Span, encoding: str | None) -> types.Range:
    return types.Range(position(index, span.start, encoding), position(index, span.end, encoding))


def editor_where(index: LineIndex, encoding: str | None) -> Where:
    """Positions for titles and messages: ``line:column``, 1-based, with the
    editor's columns (the client's position encoding)."""

    def where(offset: int) -> str:
        at = position(index, offset, encoding)
        return f"{at.line + 1}:{at.character + 1}"

    return where


def offset_of(index: LineIndex, where: types.Position, encoding: str | None) -> int:
    """A client position back to a character offset; a column past the end of
    its line is the end of the line (before its line break), as the
    specification says."""
    return index.encoded_offset(where.line, where.character, units_of(encoding))


# ------------------------------------------------------------ diagnostics
def _diagnostic(
    index: LineIndex,
    span: Span,
    code: str,
    message: str,
    encoding: str | None,
    version: int,
    severity: types.DiagnosticSeverity = types.DiagnosticSeverity.Error,
    **data: Any,
) -> types.Diagnostic:
    return types.Diagnostic(
        range=span_range(index, span, encoding),
        message=message,
        severity=severity,
        source=SOURCE,
        code=code,
        # Neovim 0.7 sends diagnostics back in code-action requests with byte
        # columns; the canonical character range travels in ``data``.
        data={"kind": code, "start": span.start, "end": span.end, "version": version, **data},
    )


def boundary_diagnostic(
    index: LineIndex, feedback: Feedback, encoding: str | None, version: int
) -> types.Diagnostic:
    """The fast-path diagnostic: where the grammar stopped accepting the text."""
    code = "incomplete" if feedback.verdict is Verdict.INCOMPLETE else "syntax"
    message = conflict_message(index.text, feedback.error_offset) or feedback.message
    message = message or f"{feedback.verdict.value} input"
    span = error_span(index.text, feedback)
    return _diagnostic(index, span, code, message, encoding, version)


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
    """The document's error: where the grammar stops, else the objection of the
    grammar's semantics check, else the validator's."""
    index, version = snapshot.index, snapshot.version
    if snapshot.fast is not None and not snapshot.fast.valid:
        return boundary_diagnostic(index, snapshot.fast, encoding, version)
    if snapshot.semantic is not None and not snapshot.semantic.valid:
        message = f"rejected by {snapshot.setup.semantics}: {snapshot.semantic.message}"
        offset = snapshot.semantic.error_offset
        return validator_diagnostic(index, message, offset, encoding, version)
    if validator_rejects(snapshot):
        assert snapshot.validator is not None
        reason = snapshot.validator.message or "invalid"
        message = f"rejected by {validator_name(snapshot)}: {reason}"
        if snapshot.spec is not None and snapshot.spec.grammar is not None:
            message += f" (the grammar accepts it: use '{EXPLAIN_TITLE}')"
        offset = snapshot.validator.error_offset
        return validator_diagnostic(index, message, offset, encoding, version)
    return None


def error_location(snapshot: Snapshot) -> Span | None:
    """Where the document's error is known to be (not a placeholder range)."""
    if snapshot.fast is not None and not snapshot.fast.valid:
        return error_span(snapshot.text, snapshot.fast)
    if validator_rejects(snapshot):
        assert snapshot.validator is not None
        offset = snapshot.validator.error_offset
        return None if offset is None else Span(offset, min(offset + 1, len(snapshot.text)))
    return None


def _touch(a: Span, b: Span) -> bool:
    return a.start <= b.end and b.start <= a.end


def span_regions(snapshot: Snapshot) -> list[list[Span]]:
    """The failure-inducing spans worth showing, merged into regions (spans
    with only layout between them); all of them or none.

    They are shown once the analysis is over, when there are at most
    :data:`HANDFUL` regions (more say nothing about where to look), when each
    marks something the preferred repair removes (otherwise they describe a
    worse fix than the one offered, such as deleting a value where a comma is
    missing), and when they are not just the error's own place."""
    if not snapshot.analysed or not snapshot.spans:
        return []
    text = snapshot.text
    regions: list[list[Span]] = []
    for span in sorted(snapshot.spans, key=lambda s: s.start):
        if regions and not text[regions[-1][-1].end : span.start].strip():
            regions[-1].append(span)
        else:
            regions.append([span])
    if len(regions) > HANDFUL:
        return []
    if snapshot.final and snapshot.repairs:
        removed = [Span(e.offset, e.end) for e in snapshot.repairs[0].edits if e.delete]
        if not all(any(_touch(s, d) for d in removed) for r in regions for s in r):
            return []
    error = error_location(snapshot)
    if error is not None and all(
        error.start - 1 <= r[0].start and r[-1].end <= error.end + 1 for r in regions
    ):
        return []
    return regions


def span_diagnostics(snapshot: Snapshot, encoding: str | None) -> list[types.Diagnostic]:
    """Failure-inducing regions, at information severity, each with a message
    true of it: removing every marked part together makes the document valid."""
    regions = span_regions(snapshot)
    found = []
    for region in regions:
        texts = [f"`{snippet(snapshot.text[s.start : s.end], 30)}`" for s in region]
        parts = " and ".join(texts) if len(texts) <= 3 else f"the {len(texts)} marked parts"
        others = len(regions) - 1
        if others:
            places = "place" if others == 1 else "places"
            message = (
                f"failure-inducing: without {parts} here and what is marked at {others} "
                f"other {places}, the document is valid"
            )
        else:
            message = f"failure-inducing: without {parts} the document is valid"
        found.append(
            _diagnostic(
                snapshot.index,
                Span(region[0].start, region[-1].end),
                "failure-inducing",
                message,
                encoding,
                snapshot.version,
                types.DiagnosticSeverity.Information,
                algorithm="ddmax",
                parts=[[s.start, s.end] for s in region],
            )
        )
    return found


def _edit_groups(index: LineIndex, edits: Sequence[Edit]) -> list[list[Edit]]:
    """Edits on the same or neighbouring lines, in order."""
    groups: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: e.offset):
        line = index.position(edit.offset)[0]
        if groups and line - index.position(groups[-1][-1].end)[0] <= 1:
            groups[-1].append(edit)
        else:
            groups.append([edit])
    return groups


def further_problems(snapshot: Snapshot, encoding: str | None) -> list[types.Diagnostic]:
    """An error at each other place the preferred repair changes: the error
    diagnostic stands for the place nearest to it, and a document with two
    missing commas has two problems to fix."""
    error = error_location(snapshot)
    if error is None or not (snapshot.final and snapshot.repairs):
        return []
    index, text = snapshot.index, snapshot.text
    groups = _edit_groups(index, snapshot.repairs[0].edits)
    if not 2 <= len(groups) <= HANDFUL + 1:
        return []

    def distance(group: list[Edit]) -> int:
        return max(0, group[0].offset - error.end, error.start - group[-1].end)

    nearest = min(groups, key=distance)
    lexer, where = text_lexer(snapshot), editor_where(index, encoding)
    found = []
    for group in groups:
        if group is nearest:
            continue
        phrase = describe_repair(text, group, lexer=lexer, where=where)
        message = f"another problem: {phrase[0].lower()}{phrase[1:]} (part of the preferred fix)"
        start = min(group[0].offset, len(text))
        span = Span(start, min(max(group[-1].end, start + 1), len(text)))
        found.append(
            _diagnostic(index, span, "another-problem", message, encoding, snapshot.version)
        )
    return found


def diagnostics(snapshot: Snapshot, encoding: str | None) -> list[types.Diagnostic]:
    """Everything known about a snapshot, as diagnostics: notes, one error per
    problem, and the failure-inducing regions worth showing."""
    found = [note_diagnostic(note.code, note.message) for note in snapshot.setup.notes]
    if snapshot.validator_error is not None:
        found.append(note_diagnostic("validator-error", snapshot.validator_error))
    error = error_diagnostic(snapshot, encoding)
    if error is not None:
        found.append(error)
    found.extend(further_problems(snapshot, encoding))
    found.extend(span_diagnostics(snapshot, encoding))
    if snapshot.background_note:
        found.append(note_diagnostic("background", snapshot.background_note))
    return found


# ---------------------------------------------------------------- actions
def text_lexer(snapshot: Snapshot) -> Lexer | None:
    """The document grammar's lexer, for titles in its tokens (None: words)."""
    oracle = snapshot.setup.fast_oracle
    return services.lexer_of(oracle) if oracle is not None else None


def title(snapshot: Snapshot, edits: Sequence[Edit], encoding: str | None) -> str:
    """What the edits change, in the user's words and the editor's columns."""
    where = editor_where(snapshot.index, encoding)
    return describe_repair(snapshot.text, edits, lexer=text_lexer(snapshot), where=where)


def repair_title(snapshot: Snapshot, repair: Repair, encoding: str | None) -> str:
    """A repair's title; a lossy one says so, so that nobody applies it unawares."""
    summary = title(snapshot, repair.edits, encoding)
    return summary + loss_note(repair.data_lost) if repair.lossy else summary


def loss_note(lost: int) -> str:
    """What a title adds for a fix that deletes ``lost`` characters of data."""
    return f" (loses data: {lost} character{'s' if lost != 1 else ''})"


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


def preferred(snapshot: Snapshot, rank: int) -> bool:
    """Only the first of the final ranked list (quick repairs may be
    replaced), and never a lossy repair: it is not applied unasked."""
    repairs = snapshot.repairs or ()
    return rank == 1 and snapshot.final and bool(repairs) and not repairs[0].lossy


def repair_data(snapshot: Snapshot, repair: Repair, rank: int, summary: str) -> ActionData:
    """What a client needs to know about a repair action, without its title."""
    return ActionData(
        kind="repair",
        version=snapshot.version,
        id=repair_id(repair),
        rank=rank,
        preferred=preferred(snapshot, rank),
        final=snapshot.final,
        algorithm=repair.algorithm,
        summary=summary,
        edits=len(repair.edits),
        distance=repair.distance,
        data_lost=repair.data_lost,
        tokens_kept=repair.tokens_kept,
        lossy=repair.lossy,
        inserted=repair.inserted,
    )


def quick_fix(
    title: str,
    diagnostics: list[types.Diagnostic],
    data: ActionData,
    *,
    edit: types.WorkspaceEdit | None = None,
    command: types.Command | None = None,
    is_preferred: bool | None = None,
) -> types.CodeAction:
    """A quick fix, with its :class:`ActionData` as ``data`` (built here only)."""
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=diagnostics,
        edit=edit,
        command=command,
        is_preferred=is_preferred,
        data=data.to_json(),
    )


def repair_actions(
    snapshot: Snapshot, encoding: str | None, document_changes: bool
) -> list[types.CodeAction]:
    """The ranked repairs (best first; preferred once the list is final), then
    removing every failure-inducing span when that is not one of them."""
    error = error_diagnostic(snapshot, encoding)
    fixes = [error] if error is not None else []
    repairs = snapshot.repairs or ()
    actions = []
    for rank, repair in enumerate(repairs, 1):
        summary = repair_title(snapshot, repair, encoding)
        linked = fixes + further_problems(snapshot, encoding) if rank == 1 else fixes
        actions.append(
            quick_fix(
                summary,
                linked,
                repair_data(snapshot, repair, rank, summary),
                edit=repair_edit(snapshot, repair.edits, encoding, document_changes),
                is_preferred=preferred(snapshot, rank),
            )
        )
    if snapshot.analysed and snapshot.spans:
        deletions = spans_to_edits(snapshot.spans)
        removal = Repair(apply_edits(snapshot.text, deletions), deletions, "ddmax", True, 0)
        lexer = text_lexer(snapshot)
        if distinct(snapshot.text, (*repairs, removal), lexer)[-1] is removal:
            # removing the spans deletes their non-blank characters, data or not
            removed = sum(significant(snapshot.text[e.offset : e.end]) for e in deletions)
            summary = title(snapshot, deletions, encoding) + (loss_note(removed) if removed else "")
            data = ActionData(
                kind="remove-spans",
                version=snapshot.version,
                algorithm="ddmax",
                summary=summary,
                edits=len(deletions),
                data_lost=sum(edit.delete for edit in deletions),
            )
            actions.append(
                quick_fix(
                    summary,
                    fixes + span_diagnostics(snapshot, encoding),
                    data,
                    edit=repair_edit(snapshot, deletions, encoding, document_changes),
                )
            )
    return actions


def explain_action(snapshot: Snapshot, encoding: str | None) -> types.CodeAction | None:
    """DDSET, offered when the grammar accepts a document the validator rejects."""
    if not validator_rejects(snapshot) or snapshot.spec is None or snapshot.spec.grammar is None:
        return None
    error = error_diagnostic(snapshot, encoding)
    return quick_fix(
        EXPLAIN_TITLE,
        [error] if error is not None else [],
        ActionData(kind="explain", version=snapshot.version),
        command=types.Command(EXPLAIN_TITLE, EXPLAIN, arguments=[snapshot.uri]),
    )
