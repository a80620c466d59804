"""The server's text is the editor's text: content changes are applied with
the project's line index (only ``\\n``, ``\\r\\n`` and ``\\r`` break lines)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from inputmend.lsp import sync
from tests.lsp.conftest import open_document, session, wait_until

UTF16, UTF8 = types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf8

# Characters that str.splitlines breaks at and LSP clients do not.
NONE = types.Position(2**31 - 1, 0)  # stands for "no syntax diagnostic"
NOT_LINE_BREAKS = ["\u2028", "\u2029", "\x85", "\v", "\f", "\x1c", "\x1d", "\x1e"]


def _units(text: str, encoding: str) -> int:
    if encoding == UTF8:
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def _change(
    line: int, character: int, end: int, text: str
) -> types.TextDocumentContentChangePartial:
    where = types.Range(types.Position(line, character), types.Position(line, end))
    return types.TextDocumentContentChangePartial(range=where, text=text)


def test_changes_apply_in_order_and_whole_replacements_reset() -> None:
    changes = [
        _change(0, 1, 1, "X"),
        types.TextDocumentContentChangeWholeDocument(text="ab\r\ncd"),
        _change(1, 1, 2, "Z"),
        _change(0, 9, 9, "!"),  # past the end of line 0: before its CRLF
    ]
    assert sync.apply_changes("12", changes, UTF16) == "ab!\r\ncZ"


@pytest.mark.parametrize("encoding", [UTF16, UTF8])
@pytest.mark.parametrize("char", NOT_LINE_BREAKS)
def test_edits_around_characters_that_are_not_line_breaks(char: str, encoding: str) -> None:
    head = '{"a": "x' + char + "\U0001f600"
    text = head + 'y",\n"b": 1}'
    on_line = _units(head, encoding)
    changes = [
        _change(0, 2, 3, "A"),  # before the character
        _change(0, on_line, on_line + 1, "Y"),  # on its line, after it
        _change(1, 5, 6, "2"),  # on the next line
    ]
    assert (
        sync.apply_changes(text, changes, encoding) == '{"A": "x' + char + '\U0001f600Y",\n"b": 2}'
    )


def _syntax_at(client, uri: str, version: int) -> types.Position | None:  # type: ignore[no-untyped-def]
    published = [d for u, v, d, _ in client.recorder.published if u == uri and v == version]
    if not published:
        return None
    syntax = [d for d in published[-1] if d.code == "syntax"]
    return syntax[0].range.start if syntax else NONE


@pytest.mark.parametrize("encoding", [UTF16, UTF8])
async def test_the_server_applies_edits_where_the_client_means_them(
    tmp_path: Path, encoding: str
) -> None:
    """Insert a stray `)` before, on and after the line of each character (in
    a Lisp string, where all of them are legal) and delete it again: the
    server's diagnostic must be exactly at the `)` each time, and gone after
    (with pygls's line splitting the edits landed elsewhere)."""
    capabilities = client_capabilities("visual-studio-code")
    capabilities.general = types.GeneralClientCapabilities(position_encodings=[encoding])
    async with session(capabilities=capabilities) as (client, recorder):
        client.recorder = recorder  # type: ignore[attr-defined]
        for number, char in enumerate(NOT_LINE_BREAKS):
            head = 'a "x' + char + '\U0001f600y"'
            uri = open_document(client, tmp_path / f"{number}.lisp", head + " b\nc d\n", "lisp")
            await wait_until(lambda uri=uri: _syntax_at(client, uri, 1) is not None)
            assert _syntax_at(client, uri, 1) == NONE
            version = 1
            for line, column in [(0, 1), (0, _units(head, encoding)), (1, 1)]:
                for change, expected in [
                    (_change(line, column, column, ")"), types.Position(line, column)),
                    (_change(line, column, column + 1, ""), NONE),
                ]:
                    version += 1
                    client.text_document_did_change(
                        types.DidChangeTextDocumentParams(
                            text_document=types.VersionedTextDocumentIdentifier(
                                version=version, uri=uri
                            ),
                            content_changes=[change],
                        )
                    )
                    found = await wait_until(lambda uri=uri, v=version: _syntax_at(client, uri, v))
                    assert found == expected, (repr(char), line, column)
