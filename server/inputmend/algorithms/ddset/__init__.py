"""DDSET: abstracting failure-inducing inputs (Gopinath, Kampmann, Havrikov,
Soremekun, Zeller, ISSTA 2020).

Given a failing input that a lark grammar parses and a predicate answering
PASS / FAIL / UNRESOLVED, :func:`ddset` reduces the input (Perses-style,
Algorithm 1), abstracts the parts that can be anything (random expansions
that all FAIL, Algorithm 2, with isolation of independent causes), finds
parts that must vary together (sharing, Algorithm 3) and prints the result
compactly (lexical tokens as text, optional parts invisible):
``1 + ((2 * 3 / 4))`` with "fails on doubled parentheses" becomes
``((<expr>))``.  :func:`produce` instantiates the pattern, :func:`verify`
measures how many instances fail (the paper's Table 2).

Everything is seeded and bounded by a :class:`Budget`; when the budget runs
out the best result so far is returned with ``budget_exhausted`` set.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from inputmend.algorithms.ddset.abstract import Abstractor, Sampling
from inputmend.algorithms.ddset.generate import Generator
from inputmend.algorithms.ddset.harness import Tester
from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.algorithms.ddset.pattern import MarkedTree
from inputmend.algorithms.ddset.reduce import Reducer
from inputmend.algorithms.ddset.share import SharedGroup, identify_shared
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.oracle import Outcome, Predicate
from inputmend.core.text import snippet
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.trees import DerivationError
from inputmend.grammar.trees import TreePath as Path

__all__ = [
    "DDSetOptions",
    "DDSetResult",
    "MarkedTree",
    "SharedGroup",
    "Verification",
    "ddset",
    "produce",
    "verify",
]


@dataclass(frozen=True)
class DDSetOptions:
    """Knobs of one DDSET run.

    ``samples`` is N of the paper: distinct FAILing instances needed to call a
    node abstract (or shared); ``max_attempts`` caps instances generated for
    one check (UNRESOLVED and duplicate ones are replaced, up to this cap);
    ``max_depth``/``max_size`` bound generated subtrees (random choices up to
    that depth, then cheapest expansions; tokens)."""

    samples: int = 10
    max_attempts: int = 100
    max_depth: int = 6
    max_size: int = 30
    reduce: bool = True
    max_reduction_rounds: int = 10
    isolate: bool = True
    share: bool = True
    max_share_combinations: int = 16

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError("samples must be at least 1")
        if self.max_attempts < self.samples:
            raise ValueError("max_attempts must be at least samples")
        if self.max_depth < 0 or self.max_size < 1:
            raise ValueError("max_depth must be >= 0 and max_size >= 1")

    def describe(self) -> str:
        steps = [
            "reduce" if self.reduce else "no reduction",
            "isolate" if self.isolate else "no isolation",
            "share" if self.share else "no sharing",
        ]
        return (
            f"ddset: {self.samples} failing samples per abstraction "
            f"(at most {self.max_attempts} attempts), generated depth <= {self.max_depth}, "
            f"size <= {self.max_size} tokens; {', '.join(steps)}"
        )


@dataclass(frozen=True)
class DDSetResult:
    """The abstract failure-inducing input and how it was found."""

    pattern: str
    reduced: str
    tree: MarkedTree
    stats: RunStats
    original: str
    seed: int
    options: DDSetOptions
    phase: str = "done"
    notes: tuple[str, ...] = field(default=())

    @property
    def tests(self) -> int:
        return self.stats.tests

    @property
    def budget_exhausted(self) -> bool:
        return self.stats.budget_exhausted

    @property
    def abstract(self) -> int:
        return len(self.tree.abstract)

    @property
    def shared(self) -> tuple[SharedGroup, ...]:
        return self.tree.shared


@dataclass(frozen=True)
class Verification:
    """Instances produced from a pattern and what the predicate said.

    Unpacks as ``failing, total`` where ``total`` counts the instances the
    predicate resolved (PASS or FAIL), as the FAIL % of the paper's Table 2."""

    failing: int
    passing: int
    unresolved: int
    passing_examples: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.failing + self.passing

    def __iter__(self) -> Iterator[int]:
        return iter((self.failing, self.total))


def _generator(model: GrammarModel, options: DDSetOptions) -> Generator:
    return Generator(model, max_depth=options.max_depth, max_size=options.max_size)


def ddset(
    text: str,
    grammar: CompiledGrammar,
    predicate: Predicate,
    *,
    seed: int = 0,
    budget: Budget = UNLIMITED,
    options: DDSetOptions = DDSetOptions(),
) -> DDSetResult:
    """Abstract the failure-inducing ``text`` (see the module docstring).

    Raises ``ValueError`` when the grammar cannot parse ``text`` or the
    predicate does not FAIL on it."""
    model = GrammarModel(grammar)
    try:
        tree, layout = model.parse(text)
    except DerivationError as error:
        detail = " ".join(str(error).split())
        raise ValueError(f"the grammar cannot parse the input: {snippet(detail)}") from None
    model.observe(tree)
    meter = Meter(budget)
    tester = Tester(predicate, model, layout, meter)
    generator = _generator(model, options)
    notes: list[str] = []
    try:
        first = tester.run(text, check_grammar=False)
    except BudgetExhausted:
        marked = MarkedTree(tree, frozenset(), (), model, layout)
        return DDSetResult(text, text, marked, RunStats.of(meter), text, seed, options, "start")
    if first is not Outcome.FAIL:
        raise ValueError(f"the input does not fail: the predicate says {first.value}")

    phase = "reduce"
    reduced = tree
    abstract: list[Path] = []
    shared: list[SharedGroup] = []
    abstractor: Abstractor | None = None
    try:
        if options.reduce:
            reducer = Reducer(tree, model, tester, options.max_reduction_rounds)
            try:
                reduced = reducer.run()
            finally:
                reduced = reducer.tree
        phase = "abstract"
        sampling = Sampling(options.samples, options.max_attempts)
        abstractor = Abstractor(
            reduced, model, generator, tester, random.Random(f"{seed}:abstract"), sampling
        )
        abstract = abstractor.isolate(verify=options.isolate)
        if options.share:
            phase = "share"
            abstractor.rng = random.Random(f"{seed}:share")
            identify_shared(
                abstractor, abstract, shared, max_combinations=options.max_share_combinations
            )
        phase = "done"
    except BudgetExhausted as error:
        notes.append(f"stopped during {phase}: {error}")
        if abstractor is not None:
            abstract = list(abstractor.verified)
    marked = MarkedTree(reduced, frozenset(abstract), tuple(shared), model, layout)
    return DDSetResult(
        pattern=marked.compact(),
        reduced=tester.text_of(reduced) or marked.text(),
        tree=marked,
        stats=RunStats.of(meter),
        original=text,
        seed=seed,
        options=options,
        phase=phase,
        notes=tuple(notes),
    )


def produce(result: DDSetResult, count: int, seed: int = 0) -> list[str]:
    """``count`` grammar-valid inputs generated from the pattern of ``result``."""
    generator = _generator(result.tree.model, result.options)
    return result.tree.produce(generator, count, random.Random(f"{seed}:produce"))


def verify(
    result: DDSetResult,
    grammar: CompiledGrammar | None,
    predicate: Predicate,
    count: int = 100,
    seed: int = 0,
) -> Verification:
    """Generate ``count`` instances of the pattern and run the predicate on each.

    Instances the grammar rejects count as unresolved (``grammar`` may be
    None: the result's own grammar is used)."""
    model = result.tree.model
    if grammar is not None and grammar is not model.grammar:
        model = GrammarModel(grammar)
    failing = passing = unresolved = 0
    examples: list[str] = []
    for instance in produce(result, count, seed):
        if not model.accepts(instance):
            unresolved += 1
            continue
        outcome = predicate(instance)
        if outcome is Outcome.FAIL:
            failing += 1
        elif outcome is Outcome.PASS:
            passing += 1
            if len(examples) < 5:
                examples.append(instance)
        else:
            unresolved += 1
    return Verification(failing, passing, unresolved, tuple(examples))
