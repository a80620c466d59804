"""Re-reading undecodable bytes as cp1252 text before deleting them."""

from __future__ import annotations

from inputmend import services
from inputmend.algorithms.redecode import redecode, reread, reread_edits
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
