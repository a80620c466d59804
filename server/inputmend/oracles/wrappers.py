"""Oracles made of oracles: all of several, result cache, budget metering.

Algorithms never talk to a raw oracle.  They call :func:`metered`, which stacks
a cache on top of a meter; the meter charges every oracle run against the
:class:`~inputmend.core.budget.Budget` and raises
:class:`~inputmend.core.budget.BudgetExhausted` when it is used up, so the
algorithm can return the best result it has found so far.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import TypeVar

from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter
from inputmend.core.oracle import COMPLETE, Feedback, Oracle, Verdict
from inputmend.grammar.compiled import CompiledGrammar

T = TypeVar("T")


class AllOf:
    """Several oracles that must all accept; the first objection wins.

    Put the cheapest first: a grammar answers in microseconds and knows the
    parse boundary, so the external program only sees grammatical inputs.
    """

    def __init__(self, parts: Sequence[Oracle]) -> None:
        self.parts = list(parts)

    def check(self, text: str) -> Feedback:
        for part in self.parts:
            feedback = part.check(text)
            if feedback.verdict is not Verdict.COMPLETE:
                return feedback
        return COMPLETE

    def describe(self) -> str:
        return " and ".join(part.describe() for part in self.parts)

    def close(self) -> None:
        for part in self.parts:
            part.close()


class GuidedOracle:
    """An oracle (a program, a Python function) for files of a format that a
    bundled grammar describes: the grammar guides its repairs (hints, ranking)
    but never decides what is valid."""

    def __init__(self, inner: Oracle, grammar: str) -> None:
        self.inner = inner
        self.grammar_name = grammar

    @functools.cached_property
    def grammar(self) -> CompiledGrammar:
        return CompiledGrammar.load(self.grammar_name)

    def check(self, text: str) -> Feedback:
        return self.inner.check(text)

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()


class MeteredOracle:
    """Charges every check to a :class:`Meter`."""

    def __init__(self, inner: Oracle, meter: Meter) -> None:
        self.inner = inner
        self.meter = meter

    def check(self, text: str) -> Feedback:
        self.meter.charge()
        try:
            return self.inner.check(text)
        except BudgetExhausted as stop:  # the oracle's own stop hook (a job's)
            self.meter.stopped_by(stop)
            raise

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()


class CachedOracle:
    """Remembers answers by content, so repeated candidates cost no oracle run.

    Keys are ``(len, hash)`` of the text: Python caches a string's hash, so a
    lookup costs one pass over a new string and nothing for a known one, and
    the cache never keeps large candidate texts alive.
    """

    def __init__(self, inner: Oracle, max_entries: int = 500_000) -> None:
        self.inner = inner
        self.max_entries = max_entries
        self.hits = 0
        self._answers: dict[tuple[int, int], Feedback] = {}

    def check(self, text: str) -> Feedback:
        key = (len(text), hash(text))
        answer = self._answers.get(key)
        if answer is not None:
            self.hits += 1
            return answer
        answer = self.inner.check(text)
        if len(self._answers) >= self.max_entries:
            del self._answers[next(iter(self._answers))]
        self._answers[key] = answer
        return answer

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()


def metered(oracle: Oracle, budget: Budget = UNLIMITED) -> tuple[CachedOracle, Meter]:
    """Wrap ``oracle`` for one algorithm run: cache on top, meter underneath."""
    meter = Meter(budget)
    return CachedOracle(MeteredOracle(oracle, meter)), meter


def _inside(oracle: Oracle) -> Iterator[Oracle]:
    """``oracle``, then the oracles it is made of, depth first."""
    yield oracle
    parts = list(oracle.parts) if isinstance(oracle, AllOf) else []
    inner = getattr(oracle, "inner", None)
    for part in [*parts, *([inner] if inner is not None else [])]:
        yield from _inside(part)


def find_part(oracle: Oracle, kind: type[T]) -> T | None:
    """The first oracle of ``kind`` in ``oracle``, its parts or what it wraps
    (the grammar behind a combined, cached or metered oracle)."""
    return next((part for part in _inside(oracle) if isinstance(part, kind)), None)
