"""High-level operations shared by the CLI and the language server.

Each takes a text and an oracle and returns a result dataclass; nothing here
prints, reads files or knows about editors.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from inputmend.algorithms.configurations import Ranges
from inputmend.algorithms.dd import dd_text
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.ddmin import ddmin_text
from inputmend.algorithms.segmentation import Unit
from inputmend.oracles.base import Feedback, Oracle
from inputmend.oracles.wrappers import UNLIMITED, Budget
from inputmend.results import (
    Diagnosis,
    Repair,
    RepairResult,
    RunStats,
    Span,
    distance,
    spans_to_edits,
)

RepairAlgorithm = Literal["auto", "ddmax", "ddmax-lines"]
ExplainAlgorithm = Literal["ddmax", "ddmin", "dd"]
REPAIR_ALGORITHMS: tuple[str, ...] = ("auto", "ddmax", "ddmax-lines")
EXPLAIN_ALGORITHMS: tuple[str, ...] = ("ddmax", "ddmin", "dd")


def check(text: str, oracle: Oracle) -> Feedback:
    return oracle.check(text)


def _spans(ranges: Ranges) -> tuple[Span, ...]:
    return tuple(Span(start, end) for start, end in ranges)


class _Deadline:
    """Splits one run budget among several strategies run one after another."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = time.monotonic()
        self.tests = 0

    def remaining(self) -> Budget:
        timeout = self.budget.timeout_s
        if timeout is not None:
            timeout = max(0.0, timeout - (time.monotonic() - self.started))
        tests = self.budget.max_tests
        if tests is not None:
            tests = max(0, tests - self.tests)
        return replace(self.budget, timeout_s=timeout, max_tests=tests)


def _ddmax_repair(text: str, oracle: Oracle, unit: Unit, budget: Budget) -> tuple[Repair, RunStats]:
    result = ddmax_text(text, oracle, unit=unit, budget=budget)
    edits = spans_to_edits(_spans(result.removed))
    name = "ddmax" if unit == "char" else "ddmax-lines"
    repair = Repair(
        text=result.text,
        edits=edits,
        algorithm=name,
        valid=result.valid,
        distance=distance(text, result.text),
    )
    return repair, result.stats


_STRATEGIES: dict[str, tuple[Callable[[str, Oracle, Budget], tuple[Repair, RunStats]], ...]] = {
    "ddmax": (lambda t, o, b: _ddmax_repair(t, o, "char", b),),
    "ddmax-lines": (lambda t, o, b: _ddmax_repair(t, o, "line", b),),
    "auto": (
        lambda t, o, b: _ddmax_repair(t, o, "line", b),
        lambda t, o, b: _ddmax_repair(t, o, "char", b),
    ),
}


def rank(repairs: list[Repair], top: int) -> tuple[Repair, ...]:
    """Fewest edits first, then least data lost; no duplicates."""
    seen: set[str] = set()
    unique = []
    ordered = sorted(
        repairs,
        key=lambda r: (r.distance, sum(e.delete for e in r.edits), len(r.edits)),
    )
    for repair in ordered:
        if repair.text in seen:
            continue
        seen.add(repair.text)
        unique.append(repair)
    return tuple(unique[:top])


def repair(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "auto",
    budget: Budget = UNLIMITED,
    top: int = 5,
) -> RepairResult:
    """Ranked repairs of ``text``; an empty tuple when the input is already valid."""
    if algorithm not in _STRATEGIES:
        raise ValueError(f"unknown repair algorithm {algorithm!r}")
    started = time.monotonic()
    initial = oracle.check(text)
    if initial.valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    deadline = _Deadline(budget)
    found: list[Repair] = []
    stats = RunStats(1, 0.0)
    for strategy in _STRATEGIES[algorithm]:
        remaining = deadline.remaining()
        if remaining.timeout_s == 0 or remaining.max_tests == 0:
            stats = replace(stats, budget_exhausted=True, stop_reason="budget used up")
            break
        candidate, cost = strategy(text, oracle, remaining)
        deadline.tests += cost.tests
        stats = stats + cost
        if candidate.valid:
            found.append(candidate)
    stats = replace(stats, elapsed_s=time.monotonic() - started)
    notes: list[str] = []
    if not text:
        notes.append("the input is empty")
    if not found:
        notes.append("no repair that the oracle accepts was found")
    return RepairResult(False, rank(found, top), stats, tuple(notes))


def explain(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "ddmax",
    budget: Budget = UNLIMITED,
    unit: Unit = "char",
) -> Diagnosis:
    """Failure-inducing spans of a rejected text."""
    if algorithm == "ddmax":
        maximized = ddmax_text(text, oracle, unit=unit, budget=budget)
        return Diagnosis(
            "ddmax", _spans(maximized.removed), maximized.stats, passing=maximized.text
        )
    if algorithm == "ddmin":
        minimized = ddmin_text(text, oracle, unit=unit, budget=budget)
        return Diagnosis("ddmin", _spans(minimized.kept), minimized.stats, failing=minimized.text)
    if algorithm == "dd":
        isolated = dd_text(text, oracle, unit=unit, budget=budget)
        notes = []
        if isolated.started_from_ddmax:
            notes.append("the empty input is rejected, so dd started from ddmax's passing subset")
        if not isolated.found_passing:
            notes.append("no passing variant was found")
        return Diagnosis(
            "dd",
            _spans(isolated.difference),
            isolated.stats,
            passing=isolated.passing,
            failing=isolated.failing,
            notes=tuple(notes),
        )
    raise ValueError(f"unknown explain algorithm {algorithm!r}")
