from __future__ import annotations

import pytest

from inputmend.core.budget import Budget, BudgetExhausted, Cancelled
from inputmend.core.oracle import Verdict
from inputmend.oracles.python import CallableOracle
from inputmend.oracles.wrappers import AllOf, CachedOracle, MeteredOracle, find_part, metered
from tests.conftest import CountingOracle


def test_cache_answers_repeated_texts_without_running_the_oracle() -> None:
    inner = CountingOracle(lambda text: text == "ok")
    oracle, meter = metered(inner)
    for _ in range(3):
        assert oracle.check("ok").valid
        assert not oracle.check("bad").valid
    assert inner.seen == ["ok", "bad"]
    assert meter.tests == 2
    assert oracle.hits == 4


def test_test_budget() -> None:
    oracle, meter = metered(CountingOracle(lambda text: True), Budget(max_tests=2))
    oracle.check("a")
    oracle.check("b")
    oracle.check("a")  # cached: free
    with pytest.raises(BudgetExhausted, match="test budget of 2"):
        oracle.check("c")
    assert meter.exhausted


def test_a_stop_inside_the_oracle_is_the_runs_stop_reason() -> None:
    def stopping(text: str) -> bool:
        raise Cancelled("cancelled")  # the oracle's own stop hook, e.g. a job's flag

    oracle, meter = metered(CountingOracle(stopping))
    with pytest.raises(Cancelled):
        oracle.check("a")
    assert meter.stop_reason == "cancelled"


def test_all_of_asks_in_order_and_the_first_objection_wins() -> None:
    short = CountingOracle(lambda text: len(text) < 5)
    digits = CountingOracle(lambda text: text.isdigit())
    both = AllOf([short, digits])
    assert both.check("123").valid
    assert both.check("123456").verdict is Verdict.INCORRECT
    assert digits.seen == ["123"], "a rejected text never reaches the later parts"
    assert both.describe() == "toy and toy"


def test_parts_are_found_inside_combined_and_wrapped_oracles() -> None:
    python = CallableOracle(int, name="int")
    toy = CountingOracle(lambda text: True)
    wrapped, _ = metered(AllOf([toy, python]))
    assert isinstance(wrapped, CachedOracle) and isinstance(wrapped.inner, MeteredOracle)
    assert find_part(wrapped, CallableOracle) is python
    assert find_part(wrapped, CountingOracle) is toy
    assert find_part(toy, CallableOracle) is None
