"""Columns in an editor's code units (UTF-8, UTF-16, UTF-32) on lines of any
length, against counting one character at a time; and kept across changes."""

from __future__ import annotations

import random

import pytest

from inputmend.core import columns
from inputmend.core.columns import POSITION_ENCODINGS
from inputmend.core.text import LineIndex

# Characters of every width in every encoding, and every line break.
PIECES = ["a", "é", "€", "\U0001f600", "\udce9", "\r\n", "\r", "\n", "\u2028", "xyz"]


def _reference_units(text: str, encoding: str) -> int:
    return sum(
        {
            "utf-8": len(c.encode("utf-8", "surrogatepass")),
            "utf-16": 2 if ord(c) > 0xFFFF else 1,
        }.get(encoding, 1)
        for c in text
    )


def _reference_offset(text: str, line: int, units: int, encoding: str) -> int:
    """The first offset at or after ``units`` on ``line``, one character at a time."""
    starts = LineIndex(text).starts
    if line >= len(starts):
        return len(text)
    start = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    end = start + len(text[start:end].rstrip("\r\n"))
    counted = 0
    for offset in range(start, end):
        if counted >= units:
            return offset
        counted += _reference_units(text[offset], encoding)
    return end


def _random_text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(size))


@pytest.mark.parametrize("block", [1, 3, 4096])
def test_columns_in_code_units_agree_with_counting_one_character_at_a_time(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(columns, "COLUMN_BLOCK", block)
    rng = random.Random(block)
    for _ in range(30):
        text = _random_text(rng, rng.randrange(0, 40))
        index = LineIndex(text)
        for encoding in POSITION_ENCODINGS:
            for offset in range(len(text) + 1):
                line, column = index.position(offset)
                start = index.starts[line]
                units = _reference_units(text[start : start + column], encoding)
                assert index.encoded_position(offset, encoding) == (line, units)
            for line in range(len(index.starts) + 1):
                for units in range(-1, 3 * 40):
                    expected = _reference_offset(text, line, units, encoding)
                    assert index.encoded_offset(line, units, encoding) == expected, (
                        text,
                        line,
                        units,
                        encoding,
                    )


@pytest.mark.parametrize("block", [1, 3, 4096])
def test_an_index_updated_change_by_change_is_the_index_of_the_new_text(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Line starts, and the columns counted before a change (kept around it)."""
    monkeypatch.setattr(columns, "COLUMN_BLOCK", block)
    rng = random.Random(block)
    for _ in range(150):
        text = _random_text(rng, rng.randrange(0, 30))
        index = LineIndex(text)
        for _ in range(5):
            for offset in range(0, len(index.text) + 1, 3):  # columns counted, then kept
                for encoding in POSITION_ENCODINGS:
                    index.encoded_position(offset, encoding)
            start = rng.randrange(0, len(index.text) + 1)
            end = rng.randrange(start, min(start + 6, len(index.text)) + 1)
            insert = _random_text(rng, rng.randrange(0, 4))
            expected = index.text[:start] + insert + index.text[end:]
            index = index.replaced(start, end, insert)
            assert index.text == expected
            fresh = LineIndex(expected)
            assert index.starts == fresh.starts, (expected, start, end, insert)
            for encoding in POSITION_ENCODINGS:
                for offset in range(len(expected) + 1):
                    where = fresh.encoded_position(offset, encoding)
                    assert index.encoded_position(offset, encoding) == where
                    assert index.encoded_offset(*where, encoding) == fresh.encoded_offset(
                        *where, encoding
                    )


def _count_encoding(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of the texts encoded from now on."""
    encoded: list[int] = []
    original = columns.encoded_length

    def counting(text: str, encoding: str) -> int:
        encoded.append(len(text))
        return original(text, encoding)

    monkeypatch.setattr(columns, "encoded_length", counting)
    return encoded


HUGE_LINE = "é\U0001f600" * 2_000_000  # 4M characters, 6M UTF-16 units
SEARCH = 2 * columns.COLUMN_BLOCK.bit_length() + 2
"""Encodings of one conversion at most: one per step of a bisection in a gap."""


def test_a_column_on_a_huge_line_encodes_a_few_blocks_not_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    encoded = _count_encoding(monkeypatch)
    index = LineIndex(HUGE_LINE)
    index.encoded_offset(0, 5_999_999, "utf-16")  # counts the checkpoints once
    built = len(encoded)
    assert built <= len(HUGE_LINE) // columns.COLUMN_BLOCK + SEARCH
    for units in range(0, 6_000_000, 599_999):
        index.encoded_offset(0, units, "utf-16")
        index.encoded_position(len(HUGE_LINE) - units // 2, "utf-16")
    assert len(encoded) - built <= 22 * SEARCH
    assert sum(encoded[built:]) <= 22 * SEARCH * columns.COLUMN_BLOCK


def test_changes_to_a_huge_line_do_not_count_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded = _count_encoding(monkeypatch)
    index = LineIndex(HUGE_LINE)
    index.encoded_offset(0, 1, "utf-16")  # counts the checkpoints once
    built = sum(encoded)
    for number in range(50):
        units = 5_999_990 - number * 100_003
        start = index.encoded_offset(0, units, "utf-16")
        before = index.encoded_position(start, "utf-16")[1]
        index = index.replaced(start, start + 1, "\u00e8x")
        assert index.encoded_position(start + 2, "utf-16")[1] == before + 2
    assert sum(encoded) - built <= 50 * 4 * SEARCH * columns.COLUMN_BLOCK
