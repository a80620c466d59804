"""Text the server shows the user: the list of repairs, DDSET's explanation,
shown as a generated read-only document (``window/showDocument``) or, where
the client cannot show documents, as a message.

Generated documents live in a private folder of the server
(:class:`GeneratedFiles`): made by ``mkdtemp`` (mode 0700, a name no one can
guess or create first), each file created anew with ``O_EXCL`` and
``O_NOFOLLOW``.  A shared folder with a fixed name let another user plant
symbolic links there, and a listing overwrote a 0600 file."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
from collections.abc import Awaitable
from pathlib import Path
from typing import Protocol

from lsprotocol import types

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
        title = convert.repair_title(snapshot, repair, None)
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
    return (
        "\n".join(
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
        )
        + "\n"
    )


class GeneratedFiles:
    """The server's generated documents, in its own private folder (made on
    first use, removed when the server stops)."""

    def __init__(self) -> None:
        self._folder: Path | None = None

    def write(self, name: str, content: str) -> Path:
        """A read-only file ``name`` holding ``content`` (replacing an older one)."""
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="inputmend-"))
        path = self._folder / Path(name).name
        path.unlink(missing_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(path, flags, 0o444), "w", encoding="utf-8") as stream:
            stream.write(content)
        return path

    def remove(self) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


class Shows(Protocol):
    """What showing text needs of the server."""

    generated: GeneratedFiles

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    def window_show_document_async(
        self, params: types.ShowDocumentParams
    ) -> Awaitable[types.ShowDocumentResult]: ...

    def window_show_message(self, params: types.ShowMessageParams) -> None: ...


async def show_text(ls: Shows, name: str, content: str, fallback: str) -> None:
    """Show generated text as a document where supported, else as a message."""
    window = ls.client_capabilities.window
    show_document = window.show_document if window is not None else None
    if show_document is not None and show_document.support:
        try:
            path = ls.generated.write(name, content)
        except OSError:
            log.warning("cannot write the generated document %s", name, exc_info=True)
            ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, fallback))
            return
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


async def show_repair_listing(ls: Shows, snapshot: Snapshot) -> None:
    listing = repairs_listing(snapshot)
    await show_text(ls, f"{snapshot.document.path.name}.repairs.txt", listing, listing)
