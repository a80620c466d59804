"""Units of token-level ddmax from panic-mode error recovery."""

from __future__ import annotations

import pytest

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.recovery import recovery_units


@pytest.fixture(scope="module")
def json() -> CompiledGrammar:
    return CompiledGrammar.load("json")


def _units(grammar: CompiledGrammar, text: str) -> list[str]:
    return [text[start:end] for start, end in recovery_units(grammar, text)]


def test_accepted_tokens_are_units_of_their_own(json: CompiledGrammar) -> None:
    assert _units(json, '{"a": [1, 2]}') == ["{", '"a"', ":", "[", "1", ",", "2", "]", "}"]
    assert _units(json, "") == []


def test_what_recovery_abandons_is_one_unit(json: CompiledGrammar) -> None:
    # the ddmax paper's missing colon (Fig. 9-11)
    text = '{ "item": "Apple", "price" 3.45 }'
    assert _units(json, text) == ["{", '"item"', ":", '"Apple"', ', "price" 3.45', "}"]
    # junk is skipped with the tokens around it that cannot be taken up
    assert _units(json, "[1, *, 2]") == ["[", "1", ", *", ",", "2", "]"]


def test_a_rest_nothing_can_take_up_is_one_unit(json: CompiledGrammar) -> None:
    assert _units(json, "} }") == ["} }"]


def test_stop_may_abort(json: CompiledGrammar) -> None:
    class Stopped(Exception):
        pass

    def stop() -> None:
        raise Stopped

    with pytest.raises(Stopped):
        recovery_units(json, "[1, 2]", stop=stop)
