"""High-level operations shared by the CLI and the language server.

Each takes a text and an oracle and returns a result dataclass; nothing here
prints, reads files or knows about editors.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from inputmend.algorithms.configurations import Ranges
from inputmend.algorithms.dd import dd_text
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.ddmin import ddmin_text
from inputmend.algorithms.ddset import ddset, produce
from inputmend.algorithms.ddset import verify as ddset_verify
from inputmend.algorithms.fsynth import (
    DEFAULT_ALPHABET,
    DELIMITERS,
    PUNCTUATION,
    FSynthOptions,
    fsynth,
)
from inputmend.algorithms.segmentation import Unit
from inputmend.algorithms.syntactic import hybrid_ddmax, syntactic_ddmax
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.recovery import recovery_units
from inputmend.oracles import AllOf
from inputmend.oracles.base import Feedback, Oracle, Outcome, Verdict
from inputmend.oracles.grammar import GrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.wrappers import UNLIMITED, Budget, BudgetExhausted, Meter
from inputmend.ranking import rank
from inputmend.results import (
    Diagnosis,
    Repair,
    RepairResult,
    RunStats,
    Span,
    distance,
    spans_to_edits,
)

REPAIR_ALGORITHMS: tuple[str, ...] = (
    "auto",
    "fsynth",
    "ddmax",
    "ddmax-syntactic",
    "ddmax-hybrid",
    "ddmax-lines",
)
EXPLAIN_ALGORITHMS: tuple[str, ...] = (
    "ddmax",
    "ddmax-syntactic",
    "ddmax-hybrid",
    "auto",
    "ddmin",
    "dd",
)


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

    def remaining(self, share: float = 1.0) -> Budget:
        """The budget left, or ``share`` of it."""
        timeout = self.budget.timeout_s
        if timeout is not None:
            timeout = share * max(0.0, timeout - (time.monotonic() - self.started))
        tests = self.budget.max_tests
        if tests is not None:
            tests = int(share * max(0, tests - self.tests))
        return replace(self.budget, timeout_s=timeout, max_tests=tests)


T = TypeVar("T")


def _find(oracle: Oracle, kind: type[T]) -> T | None:
    """The first oracle of ``kind`` in ``oracle``, its parts or what it wraps."""
    if isinstance(oracle, kind):
        return oracle
    parts = list(oracle.parts) if isinstance(oracle, AllOf) else []
    inner = getattr(oracle, "inner", None)
    for part in [*parts, *([inner] if inner is not None else [])]:
        found = _find(part, kind)
        if found is not None:
            return found
    return None


def grammar_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar behind an oracle, when there is one (for token-level work)."""
    found = _find(oracle, IncrementalGrammarOracle) or _find(oracle, GrammarOracle)
    return found.grammar if found is not None else None


Attempt = tuple[list[Repair], Repair | None, RunStats]  # repairs, partial repair, cost
Strategy = Callable[[str, Oracle, Budget], Attempt]


def _ddmax_repair(unit: Unit) -> Strategy:
    def run(text: str, oracle: Oracle, budget: Budget) -> Attempt:
        result = ddmax_text(text, oracle, unit=unit, budget=budget)
        repair = Repair(
            text=result.text,
            edits=spans_to_edits(_spans(result.removed)),
            algorithm="ddmax" if unit == "char" else "ddmax-lines",
            valid=result.valid,
            distance=distance(text, result.text),
        )
        return [repair], None, result.stats

    return run


def _token_ddmax(hybrid: bool) -> Strategy:
    def run(text: str, oracle: Oracle, budget: Budget) -> Attempt:
        grammar = grammar_of(oracle)
        if grammar is None:  # no grammar: fall back to characters
            return _ddmax_repair("char")(text, oracle, budget)
        maximize = hybrid_ddmax if hybrid else syntactic_ddmax
        meter = Meter(budget)
        try:
            units = recovery_units(grammar, text, stop=meter.poll)
        except BudgetExhausted:
            return [], None, RunStats.of(meter)
        result = maximize(text, oracle, tokens=units, budget=budget)
        return [result.to_repair()], None, result.stats

    return run


def _fsynth(text: str, oracle: Oracle, budget: Budget) -> Attempt:
    options = FSynthOptions()
    incremental = _incremental_grammar(oracle)
    if incremental is not None:
        # Only characters the grammar can accept at the boundary, one per class
        # of characters it treats alike: far fewer oracle runs for the same
        # repairs (up to which equivalent character is inserted).
        def alphabet(prefix: str) -> str:
            return incremental.continuations(prefix, DEFAULT_ALPHABET, distinct=True)

        def reach_alphabet(prefix: str) -> str:
            return incremental.continuations(prefix, PUNCTUATION, distinct=True)

        def reach(text: str, boundary: int) -> int | None:
            return incremental.last_token_start(text[:boundary])

        options = replace(options, alphabet=alphabet, reach=reach, reach_alphabet=reach_alphabet)
    else:
        # No tokens to go by: reach back the most FSynth allows, for the best
        # thread of each level, with the common delimiters only (each try is
        # a program run).
        options = replace(
            options, reach=lambda text, boundary: 0, reach_alphabet=DELIMITERS, reach_threads=1
        )
    result = fsynth(text, oracle, budget=budget, options=options)
    return list(result.repairs), result.partial, result.stats


def _incremental_grammar(oracle: Oracle) -> IncrementalGrammarOracle | None:
    return _find(oracle, IncrementalGrammarOracle)


_STRATEGIES: dict[str, tuple[tuple[Strategy, float], ...]] = {
    # (strategy, share of the remaining budget it may use)
    "fsynth": ((_fsynth, 1.0),),
    "ddmax": ((_ddmax_repair("char"), 1.0),),
    "ddmax-lines": ((_ddmax_repair("line"), 1.0),),
    "ddmax-syntactic": ((_token_ddmax(hybrid=False), 1.0),),
    "ddmax-hybrid": ((_token_ddmax(hybrid=True), 1.0),),
    "auto": ((_fsynth, 0.6), (_token_ddmax(hybrid=True), 1.0)),
}


def _at_most(budget: Budget, seconds: float, tests: int) -> Budget:
    timeout = seconds if budget.timeout_s is None else min(budget.timeout_s, seconds)
    limit = tests if budget.max_tests is None else min(budget.max_tests, tests)
    return replace(budget, timeout_s=timeout, max_tests=limit)


def gives_prefix_feedback(oracle: Oracle) -> bool:
    """Can the oracle tell incomplete from incorrect (what FSynth needs)?

    The empty input is a prefix of every input: an oracle that calls it
    incorrect cannot report incomplete prefixes."""
    return oracle.check("").verdict is not Verdict.INCORRECT


def repair(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "auto",
    budget: Budget = UNLIMITED,
    top: int = 5,
) -> RepairResult:
    """Ranked, verified repairs of ``text`` (none when it is already valid).

    ``auto`` runs FSynth and then hybrid ddmax (syntactic ddmax with a
    grammar, lexical inside the faulty tokens; lexical ddmax without one),
    sharing the budget, and merges their repairs.  When no complete repair
    is found, ``partial`` holds FSynth's best partial result.
    """
    if algorithm not in _STRATEGIES:
        raise ValueError(f"unknown repair algorithm {algorithm!r}")
    started = time.monotonic()
    if oracle.check(text).valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    deadline = _Deadline(budget)
    found: list[Repair] = []
    partial: Repair | None = None
    stats = RunStats(1, 0.0)
    strategies = _STRATEGIES[algorithm]
    notes: list[str] = []
    if algorithm == "auto" and not gives_prefix_feedback(oracle):
        strategies = strategies[1:]
        notes.append("FSynth skipped: the oracle does not report incomplete inputs")
    for strategy, share in strategies:
        remaining = deadline.remaining(share)
        if found and algorithm == "auto":
            # A repair is in hand: alternatives may cost a quarter as much again.
            remaining = _at_most(
                remaining, max(0.02, stats.elapsed_s / 4), max(100, stats.tests // 4)
            )
        if remaining.timeout_s == 0 or remaining.max_tests == 0:
            stats = replace(stats, budget_exhausted=True, stop_reason="budget used up")
            break
        candidates, partial_candidate, cost = strategy(text, oracle, remaining)
        deadline.tests += cost.tests
        stats = stats + cost
        found.extend(candidates)
        partial = partial or partial_candidate
    verified = [r for r in found if r.valid and _verify(oracle, r.text)]
    stats = replace(stats, elapsed_s=time.monotonic() - started)
    if not text:
        notes.append("the input is empty")
    if not verified:
        notes.append("no repair that the oracle accepts was found")
        if partial is not None:
            notes.append(
                "partial repair (incomplete): the start of the input is repaired up to the "
                "first point where no repair was found; the rest is unchanged"
            )
    return RepairResult(False, rank(text, verified, top), stats, tuple(notes), partial=partial)


def _verify(oracle: Oracle, text: str) -> bool:
    """Every offered repair is checked by the whole configured oracle."""
    try:
        return oracle.check(text).valid
    except Exception:  # noqa: BLE001 - an oracle failure means "not verified"
        return False


def explain(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "ddmax",
    budget: Budget = UNLIMITED,
    unit: Unit = "char",
) -> Diagnosis:
    """Failure-inducing spans of a rejected text."""
    if algorithm == "auto":
        algorithm = "ddmax-hybrid" if grammar_of(oracle) is not None else "ddmax"
    if algorithm == "ddmax":
        maximized = ddmax_text(text, oracle, unit=unit, budget=budget)
        return Diagnosis(
            "ddmax", _spans(maximized.removed), maximized.stats, passing=maximized.text
        )
    if algorithm in ("ddmax-syntactic", "ddmax-hybrid"):
        grammar = grammar_of(oracle)
        if grammar is None:
            raise ValueError(f"{algorithm} needs a grammar oracle")
        maximize = hybrid_ddmax if algorithm == "ddmax-hybrid" else syntactic_ddmax
        meter = Meter(budget)
        try:
            units = recovery_units(grammar, text, stop=meter.poll)
        except BudgetExhausted:
            return Diagnosis(algorithm, (), RunStats.of(meter))
        result = maximize(text, oracle, tokens=units, budget=budget)
        return Diagnosis(algorithm, _spans(result.removed), result.stats, passing=result.text)
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


@dataclass(frozen=True)
class Abstraction:
    """DDSET's abstract failure-inducing input, ready to show."""

    pattern: str
    reduced: str
    tree: str
    instances: tuple[str, ...]
    verification: tuple[int, int, int] | None  # failing, total resolved, unresolved
    stats: RunStats
    notes: tuple[str, ...] = ()


def abstract(
    text: str,
    grammar: CompiledGrammar,
    predicate: Callable[[str], Outcome],
    *,
    seed: int = 0,
    budget: Budget = UNLIMITED,
    instances: int = 5,
    verify: int = 0,
) -> Abstraction:
    """Explain why ``predicate`` fails on ``text`` as an abstract pattern (DDSET).

    Raises ``ValueError`` when the input does not fail or the grammar cannot
    parse it.
    """
    result = ddset(text, grammar, predicate, seed=seed, budget=budget)
    produced = tuple(produce(result, instances, seed)) if instances else ()
    checked = None
    if verify:
        outcome = ddset_verify(result, grammar, predicate, verify, seed)
        checked = (outcome.failing, outcome.total, outcome.unresolved)
    return Abstraction(
        pattern=result.pattern,
        reduced=result.reduced,
        tree=str(result.tree),
        instances=produced,
        verification=checked,
        stats=result.stats,
        notes=result.notes,
    )
