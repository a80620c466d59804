"""Record oracles, and the proof that the pre-checks agree with the grammars.

The pre-checks may answer "valid" only where the bundled grammar does: a
pre-check that accepted a record the grammar rejects would let damage through
unrepaired.  Random texts near the edges of both languages (whitespace of
every kind, escapes, numbers in every form, literals of other languages,
surrogates, control characters, random edits of valid texts) are judged by
both.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from inputmend.config.schema import OracleSpec
from inputmend.core.oracle import Verdict
from inputmend.grammar.accept import ACCEPT_CHECKS, json_accepts
from inputmend.grammar.semantics import check_csv_columns
from inputmend.oracles.factory import build_oracle
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.python import CallableOracle
from inputmend.records.oracles import (
    CsvFastCheck,
    CsvRowOracle,
    LineAccept,
    SingleLine,
    csv_fields,
    is_bundled,
    record_oracle,
)

# whitespace JSON allows, and characters other readers take for whitespace
JSON_SPACE = " \t\r\n"
OTHER_SPACE = "\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000\ufeff"
DIGITS = "0123456789"
OTHER_DIGITS = "\u0660\u0661\u06f5\u0967\uff11\U0001d7ce"  # Arabic, Devanagari, full-width, math
STRING_PIECES = [
    "a",
    "é",
    "\u2028",
    "😀",
    '\\"',
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\\u00e9",
    "\\uD83D\\uDE00",
    "\\ud800",  # an escaped lone surrogate: valid in both
    "\\uDFFF",
    "\\x41",
    "\\u12",
    "\\u12g4",
    "\\U0041",
    "\\a",
    "\\'",
    "\\",
    "\x00",
    "\x1f",
    "\x7f",
    "\t",
    "\n",
    "\ud800",  # raw surrogates (from undecodable bytes)
    "\udc80",
    "\udcff",
    "'",
]
FOREIGN_LITERALS = [
    "NaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "+Infinity",
    "True",
    "None",
    "undefined",
    "nul",
    "tru",
    "nulll",
    "True",
]


def _number(rng: random.Random) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return "".join(rng.choice(DIGITS + OTHER_DIGITS) for _ in range(rng.randint(1, 3)))
    if kind == 1:
        return "9" * rng.choice((4300, 4301, 5000))  # Python's int digit limit
    if kind == 2:
        return rng.choice(("1e999", "-1e-999", "1E+400", "0e0", "-0", "-0.0e-0"))
    sign = rng.choice(("", "", "-", "+", "--"))
    whole = rng.choice(("0", "00", "01", "7", "123", "", "1_000"))
    fraction = rng.choice(("", "", ".5", ".", ".05", ".e1"))
    exponent = rng.choice(("", "", "e5", "E-3", "e+", "e", "e1.5", "ee2"))
    return sign + whole + fraction + exponent


def _string(rng: random.Random) -> str:
    body = "".join(rng.choice(STRING_PIECES) for _ in range(rng.randint(0, 4)))
    quote = '"' if rng.random() < 0.95 else "'"
    return quote + body + quote


def _space(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return ""
    pool = JSON_SPACE if rng.random() < 0.7 else OTHER_SPACE
    return "".join(rng.choice(pool) for _ in range(rng.randint(1, 2)))


def _value(rng: random.Random, depth: int = 0) -> str:
    kind = rng.randrange(10 if depth < 4 else 6)
    if kind == 0:
        return _number(rng)
    if kind == 1:
        return _string(rng)
    if kind == 2:
        return rng.choice(("true", "false", "null"))
    if kind == 3:
        return rng.choice(FOREIGN_LITERALS) if rng.random() < 0.3 else _number(rng)
    if kind in (4, 5):
        return _string(rng)
    if kind in (6, 7):
        items = [
            _space(rng) + _value(rng, depth + 1) + _space(rng) for _ in range(rng.randint(0, 3))
        ]
        comma = "," if rng.random() < 0.97 else ",,"
        trailing = "," if items and rng.random() < 0.05 else ""
        return "[" + comma.join(items) + trailing + "]"
    pairs = [
        _space(rng) + _string(rng) + _space(rng) + ":" + _space(rng) + _value(rng, depth + 1)
        for _ in range(rng.randint(0, 3))
    ]
    return "{" + ",".join(pairs) + "}"


def _mutated(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 2)):
        at = rng.randint(0, len(text))
        choice = rng.randrange(3)
        char = rng.choice('{}[]:,"\\ 0e.-tnf' + OTHER_SPACE + OTHER_DIGITS)
        if choice == 0:
            text = text[:at] + char + text[at:]
        elif choice == 1:
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


def _json_texts(count: int) -> list[str]:
    rng = random.Random(20261123)
    texts = [
        "",
        " ",
        "\ufeff{}",
        "[" * 5000 + "]" * 5000,  # deeper than the recursion limit
        json.dumps({"a": [1, 2.5, None, True, "x"]}),
        json.dumps({"deep": [[[[{"k": "é"}]]]]}, ensure_ascii=False),
    ]
    while len(texts) < count:
        text = _space(rng) + _value(rng) + _space(rng)
        texts.append(_mutated(rng, text) if rng.random() < 0.3 else text)
    return texts


@pytest.fixture(scope="module")
def json_grammar() -> IncrementalGrammarOracle:
    return IncrementalGrammarOracle("json")


@pytest.mark.parametrize(
    "text",
    [
        '{"a": NaN}',
        "[Infinity]",
        "-Infinity",
        " \x0c[1]",
        "[1]\x0b",
        "\u00a0{}",
        "[\u0661]",
        '["\x1f"]',
        '"\udc80"',
        '"\ud83d"',
        "\ufeff[]",
        "",
    ],
)
def test_what_json_loads_alone_would_get_wrong_goes_to_the_oracle(text: str) -> None:
    assert not json_accepts(text)


def test_the_json_pre_check_accepts_what_the_grammar_accepts() -> None:
    for text in ['{"a": [1, -2.5e3, true, null, "\\u00e9\\ud800"]}', " \t[1]\r", '"é😀"', "1e999"]:
        assert json_accepts(text)


# ---------------------------------------------------------------------- CSV
CSV_ALPHABET = ["a", "b", " ", ",", ",", '"', '"', '""', "\n", "\r", "é", "\t", "\udc80"]


def _csv_rows(count: int) -> list[str]:
    rng = random.Random(4180)
    rows = []
    for _ in range(count):
        if rng.random() < 0.5:
            fields = []
            for _ in range(rng.randint(1, 4)):
                text = "".join(rng.choice(CSV_ALPHABET) for _ in range(rng.randint(0, 4)))
                fields.append('"' + text.replace('"', '""') + '"' if rng.random() < 0.4 else text)
            rows.append(",".join(fields))
        else:
            rows.append("".join(rng.choice(CSV_ALPHABET) for _ in range(rng.randint(0, 12))))
    return rows


@pytest.mark.parametrize("columns", [None, 1, 2, 3])
def test_the_csv_pre_check_agrees_with_the_row_oracle(columns: int | None) -> None:
    oracle = CsvRowOracle(columns)
    fast = CsvFastCheck(columns)
    agreed = 0
    for row in _csv_rows(3000):
        expected = oracle.check(row).valid
        assert fast(row) == expected, repr(row)
        agreed += expected
    assert agreed > 100


@pytest.mark.parametrize("columns", [1, 2, 3])
def test_a_row_the_csv_pre_check_accepts_is_one_the_csv_loader_accepts(columns: int) -> None:
    header = ",".join(f"h{number}" for number in range(columns))
    fast = CsvFastCheck(columns)
    accepted = [row for row in _csv_rows(3000) if fast(row)]
    assert fast.unsure(accepted) == []
    for row in accepted:
        assert check_csv_columns(header + "\n" + row).valid, repr(row)
    assert len(accepted) > 50


def test_the_user_grammar_s_accept_line_is_not_taken_on_trust(tmp_path: Path) -> None:
    mine = tmp_path / "mine.lark"
    mine.write_text('// accept: json\nstart: value\nvalue: "[" "]"\n', encoding="utf-8")
    oracle = IncrementalGrammarOracle(str(mine))
    assert oracle.grammar.info.accept == "json"
    assert record_oracle("lines", oracle)[1] is None  # "{}" would pass the check


def test_a_row_with_fewer_fields_is_incomplete_and_one_with_more_incorrect() -> None:
    oracle = CsvRowOracle(3)
    assert oracle.check("1,2,3").valid
    short = oracle.check('1,"a,b"')
    assert short.verdict is Verdict.INCOMPLETE and short.error_offset == 7
    long = oracle.check('1,"a,b",3,4,5')
    assert long.verdict is Verdict.INCORRECT and long.error_offset == 9
    assert "more fields than the header's 3" in long.message
    broken = oracle.check("1\n2,3")
    assert broken.verdict is Verdict.INCORRECT and broken.error_offset == 1
    assert oracle.check('1,"two\nlines",3').valid
    assert oracle.check("").verdict is Verdict.INCOMPLETE  # FSynth can build a row from nothing
    quote = oracle.check('1,ab"c,3')
    assert quote.verdict is Verdict.INCORRECT and quote.error_offset == 4


def test_csv_fields_counts_commas_outside_quotes() -> None:
    assert csv_fields("a") == 1
    assert csv_fields(",") == 2
    assert csv_fields('"a,b",c,"d ""e,f"""') == 3


def test_a_single_line_record_may_not_be_split_by_a_repair(
    json_grammar: IncrementalGrammarOracle,
) -> None:
    oracle = SingleLine(json_grammar)
    assert oracle.check("[1, 2]").valid
    split = oracle.check("[1,\n 2]")
    assert split.verdict is Verdict.INCORRECT and split.error_offset == 3
    early = oracle.check("[1}\n 2]")
    assert early.error_offset == 2


def test_the_pre_check_is_used_only_for_a_bundled_grammar_alone() -> None:
    json_check = ACCEPT_CHECKS["json"]
    _, fast = record_oracle("lines", None)
    assert isinstance(fast, LineAccept) and fast.check is json_check
    _, fast = record_oracle("lines", ReferenceGrammarOracle("json"))
    assert isinstance(fast, LineAccept) and fast.check is json_check
    assert json_accepts("[1,\n2]") and not fast("[1,\n2]")
    assert fast.unsure(["[1]", "[1,\n2]", "[2]"]) == [1]
    _, fast = record_oracle("lines", CallableOracle(json.loads))  # accepts NaN: no pre-check
    assert fast is None
    _, fast = record_oracle("lines", IncrementalGrammarOracle("jsonc"))  # its header names one
    assert isinstance(fast, LineAccept) and fast.check is json_check
    _, fast = record_oracle("lines", IncrementalGrammarOracle("yaml"))  # names none
    assert fast is None
    oracle, fast = record_oracle("csv", None, columns=2)
    assert isinstance(oracle, CsvRowOracle) and fast is not None
    # a .csv file's oracle: the grammar and its loader, whose rule the row oracle checks
    spec = OracleSpec(grammar="csv")
    oracle, fast = record_oracle("csv", build_oracle(spec, suffix=".csv"), columns=2)
    assert isinstance(oracle, CsvRowOracle) and oracle.extra is None and fast is not None
    oracle, fast = record_oracle("csv", CallableOracle(len), columns=2)
    assert isinstance(oracle, CsvRowOracle) and oracle.extra is not None and fast is None
    assert is_bundled(IncrementalGrammarOracle("csv"), "csv")
    assert not is_bundled(IncrementalGrammarOracle("csv"), "json")


def test_a_row_the_csv_pre_check_accepts_is_one_the_csv_grammar_accepts() -> None:
    grammar = IncrementalGrammarOracle("csv")
    fast = CsvFastCheck(None)
    accepted = 0
    for row in _csv_rows(3000):
        if fast(row):
            assert grammar.check(row).valid, repr(row)
            accepted += 1
    assert accepted > 100
