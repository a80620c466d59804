"""ddmin, ddmax and dd against the papers' worked examples and toy oracles."""

from __future__ import annotations

import math

import pytest

from inputmend.algorithms.configurations import Ranges, count
from inputmend.algorithms.dd import dd_text
from inputmend.algorithms.ddmax import ddmax, ddmax_text
from inputmend.algorithms.ddmin import ddmin, ddmin_text
from inputmend.core.budget import Budget, Meter
from inputmend.core.oracle import Outcome
from inputmend.oracles.python import CallableOracle

APPLE = '{ "item": "Apple", "price": **3.45 }'


def test_ddmax_repairs_the_apple_example(json_oracle: CallableOracle) -> None:
    result = ddmax_text(APPLE, json_oracle)
    assert result.text == '{ "item": "Apple", "price": 3.45 }'
    assert result.valid
    assert [APPLE[s:e] for s, e in result.removed] == ["**"]
    assert 0 < result.stats.tests < 60  # the slides count 36 runs without a cache


def test_ddmin_reduces_the_apple_example_to_a_brace(json_oracle: CallableOracle) -> None:
    result = ddmin_text(APPLE, json_oracle)
    assert result.text == "{"
    assert result.kept == ((0, 1),)


def test_dd_isolates_a_one_character_difference(json_oracle: CallableOracle) -> None:
    result = dd_text(APPLE, json_oracle)
    assert result.started_from_ddmax  # the empty text is not JSON
    assert result.found_passing
    assert result.passing == '{ "item": "Apple", "price": 3.45 }'
    assert count(result.difference) == 1
    assert APPLE[result.difference[0][0]] == "*"
    assert json_oracle.check(result.failing).outcome is Outcome.FAIL


@pytest.mark.parametrize("text", ["1*1", '{*"":2}'])
def test_the_fsynth_bugfix_examples_terminate(text: str, json_oracle: CallableOracle) -> None:
    result = ddmax_text(text, json_oracle, budget=Budget(max_tests=10_000))
    assert not result.stats.budget_exhausted
    assert result.valid


def test_ddmax_limitations_from_the_fsynth_paper(json_oracle: CallableOracle) -> None:
    # Table I / Section II: lexical ddmax loses the structure on these inputs.
    assert ddmax_text('{"ABCD":[*"1,2,3,4,5,6"]*}', json_oracle).text == "123456"
    loses_everything = ddmax_text("[ * ] +", json_oracle)
    assert loses_everything.text == "" and not loses_everything.valid


def test_complement_is_tried_at_every_granularity(json_oracle: CallableOracle) -> None:
    # The Debugging Book tries complements only at granularity 2 and keeps a bare
    # number here; the paper's recurrence keeps the object.
    text = '{"a": 1, "b": [1, 2, 3], "c": "x" ^ }'
    result = ddmax_text(text, json_oracle)
    assert result.text == '{"a": 1, "b": [1, 2, 3], "c": "x"  }'


def _single_culprit(size: int, culprit: int) -> tuple[Ranges, Meter]:
    meter = Meter()

    def test(ranges: Ranges) -> Outcome:
        meter.charge()
        inside = any(start <= culprit < end for start, end in ranges)
        return Outcome.FAIL if inside else Outcome.PASS

    return ddmax(size, test, meter=meter)[0], meter


@pytest.mark.parametrize("size", [8, 64, 1024, 4096])
def test_ddmax_best_case_is_logarithmic(size: int) -> None:
    kept, meter = _single_culprit(size, culprit=size // 3)
    assert count(kept) == size - 1
    assert meter.tests <= 2 * math.log2(size) + 2


def test_ddmax_worst_case_bound_holds_for_a_hostile_oracle() -> None:
    size = 24
    meter = Meter()

    def test(ranges: Ranges) -> Outcome:
        meter.charge()
        return Outcome.PASS if count(ranges) <= 1 else Outcome.FAIL

    kept, _ = ddmax(size, test, meter=meter)
    assert count(kept) == 1
    assert meter.tests <= size * size + 3 * size


def test_ddmin_finds_a_pair_of_culprits() -> None:
    meter = Meter()

    def test(ranges: Ranges) -> Outcome:
        meter.charge()
        members = {i for s, e in ranges for i in range(s, e)}
        return Outcome.FAIL if {3, 17} <= members else Outcome.PASS

    assert ddmin(40, test, meter=meter) == ((3, 4), (17, 18))


def test_ddmax_by_lines(json_oracle: CallableOracle) -> None:
    text = "[\n1,\n2 ?,\n3\n]\n"
    result = ddmax_text(text, json_oracle, unit="line")
    assert result.text == "[\n1,\n3\n]\n"
    assert [text[s:e] for s, e in result.removed] == ["2 ?,\n"]


def test_budget_exhaustion_returns_the_best_so_far(json_oracle: CallableOracle) -> None:
    text = '{"k": [' + ", ".join(str(i) for i in range(200)) + "] ** }"
    limited = ddmax_text(text, json_oracle, budget=Budget(max_tests=5))
    assert limited.stats.budget_exhausted
    assert limited.stats.tests == 5
    assert "test budget" in (limited.stats.stop_reason or "")
    full = ddmax_text(text, json_oracle)
    assert full.valid and not full.stats.budget_exhausted


def test_cancellation_is_polled() -> None:
    """Cancelled after the third oracle run: no fourth one starts."""
    calls = 0

    def slow_accept(text: str) -> object:
        nonlocal calls
        calls += 1
        raise ValueError("never valid")

    oracle = CallableOracle(slow_accept)
    budget = Budget(cancelled=lambda: calls >= 3)
    result = ddmax_text("x" * 100_000, oracle, budget=budget)
    assert calls == 3
    assert result.stats.budget_exhausted
    assert result.stats.stop_reason == "cancelled"
    assert not result.valid
