"""The LSP base protocol's framing: ``Content-Length`` headers and bodies.

pygls reads exactly ``Content-Length`` bytes and trusts them: one wrong
length leaves every later message misaligned, and the server deaf for good.
:class:`Framer` resynchronises instead.  A JSON body never contains a raw
line break inside a string, and never the word ``Content-Length`` outside
one, so ``Content-Length: N<CR><LF>`` inside what should be a body proves
that the declared length was wrong: the bytes before it are reported as a
broken message and reading goes on from that header.  Bytes between
messages that are not headers are skipped up to the next header.

A ``Content-Length`` that is not a number, or above :data:`MAX_BODY`, is
reported as a broken message, and the body after it is skipped like any
bytes that are not headers: the server goes on with the next message.  Bytes
that never end a header block are dropped beyond :data:`MAX_HEADERS`, so
neither can make the server keep an unbounded buffer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADERS_END = b"\r\n\r\n"
_LENGTH = re.compile(rb"Content-Length:[ \t]*(\d+)[ \t]*\r\n", re.IGNORECASE)
_LONGEST_HEADER = 80  # bytes a Content-Length header line can take, for searches
MAX_BODY = 1 << 30
"""The longest message body read (1 GiB): a longer ``Content-Length`` is an
error, not a reason to buffer without end."""
MAX_HEADERS = 1 << 16
"""Bytes searched for the end of a header block before the older ones are
dropped (headers are a few dozen bytes; garbage is skipped anyway)."""
_LENGTH_DIGITS = len(str(MAX_BODY))
_KEPT_TAIL = 1024


def _header_in(buffer: bytearray, start: int, stop: int) -> re.Match[bytes] | None:
    """The first ``Content-Length`` header line that ends in ``buffer[start:stop]``.

    A header line ends with CR LF, which a JSON body holds only as blanks
    between tokens: the line ends are found with a byte search, and only the
    bytes before each are matched (a case-insensitive search of every byte
    of a 50 MB body took a second)."""
    end = buffer.find(b"\r\n", start, stop)
    while end >= 0:
        header = _LENGTH.search(buffer, max(start, end + 2 - _LONGEST_HEADER), end + 2)
        if header is not None:
            return header
        end = buffer.find(b"\r\n", end + 1, stop)
    return None


def framed(body: bytes) -> bytes:
    """A message body with its header, as it is written."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@dataclass(frozen=True)
class Frame:
    """One message body, or why the bytes in its place are not one."""

    body: bytes | None
    problem: str | None = None


class Framer:
    """Cuts a byte stream into message bodies; feed it bytes as they arrive."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._length: int | None = None  # of the body being read, once its headers are in
        self._searched = 0  # bytes of the body already searched for a header

    def feed(self, data: bytes) -> list[Frame]:
        """The frames completed by ``data``."""
        self._buffer += data
        frames: list[Frame] = []
        while (frame := self._next()) is not None:
            frames.append(frame)
        return frames

    def _next(self) -> Frame | None:
        """The next frame, or None while more bytes are needed."""
        while self._length is None:
            end = self._buffer.find(_HEADERS_END)
            if end < 0:
                if len(self._buffer) > MAX_HEADERS:  # keep what may start a header block
                    del self._buffer[:-_KEPT_TAIL]
                return None
            block = bytes(self._buffer[: end + 2])
            del self._buffer[: end + 4]
            lengths = list(_LENGTH.finditer(block))
            if not lengths:
                return Frame(None, "a message without a Content-Length header")
            digits = lengths[-1][1].lstrip(b"0") or b"0"
            if len(digits) > _LENGTH_DIGITS or int(digits) > MAX_BODY:
                shown = digits[:20].decode() + ("…" if len(digits) > 20 else "")
                return Frame(None, f"a Content-Length of {shown} bytes, above {MAX_BODY}")
            self._length, self._searched = int(digits), 0
        length = self._length
        start = max(0, self._searched - _LONGEST_HEADER)
        header = _header_in(self._buffer, start, length + _LONGEST_HEADER)
        if header is not None and header.start() < length:
            del self._buffer[: header.start()]
            self._length = None
            return Frame(None, "a message shorter than its Content-Length")
        if len(self._buffer) < length:
            self._searched = len(self._buffer)
            return None
        with memoryview(self._buffer) as view:
            body = bytes(view[:length])  # one copy (a slice of the buffer is another)
        del self._buffer[:length]
        self._length = None
        return Frame(body)
