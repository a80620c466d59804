"""Handlers for text synchronization: open, change, save, close.

The server keeps each document's text itself and applies the client's
changes with the project's line index (:class:`~inputmend.core.text.LineIndex`,
updated change by change around each change's place, with columns found by
bisection on lines of any length), which breaks lines only at ``\\n``,
``\\r\\n`` and ``\\r``, as clients do.
pygls's own copy splits lines with ``str.splitlines``, which also breaks at
U+2028, U+2029, NEL, ``\\v``, ``\\f`` and ``\\x1c``-``\\x1e``: an edit after
such a character would land in the wrong place, and a quick fix computed on
that text would corrupt the user's file.  :func:`synced_index` is the one
place where the text is synced.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from inputmend.config.defaults import CONFIG_NAME
from inputmend.core.text import LineIndex
from inputmend.lsp import commands
from inputmend.lsp.convert import offset_of
from inputmend.lsp.lifecycle import fs_path
from inputmend.lsp.server import InputmendServer


def apply_changes(
    text: str, changes: Sequence[types.TextDocumentContentChangeEvent], encoding: str | None
) -> str:
    """``text`` after the client's content changes, applied in order; a
    change without a range replaces the whole text."""
    return changed_index(LineIndex(text), changes, encoding).text


def changed_index(
    index: LineIndex,
    changes: Sequence[types.TextDocumentContentChangeEvent],
    encoding: str | None,
) -> LineIndex:
    """The index of ``index``'s text after the client's content changes,
    derived from it change by change (a whole text's line starts are not
    searched again for each change)."""
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangeWholeDocument):
            index = LineIndex(change.text)
            continue
        start = offset_of(index, change.range.start, encoding)
        end = max(start, offset_of(index, change.range.end, encoding))
        index = index.replaced(start, end, change.text)
    return index


def synced_index(
    ls: InputmendServer, uri: str, changes: Sequence[types.TextDocumentContentChangeEvent]
) -> LineIndex | None:
    """The index of the document's text after the client's changes (derived
    from the current version's); None when it is not open."""
    snapshot = ls.session.get(uri)
    if snapshot is None:
        return None
    return changed_index(snapshot.index, changes, ls.encoding)


def did_open(ls: InputmendServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    snapshot = ls.analyser.opened(item.uri, fs_path(item.uri), item.version, item.text)
    ls.analyser.start(snapshot, delay=0.0)


def did_change(ls: InputmendServer, params: types.DidChangeTextDocumentParams) -> None:
    """Plain (not async): the new version is the current one before the next
    message is handled, so a request right after it is answered for it."""
    uri = params.text_document.uri
    index = synced_index(ls, uri, params.content_changes)
    if index is None:
        return
    snapshot = ls.analyser.changed(uri, params.text_document.version, index.text, index=index)
    if snapshot is not None:
        ls.analyser.start(snapshot)


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
