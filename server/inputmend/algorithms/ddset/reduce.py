"""Perses-style syntactic reduction (Algorithm 1 of the DDSET paper).

A priority queue holds paths into the current tree, largest subtree first.
For the node at a path we build the *compatible* replacements that are
strictly smaller: descendants of the same nonterminal (or of a symbol it
reaches through unit rules, wrapped back into the chain), the empty
expansion when the nonterminal has one, and alternatives of its own rule
with symbols left out (lark compiles ``x?``/``[x]`` into such alternatives).
Candidates are tried smallest first and the first that still FAILs is taken
— it is the minimal failing one, so trying the rest would only cost tests.
On success the same path is queued again, otherwise its children are.
Passes repeat until one changes nothing, giving a 1-minimal tree.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator
from itertools import combinations

from inputmend.algorithms.ddset.harness import Tester
from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.core.oracle import Outcome
from inputmend.grammar.trees import DerivationNode as Node
from inputmend.grammar.trees import TreePath as Path
from inputmend.grammar.trees import get, inner, leaves, replace, walk

_MAX_EMBEDDINGS = 8


def _embeddings(short: tuple[str, ...], long: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Ways to pick positions of ``long`` whose symbols spell ``short`` (capped)."""
    found: list[tuple[int, ...]] = []
    drop = len(long) - len(short)
    if math.comb(len(long), drop) > 5000:
        return found  # very long rules: skip this kind of candidate
    for removed in combinations(range(len(long)), drop):
        kept = tuple(i for i in range(len(long)) if i not in removed)
        if tuple(long[i] for i in kept) == short:
            found.append(kept)
            if len(found) >= _MAX_EMBEDDINGS:
                break
    return found


def candidates(node: Node, model: GrammarModel) -> Iterator[Node]:
    """Strictly smaller compatible replacements for ``node``, smallest first."""
    if node.is_leaf:
        return
    symbol = node.symbol
    chains = model.chains.get(symbol, {})
    found: list[tuple[int, int, int, Node]] = []
    order = 0
    for path, sub in walk(node):
        if not path or sub.size >= node.size:
            continue
        if sub.symbol == symbol:
            found.append((sub.size, len(path), order, sub))
        elif sub.symbol in chains:
            wrapped = sub
            for rule_id in reversed(chains[sub.symbol]):
                wrapped = inner(model.rules[rule_id].origin, rule_id, [wrapped])
            found.append((sub.size, len(path), order, wrapped))
        order += 1
    expansion = model.rules[node.rule].expansion
    for rule_id in model.rules_of.get(symbol, []):
        other = model.rules[rule_id].expansion
        if rule_id == node.rule or len(other) >= len(expansion):
            continue
        for kept in _embeddings(other, expansion):
            children = [node.children[i] for i in kept]
            smaller = inner(symbol, rule_id, children)
            if smaller.size < node.size:
                found.append((smaller.size, 0, order, smaller))
                order += 1
    found.sort(key=lambda item: item[:3])
    same_tokens: set[tuple[int, ...]] = set()
    for *_, candidate in found:  # lazily: the caller usually stops early
        key = tuple(id(token) for token in leaves(candidate))
        if key not in same_tokens:  # e.g. a descendant and its unit-chain wrapping
            same_tokens.add(key)
            yield candidate


class Reducer:
    """Reduces a failing derivation tree; ``tree`` is always the best so far."""

    def __init__(self, tree: Node, model: GrammarModel, tester: Tester, max_rounds: int) -> None:
        self.tree = tree
        self.model = model
        self.tester = tester
        self.max_rounds = max_rounds
        self.rounds = 0

    def run(self) -> Node:
        for _ in range(self.max_rounds):
            self.rounds += 1
            if not self._round():
                break
        return self.tree

    def _round(self) -> bool:
        changed = False
        queue: list[tuple[int, Path]] = [(-self.tree.size, ())]
        while queue:
            _, path = heapq.heappop(queue)
            self.tester.meter.poll()
            node = get(self.tree, path)
            if node.is_leaf:
                continue
            smaller = self._smaller(path, node)
            if smaller is not None:
                self.tree = smaller
                changed = True
                heapq.heappush(queue, (-get(smaller, path).size, path))
                continue
            for index, child in enumerate(node.children):
                if not child.is_leaf and child.size > 0:
                    heapq.heappush(queue, (-child.size, (*path, index)))
        return changed

    def _smaller(self, path: Path, node: Node) -> Node | None:
        seen: set[str] = set()
        for candidate in candidates(node, self.model):
            tree = replace(self.tree, path, candidate)
            text, outcome = self.tester.run_tree(tree)
            if text in seen:
                continue
            seen.add(text)
            if outcome is Outcome.FAIL:
                return tree
        return None
