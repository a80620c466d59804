"""Abstraction and isolation of independent causes (Algorithm 2 of the DDSET paper).

``can_generalize`` replaces a node (and the nodes of ``rnodes``) by random
expansions of their nonterminals until ``samples`` distinct instances FAIL
(abstract) or one PASSes (concrete); UNRESOLVED instances and duplicates are
discarded and replaced, within ``max_attempts``.  A nonterminal whose whole
language is at most ``samples`` strings is enumerated instead (an exact
answer).  The first instance is a smallest expansion, then the depth budget
grows: small instances are the most likely to PASS, so a concrete node
usually costs one test.

Savings that do not change the outcome: nodes with a single possible value
are never tested (they are lexical tokens); a node whose parent has one rule
of one symbol derives the same language as its parent and inherits its
verdict; and a set of jointly randomised nodes already shown to FAIL is not
tested again (the paper's re-verification of a node found abstract in the
same context repeats the same experiment).
"""

from __future__ import annotations

import enum
import random
from collections import deque
from dataclasses import dataclass

from inputmend.algorithms.ddset.generate import GenerationError, Generator
from inputmend.algorithms.ddset.harness import Tester
from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.core.oracle import Outcome
from inputmend.grammar.trees import DerivationNode as Node
from inputmend.grammar.trees import TreePath as Path
from inputmend.grammar.trees import get, is_prefix, is_strict_prefix, replace_all


class Status(enum.Enum):
    UNCHECKED = "unchecked"
    UNVERIFIED = "unverified"
    VERIFIED = "verified"


@dataclass(frozen=True, slots=True)
class Sampling:
    samples: int
    max_attempts: int


def outermost(paths: list[Path]) -> list[Path]:
    """``paths`` without those nested inside another one (order kept, no duplicates)."""
    result: list[Path] = []
    for path in paths:
        if path in result:
            continue
        if any(is_strict_prefix(other, path) for other in paths):
            continue
        result.append(path)
    return result


def ramp_depth(progress: int, max_depth: int) -> int:
    """Depth budget of the next instance: 0 (the canonical smallest) first, then
    growing with each FAILing or repeated instance (not with UNRESOLVED ones:
    when big instances tend to be invalid, we keep trying small ones)."""
    return min(max_depth, progress)


class Abstractor:
    """Marks the nodes of a (reduced) failing tree that can be abstracted."""

    def __init__(
        self,
        tree: Node,
        model: GrammarModel,
        generator: Generator,
        tester: Tester,
        rng: random.Random,
        sampling: Sampling,
    ) -> None:
        self.tree = tree
        self.model = model
        self.generator = generator
        self.tester = tester
        self.rng = rng
        self.sampling = sampling
        self.current_text = tester.text_of(tree) or tester.layout.render(tree)
        self.proven: set[frozenset[Path]] = set()
        self.verified: list[Path] = []
        self.checks = 0

    # -- one check ------------------------------------------------------------

    def testable(self, node: Node) -> bool:
        count = self.model.count(node.symbol)
        return count != 1 and count != 0 and self.model.generatable(node.symbol)

    def can_generalize(self, paths: list[Path], rnodes: list[Path], *, same: bool = False) -> bool:
        """Do all instances FAIL when the nodes at ``paths`` are replaced by random
        expansions (one shared expansion if ``same``) and ``rnodes`` are randomised too?"""
        others = outermost(
            [o for o in rnodes if not any(is_prefix(o, p) or is_prefix(p, o) for p in paths)]
        )
        key = frozenset([*paths, *others]) if not same else None
        if key is not None and key in self.proven:
            return True
        self.checks += 1
        symbol = get(self.tree, paths[0]).symbol
        values = self.generator.enumerate(symbol, self.sampling.samples)
        if values is not None:
            values = list(values)
            self.rng.shuffle(values)
        target = self.sampling.samples if values is None else len(values)
        fails = 0
        # an instance equal to the input itself says nothing new: skip it
        seen: set[str] = {self.current_text}
        attempt = 0
        repeats = 0
        while fails < target and attempt < self.sampling.max_attempts:
            if values is not None:
                if attempt >= len(values):
                    break
                value = values[attempt]
            depth = ramp_depth(fails + repeats, self.generator.max_depth)
            attempt += 1
            try:
                if values is None:
                    value = self.generator.tree(symbol, self.rng, depth=depth)
                replacements = [(path, value) for path in paths]
                if not same and len(paths) > 1:
                    replacements = [
                        (path, self.generator.tree(symbol, self.rng, depth=depth)) for path in paths
                    ]
                for other in others:
                    other_symbol = get(self.tree, other).symbol
                    replacements.append(
                        (other, self.generator.tree(other_symbol, self.rng, depth=depth))
                    )
            except GenerationError:
                return False
            text, outcome = self.tester.run_tree(replace_all(self.tree, replacements))
            if text in seen:
                repeats += 1  # too small to vary: grow
                continue
            seen.add(text)
            if outcome is Outcome.PASS:
                return False
            if outcome is Outcome.FAIL:
                fails += 1
        exhausted = values is not None and attempt >= len(values)
        # exhausted: the whole (small) language was tried
        abstract = fails > 0 if exhausted else fails >= target
        if abstract and key is not None:
            self.proven.add(key)
        return abstract

    # -- Algorithm 2 --------------------------------------------------------------

    def abstraction(
        self, start: Path, status: Status, rnodes: list[Path]
    ) -> list[tuple[Path, Status]]:
        """Top-down from ``start``: the outermost nodes that can be abstracted."""
        found: list[tuple[Path, Status]] = []
        stack: list[tuple[Path, Status, bool]] = [(start, status, False)]
        while stack:
            path, state, inherited = stack.pop()
            self.tester.meter.poll()
            node = get(self.tree, path)
            if self.model.count(node.symbol) == 1:
                continue  # a lexical token: only one possible value
            if not inherited and self.testable(node) and self.can_generalize([path], rnodes):
                found.append(
                    (path, Status.VERIFIED if state is not Status.UNCHECKED else Status.UNVERIFIED)
                )
                continue
            if node.is_leaf:
                continue
            same = self.model.same_language_child(node)
            for index in range(len(node.children) - 1, -1, -1):
                stack.append(((*path, index), Status.UNCHECKED, same))
        return found

    def isolate(self, *, verify: bool = True) -> list[Path]:
        """Abstract nodes, each verified with the other abstract nodes randomised.

        ``verified`` always holds the nodes verified so far (the result when
        the budget runs out)."""
        unverified: deque[tuple[Path, Status]] = deque([((), Status.UNCHECKED)])
        original: list[Path] = []
        while unverified:
            path, status = unverified.popleft()
            if not verify and status is Status.UNVERIFIED:
                self.verified.append(path)
                continue
            not_parents = [o for o in original if not is_prefix(o, path)]
            top = [o for o in not_parents if not any(is_strict_prefix(p, o) for p in not_parents)]
            pending = [p for p, _ in unverified if not any(is_prefix(t, p) for t in top)]
            rnodes = pending + top
            for new_path, new_status in self.abstraction(path, status, rnodes):
                if new_status is Status.VERIFIED:
                    self.verified.append(new_path)
                else:
                    unverified.append((new_path, new_status))
            original.append(path)
        return self.verified
