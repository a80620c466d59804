"""Re-reading undecodable bytes as cp1252 text before deleting them."""

from __future__ import annotations

from inputmend import services
from inputmend.algorithms.redecode import redecode, reread, reread_edits, unreadable
from inputmend.core.model import Edit
from inputmend.core.text import decode
from inputmend.oracles.incremental import IncrementalGrammarOracle

RENEE = decode(b'{"name": "Ren\xe9e", "city": "Z\xfcrich"}\n', encoding="utf-8").text


def test_runs_that_read_as_text_are_reread() -> None:
    assert reread_edits(RENEE) == (Edit(13, 1, "é"), Edit(28, 1, "ü"))
    random = decode(b'{"n": "a\x81b", "m": 1\xe9}', encoding="utf-8").text
    assert reread_edits(random) == ()  # undefined in cp1252; a letter after a digit


def test_the_reread_repair_comes_before_deleting() -> None:
    oracle = IncrementalGrammarOracle("json")
    (alone,) = redecode(RENEE, oracle).repairs
    assert alone.text == '{"name": "Renée", "city": "Zürich"}\n'
    assert [reread(RENEE, edit) for edit in alone.edits] == [1, 1]  # kept, not lost
    result = services.repair(RENEE, oracle)
    assert result.repairs[0].text == alone.text and result.repairs[0].algorithm == "redecode"
    assert '{"name": "Rene", "city": "Zrich"}\n' in [r.text for r in result.repairs]


def test_a_lone_byte_that_would_start_a_word_is_deleted_first_and_reread_second() -> None:
    oracle = IncrementalGrammarOracle("json")
    lone = decode(b'{"title": "Intro", "\xf4step": 2}\n', encoding="utf-8").text
    result = services.repair(lone, oracle)
    texts = [r.text for r in result.repairs]
    assert texts[0] == '{"title": "Intro", "step": 2}\n'
    assert '{"title": "Intro", "ôstep": 2}\n' in texts  # still offered
    # a letter inside or at the end of a word reads as text without other support
    ending = decode(b'{"dish": "pur\xe9", "n": 1}\n', encoding="utf-8").text
    assert services.repair(ending, oracle).repairs[0].text == '{"dish": "puré", "n": 1}\n'
    # a run of bytes reads as text without other support
    run = decode(b'{"words": "Gr\xfc\xdfe", "n": 1}\n', encoding="utf-8").text
    assert services.repair(run, oracle).repairs[0].algorithm == "redecode"
    # beside other text beyond ASCII, a byte that starts a word is read as text too
    beside = decode(b'{"a": "\xe9cole", "b": "caf\xc3\xa9"}\n', encoding="utf-8").text
    assert services.repair(beside, oracle).repairs[0].text == '{"a": "école", "b": "café"}\n'


def test_bytes_with_no_reading_as_text_are_what_every_repair_removes() -> None:
    text = decode(b'{"a\x81\x8d: "Ren\xe9e"}', encoding="utf-8").text
    assert unreadable(text, (Edit(3, 2, '"'),)) == 2  # undefined in cp1252
    assert unreadable(text, (Edit(3, 1, '"'),)) == 0  # part of the run stays
    assert unreadable(text, (Edit(2, 0, '"'),)) == 0  # nothing removed
    assert unreadable(text, (Edit(12, 1, ""),)) == 0  # Ren\xe9e reads as Renée
