"""Work-done progress for background work, when the client supports it."""

from __future__ import annotations

import asyncio
import uuid

from lsprotocol import types
from pygls.lsp.server import LanguageServer


class WorkDoneProgress:
    """One progress token per document (its background work), created on the
    client with ``window/workDoneProgress/create``."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.tokens: dict[str, str] = {}

    def _supported(self) -> bool:
        window = self.server.client_capabilities.window
        return bool(window is not None and window.work_done_progress)

    async def begin(self, key: str, title: str, message: str) -> None:
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
        task = asyncio.current_task()
        if task is not None and task.cancelling():  # wait_for may swallow a cancel (< 3.12)
            raise asyncio.CancelledError
        self.tokens[key] = token
        self.server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=title, message=message, cancellable=False)
        )

    def report(self, key: str, message: str) -> None:
        token = self.tokens.get(key)
        if token is not None:
            self.server.work_done_progress.report(
                token, types.WorkDoneProgressReport(message=message)
            )

    def end(self, key: str) -> None:
        token = self.tokens.pop(key, None)
        if token is not None:
            self.server.work_done_progress.end(token, types.WorkDoneProgressEnd())
