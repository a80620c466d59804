"""The loss rule: when a repair throws away too much of its input."""

from __future__ import annotations

import pytest

from inputmend.core.loss import LossLimit, data_lost, is_lossy, significant
from inputmend.core.model import Edit, Repair


def _repair(text: str, *edits: Edit) -> Repair:
    return Repair(text, edits, "test", True, 0)


def test_whitespace_carries_no_data() -> None:
    assert significant(" a b\n\tc ") == 3
    text = '{"a":   1}'
    assert data_lost(text, _repair("", Edit(5, 3))) == 0  # re-spacing loses nothing


def test_an_edit_loses_what_it_deletes_or_overwrites() -> None:
    text = '["abc", 12]'
    assert data_lost(text, _repair("", Edit(1, 5))) == 5
    assert data_lost(text, _repair("", Edit(2, 3, "abd"))) == 1  # aligned: one overwritten
    assert data_lost(text, _repair("", Edit(7, 0, " 3,"))) == 0  # insertions lose nothing


def test_more_than_a_tenth_or_more_than_64_characters_is_lossy() -> None:
    small = "[1, 2, **3, 4, 5, 6, 7, 8, 9, 10]"  # 24 significant characters
    assert not is_lossy(small, _repair("", Edit(7, 2)))  # 2 of 24
    assert is_lossy(small, _repair("", Edit(7, 3)))  # 3 of 24: more than 10%
    big = "x" * 10_000
    assert not is_lossy(big, _repair("", Edit(0, 64)))
    assert is_lossy(big, _repair("", Edit(0, 65)))  # more than 64, though under 1%
    assert not is_lossy(big, _repair("", Edit(0, 65)), LossLimit(0.5, 100))


def test_limits_are_read_as_the_user_writes_them() -> None:
    assert LossLimit.parse("5%") == LossLimit(0.05, 64)
    assert LossLimit.parse("200") == LossLimit(0.10, 200)
    assert LossLimit.parse(" 5% , 200 ") == LossLimit(0.05, 200)
    assert LossLimit().describe() == "10% or 64 characters"
    for bad in ("", "ten", "5%,6%,7", "-3", "5 %x"):
        with pytest.raises(ValueError, match="PERCENT%"):
            LossLimit.parse(bad)
