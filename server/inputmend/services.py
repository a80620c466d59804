"""Repair, explain and abstract a text: the operations the CLI, the language
server and library users call, and the registry of their algorithms.  A
facade: a repair algorithm is a named selection of generators
(:mod:`inputmend.repairs.generators`) that the pipeline runs
(:mod:`inputmend.repairs.pipeline`).

Each operation takes a text and an oracle (or a grammar and a predicate) and
returns a model value (:mod:`inputmend.core.model`); nothing here prints,
reads files or knows about editors.  :data:`REPAIR_ALGORITHMS` and
:data:`EXPLAIN_ALGORITHMS` name every algorithm once: the CLI offers their
names, the language server's settings accept them, and docs/cli.md's tables
are tested against them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from inputmend.algorithms.dd import dd_text
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.ddmin import ddmin_text
from inputmend.algorithms.segmentation import Unit
from inputmend.config import defaults
from inputmend.core import levenshtein
from inputmend.core.budget import UNLIMITED, Budget, RunStats
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.model import Abstraction, Diagnosis, Repair, RepairResult
from inputmend.core.oracle import Oracle, Predicate
from inputmend.core.text import UTF8, Encoding
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.factory import build_oracle, relative_code
from inputmend.repairs import pipeline
from inputmend.repairs.context import (
    grammar_check,
    grammar_of,
    guide_of,
    lexer_of,
    runs_user_grammar,
)
from inputmend.repairs.generators import GENERATORS, Generator
from inputmend.repairs.generators.base import always
from inputmend.repairs.generators.completion import COMPLETION_ALONE
from inputmend.repairs.generators.ddmax import (
    DDMAX,
    DDMAX_LINES,
    DDMAX_SYNTACTIC,
    HYBRID,
    spans,
    token_ddmax,
)
from inputmend.repairs.generators.fsynth import FSYNTH
from inputmend.repairs.rank import rank_for_oracle

# what the language server needs from below the facade: the oracle a
# setting describes and the parts of it the server runs in its own process
__all__ = [
    "build_oracle",
    "grammar_check",
    "grammar_of",
    "guide_of",
    "lexer_of",
    "relative_code",
    "runs_user_grammar",
]


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
    return rank_for_oracle(text, repairs, top, oracle, max_loss)


@dataclass(frozen=True)
class RepairAlgorithm:
    """A repair algorithm: a named selection of generators, run one after
    another, their repairs merged and ranked together."""

    name: str
    summary: str
    generators: tuple[Generator, ...]
    fit_to_oracle: bool = False
    """Leave out the generators that need prefix feedback when the oracle
    gives none (see :func:`~inputmend.repairs.pipeline.run`)."""


REPAIR_ALGORITHMS: dict[str, RepairAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        RepairAlgorithm(
            "auto",
            "a side of each merge conflict, re-reading undecodable bytes, the sweep of a large "
            "text, completion, its closer on its own line, the grammar's hints, layout, "
            "unescaping, escaping a quote, unwrapping calls, quoting a value, restoring a "
            "comment, a record's "
            "fields, FSynth, then hybrid ddmax; their repairs ranked together",
            GENERATORS,
            fit_to_oracle=True,
        ),
        RepairAlgorithm(
            "completion",
            "append what a valid prefix lacks (for an incorrect input: complete the part "
            "before the error, drop the rest)",
            (COMPLETION_ALONE,),
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


def prepare_repairs(text: str, oracle: Oracle) -> None:
    """Do now, for a text about to be edited, what the first repair with
    ``oracle`` would otherwise do inside its budget: build the grammar's
    completion tables, import the compiled edit distance and check the
    text (an incremental oracle then checks the next versions as edits of
    it).  A short budget, such as the editor's quick repairs', then goes to
    the search itself."""
    grammar = grammar_check(oracle)
    if grammar is not None:
        _ = grammar.grammar.completer
    levenshtein.compiled()
    oracle.check(text)


def repair(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "auto",
    budget: Budget = UNLIMITED,
    top: int = defaults.TOP_REPAIRS,
    max_loss: LossLimit = DEFAULT_LIMIT,
    spent_s: float = 0.0,
    encoding: Encoding = UTF8,
) -> RepairResult:
    """Ranked, verified repairs of ``text`` (none when it is already valid),
    each marked lossy when it loses more of ``text`` than ``max_loss`` allows.
    ``spent_s``: seconds the caller already spent on this input under the
    same budget (checking it first), counted against its time limit.
    ``encoding``: how the text was decoded; undecodable bytes are re-read as
    text only where its surrogates stand for bytes (not in UTF-16/32, whose
    lone surrogates are the file's own code units).

    The generators of the algorithm run one after another on one budget:
    each gets its weight's part of what is left when it starts (its weight
    over the sum of its own and the later generators' weights), so what one
    leaves unused goes to the next, and the last gets all that is left.
    ``auto`` runs the re-reading of undecodable bytes, the left-to-right
    sweep of a large text (whose repair, when it does the data no harm,
    settles the request), completion, the grammar's hints (with a
    program's oracle: those of the bundled grammar its files are named for),
    the layout-guided bracket edits, FSynth (skipped when the oracle cannot
    tell incomplete inputs from incorrect ones), then hybrid ddmax
    (syntactic ddmax with a grammar, lexical inside the faulty tokens;
    lexical ddmax without one), and merges their repairs; an incomplete
    input that completion finishes gets no search (FSynth, ddmax) after it,
    and the hints only near its end (anywhere before it when the input ends
    in a string run on over lines). When no complete repair is found,
    ``partial`` holds FSynth's best partial result. The result is
    marked as stopped early only when the whole budget ran out.
    """
    chosen = REPAIR_ALGORITHMS.get(algorithm)
    if chosen is None:
        raise ValueError(f"unknown repair algorithm {algorithm!r}")
    return pipeline.run(
        text,
        oracle,
        chosen.generators,
        budget=budget,
        top=top,
        max_loss=max_loss,
        spent_s=spent_s,
        fit_to_oracle=chosen.fit_to_oracle,
        encoding=encoding,
    )


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
    # DDSET and its regex generator are imported here, not at the top:
    # a repair, which every other operation of this facade serves, has no
    # use for them, and they are a sizeable share of a repair's start-up.
    from inputmend.algorithms.ddset import ddset, produce
    from inputmend.algorithms.ddset import verify as ddset_verify

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
