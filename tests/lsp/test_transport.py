"""Framing of the base protocol: bodies put back together, and
resynchronisation after a wrong Content-Length."""

from __future__ import annotations

from inputmend.lsp.transport import MAX_BODY, MAX_HEADERS, Frame, Framer
from tests.lsp.raw import frame


def test_frames_split_anywhere_are_put_back_together() -> None:
    stream = frame({"a": 1}) + frame({"b": 2})
    framer = Framer()
    bodies = [f.body for i in range(len(stream)) for f in framer.feed(stream[i : i + 1])]
    assert bodies == [b'{"a": 1}', b'{"b": 2}']


def test_a_content_length_too_large_is_caught_at_the_next_header() -> None:
    stream = b'Content-Length: 500\r\n\r\n{"a": 1}' + frame({"b": 2})
    frames = Framer().feed(stream)
    assert frames[0].body is None and frames[0].problem is not None
    assert frames[1:] == [Frame(b'{"b": 2}')]


def test_a_content_length_too_small_skips_to_the_next_header() -> None:
    stream = b'Content-Length: 4\r\n\r\n{"a": 1}' + frame({"b": 2})
    frames = Framer().feed(stream)
    assert frames == [Frame(b'{"a"'), Frame(b'{"b": 2}')]


def test_headers_without_a_length_are_a_broken_frame() -> None:
    frames = Framer().feed(b"X-Nothing: 1\r\n\r\n" + frame({"b": 2}))
    assert frames[0].body is None and frames[1] == Frame(b'{"b": 2}')


def test_an_absurd_content_length_is_a_broken_frame_and_its_body_is_skipped() -> None:
    body = b'{"a": 1}'
    for length in (b"9223372036854775807", b"1" * 5000, b"%d" % (MAX_BODY + 1)):
        stream = b"Content-Length: " + length + b"\r\n\r\n" + body + frame({"b": 2})
        frames = Framer().feed(stream)
        assert frames[0].body is None and "Content-Length" in str(frames[0].problem)
        assert frames[1:] == [Frame(b'{"b": 2}')]


def test_bytes_that_never_end_a_header_block_are_not_all_kept() -> None:
    framer = Framer()
    for _ in range(100):
        assert framer.feed(b"x" * MAX_HEADERS) == []
    assert len(framer._buffer) <= MAX_HEADERS * 2
    assert framer.feed(frame({"b": 2})) == [Frame(b'{"b": 2}')]


def test_line_breaks_and_header_words_inside_a_body_do_not_cut_it() -> None:
    """Blanks between tokens may be CR LF, and a string may say
    ``Content-Length: 5``: neither is a header, in whatever pieces the
    bytes arrive."""
    body = b'{"headers": "Content-Length: 5",\r\n "b":\r\n\r\n 2}'
    stream = b"Content-Length: %d\r\n\r\n" % len(body) + body + frame({"c": 3})
    for size in (1, 7, len(stream)):
        framer = Framer()
        frames = [f for i in range(0, len(stream), size) for f in framer.feed(stream[i : i + size])]
        assert frames == [Frame(body), Frame(b'{"c": 3}')]


def test_a_header_after_line_breaks_in_a_short_body_is_found() -> None:
    """A declared length past the next header: the header is found after a
    body with line breaks of its own."""
    body = b'{"a":\r\n 1}'
    stream = b"Content-Length: 500\r\n\r\n" + body + frame({"b": 2})
    frames = Framer().feed(stream)
    assert frames[0].body is None and frames[1:] == [Frame(b'{"b": 2}')]
