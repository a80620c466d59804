"""Handlers for text synchronization: open, change, save, close.

The document's text comes from pygls's workspace, which applies the client's
incremental changes; :func:`synced_text` is the one place that reads it.
"""

from __future__ import annotations

from lsprotocol import types

from inputmend.config.defaults import CONFIG_NAME
from inputmend.lsp import commands
from inputmend.lsp.lifecycle import fs_path
from inputmend.lsp.server import InputmendServer


def synced_text(ls: InputmendServer, uri: str) -> str:
    """The document's text after the client's changes."""
    return ls.workspace.get_text_document(uri).source


async def did_open(ls: InputmendServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    snapshot = ls.analyser.opened(item.uri, fs_path(item.uri), item.version, item.text)
    await ls.analyser.fast_check(snapshot)
    ls.analyser.schedule(snapshot, delay=0.0)


async def did_change(ls: InputmendServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    snapshot = ls.analyser.changed(uri, params.text_document.version, synced_text(ls, uri))
    if snapshot is None:
        return
    await ls.analyser.fast_check(snapshot)
    ls.analyser.schedule(snapshot)


async def did_save(ls: InputmendServer, params: types.DidSaveTextDocumentParams) -> None:
    snapshot = ls.session.get(params.text_document.uri)
    if snapshot is None:
        return
    if snapshot.document.path.name == CONFIG_NAME:
        ls.analyser.reconfigure_all()
    elif ls.session.settings.on_save != "off":
        await commands.suggest_on_save(ls, snapshot)


def did_close(ls: InputmendServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.analyser.closed(params.text_document.uri)
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )
