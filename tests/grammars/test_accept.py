"""The accept checks a bundled grammar names never change its verdict.

A check may accept only texts its grammars accept (a check that accepted a
text the grammar rejects would let damage through unrepaired); it may leave
valid texts to the grammar, and those are named here.  Judged on random
texts near the edges of both languages (``tests/records/test_oracles.py``)
and on records damaged by the everyday damage operators of ``bench/damage``,
one at a time and many at once.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from bench.damage.formats import FORMATS
from bench.damage.seeds import generated_json

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar import registry
from inputmend.grammar.accept import ACCEPT_CHECKS, accept_check, json_unsure
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.records.test_oracles import _json_texts

DECLARED = sorted(
    (info.name, info.accept) for info in registry.bundled().values() if info.accept is not None
)

_BIG_INTEGER = re.compile(r"[0-9]{4301,}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _damaged_records(count: int) -> list[str]:
    """One-line JSON records (from the everyday-damage seeds) and the same
    records damaged by every JSON damage operator, several times each."""
    rng = random.Random(20261128)
    operators = FORMATS["json"].operators
    records: list[str] = []
    for seed in generated_json(40):
        value = json.loads(seed.text)
        for ascii_only in (True, False):
            records.append(json.dumps(value, ensure_ascii=ascii_only))
    texts = list(records)
    while len(texts) < count:
        record = rng.choice(records)
        damaged = operators[rng.choice(sorted(operators))](record, rng)
        if damaged is not None:
            texts.append(damaged)
    return texts


def test_the_bundled_json_grammars_name_the_json_check() -> None:
    assert ("json", "json") in DECLARED and ("jsonc", "json") in DECLARED


@pytest.mark.parametrize(("grammar", "check"), DECLARED)
def test_an_accept_check_never_accepts_what_its_grammar_rejects(grammar: str, check: str) -> None:
    accepts = ACCEPT_CHECKS[check]
    oracle = IncrementalGrammarOracle(grammar)
    texts = _json_texts(4000) + _damaged_records(4000)
    accepted = left = rejected = 0
    for text in texts:
        valid = oracle.check(text).valid
        if accepts.accepts(text):
            assert valid, f"the {check} check accepts what {grammar} rejects: {text!r}"
            accepted += 1
        elif valid:
            left += 1
        else:
            rejected += 1
    assert accepted > 800 and rejected > 2000  # both sides were really explored
    assert left > 0 if grammar == "jsonc" else True  # comments, trailing commas: the grammar's


def test_the_json_check_leaves_only_these_valid_texts_to_the_grammar() -> None:
    reference = ReferenceGrammarOracle("json")  # lark's own parser, from scratch
    for text in _json_texts(3000) + _damaged_records(3000):
        if reference.check(text).valid and not ACCEPT_CHECKS["json"].accepts(text):
            # integers beyond Python's digit limit, nesting beyond the
            # recursion limit, raw surrogates (undecodable bytes)
            left = _BIG_INTEGER.search(text) or _SURROGATE.search(text) or text.count("[") > 900
            assert left, repr(text)


def test_many_texts_at_once_get_the_same_answers_as_one_at_a_time() -> None:
    texts = _json_texts(3000) + _damaged_records(3000)
    texts = [text for text in texts if _SURROGATE.search(text) is None]  # decoded without errors
    one_by_one = [i for i, text in enumerate(texts) if not ACCEPT_CHECKS["json"].accepts(text)]
    assert json_unsure(texts) == one_by_one
    assert 0 < len(one_by_one) < len(texts)


@pytest.mark.parametrize("text", [" [1]", "[1] ", "[1]\t", "\r\n{}", "1 2", "[1]x", "\ufeff[]"])
def test_the_batch_check_reads_around_the_value_as_the_decoder_does(text: str) -> None:
    expected = [] if ACCEPT_CHECKS["json"].accepts(text) else [0]
    assert json_unsure([text]) == expected


_LINES = ACCEPT_CHECKS["json"].lines
_ODD_BYTES = [0x00, 0x1F, 0x7F, 0x80, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]


def _as_line(text: str, rng: random.Random) -> bytes:
    """``text`` as UTF-8 bytes (lone surrogates as the bytes that encode
    them, which strict UTF-8 refuses), some with odd bytes put in."""
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        data.insert(rng.randint(0, len(data)), rng.choice(_ODD_BYTES))
    return bytes(data)


def _accepted(line: bytes) -> bool:
    """What the JSON check says of a line decoded as record mode decodes it."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return ACCEPT_CHECKS["json"].accepts(text)


@pytest.mark.skipif(_LINES is None, reason="the C extension is not built")
def test_the_check_over_lines_accepts_the_lines_the_check_accepts() -> None:
    """Line by line, the C pass over bytes answers as the decoder does on the
    decoded line; it leaves to the grammar only nesting deeper than its
    stack (the decoder goes on to Python's recursion limit)."""
    assert _LINES is not None
    rng = random.Random(20261129)
    texts = _json_texts(4000) + _damaged_records(4000)
    lines = [_as_line(text, rng) for text in texts if "\n" not in text]
    unsure = set(_LINES(b"\n".join(lines), 1 << 20))
    accepted = 0
    for index, line in enumerate(lines):
        expected = _accepted(line)
        if index not in unsure:
            assert expected, line
            accepted += 1
        elif expected:
            assert line.count(b"[") + line.count(b"{") > 500, line
    assert accepted > 400 and len(unsure) > 4000  # both sides were really explored


@pytest.mark.skipif(_LINES is None, reason="the C extension is not built")
@pytest.mark.parametrize(
    ("data", "limit", "unsure"),
    [
        (b"", 10, []),
        (b"[1]", 10, []),
        (b"[1]\n", 10, []),
        (b"[1]\n\n[2]\n", 10, [1]),  # an empty line is no JSON text
        (b" [1] \n\t{}\r\n", 10, []),  # blanks around the value, as the decoder skips them
        (b"[1]\n[1, 2, 3, 4]\n[1]", 6, [1]),  # longer than the limit
        (b'"\xed\xa0\x80"\n"\xf4\x8f\xbf\xbf"\n"\xc0\xaf"', 10, [0, 2]),  # surrogate, overlong
        (b'["\\ud800"]\n["\\u12"]\n[1.]\n[-]\n[01]\n[1e+5]', 20, [1, 2, 3, 4]),
        (b'{"a": 1]\n[1}\n{"a" 1}\n{1: 2}\n[1,]\n{"a": 1,}\n[1 2]\n{"a": {}}', 20, [*range(7)]),
        (b"tru\nnull\nfalse \nNaN\n-Infinity\n1 2", 20, [0, 3, 4, 5]),
        (b"[" * 512 + b"]" * 512 + b"\n" + b"[" * 513 + b"]" * 513, 1 << 20, [1]),
    ],
)
def test_the_check_over_lines_cuts_and_reads_lines_as_record_mode_does(
    data: bytes, limit: int, unsure: list[int]
) -> None:
    assert _LINES is not None
    assert _LINES(data, limit) == unsure


def test_only_known_checks_can_be_named(tmp_path: Path) -> None:
    grammar = tmp_path / "mine.lark"
    grammar.write_text("// accept: python-eval\nstart: /a/\n", encoding="utf-8")
    with pytest.raises(OracleConfigError, match="unknown accept check 'python-eval'"):
        registry.read_info(grammar)
    assert accept_check(None) is None and accept_check("nothing") is None
    assert accept_check("json") is ACCEPT_CHECKS["json"]
