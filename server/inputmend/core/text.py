"""Bytes <-> text, and offsets <-> line/column: the one home of decoding.

Files are read as bytes (:mod:`inputmend.cli.files`) and decoded as UTF-8
with ``surrogateescape``: a byte that is not valid UTF-8 becomes a lone
surrogate (U+DC80..U+DCFF), which every oracle treats as an invalid character,
and which encodes back to exactly the original byte.  A UTF-8 byte order mark
is set aside and written back.
"""

from __future__ import annotations

import bisect
import re

BOM = "\ufeff"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
UNDECODABLE = re.compile("[\udc80-\udcff]")
_BINARY_CONTROL = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def decode_bytes(data: bytes) -> tuple[str, bool]:
    """Decode without losing a byte; returns ``(text, had_bom)``."""
    text = data.decode("utf-8", "surrogateescape")
    if text.startswith(BOM):
        return text[1:], True
    return text, False


def encode_text(text: str, *, bom: bool = False) -> bytes:
    """Inverse of :func:`decode_bytes`."""
    return ((BOM if bom else "") + text).encode("utf-8", "surrogateescape")


def first_undecodable(text: str, start: int = 0) -> int | None:
    """Offset of the first character that came from an undecodable byte."""
    match = UNDECODABLE.search(text, start)
    return match.start() if match else None


def looks_binary(text: str, sample: int = 65536) -> bool:
    """True when most of the start of the text is not text at all (images, archives)."""
    head = text[:sample]
    if not head:
        return False
    junk = len(_BINARY_CONTROL.findall(head)) + len(UNDECODABLE.findall(head))
    return "\x00" in head and junk > 0.3 * len(head)


class LineIndex:
    """Maps character offsets to 0-based (line, column) and back.

    Line breaks are ``\\r\\n``, ``\\r`` and ``\\n``, as in the LSP specification.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [match.end() for match in _LINE_BREAK.finditer(text)]

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]

    def line_span(self, line: int) -> tuple[int, int]:
        """Offsets of the start of ``line`` and of the start of the next line
        (its line break included); past the last line, the end of the text."""
        if line >= len(self.starts):
            return len(self.text), len(self.text)
        start = self.starts[max(line, 0)]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return start, end

    def offset(self, line: int, column: int) -> int:
        start, end = self.line_span(line)
        return min(start + max(column, 0), end)

    def human(self, offset: int) -> str:
        """``line:column``, both 1-based, for messages."""
        line, column = self.position(offset)
        return f"{line + 1}:{column + 1}"


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` on one line, safe for a terminal or an editor: control
    characters (NUL, escape sequences, line breaks) and undecodable bytes are
    written as backslash escapes."""
    decoded = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return _CONTROL.sub(_escape, decoded)


def snippet(text: str, limit: int = 40) -> str:
    """A short, printable rendering of a piece of text for messages."""
    return printable(text if len(text) <= limit else text[: limit - 1] + "…")
