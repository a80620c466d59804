"""Handlers for requests about a position: code actions and hover."""

from __future__ import annotations

from lsprotocol import types

from inputmend.lsp import convert
from inputmend.lsp.server import InputmendServer

CODE_ACTION_OPTIONS = types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])


def code_action(
    ls: InputmendServer, params: types.CodeActionParams
) -> list[types.CodeAction | types.Command] | None:
    """The ranked repairs of an invalid document, span removal, and DDSET."""
    snapshot = ls.session.get(params.text_document.uri)
    if snapshot is None or not snapshot.invalid:
        return None
    actions: list[types.CodeAction | types.Command] = []
    actions.extend(convert.repair_actions(snapshot, ls.encoding, ls.document_changes))
    explain = convert.explain_action(snapshot, ls.encoding)
    if explain is not None:
        actions.append(explain)
    return actions or None


def hover(ls: InputmendServer, params: types.HoverParams) -> types.Hover | None:
    """At the error or on a failure-inducing span: the error and the best repair."""
    snapshot = ls.session.get(params.text_document.uri)
    if snapshot is None or not snapshot.invalid:
        return None
    offset = convert.offset_of(snapshot.index, params.position, ls.encoding)
    fast = snapshot.fast
    near_boundary = (
        fast is not None and fast.error_offset is not None and abs(fast.error_offset - offset) <= 1
    )
    in_span = any(
        span.contains(offset) for region in convert.span_regions(snapshot) for span in region
    )
    if not (near_boundary or in_span or snapshot.explanation):
        return None
    parts = []
    if fast is not None and not fast.valid:
        parts.append(f"**inputmend**: {fast.message}")
    if snapshot.repairs:
        best = snapshot.repairs[0]
        summary = convert.repair_title(snapshot, best, ls.encoding)
        which = "Best repair" if snapshot.final else "Repair found so far"
        parts.append(f"{which}: {summary} (found by {best.algorithm})")
    if snapshot.explanation:
        parts.append(f"Failure pattern (DDSET): `{snapshot.explanation}`")
    return types.Hover(contents=types.MarkupContent(types.MarkupKind.Markdown, "\n\n".join(parts)))
