"""Decoding without loss, encoding back byte for byte, and the line index every
position goes through."""

from __future__ import annotations

import codecs
import random
from dataclasses import replace

import pytest

from inputmend.core.text import (
    UTF8,
    DecodeError,
    Detection,
    EncodeError,
    LineIndex,
    common_prefix,
    common_suffix,
    decode,
    decode_bytes,
    encode,
    escape_undecodable,
    first_on_line,
    first_undecodable,
    line_start,
    looks_binary,
    looks_legacy,
    printable,
    reread_undecodable,
    snippet,
    undecodable_message,
)

INI = "[général]\r\nclé=valeur à voir\r\n[cassé\r\nnom=Müller\rfin=1\n"
"""Accented letters, CRLF, CR and LF line endings."""

# (bytes, codec, how detected): every encoding and every way of detecting it.
FIXTURES = {
    "empty": (b"", "utf-8", Detection.UTF8),
    "ascii": (b"plain", "utf-8", Detection.UTF8),
    "line endings": (b"\r\n\r\n\r", "utf-8", Detection.UTF8),
    "utf-8": ("é😀\r\n".encode(), "utf-8", Detection.UTF8),
    "utf-8 bom": (codecs.BOM_UTF8 + INI.encode(), "utf-8", Detection.BOM),
    "utf-8 undecodable": (b"bad \xff byte \xc3", "utf-8", Detection.UNDECODABLE),
    "utf-8 bom undecodable": (codecs.BOM_UTF8 + b"[1,\xff]", "utf-8", Detection.BOM),
    "utf-8 with a stray byte": ("Müller ".encode() + b"\xe9", "utf-8", Detection.UNDECODABLE),
    "ascii with a stray letter": (b"[user]\nname=Jos\xe9\n", "utf-8", Detection.UNDECODABLE),
    "utf-16-le bom": (codecs.BOM_UTF16_LE + INI.encode("utf-16-le"), "utf-16-le", Detection.BOM),
    "utf-16-be bom": (codecs.BOM_UTF16_BE + INI.encode("utf-16-be"), "utf-16-be", Detection.BOM),
    "utf-16 emoji": (codecs.BOM_UTF16_LE + "a😀".encode("utf-16-le"), "utf-16-le", Detection.BOM),
    "utf-16 lone surrogate": (b"\xff\xfe[\x00\x00\xd8]\x00", "utf-16-le", Detection.BOM),
    "utf-16 nul first": (b"\xff\xfe\x00\x00a\x00", "utf-16-le", Detection.BOM),
    "utf-32-le bom": (codecs.BOM_UTF32_LE + INI.encode("utf-32-le"), "utf-32-le", Detection.BOM),
    "utf-32-be bom": (codecs.BOM_UTF32_BE + INI.encode("utf-32-be"), "utf-32-be", Detection.BOM),
    "utf-16-le": (INI.encode("utf-16-le"), "utf-16-le", Detection.ZERO_BYTES),
    "utf-16-be": (INI.encode("utf-16-be"), "utf-16-be", Detection.ZERO_BYTES),
    "cp1252": (INI.encode("cp1252"), "cp1252", Detection.LEGACY),
    "cp1252 typography": ("it’s “fine” – 10 €\r\n".encode("cp1252"), "cp1252", Detection.LEGACY),
}


@pytest.mark.parametrize("name", FIXTURES)
def test_every_fixture_decodes_as_expected_and_encodes_back_byte_for_byte(name: str) -> None:
    data, codec, detected = FIXTURES[name]
    decoded = decode(data)
    assert (decoded.encoding.name, decoded.encoding.detected) == (codec, detected)
    assert not decoded.text.startswith("\ufeff")
    assert encode(decoded.text, decoded.encoding) == data


@pytest.mark.parametrize("name", [n for n in FIXTURES if FIXTURES[n][0]])
def test_an_edit_changes_no_byte_outside_it(name: str) -> None:
    decoded = decode(FIXTURES[name][0])
    text, encoding = decoded.text, decoded.encoding
    body = replace(encoding, bom=b"")
    for cut in (0, len(text) // 2, len(text)):
        edited = text[:cut] + "]" + text[cut + 1 :]
        expected = encoding.bom + encode(text[:cut], body) + "]".encode(encoding.name)
        expected += encode(text[cut + 1 :], body)
        assert encode(edited, encoding) == expected


@pytest.mark.parametrize("name", FIXTURES)
def test_utf8_by_definition_never_guesses(name: str) -> None:
    data = FIXTURES[name][0]
    text, bom = decode_bytes(data)
    assert bom == data.startswith(codecs.BOM_UTF8)
    assert encode(text, replace(UTF8, bom=codecs.BOM_UTF8 if bom else b"")) == data


def test_utf16_and_legacy_text_is_the_text_python_reads() -> None:
    for codec in ("utf-16-le", "utf-16-be", "cp1252"):
        assert decode(INI.encode(codec)).text == INI
    assert decode(codecs.BOM_UTF32_BE + INI.encode("utf-32-be")).text == INI


def test_undecodable_bytes_become_findable_characters() -> None:
    text = decode(b"ok \xff then \xfe").text
    assert first_undecodable(text) == 3
    assert first_undecodable(text, 4) == len("ok \xff then ")
    assert first_undecodable("clean") is None
    assert first_undecodable(decode(FIXTURES["utf-16 lone surrogate"][0]).text) == 1


def test_valid_utf8_is_never_read_as_cp1252() -> None:
    rng = random.Random(7)
    letters = "aeéèàüößÀÉ€“”’ \n=[]Ã©Â"
    for _ in range(300):
        text = "".join(rng.choice(letters) for _ in range(rng.randrange(1, 40)))
        assert decode(text.encode()).encoding == UTF8


@pytest.mark.parametrize(
    "data",
    [
        b"caf\xe9 na\xefve \xc3\xa9",  # a well-formed UTF-8 sequence: UTF-8 with corrupt bytes
        b"caf\xe9 \x81 na\xefve",  # a byte cp1252 leaves undefined
        b"caf\xe9\x01 na\xefve",  # a control byte
        b"col\x9cect al\x8ast",  # an uppercase letter right after a lowercase one
        b"(\xa4) caf\xe9",  # a sign that is not typography
        b"ab\x85cd caf\xe9",  # an ellipsis between two letters
        bytes(range(256)),
    ],
)
def test_bytes_that_do_not_look_like_text_are_not_cp1252(data: bytes) -> None:
    assert not looks_legacy(data)
    assert decode(data).encoding.detected is not Detection.LEGACY


@pytest.mark.parametrize(
    "text",
    [
        "[Benutzer]\nName=Jürgen Müller\nStadt=Köln\n",
        "titre=Élève à l’école\n",
        '{"ciudad": "Málaga", "año": 2020, "precio": "10 €"}',
        "MÜNCHEN=ÖSTERREICH\n",
        "key=voilà à bientôt\n",
        "; Größe\nbreite=25°\n",
    ],
)
def test_accented_letters_and_typography_read_as_cp1252(text: str) -> None:
    assert looks_legacy(text.encode("cp1252"))
    assert decode(text.encode("cp1252")).text == text


def test_utf16_without_bom_needs_the_whole_zero_byte_pattern() -> None:
    assert decode("[a]\nk=v\n".encode("utf-16-le")).encoding.detected is Detection.ZERO_BYTES
    not_latin1 = "[a]\nk=漢\n".encode("utf-16-le")
    assert decode(not_latin1).encoding.detected is Detection.UTF8  # then binary
    controls = "\x01\x02\x03\x04".encode("utf-16-le")
    assert decode(controls).encoding.detected is Detection.UTF8  # NULs and controls: binary
    assert decode(b"a\x00").encoding.detected is Detection.UTF8  # too short to tell


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfea\x00b", "utf-16-le with BOM text ends inside a character"),
        (b"\xfe\xff\x00a\x00", "not a whole number of 2-byte units"),
    ],
)
def test_truncated_utf16_is_an_error_not_a_loss(data: bytes, message: str) -> None:
    with pytest.raises(DecodeError, match=message):
        decode(data)


def test_a_forced_encoding_is_used_whatever_the_bytes_look_like() -> None:
    latin1 = decode(b"k=\xe9\x85", encoding="latin-1")
    assert latin1.text == "k=é\x85" and latin1.encoding.name == "iso8859-1"
    assert latin1.encoding.detected is Detection.FORCED
    assert decode(b"caf\xe9 na\xefve", encoding="utf-8").text == "caf\udce9 na\udcefve"
    assert decode(b"\x81", encoding="cp1252").text == "\udc81"
    big = decode(codecs.BOM_UTF16_BE + "é".encode("utf-16-be"), encoding="utf-16")
    assert (big.text, big.encoding.name, big.encoding.bom) == ("é", "utf-16-be", b"\xfe\xff")
    assert decode("é".encode("utf-16-le"), encoding="UTF-16").encoding.name == "utf-16-le"
    assert decode(codecs.BOM_UTF8 + b"x", encoding="utf-8-sig").encoding.bom == codecs.BOM_UTF8
    assert decode(codecs.BOM_UTF8 + b"x", encoding="cp1252").text == "ï»¿x"
    for data, name in ((b"k=\xe9\x85", "latin-1"), (b"\x81\xff", "cp1252"), (b"x", "utf-8")):
        forced = decode(data, encoding=name)
        assert encode(forced.text, forced.encoding) == data


@pytest.mark.parametrize("name", ["no-such-encoding", "rot13", "base64"])
def test_unknown_or_non_text_encodings_are_refused(name: str) -> None:
    with pytest.raises(DecodeError, match="unknown text encoding"):
        decode(b"x", encoding=name)


@pytest.mark.parametrize("name", ["punycode", "idna", "undefined", "unicode_escape"])
def test_encodings_that_cannot_keep_or_give_back_bytes_are_refused(name: str) -> None:
    with pytest.raises(DecodeError, match=rf"'{name}' (cannot be used|does not give back)"):
        decode(b'{"a": 1}', encoding=name)


@pytest.mark.parametrize("name", ["utf-16", "utf-32", "shift_jis", "iso2022_jp", "koi8-r"])
def test_text_encodings_are_accepted(name: str) -> None:
    data = "{}".encode(name)
    decoded = decode(data, encoding=name)
    assert encode(decoded.text, decoded.encoding) == data


def test_a_character_the_encoding_cannot_hold_is_an_error_never_a_question_mark() -> None:
    cp1252 = decode(b"ab", encoding="cp1252").encoding
    with pytest.raises(EncodeError, match=r"cp1252 cannot represent 'Ω' \(U\+03A9\)") as error:
        encode("abΩ", cp1252)
    assert error.value.offset == 2
    assert encode("ab€", cp1252) == b"ab\x80"
    with pytest.raises(EncodeError):
        encode("\ud800", UTF8)


def test_encoding_descriptions_for_json_and_messages() -> None:
    encoding = decode(FIXTURES["utf-16-le bom"][0]).encoding
    assert encoding.to_json() == {"name": "utf-16-le", "bom": True, "detected": "bom"}
    assert encoding.describe() == "utf-16-le with BOM"
    assert UTF8.to_json() == {"name": "utf-8", "bom": False, "detected": "utf-8"}


def test_binary_data_is_recognised_and_text_is_not() -> None:
    assert looks_binary(decode(bytes(range(256)) * 4).text)
    assert not looks_binary("a normal line\n" * 100)
    assert not looks_binary(decode(FIXTURES["utf-16-le bom"][0]).text)
    assert not looks_binary("")


@pytest.mark.parametrize("text", ["a\nb", "a\r\nb", "a\rb"])
def test_every_lsp_line_break_counts_once(text: str) -> None:
    index = LineIndex(text)
    assert index.starts == [0, len(text) - 1]
    assert index.position(len(text) - 1) == (1, 0)
    assert index.human(len(text) - 1) == "2:1"


@pytest.mark.parametrize(
    "text", ["", "\n", "a", "a\n\nb\n", "\n\na", "a\u2028b\nc", "x\r\n\ny\r", "\r\r\n\n"]
)
def test_line_starts_are_after_each_line_break_with_or_without_carriage_returns(
    text: str,
) -> None:
    """Texts without ``\r`` are indexed by substring searches, the others by
    the regex: both give a line after each break, and no other."""
    expected = [0] + [
        i + 1
        for i, c in enumerate(text)
        if c == "\n" or (c == "\r" and text[i + 1 : i + 2] != "\n")
    ]
    assert LineIndex(text).starts == expected


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


def test_undecodable_bytes_are_shown_and_reread_as_text() -> None:
    text = decode(b"Ren\xe9e, caf\xe9s \x81 \xc3", encoding="utf-8").text
    assert escape_undecodable(text) == "Ren\\xe9e, caf\\xe9s \\x81 \\xc3"
    assert reread_undecodable(text, 3, 4) == "é"
    assert reread_undecodable(text, 14, 15) is None  # undefined in cp1252
    assert reread_undecodable(text, 16, 17) is None  # Ã alone between a space and the end
    assert reread_undecodable("abc", 1, 2) is None  # not an undecodable byte


def test_snippets_are_short_and_printable() -> None:
    assert snippet("a\tb\nc\r") == "a\\tb\\nc\\r"
    assert snippet("x" * 100, 10) == "x" * 9 + "…"
    assert snippet(decode(b"\xff").text) == "\\xff"
    assert snippet("é\ud800") == "é\\ud800"


def test_printable_escapes_control_characters_and_undecodable_bytes() -> None:
    assert printable("a\x00b\x1b[2J\r\n\t\x7f\x85\u2028\udcffé✓\ud800") == (
        "a\\x00b\\x1b[2J\\r\\n\\t\\x7f\\x85\\u2028\\xffé✓\\ud800"
    )


def test_common_prefix_and_suffix() -> None:
    assert common_prefix("abcdef", "abcxef") == 3
    assert common_prefix("abc", "abc") == 3
    assert common_prefix("", "abc") == 0
    assert common_suffix("abcdef", "abcxef", 6) == 2
    assert common_suffix("aaaa", "aaa", 1) == 1


def test_a_surrogate_is_a_byte_in_utf8_and_a_code_unit_in_utf16() -> None:
    utf8 = decode(b"Ren\xe9e", encoding="utf-8")
    utf16 = decode("Ren\udce9e".encode("utf-16-le", "surrogatepass"), encoding="utf-16-le")
    assert utf8.text == utf16.text == "Ren\udce9e"  # the same text, read from different bytes
    assert escape_undecodable(utf8.text, utf8.encoding) == "Ren\\xe9e"
    assert escape_undecodable(utf16.text, utf16.encoding) == "Ren\\udce9e"
    assert undecodable_message(utf8.text, 3, utf8.encoding) == "byte \\xe9 is not valid utf-8"
    assert undecodable_message(utf16.text, 3, utf16.encoding) == (
        "lone surrogate \\udce9 (bytes e9 dc) is not valid utf-16-le"
    )


def test_line_start_and_what_comes_first_on_a_line() -> None:
    text = "a = 1\n  b = 2\n"
    assert [line_start(text, offset) for offset in (0, 4, 6, 8, len(text))] == [0, 0, 6, 6, 14]
    assert first_on_line(text, text.index("b"))
    assert not first_on_line(text, text.index("2"))
    assert first_on_line(text, 0)
