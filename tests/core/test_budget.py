"""Budgets: the arithmetic that splits them, and the meter that enforces them."""

from __future__ import annotations

import pytest

from inputmend.core.budget import Budget, BudgetExhausted, Cancelled, Meter, RunStats


def test_what_is_left_after_a_step() -> None:
    budget = Budget(timeout_s=10.0, max_tests=100)
    left = budget.after(RunStats(tests=30, elapsed_s=4.0))
    assert (left.timeout_s, left.max_tests) == (6.0, 70)
    spent_more = budget.after(RunStats(tests=300, elapsed_s=40.0))
    assert (spent_more.timeout_s, spent_more.max_tests) == (0.0, 0)
    assert spent_more.used_up and not left.used_up
    assert Budget().after(RunStats(5, 1.0)) == Budget()


def test_shares_and_caps() -> None:
    budget = Budget(timeout_s=10.0, max_tests=101)
    share = budget.share(0.6)
    assert (share.timeout_s, share.max_tests) == (6.0, 60)
    assert Budget().share(0.5) == Budget()
    capped = budget.capped(2.0, 500)
    assert (capped.timeout_s, capped.max_tests) == (2.0, 101)
    assert Budget().capped(2.0, 500) == Budget(timeout_s=2.0, max_tests=500)


def test_arithmetic_keeps_the_cancellation() -> None:
    def stop() -> bool:
        return True

    budget = Budget(timeout_s=1.0, cancelled=stop)
    assert budget.after(RunStats(0, 0.5)).share(0.5).capped(1, 1).cancelled is stop


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
    assert Budget(timeout_s=2, max_tests=10).describe() == "timeout 2s, at most 10 tests"
