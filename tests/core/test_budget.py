"""Budgets: the arithmetic that splits them, and the meter that enforces them."""

from __future__ import annotations

import pytest

from inputmend.core.budget import (
    TIME_CAP_REACHED,
    Budget,
    BudgetExhausted,
    Cancelled,
    Meter,
    RunStats,
)


def test_what_is_left_after_a_step() -> None:
    budget = Budget(timeout_s=10.0, max_tests=100)
    left = budget.after(RunStats(tests=30, elapsed_s=4.0))
    assert (left.timeout_s, left.max_tests) == (6.0, 70)
    spent_more = budget.after(RunStats(tests=300, elapsed_s=40.0))
    assert (spent_more.timeout_s, spent_more.max_tests) == (0.0, 0)
    assert spent_more.used_up and not left.used_up
    assert Budget().after(RunStats(5, 1.0)) == Budget()


def test_shares() -> None:
    budget = Budget(timeout_s=10.0, max_tests=101)
    share = budget.share(0.6)
    assert (share.timeout_s, share.max_tests) == (6.0, 60)
    assert Budget().share(0.5) == Budget()
    fair = Budget(timeout_s=10.0, max_tests=3).fair_share(0.1)
    assert (fair.timeout_s, fair.max_tests) == (1.0, 1)  # a share of tests is never none
    assert Budget(max_tests=0).fair_share(0.5).max_tests == 0
    assert Budget().fair_share(0.1) == Budget()


def test_whether_a_budget_is_used_up() -> None:
    budget = Budget(timeout_s=2.0, max_tests=10)
    assert budget.exhausted_by(RunStats(9, 1.9)) is None
    assert budget.exhausted_by(RunStats(10, 0.1)) == "test budget of 10 oracle runs used up"
    capped = budget.exhausted_by(RunStats(0, 2.5))
    assert capped == TIME_CAP_REACHED and RunStats(0, 2.5, True, capped).time_capped
    assert not RunStats(10, 0.1, True, budget.exhausted_by(RunStats(10, 0.1))).time_capped
    assert Budget(cancelled=lambda: True).exhausted_by(RunStats(0, 0.0)) == "cancelled"
    assert Budget().exhausted_by(RunStats(10**6, 10**6)) is None


def test_arithmetic_keeps_the_cancellation() -> None:
    def stop() -> bool:
        return True

    budget = Budget(timeout_s=1.0, cancelled=stop)
    assert budget.after(RunStats(0, 0.5)).share(0.5).fair_share(0.5).cancelled is stop


def test_deadline_and_cancellation() -> None:
    meter = Meter(Budget(timeout_s=0.0))
    with pytest.raises(BudgetExhausted, match="time cap reached"):
        meter.poll()
    flag = {"stop": False}
    meter = Meter(Budget(cancelled=lambda: flag["stop"]))
    meter.poll()
    flag["stop"] = True
    with pytest.raises(Cancelled):
        meter.charge()
    assert meter.stop_reason == "cancelled"
    with pytest.raises(BudgetExhausted, match="cancelled"):
        meter.poll()  # once stopped, it stays stopped


def test_the_test_budget_and_the_stats_of_a_run() -> None:
    meter = Meter(Budget(max_tests=2))
    meter.charge()
    meter.charge()
    with pytest.raises(BudgetExhausted, match="test budget of 2"):
        meter.charge()
    stats = RunStats.of(meter)
    assert stats.tests == 2 and stats.budget_exhausted
    total = stats + RunStats(3, 1.0)
    assert total.tests == 5 and total.budget_exhausted and total.stop_reason == stats.stop_reason


def test_budgets_are_printable() -> None:
    assert Budget().describe() == "unlimited"
    assert Budget(timeout_s=2, max_tests=10).describe() == "at most 10 tests, time cap 2s"
    assert Budget(timeout_s=2).describe() == "timeout 2s"
