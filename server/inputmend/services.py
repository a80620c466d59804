"""Repair, explain and abstract a text: the operations the CLI, the language
server and library users call, and the registry of their algorithms.

Each operation takes a text and an oracle (or a grammar and a predicate) and
returns a model value (:mod:`inputmend.core.model`); nothing here prints,
reads files or knows about editors.  :data:`REPAIR_ALGORITHMS` and
:data:`EXPLAIN_ALGORITHMS` name every algorithm once: the CLI offers their
names, the language server's settings accept them, and docs/cli.md's tables
are tested against them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from inputmend.algorithms.conflicts import ALGORITHM as CONFLICT_ALGORITHM
from inputmend.algorithms.dd import dd_text
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.ddmin import ddmin_text
from inputmend.algorithms.ddset import ddset, produce
from inputmend.algorithms.ddset import verify as ddset_verify
from inputmend.algorithms.hints import Guidance, guidance
from inputmend.algorithms.judgement import Judge
from inputmend.algorithms.layout_window import windowed_agreement
from inputmend.algorithms.polish import (
    closer_before_separator,
    closer_on_its_line,
    closers_on_lines,
    final_break_kept,
    opener_at_line_end,
    polish_layout,
    spaced_as_the_input,
    without_doubled_blanks,
    without_emptied_lines,
)
from inputmend.algorithms.ranking import rank
from inputmend.algorithms.segmentation import Unit
from inputmend.config import defaults
from inputmend.core.budget import UNLIMITED, Budget, RunStats
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.model import Abstraction, Diagnosis, Repair, RepairResult
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.syntax import Brackets, syntax_of
from inputmend.oracles.base import Oracle, Predicate, Verdict
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repair.context import (
    context_of,
    grammar_of,
    guide_of,
    lexer_of,
    locator_of,
    token_starts,
    verify,
)
from inputmend.repair.generators import GENERATORS, Generator
from inputmend.repair.generators.base import always
from inputmend.repair.generators.completion import COMPLETION
from inputmend.repair.generators.ddmax import (
    DDMAX,
    DDMAX_LINES,
    DDMAX_SYNTACTIC,
    HYBRID,
    spans,
    token_ddmax,
)
from inputmend.repair.generators.fsynth import FSYNTH

__all__ = ["grammar_of", "guide_of", "lexer_of"]


def rank_repairs(
    text: str,
    repairs: Iterable[Repair],
    top: int,
    *,
    oracle: Oracle | None = None,
    max_loss: LossLimit = DEFAULT_LIMIT,
) -> tuple[Repair, ...]:
    """Repairs of ``text`` ranked together as :func:`repair` ranks them for
    ``oracle`` (of equal ones, the one given first stays first), each with
    what it does to the data and marked lossy when it loses more than
    ``max_loss`` allows."""
    grammar = None if oracle is None else guide_of(oracle)
    brackets = None if grammar is None else syntax_of(grammar).brackets
    locator = None if oracle is None or grammar is None else locator_of(oracle, grammar)
    return _rank(text, repairs, top, locator, guidance(grammar), brackets, max_loss, [])


def _rank(
    text: str,
    repairs: Iterable[Repair],
    top: int,
    locator: IncrementalGrammarOracle | None,
    guide: Guidance,
    brackets: Brackets | None,
    max_loss: LossLimit,
    notes: list[str],
    judge: Judge | None = None,
) -> tuple[Repair, ...]:
    """The repairs ranked by what they do to the data, read with ``grammar``
    (the one that guides the oracle) and its hints (``guide``) when there is
    one, and by how well their brackets follow the indentation (``judge``:
    one made for the text before, see :func:`~inputmend.repair.context.context_of`)."""
    if guide.problem is not None:
        notes.append(guide.problem)
    repairs = list(repairs)
    layout = None if brackets is None else windowed_agreement(text, repairs, brackets)
    ranked = rank(
        text,
        repairs,
        len(repairs),
        lexer=guide.lexer,
        token_start=token_starts(text, locator),
        layout=layout,
        limit=max_loss,
        judge=judge,
    )
    return _semantics_first(ranked, top, locator)


def _semantics_first(
    ranked: tuple[Repair, ...], top: int, locator: IncrementalGrammarOracle | None
) -> tuple[Repair, ...]:
    """The ``top`` first of ``ranked``, those that the format's rules beyond
    its syntax reject (a TOML table declared twice, by ``tomllib``) after
    the others: ``[[servers]`` after a ``[[servers]]`` is closed, not made a
    table of the same name."""
    if locator is None or locator.grammar.info.semantics is None:
        return ranked[:top]
    accepted: list[Repair] = []
    rejected: list[Repair] = []
    for repair in ranked:
        if len(accepted) == top:
            break
        feedback = locator.check_semantics(repair.text)
        (accepted if feedback is None or feedback.valid else rejected).append(repair)
    return (*accepted, *rejected)[:top]


def gives_prefix_feedback(oracle: Oracle) -> bool:
    """Can the oracle tell incomplete from incorrect (what FSynth needs)?

    The empty input is a prefix of every input: an oracle that calls it
    incorrect cannot report incomplete prefixes."""
    return oracle.check("").verdict is not Verdict.INCORRECT


# ---------------------------------------------------------------- repairs
@dataclass(frozen=True)
class RepairAlgorithm:
    """A repair algorithm: a named selection of generators, run one after
    another, their repairs merged and ranked together."""

    name: str
    summary: str
    generators: tuple[Generator, ...]


REPAIR_ALGORITHMS: dict[str, RepairAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        RepairAlgorithm(
            "auto",
            "a side of each merge conflict, re-reading undecodable bytes, completion, the "
            "grammar's hints, layout, FSynth, then hybrid ddmax; their repairs ranked together",
            GENERATORS,
        ),
        RepairAlgorithm(
            "completion",
            "append what a valid prefix lacks (for an incorrect input: complete the part "
            "before the error, drop the rest)",
            (COMPLETION,),
        ),
        RepairAlgorithm(
            "fsynth", "FSynth: edits at the parse boundary", (replace(FSYNTH, wanted=always),)
        ),
        RepairAlgorithm("ddmax", "lexical ddmax: delete characters", (DDMAX,)),
        RepairAlgorithm(
            "ddmax-syntactic",
            "ddmax over the grammar's tokens",
            (DDMAX_SYNTACTIC,),
        ),
        RepairAlgorithm(
            "ddmax-hybrid",
            "syntactic ddmax, then lexical ddmax inside the removed tokens",
            (replace(HYBRID, wanted=always),),
        ),
        RepairAlgorithm("ddmax-lines", "ddmax over whole lines", (DDMAX_LINES,)),
    )
}


def repair(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "auto",
    budget: Budget = UNLIMITED,
    top: int = defaults.TOP_REPAIRS,
    max_loss: LossLimit = DEFAULT_LIMIT,
    spent_s: float = 0.0,
) -> RepairResult:
    """Ranked, verified repairs of ``text`` (none when it is already valid),
    each marked lossy when it loses more of ``text`` than ``max_loss`` allows.
    ``spent_s``: seconds the caller already spent on this input under the
    same budget (checking it first), counted against its time limit.

    The generators of the algorithm run one after another on one budget:
    each gets its weight's part of what is left when it starts (its weight
    over the sum of its own and the later generators' weights), so what one
    leaves unused goes to the next, and the last gets all that is left.
    ``auto`` runs the re-reading of undecodable bytes, completion, the
    grammar's hints (with a program's oracle: those of the bundled grammar
    its files are named for), the layout-guided bracket edits, FSynth
    (skipped when the oracle cannot tell incomplete inputs from incorrect
    ones), then hybrid ddmax (syntactic ddmax with a grammar, lexical inside
    the faulty tokens; lexical ddmax without one), and merges their repairs;
    an incomplete input that completion finishes gets no search (FSynth,
    ddmax) after it, and the hints only near its end (anywhere before it
    when the input ends in a string run on over lines).  When no complete
    repair is found, ``partial`` holds
    FSynth's best partial result.  The result is
    marked as stopped early only when the whole budget ran out.
    """
    chosen = REPAIR_ALGORITHMS.get(algorithm)
    if chosen is None:
        raise ValueError(f"unknown repair algorithm {algorithm!r}")
    started = time.monotonic() - spent_s
    feedback = oracle.check(text)
    if feedback.valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    context = context_of(text, oracle, feedback)
    found: tuple[Repair, ...] = ()
    partial: Repair | None = None
    tests = 1
    notes: list[str] = []
    generators = list(chosen.generators)
    if algorithm == "auto" and not gives_prefix_feedback(oracle):
        generators = [g for g in generators if not g.needs_prefix_feedback]
        notes.append("FSynth skipped: the oracle does not report incomplete inputs")
    for index, generator in enumerate(generators):
        if any(repair.algorithm == CONFLICT_ALGORITHM for repair in found):
            break  # a side of each merge conflict made it valid: what a person keeps
        if not generator.wanted(context, found):
            continue
        spent = RunStats(tests, time.monotonic() - started)
        if budget.exhausted_by(spent) is not None:
            break
        weights = sum(later.weight for later in generators[index:])
        share = budget.after(spent).fair_share(generator.weight / weights)
        candidates = generator.run(context, found, share)
        tests += candidates.cost.tests
        found = (*found, *candidates.repairs)
        partial = partial or candidates.partial
    verified = [r for r in found if r.valid and verify(oracle, r.text)]
    spent = RunStats(tests, time.monotonic() - started)
    stopped = budget.exhausted_by(spent)
    stats = replace(spent, budget_exhausted=stopped is not None, stop_reason=stopped)
    if not text:
        notes.append("the input is empty")
    if not verified:
        notes.append("no repair that the oracle accepts was found")
        if partial is not None:
            notes.append(
                "partial repair (incomplete): the start of the input is repaired up to the "
                "first point where no repair was found; the rest is unchanged"
            )
    ranked = _rank(
        text,
        verified,
        top,
        context.locator,
        context.guidance,
        context.syntax.brackets,
        max_loss,
        notes,
        context.judge,
    )
    ranked, polishing = _polish(text, ranked, oracle, budget, spent)
    stats = replace(stats, tests=stats.tests + polishing, elapsed_s=time.monotonic() - started)
    return RepairResult(False, ranked, stats, tuple(notes), partial=partial)


def _polish(
    text: str, ranked: tuple[Repair, ...], oracle: Oracle, budget: Budget, spent: RunStats
) -> tuple[tuple[Repair, ...], int]:
    """The ranked repairs with their inserted delimiters where a person puts
    them (:func:`~inputmend.algorithms.polish.polish_layout`), while the
    budget lasts, and the oracle runs that took."""
    started = time.monotonic()
    runs = 0

    def accepts(candidate: str) -> bool:
        nonlocal runs
        runs += 1
        return verify(oracle, candidate)

    def left() -> bool:
        used = RunStats(spent.tests + runs, spent.elapsed_s + time.monotonic() - started)
        return budget.exhausted_by(used) is None

    lexer = lexer_of(oracle)
    polished: dict[str, Repair] = {}
    for repair in ranked:
        better = repair
        if left():
            better = closer_on_its_line(text, repair, accepts, lexer=lexer)
            better = polish_layout(text, better, accepts, lexer=lexer)
            better = without_emptied_lines(text, better, accepts, lexer=lexer)
            better = without_doubled_blanks(text, better, accepts, lexer=lexer)
            better = closer_before_separator(text, better, accepts, lexer=lexer)
            better = opener_at_line_end(text, better, accepts, lexer=lexer)
            better = spaced_as_the_input(text, better, accepts, lexer=lexer)
            better = closers_on_lines(text, better, accepts, lexer=lexer)
            better = final_break_kept(text, better, accepts, lexer=lexer)
        polished.setdefault(better.text, better)
    return tuple(polished.values()), runs


# -------------------------------------------------------------- diagnoses
Explainer = Callable[[str, Oracle, Budget, Unit], Diagnosis]


def _explain_ddmax(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    maximized = ddmax_text(text, oracle, unit=unit, budget=budget)
    return Diagnosis("ddmax", spans(maximized.removed), maximized.stats, passing=maximized.text)


def _explain_tokens(*, hybrid: bool) -> Explainer:
    name = "ddmax-hybrid" if hybrid else "ddmax-syntactic"

    def run(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
        grammar = grammar_of(oracle)
        if grammar is None:
            raise ValueError(f"{name} needs a grammar oracle")
        result = token_ddmax(text, oracle, grammar, budget, hybrid=hybrid)
        if isinstance(result, RunStats):
            return Diagnosis(name, (), result)
        return Diagnosis(name, spans(result.removed), result.stats, passing=result.text)

    return run


def _explain_auto(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    chosen = "ddmax-hybrid" if grammar_of(oracle) is not None else "ddmax"
    return EXPLAIN_ALGORITHMS[chosen].run(text, oracle, budget, unit)


def _explain_ddmin(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    minimized = ddmin_text(text, oracle, unit=unit, budget=budget)
    return Diagnosis("ddmin", spans(minimized.kept), minimized.stats, failing=minimized.text)


def _explain_dd(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    isolated = dd_text(text, oracle, unit=unit, budget=budget)
    notes = []
    if isolated.started_from_ddmax:
        notes.append("the empty input is rejected, so dd started from ddmax's passing subset")
    if not isolated.found_passing:
        notes.append("no passing variant was found")
    return Diagnosis(
        "dd",
        spans(isolated.difference),
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
        ExplainAlgorithm("ddmax", "the spans whose removal makes the input valid", _explain_ddmax),
        ExplainAlgorithm(
            "ddmax-syntactic", "ddmax over the grammar's tokens", _explain_tokens(hybrid=False)
        ),
        ExplainAlgorithm(
            "ddmax-hybrid",
            "token ddmax, then character ddmax inside the removed tokens",
            _explain_tokens(hybrid=True),
        ),
        ExplainAlgorithm("auto", "ddmax-hybrid with a grammar, ddmax otherwise", _explain_auto),
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
