"""Checking any text by editing the most similar recent scan."""

from __future__ import annotations

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.history import SHORT_TEXT, ScanHistory
from inputmend.grammar.scan import Scanner


def test_texts_are_checked_against_recent_scans() -> None:
    scanner = Scanner(CompiledGrammar.load("json"), checkpoint_every=4, margin=8)
    history = ScanHistory(scanner, size=4)
    text = "[" + ", ".join(str(n) for n in range(500)) + "]"
    first = history.scan(text)
    assert history.scan(text) is first  # the same text: the same scan
    lexed = scanner.scanned_chars
    edited = text[:1000] + "x" + text[1000:]
    scan = history.scan(edited)
    assert scan.text == edited and not scan.feedback.valid
    assert scanner.scanned_chars - lexed < 100
    assert history.scan(text[:500]).feedback.error_offset == 500  # a prefix
    history.clear()
    assert history.scan(text) is not first


def test_repairs_of_one_error_rejoin_an_earlier_valid_repair() -> None:
    # an error in the middle of a long text: the first valid repair reads the
    # rest anew; the next ones, however many invalid tries come between,
    # rejoin its scan after their edit instead of reading the rest again
    scanner = Scanner(CompiledGrammar.load("json"), checkpoint_every=4, margin=8)
    history = ScanHistory(scanner, size=4)
    items = [f'{{"n": {n}}}' for n in range(400)]
    broken = "[" + ", ".join(items[:200]) + " " + ", ".join(items[200:]) + "]"
    gap = broken.index(' {"n": 200}')
    assert not history.scan(broken).feedback.valid
    assert history.scan(broken[:gap] + "," + broken[gap:]).feedback.valid
    for tried in ("]", "}", ":", "x", "1", "["):
        history.scan(broken[:gap] + tried + broken[gap:])
    lexed = scanner.scanned_chars
    assert history.scan(broken[:gap] + ", " + broken[gap + 1 :]).feedback.valid
    assert scanner.scanned_chars - lexed < 200


def test_a_short_text_is_scanned_anew_unless_it_was_just_scanned() -> None:
    scanner = Scanner(CompiledGrammar.load("json"), checkpoint_every=4, margin=8)
    history = ScanHistory(scanner, size=4)
    short = '{"id": 1, "tags": ["a", "b"], "ok": true}'
    assert len(short) <= SHORT_TEXT
    first = history.scan(short)
    assert history.scan(short) is first
    lexed = scanner.scanned_chars
    edited = short.replace("true", "tru")
    assert not history.scan(edited).feedback.valid
    assert scanner.scanned_chars - lexed >= len(edited) - 5  # read from its start
    long = "[" + ", ".join([short] * 20) + "]"
    assert len(long) > SHORT_TEXT
    history.scan(long)
    lexed = scanner.scanned_chars
    at = long.index("true", 400)
    assert not history.scan(long[:at] + "x" + long[at:]).feedback.valid
    assert scanner.scanned_chars - lexed < 100  # an edit of the long text's scan
