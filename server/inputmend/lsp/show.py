"""Text the server shows the user: the list of repairs, DDSET's explanation,
shown as a generated read-only document (``window/showDocument``) or, where
the client cannot show documents, as a message."""

from __future__ import annotations

import asyncio
import logging
import tempfile
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from inputmend.core.model import Abstraction
from inputmend.core.text import snippet
from inputmend.lsp import convert
from inputmend.lsp.session import Snapshot

log = logging.getLogger(__name__)

SHOW_TIMEOUT_S = 10


def repairs_listing(snapshot: Snapshot) -> str:
    """Every ranked repair with each of its edits."""
    index, name = snapshot.index, snapshot.document.path.name
    lines = [f"Ranked repairs of {name} (version {snapshot.version})", ""]
    for rank, repair in enumerate(snapshot.repairs or (), 1):
        title = convert.title(snapshot, repair.edits, None)
        lines.append(f"{rank}. {title} — {repair.algorithm}, distance {repair.distance}")
        for edit in repair.edits:
            removed = snippet(snapshot.text[edit.offset : edit.end])
            where = index.human(edit.offset)
            lines.append(f"     at {where}: `{removed}` -> `{snippet(edit.insert)}`")
    if not snapshot.repairs:
        lines.append("No repair was found.")
    return "\n".join(lines) + "\n"


def explanation_text(name: str, result: Abstraction) -> str:
    pattern = result.pattern.strip()
    return "\n".join(
        [
            f"Abstract failure-inducing input of {name} (DDSET)",
            "",
            f"    {pattern}",
            "",
            f"Reduced input: {result.reduced.strip()}",
            f"Predicate runs: {result.stats.tests}",
            "",
            "More inputs that fail the same way:",
            *[f"    {instance.strip()}" for instance in result.instances],
        ]
    ) + "\n"


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


async def show_text(ls: LanguageServer, name: str, content: str, fallback: str) -> None:
    """Show generated text as a document where supported, else as a message."""
    window = ls.client_capabilities.window
    show_document = window.show_document if window is not None else None
    if show_document is not None and show_document.support:
        path = _generated_document(name, content)
        try:
            result = await asyncio.wait_for(
                ls.window_show_document_async(
                    types.ShowDocumentParams(uri=path.as_uri(), take_focus=True)
                ),
                SHOW_TIMEOUT_S,
            )
            if result.success:
                return
        except Exception:
            log.warning("showDocument failed", exc_info=True)
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, fallback))


async def show_repair_listing(ls: LanguageServer, snapshot: Snapshot) -> None:
    listing = repairs_listing(snapshot)
    await show_text(ls, f"{snapshot.document.path.name}.repairs.txt", listing, listing)
