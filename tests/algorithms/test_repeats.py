"""Definitions written twice, and repairs that remove one copy."""

from __future__ import annotations

from inputmend.algorithms.hints import guidance
from inputmend.algorithms.repeats import (
    Removal,
    may_remove_copies,
    removed_copies,
    repeated_definitions,
)
from inputmend.config.schema import OracleSpec
from inputmend.core.model import Edit
from inputmend.grammar.tolerant import TolerantLexer
from inputmend.oracles.factory import load_grammar


def lexer(fmt: str) -> TolerantLexer:
    return guidance(load_grammar(OracleSpec(grammar=fmt))).lexer


TOML = "[a]\nx = 1\ny = 2\nx = 1\n"


def test_a_repeated_line_deleted_whole_is_a_copy_removed() -> None:
    at = TOML.rindex("x = 1")
    assert removed_copies(TOML, (Edit(at, 6),), lexer("toml")) == Removal(6, 0)


def test_a_repeated_line_commented_out_is_a_copy_hidden() -> None:
    at = TOML.rindex("x = 1")
    assert removed_copies(TOML, (Edit(at, 0, "# "),), lexer("toml")) == Removal(0, 3)


def test_part_of_a_line_or_a_line_said_once_is_no_copy() -> None:
    toml = lexer("toml")
    assert removed_copies(TOML, (Edit(TOML.index("y = 2"), 6),), toml) is None
    assert removed_copies(TOML, (Edit(TOML.rindex("x = 1"), 1),), toml) is None


def test_a_header_is_no_definition() -> None:
    # removing it would move the entries below it into the table above
    text = "[a]\nx = 1\n[b]\ny = 2\n[a]\nz = 3\n"
    assert removed_copies(text, (Edit(text.rindex("[a]"), 4),), lexer("toml")) is None
    assert list(repeated_definitions(text, text.rindex("[a]"), lexer("toml"))) == []


def test_a_run_of_tokens_a_tag_holds_twice_is_a_copy() -> None:
    text = '<a x="1" y="2" x="1"/>'
    at = text.rindex(' x="1"')
    assert removed_copies(text, (Edit(at, 6),), lexer("xml")) == Removal(6, 0)
    assert list(repeated_definitions(text, at + 1, lexer("xml"))) == [
        Edit(at, 6),
        Edit(text.index(' x="1"'), 6),
    ]


def test_only_deletions_and_markers_may_remove_copies() -> None:
    assert may_remove_copies((Edit(0, 3), Edit(5, 0, "# ")))
    assert not may_remove_copies((Edit(0, 0, "x"),))
    assert not may_remove_copies((Edit(0, 1, "#"),))
    assert not may_remove_copies(())


def test_an_earlier_copy_removed_moves_the_definition() -> None:
    # the data is kept, but the key now stands where its later copy stood
    at = TOML.index("x = 1")
    assert removed_copies(TOML, (Edit(at, 6),), lexer("toml")) == Removal(0, 0)
    text = '<a x="1" y="2" x="1"/>'
    assert removed_copies(text, (Edit(text.index(' x="1"'), 6),), lexer("xml")) == Removal(0, 0)


def test_a_value_of_brackets_alone_is_a_definition() -> None:
    text = "[f]\nextras = []\nother = 1\nextras = []\n"
    at = text.rindex("extras")
    assert removed_copies(text, (Edit(at, 12),), lexer("toml")) == Removal(12, 0)


def test_fields_of_a_record_are_no_definition() -> None:
    # a CSV row holding `1.3,140` twice: its fields, parted as every field is
    text = "a,b,c,d,e\n1.3,140,1.3,140,7,8\n"
    row = text.index("1.3")
    assert list(repeated_definitions(text, len(text) - 2, lexer("csv"))) == []
    second = text.index(",1.3,140", row + 1)
    assert removed_copies(text, (Edit(second, 8),), lexer("csv")) is None
