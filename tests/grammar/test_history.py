"""Checking any text by editing the most similar recent scan."""

from __future__ import annotations

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.history import ScanHistory, common_prefix, common_suffix
from inputmend.grammar.scan import Scanner


def test_common_prefix_and_suffix() -> None:
    assert common_prefix("abcdef", "abcxef") == 3
    assert common_prefix("abc", "abc") == 3
    assert common_prefix("", "abc") == 0
    assert common_suffix("abcdef", "abcxef", 6) == 2
    assert common_suffix("aaaa", "aaa", 1) == 1


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
