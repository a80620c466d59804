"""Decoding without loss, and the line index every position goes through."""

from __future__ import annotations

import pytest

from inputmend.core.text import (
    LineIndex,
    decode_bytes,
    encode_text,
    first_undecodable,
    looks_binary,
    printable,
    snippet,
)


@pytest.mark.parametrize(
    "data",
    [b"", b"plain", b"\xef\xbb\xbf{}", b"bad \xff byte", b"\r\n\r", "é😀".encode()],
)
def test_decoding_round_trips_every_byte(data: bytes) -> None:
    text, bom = decode_bytes(data)
    assert encode_text(text, bom=bom) == data
    assert not text.startswith("\ufeff")


def test_undecodable_bytes_become_findable_characters() -> None:
    text, _ = decode_bytes(b"ok \xff then \xfe")
    assert first_undecodable(text) == 3
    assert first_undecodable(text, 4) == len("ok \xff then ")
    assert first_undecodable("clean") is None


def test_binary_data_is_recognised_and_text_is_not() -> None:
    assert looks_binary(decode_bytes(bytes(range(256)) * 4)[0])
    assert not looks_binary("a normal line\n" * 100)
    assert not looks_binary("")


@pytest.mark.parametrize("text", ["a\nb", "a\r\nb", "a\rb"])
def test_every_lsp_line_break_counts_once(text: str) -> None:
    index = LineIndex(text)
    assert index.starts == [0, len(text) - 1]
    assert index.position(len(text) - 1) == (1, 0)
    assert index.human(len(text) - 1) == "2:1"


def test_positions_and_offsets_are_inverse_within_the_text() -> None:
    text = "first\r\nsecond\n\nlast"
    index = LineIndex(text)
    for offset in range(len(text) + 1):
        line, column = index.position(offset)
        assert index.offset(line, column) == offset


def test_out_of_range_positions_are_clamped() -> None:
    index = LineIndex("ab\ncd")
    assert index.position(-5) == (0, 0)
    assert index.position(99) == (1, 2)
    assert index.offset(0, 99) == 3  # the end of the line, its break included
    assert index.offset(7, 0) == 5
    assert index.line_span(0) == (0, 3)
    assert index.line_span(1) == (3, 5)
    assert index.line_span(2) == (5, 5)


def test_snippets_are_short_and_printable() -> None:
    assert snippet("a\tb\nc\r") == "a\\tb\\nc\\r"
    assert snippet("x" * 100, 10) == "x" * 9 + "…"
    assert snippet(decode_bytes(b"\xff")[0]) == "\\xff"


def test_printable_escapes_control_characters_and_undecodable_bytes() -> None:
    assert printable("a\x00b\x1b[2J\r\n\t\x7f\x85\u2028\udcffé✓") == (
        "a\\x00b\\x1b[2J\\r\\n\\t\\x7f\\x85\\u2028\\xffé✓"
    )
