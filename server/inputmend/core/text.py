"""Bytes <-> text, and offsets <-> line/column: the one home of decoding.

:func:`decode` turns a file's bytes into text plus an :class:`Encoding` that
says how; :func:`encode` is its exact inverse: ``encode(decode(data).text,
decode(data).encoding) == data`` for every input, and an edited text encodes
to the original bytes outside the edits (the encodings detected here encode
character by character; a forced stateful one, such as ISO-2022-JP, may
re-encode around an edit).  Line endings are part of the text and never
normalised.  Pure functions, no I/O.

Detection (``encoding="auto"``), in this order:

1. **Byte-order mark**: UTF-8 (``EF BB BF``), UTF-32LE/BE (``FF FE 00 00`` /
   ``00 00 FE FF``, when the length is a multiple of 4), UTF-16LE/BE
   (``FF FE`` / ``FE FF``).  The mark is set aside and written back.
2. **UTF-16 without a mark**: an even number of bytes (at least 4) in which
   every second byte is zero and the others are not (little-endian: the odd
   bytes are zero; big-endian: the even ones), and the characters are
   printable Latin-1 text (tab, line breaks, form feed, U+0020..U+007E and
   U+00A0..U+00FF).
   That is what Windows tools write for plain text; valid UTF-8 text never
   contains zero bytes.  UTF-32 without a mark is not guessed.
3. **UTF-8**, when the bytes are valid UTF-8 (ASCII included).
4. **cp1252 (Windows Latin-1)**, for a file that is not valid UTF-8, has *no
   UTF-8 structure* (no well-formed multi-byte UTF-8 sequence anywhere) and
   whose bytes above 0x7F look like text (:func:`looks_legacy`).
5. Otherwise **UTF-8 with undecodable bytes**: each byte that is not valid
   UTF-8 becomes a lone surrogate (U+DC80..U+DCFF, ``surrogateescape``), which
   every oracle treats as an invalid character -- a corruption to repair --
   and which encodes back to exactly that byte.

Bytes that are not valid in the chosen encoding always become surrogates
(:data:`UNDECODABLE`): ``surrogateescape`` for UTF-8 and single-byte
encodings (cp1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined), and
``surrogatepass`` for UTF-16/32, whose unpaired surrogates stay what they are.
A UTF-16/32 file whose length is not a whole number of code units cannot be
decoded without loss and is an error.

Why cp1252 and not ISO-8859-1: the two differ only in 0x80..0x9F, which
ISO-8859-1 maps to C1 control characters that no text uses, and cp1252 to
``€ ‚ „ … ‘ ’ “ ” • – — ™ Š š Œ œ Ž ž Ÿ``, which Windows text does.  Files that
really are ISO-8859-1 decode the same (they have no bytes in that range), and
``--encoding latin-1`` forces it.
"""

from __future__ import annotations

import bisect
import codecs
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from inputmend.core.columns import LineColumns

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
UNDECODABLE = re.compile("[\ud800-\udfff]")
"""Characters that came from bytes that are not valid in the file's encoding."""
UNDECODABLE_MESSAGE = "byte that is not valid in the file's encoding"
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]+")
"""A run of undecodable bytes (surrogate escapes of bytes 0x80..0xFF)."""
_BINARY_CONTROL = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f]")

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_UNIT = {"utf-16-le": 2, "utf-16-be": 2, "utf-32-le": 4, "utf-32-be": 4}
_LATIN1_TEXT = re.compile("[\t\n\x0b\x0c\r\x20-\x7e\xa0-\xff]*")

# A well-formed UTF-8 sequence of two to four bytes (RFC 3629, Table 3-7 of Unicode).
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
_NON_ASCII = re.compile("[^\x00-\x7f]")
_NOT_LEGACY_TEXT = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f\x81\x8d\x8f\x90\x9d]")
_TYPOGRAPHY = frozenset("\xa0‘’‚“”„–—…•€£¥¢°±«»©®™§¶·×÷¿¡²³¹¼½¾")
LEGACY_EVIDENCE = 2
"""Bytes above 0x7F that must look like text before a file is read as cp1252:
one stray byte in an ASCII file is a corruption, not an encoding."""


class Detection(StrEnum):
    """How the encoding of a file was chosen."""

    BOM = "bom"
    ZERO_BYTES = "zero-bytes"
    UTF8 = "utf-8"
    LEGACY = "legacy"
    UNDECODABLE = "undecodable"
    FORCED = "forced"


@dataclass(frozen=True)
class Encoding:
    """How a file's bytes became text: a Python codec name (``utf-8``,
    ``utf-16-le``, ``cp1252``, ...), the byte-order mark set aside, and how
    the encoding was detected."""

    name: str = "utf-8"
    bom: bytes = b""
    detected: Detection = Detection.UTF8

    @property
    def errors(self) -> str:
        """The codec error handler that keeps every byte."""
        return "surrogatepass" if self.name in _UNIT else "surrogateescape"

    @property
    def escapes_bytes(self) -> bool:
        """Is a surrogate in the text an undecodable byte (U+DC80..U+DCFF is
        byte 0x80..0xFF: UTF-8 and single-byte encodings), rather than a lone
        surrogate code unit of the file itself (UTF-16/32)?"""
        return self.errors == "surrogateescape"

    def describe(self) -> str:
        """``utf-16-le with BOM``, for messages."""
        return self.name + (" with BOM" if self.bom else "")

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "bom": bool(self.bom), "detected": self.detected.value}


UTF8 = Encoding()


@dataclass(frozen=True)
class Decoded:
    """A file's text (without its byte-order mark) and how it was encoded."""

    text: str
    encoding: Encoding


class DecodeError(ValueError):
    """The bytes cannot be decoded without loss, or the encoding is unknown."""


class EncodeError(ValueError):
    """A text holds a character its encoding cannot represent."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


_PROBE = bytes(range(256)) * 4
"""Bytes every usable encoding turns into text and back (or refuses some of:
a file's invalid bytes are reported for that file)."""


def encoding_name(name: str) -> str:
    """The canonical codec name of a text encoding (``latin-1`` -> ``iso8859-1``)
    that inputmend can use: one that decodes bytes to text keeping those it
    cannot read (``surrogateescape``, or ``surrogatepass`` for UTF-16/32)
    and encodes that text back to the same bytes.  Codecs that are not text
    encodings (``base64``), cannot keep a byte (``punycode``, ``idna``,
    ``undefined``) or give back other bytes (``unicode_escape``) are refused
    with a :class:`DecodeError`."""
    try:
        canonical = codecs.lookup(name).name
        b"a".decode(canonical)  # rejects codecs that are not text encodings (base64, ...)
    except LookupError:
        raise DecodeError(f"unknown text encoding {name!r}") from None
    except ValueError:
        pass  # a text encoding in which "a" alone is not valid (utf-16, ...)
    probe = Encoding(_byte_order(canonical, b""))
    try:
        text = _PROBE.decode(probe.name, probe.errors)
    except UnicodeDecodeError:
        return canonical  # some bytes are invalid in it: reported for the file that has them
    except (UnicodeError, TypeError, ValueError) as error:
        raise DecodeError(f"{name!r} cannot be used to read files ({error})") from None
    if encode(text, probe) != _PROBE:
        raise DecodeError(f"{name!r} does not give back the bytes it reads")
    return canonical


def _byte_order(name: str, data: bytes) -> str:
    """The codec that reads ``data`` for the encoding ``name``: UTF-8 for
    ``utf-8-sig`` (the mark is set aside), and the byte order of ``utf-16``
    and ``utf-32`` from their mark (little-endian without one)."""
    name = {"utf-8-sig": "utf-8"}.get(name, name)
    if name in ("utf-16", "utf-32"):
        big = data.startswith(codecs.BOM_UTF32_BE if name == "utf-32" else codecs.BOM_UTF16_BE)
        name += "-be" if big else "-le"
    return name


def decode(data: bytes, *, encoding: str = "auto") -> Decoded:
    """The text of ``data`` and how it is encoded, without losing a byte.

    ``encoding`` is ``"auto"`` (see the module documentation) or a codec
    name that is used whatever the bytes look like; a byte-order mark of that
    encoding is set aside (``utf-16`` and ``utf-32`` take their byte order
    from the mark, little-endian without one).  Raises :class:`DecodeError`.
    """
    if encoding == "auto":
        return _decode_auto(data)
    name = _byte_order(encoding_name(encoding), data)
    bom = next((mark for mark, codec in _BOMS if codec == name and data.startswith(mark)), b"")
    decoded = _decode_as(data, Encoding(name, bom, Detection.FORCED))
    if encode(decoded.text, decoded.encoding) != data:
        raise DecodeError(f"{name} does not give back the same bytes for this file")
    return decoded


def decode_bytes(data: bytes) -> tuple[str, bool]:
    """UTF-8 whatever the bytes look like, as ``(text, had_bom)``: for data
    that is UTF-8 by definition (the FSynth corpus, whose undecodable bytes
    are the corruptions), never a guessed encoding."""
    decoded = decode(data, encoding="utf-8")
    return decoded.text, bool(decoded.encoding.bom)


def _decode_as(data: bytes, encoding: Encoding) -> Decoded:
    body = data[len(encoding.bom) :]
    unit = _UNIT.get(encoding.name, 1)
    if len(body) % unit:
        raise DecodeError(
            f"{encoding.describe()} text ends inside a character "
            f"({len(body)} bytes is not a whole number of {unit}-byte units)"
        )
    try:
        text = body.decode(encoding.name, encoding.errors)
    except UnicodeDecodeError as error:
        offset = error.start + len(encoding.bom)
        raise DecodeError(f"not valid {encoding.name} at byte {offset}: {error.reason}") from None
    except UnicodeError as error:  # the codec cannot keep what it cannot read
        raise DecodeError(f"cannot read {encoding.name} text: {error}") from None
    return Decoded(text, encoding)


def _decode_auto(data: bytes) -> Decoded:
    for mark, name in _BOMS:
        if data.startswith(mark):
            if name.startswith("utf-32") and len(data) % 4:
                continue  # FF FE 00 00 also starts UTF-16LE text whose first character is NUL
            return _decode_as(data, Encoding(name, mark, Detection.BOM))
    utf16 = _utf16_by_zero_bytes(data)
    if utf16 is not None:
        return Decoded(utf16[1], Encoding(utf16[0], b"", Detection.ZERO_BYTES))
    try:
        return Decoded(data.decode("utf-8"), UTF8)
    except UnicodeDecodeError:
        pass
    if looks_legacy(data):
        return _decode_as(data, Encoding("cp1252", b"", Detection.LEGACY))
    return _decode_as(data, Encoding("utf-8", b"", Detection.UNDECODABLE))


def _utf16_by_zero_bytes(data: bytes) -> tuple[str, str] | None:
    """(codec, text) when ``data`` is BOM-less UTF-16 of printable Latin-1 text."""
    half = len(data) // 2
    if len(data) < 4 or len(data) % 2:
        return None
    odd, even = data[1::2], data[::2]
    for name, zeros, others in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if zeros.count(0) == half and others.count(0) == 0:
            text = data.decode(name)
            if _LATIN1_TEXT.fullmatch(text):
                return name, text
    return None


def looks_legacy(data: bytes) -> bool:
    """Whether bytes that are not UTF-8 read as cp1252 text.

    All of: no well-formed multi-byte UTF-8 sequence (a file with one is
    UTF-8 with corrupt bytes); no control bytes other than tab, line breaks
    and form feed, and none of the five bytes cp1252 leaves undefined; at
    least :data:`LEGACY_EVIDENCE` bytes above 0x7F; and each of them, read
    as cp1252, looks like text next to its neighbouring characters:

    * a Latin letter (``é ß Œ ø``, ...) next to another letter, as in
      ``Müller``, ``café``, ``Ångström``, or a lowercase one standing alone
      between spaces (``voilà à bientôt``); never an uppercase letter right
      after a lowercase one (``alŠst`` is a corruption, not a word); or
    * a typographic sign (``’ “ ” – — … € £ ° « » ©``, no-break space, ...)
      next to a letter, digit or space, but not between two letters (the
      apostrophe ``’`` excepted, as in ``it’s``).
    """
    if _UTF8_SEQUENCE.search(data) or _NOT_LEGACY_TEXT.search(data):
        return False
    text = data.decode("cp1252")
    found = 0
    for match in _NON_ASCII.finditer(text):
        at = match.start()
        if not _looks_like_text(text[at - 1 : at], match.group(), text[at + 1 : at + 2]):
            return False
        found += 1
    return found >= LEGACY_EVIDENCE


def reread_undecodable(text: str, start: int, end: int) -> str | None:
    """What the undecodable bytes ``text[start:end]`` (surrogate escapes)
    read as in cp1252, when each of them looks like text next to its
    neighbours as :func:`looks_legacy` asks (``Ren\\xe9e`` is ``Renée``);
    None otherwise (a random corrupt byte, a control character)."""
    if start >= end or not _ESCAPED_BYTES.fullmatch(text, start, end):
        return None  # (read no further than the first character that is no byte)
    data = bytes(ord(char) - 0xDC00 for char in text[start:end])
    if _NOT_LEGACY_TEXT.search(data):
        return None
    read = data.decode("cp1252")
    around = text[start - 1 : start] if start else ""
    context = around + read + text[end : end + 1]
    offset = len(around)
    for index, character in enumerate(read):
        at = offset + index
        if not _looks_like_text(context[at - 1 : at], character, context[at + 1 : at + 2]):
            return None
    return read


def _looks_like_text(before: str, character: str, after: str) -> bool:
    if _latin_letter(character):
        if (before.islower() and character.isupper()) or (character.islower() and after.isupper()):
            return False
        alone = character.islower() and before.isspace() and after.isspace()
        return _latin_letter(before) or _latin_letter(after) or alone
    if character in _TYPOGRAPHY:
        if _latin_letter(before) and _latin_letter(after):
            return character == "\u2019"
        return any(side.isalnum() or side.isspace() for side in (before, after))
    return False


def _latin_letter(character: str) -> bool:
    return character.isalpha() and unicodedata.name(character, "").startswith("LATIN")


def encode(text: str, encoding: Encoding = UTF8) -> bytes:
    """The bytes of ``text`` in ``encoding``, byte-order mark included: the
    inverse of :func:`decode`.  Raises :class:`EncodeError` (never writes a
    replacement character) when the encoding cannot represent a character."""
    try:
        return encoding.bom + text.encode(encoding.name, encoding.errors)
    except UnicodeEncodeError as error:
        character = text[error.start]
        raise EncodeError(
            f"{encoding.name} cannot represent {character!r} (U+{ord(character):04X})",
            error.start,
        ) from None


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


def _line_starts(text: str) -> list[int]:
    """The offsets where ``text``'s lines start.  Without ``\r`` (most
    texts) the ``\n`` are found by substring searches, which read a 50 MB
    document in less than half the time of a regex's matches."""
    if "\r" in text:
        return [0] + [match.end() for match in _LINE_BREAK.finditer(text)]
    starts = [0]
    find, append = text.find, starts.append
    position = find("\n")
    while position >= 0:
        append(position + 1)
        position = find("\n", position + 1)
    return starts


class LineIndex:
    """Maps character offsets to 0-based (line, column) and back, columns
    also in the code units of a position encoding.

    Line breaks are ``\\r\\n``, ``\\r`` and ``\\n``, as in the LSP specification.
    """

    def __init__(self, text: str, *, starts: list[int] | None = None) -> None:
        self.text = text
        self.starts = _line_starts(text) if starts is None else starts
        self._columns: dict[tuple[int, str], LineColumns] = {}

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

    def line_end(self, line: int) -> int:
        """The offset where ``line``'s content ends (before its line break)."""
        start, end = self.line_span(line)
        if end > start and self.text[end - 1] == "\n":
            end -= 1
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return end

    def offset(self, line: int, column: int) -> int:
        start, end = self.line_span(line)
        return min(start + max(column, 0), end)

    def human(self, offset: int) -> str:
        """``line:column``, both 1-based, for messages."""
        line, column = self.position(offset)
        return f"{line + 1}:{column + 1}"

    def columns(self, line: int, encoding: str) -> LineColumns:
        """``line``'s columns in ``encoding`` (counted once per index)."""
        key = (line, encoding)
        found = self._columns.get(key)
        if found is None:
            start = self.line_span(line)[0]
            found = self._columns[key] = LineColumns(
                self.text, start, self.line_end(line), encoding
            )
        return found

    def encoded_position(self, offset: int, encoding: str) -> tuple[int, int]:
        """``offset`` as (line, column in code units of ``encoding``)."""
        line, column = self.position(offset)
        return line, self.columns(line, encoding).units(column)

    def encoded_offset(self, line: int, units: int, encoding: str) -> int:
        """The offset of (line, column in code units of ``encoding``); a column
        past the end of its line is the end of the line (before its break),
        a line past the last one the end of the text."""
        if line >= len(self.starts):
            return len(self.text)
        line = max(line, 0)
        return self.starts[line] + self.columns(line, encoding).column(units)

    def replaced(self, start: int, end: int, insert: str) -> LineIndex:
        """The index of the text with ``[start, end)`` replaced by ``insert``,
        derived from this one: only the line breaks inside and next to the
        change are searched, the later line starts are shifted, and the
        columns counted so far are kept (those of a line changed within,
        around the change)."""
        text = "".join((self.text[:start], insert, self.text[end:]))  # one copy fewer than +
        stop = start + len(insert)
        kept = self.starts[: bisect.bisect_left(self.starts, max(start, 1))]
        # a break that ends at ``start`` or at ``stop`` depends on the characters
        # on both sides of the change: search from one before it to one after
        found = [
            match.end()
            for match in _LINE_BREAK.finditer(text, max(start - 1, 0), stop + 1)
            if match.end() <= stop
        ]
        shift = stop - end
        later = [
            line_start + shift
            for line_start in self.starts[bisect.bisect_right(self.starts, end) :]
        ]
        index = LineIndex(text, starts=kept + found + later)
        line = self.position(start)[0]
        within = (
            self.position(end)[0] == line
            and end <= self.line_end(line)
            and _LINE_BREAK.search(insert) is None
        )
        for (number, encoding), columns in self._columns.items():
            if number < line:
                index._columns[number, encoding] = columns.moved(text, self.starts[number])
            elif within and number == line:
                begin, finish = start - self.starts[line], end - self.starts[line]
                index._columns[number, encoding] = columns.replaced(text, begin, finish, insert)
            elif within:
                index._columns[number, encoding] = columns.moved(text, self.starts[number] + shift)
        return index


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte
        return f"\\x{code - 0xDC00:02x}"
    return _escape_unit(match)


def _escape_unit(match: re.Match[str]) -> str:
    """A character as itself: ``\\udce9`` for a lone surrogate of UTF-16."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` on one line, safe for a terminal or an editor: control
    characters (NUL, escape sequences, line breaks), undecodable bytes
    (``\\xff``) and lone surrogates are written as backslash escapes."""
    return _UNPRINTABLE.sub(_escape, text)


def escape_undecodable(text: str, encoding: Encoding = UTF8) -> str:
    """``text`` with each undecodable byte shown as ``\\xe9`` (never as a
    surrogate escape, which a terminal cannot show), line breaks kept; in
    an encoding that keeps lone surrogates as they are (UTF-16/32), each
    shown as the code unit it is (``\\udce9``)."""
    return UNDECODABLE.sub(_escape if encoding.escapes_bytes else _escape_unit, text)


def undecodable_message(text: str, offset: int, encoding: Encoding) -> str:
    """What is wrong with the undecodable character at ``offset``: a byte
    (``\\xe9``), or in UTF-16/32 a lone surrogate, with its bytes in the file."""
    char = text[offset]
    if encoding.escapes_bytes:
        return f"byte {escape_undecodable(char)} is not valid {encoding.name}"
    data = char.encode(encoding.name, encoding.errors).hex(" ")
    return f"lone surrogate \\u{ord(char):04x} (bytes {data}) is not valid {encoding.name}"


def offset_of(text: str, line: int, column: int) -> int:
    """Offset of a 1-based line and column (columns counted in characters,
    lines ending at ``\n``, as Python's parsers count them); the end of the
    text for a place past it."""
    start = 0
    for _ in range(line - 1):
        newline = text.find("\n", start)
        if newline < 0:
            return len(text)
        start = newline + 1
    return min(len(text), start + max(column - 1, 0))


def line_start(text: str, offset: int) -> int:
    """Where the line holding ``offset`` starts (lines end at ``\n``)."""
    return text.rfind("\n", 0, offset) + 1


def line_at(text: str, offset: int) -> tuple[int, int]:
    """The start and end (before its line break) of the line holding ``offset``."""
    start = line_start(text, offset)
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    if end > start and text[end - 1] == "\r":
        end -= 1
    return start, end


def first_on_line(text: str, offset: int) -> bool:
    """Is there nothing but blanks before ``offset`` on its line?"""
    return not text[line_start(text, offset) : offset].strip()


def leading_blanks(line: str) -> str:
    """The blanks (spaces and tabs) ``line`` starts with: its indentation."""
    return line[: len(line) - len(line.lstrip(" \t"))]


def snippet(text: str, limit: int = 40) -> str:
    """A short, printable rendering of a piece of text for messages."""
    return printable(text if len(text) <= limit else text[: limit - 1] + "…")


def common_prefix(a: str, b: str) -> int:
    """Length of the common prefix, by bisection over C-level slice compares."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix, at most ``limit``."""
    low, high = 0, min(len(a), len(b), limit)
    if high and a[len(a) - high :] == b[len(b) - high :]:
        return high
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low
