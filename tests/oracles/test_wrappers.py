from __future__ import annotations

import pytest

from inputmend.oracles.wrappers import Budget, BudgetExhausted, Cancelled, Meter, metered
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


def test_deadline_and_cancellation() -> None:
    meter = Meter(Budget(timeout_s=0.0))
    with pytest.raises(BudgetExhausted, match="time budget"):
        meter.poll()
    flag = {"stop": False}
    meter = Meter(Budget(cancelled=lambda: flag["stop"]))
    meter.poll()
    flag["stop"] = True
    with pytest.raises(Cancelled):
        meter.charge()
    assert meter.stop_reason == "cancelled"


def test_budgets_are_printable() -> None:
    assert Budget().describe() == "unlimited"
    assert Budget(timeout_s=2, max_tests=10).describe() == "timeout 2s, at most 10 tests"
