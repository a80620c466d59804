"""The server's text is the editor's text: content changes are applied with
the project's line index (only ``\\n``, ``\\r\\n`` and ``\\r`` break lines)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from inputmend.core.text import LineIndex
from inputmend.lsp import sync
from inputmend.lsp.session import Session
from tests.lsp.conftest import open_document, session, wait_until

UTF16, UTF8 = types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf8

# Characters that str.splitlines breaks at and LSP clients do not.
NONE = types.Position(2**31 - 1, 0)  # stands for "no syntax diagnostic"
NOT_LINE_BREAKS = ["\u2028", "\u2029", "\x85", "\v", "\f", "\x1c", "\x1d", "\x1e"]


def _units(text: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
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


def test_a_new_version_takes_the_index_its_changes_derived() -> None:
    text = "[1,\n 2,\n 3]\n"
    uri = "file:///tmp/index.json"
    session_ = Session()
    session_.open(uri, Path("/tmp/index.json"), 1, text)
    before = session_.snapshots[uri].index
    index = sync.changed_index(before, [_change(1, 1, 2, "20")], UTF16)
    assert index.text == "[1,\n 20,\n 3]\n" and index.starts == LineIndex(index.text).starts
    snapshot = session_.change(uri, 2, index.text, index=index)
    assert snapshot is not None and snapshot.index is index  # not searched again
    # an index of another text is not taken
    other = session_.change(uri, 3, "[]\n", index=index)
    assert other is not None and other.index is not index and other.index.starts == [0, 3]


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


def _reference_offset(text: str, where: types.Position, encoding: str) -> int:
    """The offset of a position, counted one character at a time."""
    starts = [0] + [
        i + 1
        for i, c in enumerate(text)
        if c == "\n" or (c == "\r" and text[i + 1 : i + 2] != "\n")
    ]
    if where.line >= len(starts):
        return len(text)
    start = starts[where.line]
    end = starts[where.line + 1] if where.line + 1 < len(starts) else len(text)
    end = start + len(text[start:end].rstrip("\r\n"))
    counted = 0
    for offset in range(start, end):
        if counted >= where.character:
            return offset
        counted += _units(text[offset], encoding)
    return end


PIECES = ["a", "é", "\U0001f600", "\r\n", "\r", "\n", "\u2028", "xyz"]


@pytest.mark.parametrize("encoding", [UTF16, UTF8, types.PositionEncodingKind.Utf32])
def test_random_changes_land_where_counting_characters_puts_them(encoding: str) -> None:
    rng = random.Random(encoding)
    for _ in range(100):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(30)))
        changes: list[types.TextDocumentContentChangeEvent] = []
        expected = text
        for _ in range(rng.randrange(1, 6)):
            lines = expected.count("\n") + expected.count("\r") + 1
            start = types.Position(rng.randrange(lines + 1), rng.randrange(12))
            end = types.Position(start.line + rng.randrange(2), rng.randrange(12))
            insert = "".join(rng.choice(PIECES) for _ in range(rng.randrange(3)))
            first = _reference_offset(expected, start, encoding)
            last = max(first, _reference_offset(expected, end, encoding))
            expected = expected[:first] + insert + expected[last:]
            changes.append(
                types.TextDocumentContentChangePartial(types.Range(start, end), text=insert)
            )
        assert sync.apply_changes(text, changes, encoding) == expected


@pytest.mark.parametrize("encoding", [UTF16, UTF8])
def test_fifty_changes_to_a_ten_megabyte_line(encoding: str) -> None:
    """Counting columns one character at a time took minutes here: each `x`
    at the places below becomes a `,` (the columns do not move)."""
    unit = "aé\U0001f600" + "x" * 7
    text = unit * 1_000_000
    places = [len(text) - 1 - number * 200_000 for number in range(50)]  # the end first
    assert {text[at] for at in places} == {"x"}
    changes: list[types.TextDocumentContentChangeEvent] = []
    for at in places:
        whole, part = divmod(at, len(unit))
        column = whole * _units(unit, encoding) + _units(unit[:part], encoding)
        where = types.Range(types.Position(0, column), types.Position(0, column + 1))
        changes.append(types.TextDocumentContentChangePartial(where, text=","))
    changed = sync.apply_changes(text, changes, encoding)
    assert len(changed) == len(text) and changed.count(",") == 50
    assert {changed[at] for at in places} == {","}


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
