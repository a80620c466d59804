"""Repair, explain and abstract a text: the operations the CLI, the language
server and library users call, and the registry of their algorithms.

Each operation takes a text and an oracle (or a grammar and a predicate) and
returns a model value (:mod:`inputmend.core.model`); nothing here prints,
reads files or knows about editors.  :data:`REPAIR_ALGORITHMS` and
:data:`EXPLAIN_ALGORITHMS` name every algorithm once: the CLI offers their
names, the language server's settings accept them, and the README's tables
are tested against them.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

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
from inputmend.algorithms.hints import guidance, hint_repairs
from inputmend.algorithms.ranking import rank
from inputmend.algorithms.segmentation import Unit
from inputmend.algorithms.syntactic import (
    TokenMaximized,
    hybrid_ddmax,
    syntactic_ddmax,
)
from inputmend.config import defaults
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.model import (
    Abstraction,
    Diagnosis,
    Repair,
    RepairResult,
    Span,
    distance,
    spans_to_edits,
)
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import NO_HINTS
from inputmend.grammar.lexer import lex_typed
from inputmend.grammar.recovery import recovery_units
from inputmend.oracles.base import Oracle, Predicate, Verdict
from inputmend.oracles.grammar import GrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.wrappers import GuidedOracle, find_part


def _spans(ranges: Ranges) -> tuple[Span, ...]:
    return tuple(Span(start, end) for start, end in ranges)


def grammar_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar behind an oracle, when there is one (for token-level work)."""
    found = find_part(oracle, IncrementalGrammarOracle) or find_part(oracle, GrammarOracle)
    return found.grammar if found is not None else None


def guide_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar that reads the oracle's inputs: its own, or the bundled one
    its files are named for (hints and ranking; a program still decides)."""
    guided = find_part(oracle, GuidedOracle)
    return grammar_of(oracle) or (guided.grammar if guided is not None else None)


def _locator(oracle: Oracle, grammar: CompiledGrammar) -> IncrementalGrammarOracle:
    found = find_part(oracle, IncrementalGrammarOracle)
    return found if found is not None else IncrementalGrammarOracle(grammar)


def lexer_of(oracle: Oracle) -> Callable[[str], Sequence[tuple[str | None, int, int]]] | None:
    """The grammar's error-tolerant lexer (for describing repairs in tokens);
    None when the oracle has no grammar."""
    grammar = grammar_of(oracle)
    return None if grammar is None else functools.partial(lex_typed, grammar)


def rank_repairs(
    text: str, repairs: Iterable[Repair], top: int, *, oracle: Oracle | None = None
) -> tuple[Repair, ...]:
    """Repairs of ``text`` ranked together as :func:`repair` ranks them, read
    with the grammar that guides ``oracle`` and its hints (of equal ones, the
    one given first stays first)."""
    grammar = guide_of(oracle) if oracle is not None else None
    return rank(text, repairs, top, lexer=guidance(grammar).lexer)


def gives_prefix_feedback(oracle: Oracle) -> bool:
    """Can the oracle tell incomplete from incorrect (what FSynth needs)?

    The empty input is a prefix of every input: an oracle that calls it
    incorrect cannot report incomplete prefixes."""
    return oracle.check("").verdict is not Verdict.INCORRECT


# ------------------------------------------------------------- token ddmax
def _token_ddmax(
    text: str, oracle: Oracle, grammar: CompiledGrammar, budget: Budget, *, hybrid: bool
) -> TokenMaximized | RunStats:
    """Syntactic (or hybrid) ddmax over the units error recovery sees; what
    finding the units cost when the budget ran out first."""
    meter = Meter(budget)
    try:
        units = recovery_units(grammar, text, stop=meter.poll)
    except BudgetExhausted:
        return RunStats.of(meter)
    maximize = hybrid_ddmax if hybrid else syntactic_ddmax
    return maximize(text, oracle, tokens=units, budget=budget)


# ---------------------------------------------------------------- repairs
Attempt = tuple[list[Repair], Repair | None, RunStats]
"""What one step of a repair found: repairs, a partial repair, its cost."""
RepairStep = Callable[[str, Oracle, Budget], Attempt]


def _lexical_step(unit: Unit) -> RepairStep:
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


def _token_step(*, hybrid: bool) -> RepairStep:
    def run(text: str, oracle: Oracle, budget: Budget) -> Attempt:
        grammar = grammar_of(oracle)
        if grammar is None:  # no grammar: fall back to characters
            return _lexical_step("char")(text, oracle, budget)
        result = _token_ddmax(text, oracle, grammar, budget, hybrid=hybrid)
        if isinstance(result, RunStats):
            return [], None, result
        return [result.to_repair()], None, result.stats

    return run


def _fsynth_step(text: str, oracle: Oracle, budget: Budget) -> Attempt:
    options = FSynthOptions()
    incremental = find_part(oracle, IncrementalGrammarOracle)
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


def _hints_step(text: str, oracle: Oracle, budget: Budget) -> Attempt:
    """The grammar's hints propose, the oracle decides (FSynth finishes)."""
    grammar = guide_of(oracle)
    hints = guidance(grammar).hints
    if grammar is None or hints is NO_HINTS:
        return [], None, RunStats(0, 0.0)

    def finish(rest: str, left: Budget) -> tuple[list[Repair], RunStats]:
        repairs, _, cost = _fsynth_step(rest, oracle, left)
        return repairs, cost

    locator = _locator(oracle, grammar)
    found = hint_repairs(text, oracle, hints=hints, locator=locator, budget=budget, finish=finish)
    return list(found.repairs), None, found.stats


@dataclass(frozen=True)
class RepairAlgorithm:
    """A repair algorithm: its steps, each with the share of the remaining
    budget it may use, run one after another and their repairs merged."""

    name: str
    summary: str
    steps: tuple[tuple[RepairStep, float], ...]


REPAIR_ALGORITHMS: dict[str, RepairAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        RepairAlgorithm(
            "auto",
            "the grammar's hints, FSynth, then hybrid ddmax; their repairs ranked together",
            ((_hints_step, 0.3), (_fsynth_step, 0.6), (_token_step(hybrid=True), 1.0)),
        ),
        RepairAlgorithm("fsynth", "FSynth: edits at the parse boundary", ((_fsynth_step, 1.0),)),
        RepairAlgorithm(
            "ddmax", "lexical ddmax: delete characters", ((_lexical_step("char"), 1.0),)
        ),
        RepairAlgorithm(
            "ddmax-syntactic",
            "ddmax over the grammar's tokens",
            ((_token_step(hybrid=False), 1.0),),
        ),
        RepairAlgorithm(
            "ddmax-hybrid",
            "syntactic ddmax, then lexical ddmax inside the removed tokens",
            ((_token_step(hybrid=True), 1.0),),
        ),
        RepairAlgorithm(
            "ddmax-lines", "ddmax over whole lines", ((_lexical_step("line"), 1.0),)
        ),
    )
}


def repair(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "auto",
    budget: Budget = UNLIMITED,
    top: int = defaults.TOP_REPAIRS,
) -> RepairResult:
    """Ranked, verified repairs of ``text`` (none when it is already valid).

    ``auto`` runs FSynth and then hybrid ddmax (syntactic ddmax with a
    grammar, lexical inside the faulty tokens; lexical ddmax without one),
    sharing the budget, and merges their repairs.  When no complete repair
    is found, ``partial`` holds FSynth's best partial result.
    """
    chosen = REPAIR_ALGORITHMS.get(algorithm)
    if chosen is None:
        raise ValueError(f"unknown repair algorithm {algorithm!r}")
    started = time.monotonic()
    if oracle.check(text).valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    found: list[Repair] = []
    partial: Repair | None = None
    stats = RunStats(1, 0.0)
    spent = RunStats(0, 0.0)
    steps = chosen.steps
    notes: list[str] = []
    if algorithm == "auto" and not gives_prefix_feedback(oracle):
        steps = steps[1:]
        notes.append("FSynth skipped: the oracle does not report incomplete inputs")
    for step, share in steps:
        remaining = budget.after(replace(spent, elapsed_s=time.monotonic() - started))
        remaining = remaining.share(share)
        if found and algorithm == "auto":
            # A repair is in hand: alternatives may cost a quarter as much again.
            remaining = remaining.capped(max(0.02, stats.elapsed_s / 4), max(100, stats.tests // 4))
        if remaining.used_up:
            stats = replace(stats, budget_exhausted=True, stop_reason="budget used up")
            break
        candidates, partial_candidate, cost = step(text, oracle, remaining)
        spent = replace(spent, tests=spent.tests + cost.tests)
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
    ranked = _ranked(text, oracle, verified, top, notes)
    return RepairResult(False, ranked, stats, tuple(notes), partial=partial)


def _ranked(
    text: str, oracle: Oracle, repairs: list[Repair], top: int, notes: list[str]
) -> tuple[Repair, ...]:
    """The repairs ranked by what they do to the data, read with the grammar
    that guides the oracle (and its hints) when there is one."""
    grammar = guide_of(oracle)
    guide = guidance(grammar)
    if guide.problem is not None:
        notes.append(guide.problem)
    if grammar is None:
        return rank(text, repairs, top, lexer=guide.lexer)
    locator = _locator(oracle, grammar)

    def token_start(offset: int) -> int | None:
        return locator.last_token_start(text[:offset])

    return rank(text, repairs, top, lexer=guide.lexer, token_start=token_start)


def _verify(oracle: Oracle, text: str) -> bool:
    """Every offered repair is checked by the whole configured oracle."""
    try:
        return oracle.check(text).valid
    except Exception:  # noqa: BLE001 - an oracle failure means "not verified"
        return False


# -------------------------------------------------------------- diagnoses
Explainer = Callable[[str, Oracle, Budget, Unit], Diagnosis]


def _explain_ddmax(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    maximized = ddmax_text(text, oracle, unit=unit, budget=budget)
    return Diagnosis("ddmax", _spans(maximized.removed), maximized.stats, passing=maximized.text)


def _explain_tokens(*, hybrid: bool) -> Explainer:
    name = "ddmax-hybrid" if hybrid else "ddmax-syntactic"

    def run(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
        grammar = grammar_of(oracle)
        if grammar is None:
            raise ValueError(f"{name} needs a grammar oracle")
        result = _token_ddmax(text, oracle, grammar, budget, hybrid=hybrid)
        if isinstance(result, RunStats):
            return Diagnosis(name, (), result)
        return Diagnosis(name, _spans(result.removed), result.stats, passing=result.text)

    return run


def _explain_auto(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    chosen = "ddmax-hybrid" if grammar_of(oracle) is not None else "ddmax"
    return EXPLAIN_ALGORITHMS[chosen].run(text, oracle, budget, unit)


def _explain_ddmin(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    minimized = ddmin_text(text, oracle, unit=unit, budget=budget)
    return Diagnosis("ddmin", _spans(minimized.kept), minimized.stats, failing=minimized.text)


def _explain_dd(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
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


@dataclass(frozen=True)
class ExplainAlgorithm:
    """An algorithm that finds the failure-inducing parts of a rejected text."""

    name: str
    summary: str
    run: Explainer


EXPLAIN_ALGORITHMS: dict[str, ExplainAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        ExplainAlgorithm(
            "ddmax", "the spans whose removal makes the input valid", _explain_ddmax
        ),
        ExplainAlgorithm(
            "ddmax-syntactic", "ddmax over the grammar's tokens", _explain_tokens(hybrid=False)
        ),
        ExplainAlgorithm(
            "ddmax-hybrid",
            "token ddmax, then character ddmax inside the removed tokens",
            _explain_tokens(hybrid=True),
        ),
        ExplainAlgorithm(
            "auto", "ddmax-hybrid with a grammar, ddmax otherwise", _explain_auto
        ),
        ExplainAlgorithm("ddmin", "a 1-minimal subset that is still rejected", _explain_ddmin),
        ExplainAlgorithm(
            "dd", "a 1-minimal difference between a passing and a failing variant", _explain_dd
        ),
    )
}


def explain(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "ddmax",
    budget: Budget = UNLIMITED,
    unit: Unit = "char",
) -> Diagnosis:
    """Failure-inducing spans of a rejected text."""
    chosen = EXPLAIN_ALGORITHMS.get(algorithm)
    if chosen is None:
        raise ValueError(f"unknown explain algorithm {algorithm!r}")
    return chosen.run(text, oracle, budget, unit)


# ------------------------------------------------------------ abstraction
def abstract(
    text: str,
    grammar: CompiledGrammar,
    predicate: Predicate,
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
