"""Sharing abstraction (Algorithm 3 of the DDSET paper).

Concrete nodes of the same nonterminal with the same text (``v`` in
``v=0; v=1-v``) may have to vary *together*: each alone cannot be abstracted,
but all of them replaced by one common random value still FAIL.  Groups are
tried shallowest first; within a group, subsets from the largest down
(``len_sorted_combinations``), capped; the first subset that FAILs for
``samples`` common values becomes one shared abstraction ``<$name1>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from inputmend.algorithms.ddset.abstract import Abstractor
from inputmend.grammar.trees import TreePath as Path
from inputmend.grammar.trees import get, is_prefix, is_strict_prefix, walk


@dataclass(frozen=True, slots=True)
class SharedGroup:
    """Nodes that must hold one common value; shown as ``<$name>``."""

    name: str
    paths: tuple[Path, ...]


def len_sorted_combinations(members: list[Path], limit: int) -> list[tuple[Path, ...]]:
    """Subsets of at least two members, largest first, at most ``limit`` of them."""
    result: list[tuple[Path, ...]] = []
    for size in range(len(members), 1, -1):
        for subset in combinations(members, size):
            result.append(subset)
            if len(result) >= limit:
                return result
    return result


def similar_groups(abstractor: Abstractor, abstract: list[Path]) -> list[list[Path]]:
    """Groups (of at least two) of concrete nodes with equal symbol and tokens."""
    groups: dict[tuple[str, tuple[str, ...]], list[Path]] = {}
    for path, node in walk(abstractor.tree):
        if any(is_prefix(a, path) for a in abstract):
            continue
        if node.size == 0 or not abstractor.testable(node):
            continue
        tokens = tuple(leaf.text for _, leaf in walk(node) if leaf.is_leaf)
        if not "".join(tokens):
            continue
        groups.setdefault((node.symbol, tokens), []).append(path)
    result = []
    for members in groups.values():
        outer = [m for m in members if not any(is_strict_prefix(o, m) for o in members)]
        if len(outer) > 1:
            result.append(outer)
    result.sort(key=lambda members: (min(len(p) for p in members), members[0]))
    return result


def identify_shared(
    abstractor: Abstractor,
    abstract: list[Path],
    found: list[SharedGroup],
    *,
    max_combinations: int,
) -> list[SharedGroup]:
    """Append shared groups to ``found`` as they are found (so a budget stop keeps them)."""
    model = abstractor.model
    numbers: dict[str, int] = {}
    for members in similar_groups(abstractor, abstract):
        members = [m for m in members if not any(is_prefix(p, m) for g in found for p in g.paths)]
        if len(members) < 2:
            continue
        for subset in len_sorted_combinations(members, max_combinations):
            if abstractor.can_generalize(list(subset), [], same=True):
                name = model.display(get(abstractor.tree, subset[0]).symbol)
                numbers[name] = numbers.get(name, 0) + 1
                found.append(SharedGroup(f"${name}{numbers[name]}", tuple(subset)))
                break
    return found
