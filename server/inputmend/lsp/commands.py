"""Server commands (``workspace/executeCommand``) and the suggestion on save.

``inputmend.applyRepair [uri, version, id]`` (the repair whose
:func:`~inputmend.lsp.action_data.repair_id` is ``id``, offered for
``version`` of the document; false, and no edit, when the document is at
another version or has no such repair), ``inputmend.showRepairs [uri]``,
``inputmend.explainFailure [uri]`` (DDSET; returns the pattern) and
``inputmend.awaitAnalysis [uri]`` (returns once the background analysis of
the document's current version is over: true, or false when the document is
not analysed or the wait timed out), so that a client asks for code actions
once instead of polling.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types

from inputmend.core.model import Repair
from inputmend.jobs import JobError
from inputmend.lsp import convert, show
from inputmend.lsp.action_data import repair_id
from inputmend.lsp.server import InputmendServer
from inputmend.lsp.session import Snapshot
from inputmend.lsp.settings import ServerSettings


def analysis_wait_s(settings: ServerSettings) -> float:
    """How long a background analysis can take: the debounce, the validator,
    then repairs and diagnosis (each within the budget, twice for safety)."""
    return settings.debounce_ms / 1000 + settings.test_timeout_s + 2 * settings.timeout_s


async def _apply(ls: InputmendServer, snapshot: Snapshot, repair: Repair) -> bool:
    edit = convert.repair_edit(snapshot, repair.edits, ls.encoding, ls.document_changes)
    result = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label="inputmend: apply repair")
    )
    return bool(result.applied)


async def apply_repair(ls: InputmendServer, uri: str, version: int, repair: str) -> bool:
    """Apply the repair ``repair`` (its id) offered for ``version``: never a
    repair of another version, which would land in the wrong place."""
    snapshot = ls.session.get(uri)
    if snapshot is None or snapshot.version != version:
        return False
    found = [r for r in snapshot.repairs or () if repair_id(r) == repair]
    return bool(found) and await _apply(ls, snapshot, found[0])


async def show_repairs(ls: InputmendServer, uri: str) -> None:
    snapshot = ls.session.get(uri)
    if snapshot is not None:
        await show.show_repair_listing(ls, snapshot)


async def explain_failure(ls: InputmendServer, uri: str) -> str | None:
    snapshot = ls.session.get(uri)
    if snapshot is None:
        return None
    try:
        result = await ls.analyser.explain(snapshot)
    except JobError as error:
        ls.window_show_message(
            types.ShowMessageParams(
                types.MessageType.Warning, f"inputmend: cannot explain: {error}"
            )
        )
        return None
    pattern = result.pattern.strip()
    ls.session.update(snapshot, explanation=pattern)
    name = snapshot.document.path.name
    await show.show_text(
        ls,
        f"{name}.explanation.txt",
        show.explanation_text(name, result),
        f"inputmend: {name} fails for inputs like `{pattern}`",
    )
    return pattern


async def await_analysis(ls: InputmendServer, uri: str) -> bool:
    analysed = await ls.analyser.wait_for_analysis(uri, analysis_wait_s(ls.session.settings))
    return analysed is not None


COMMANDS: dict[str, Callable[..., Awaitable[Any]]] = {
    convert.APPLY_REPAIR: apply_repair,
    convert.SHOW_REPAIRS: show_repairs,
    convert.EXPLAIN: explain_failure,
    convert.AWAIT_ANALYSIS: await_analysis,
}


APPLY_LABEL, LISTING_LABEL = "Apply repair", "Show all repairs"
"""The buttons of the suggestion on save.  A client that shows repairs itself
(the VS Code extension's quick pick) answers "Show all repairs" by doing so,
and answers the request with nothing."""


async def suggest_on_save(ls: InputmendServer, snapshot: Snapshot) -> None:
    """When a saved document is invalid: offer the best repair, or all of them."""
    if not snapshot.invalid:
        return
    wait = analysis_wait_s(ls.session.settings)
    analysed = await ls.analyser.wait_for_analysis(snapshot.uri, wait)
    if analysed is None or analysed.version != snapshot.version or not analysed.repairs:
        return
    title = convert.repair_title(analysed, analysed.repairs[0], ls.encoding)
    apply, listing = types.MessageActionItem(APPLY_LABEL), types.MessageActionItem(LISTING_LABEL)
    message = f"{analysed.document.path.name} is invalid. Best repair: {title}."
    try:
        choice = await ls.window_show_message_request_async(
            types.ShowMessageRequestParams(types.MessageType.Warning, message, [apply, listing])
        )
    except Exception:  # noqa: BLE001 - the user dismissed it or the client cannot ask
        return
    if choice is None or not ls.session.is_current(analysed):
        return
    if choice.title == apply.title:
        await _apply(ls, analysed, analysed.repairs[0])
    elif choice.title == listing.title:
        await show.show_repair_listing(ls, analysed)
