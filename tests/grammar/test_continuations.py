"""Which characters can follow a valid prefix."""

from __future__ import annotations

import pytest

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.continuations import Continuations
from inputmend.grammar.scan import Scanner, ScanState

ALPHABET = 'abcdefrstu0123456789 ,:[]{}"-.x'


@pytest.fixture(scope="module")
def json() -> tuple[Scanner, Continuations]:
    grammar = CompiledGrammar.load("json")
    return Scanner(grammar, checkpoint_every=8, margin=32), Continuations(grammar)


def _end(scanner: Scanner, prefix: str) -> ScanState:
    end = scanner.fresh(prefix).end
    assert end is not None
    return end


def test_what_can_follow(json: tuple[Scanner, Continuations]) -> None:
    scanner, continuations = json
    assert continuations('{"a": t', _end(scanner, '{"a": t'), ALPHABET, distinct=False) == "r"
    after_key = continuations('{"a"', _end(scanner, '{"a"'), ALPHABET, distinct=False)
    assert set(after_key) == {" ", ":"}
    in_number = continuations("[1", _end(scanner, "[1"), ALPHABET, distinct=False)
    assert set(in_number) == set("0123456789 ,].e") & set(ALPHABET)


def test_one_character_per_class(json: tuple[Scanner, Continuations]) -> None:
    scanner, continuations = json
    inside_string = continuations('["', _end(scanner, '["'), ALPHABET, distinct=True)
    assert inside_string.count("a") + inside_string.count("b") == 1  # letters are one class
    assert '"' in inside_string
    assert continuations('["', _end(scanner, '["'), ALPHABET, distinct=True) == inside_string
