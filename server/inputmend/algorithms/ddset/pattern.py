"""The marked derivation tree DDSET returns: compact pattern, printing, production.

Compact representation (Section 7 of the paper): an abstract node prints as
``<name>``, a shared one as ``<$name1>``, a concrete one as its tokens;
abstract nodes that are empty in the reduced input (optional parts) are
invisible; whitespace between tokens is printed as in the input where the
tokens were adjacent there, else as the grammar's usual gap.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from inputmend.algorithms.ddset.generate import GenerationError, Generator
from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.algorithms.ddset.share import SharedGroup
from inputmend.grammar.trees import DerivationNode as Node
from inputmend.grammar.trees import Layout, get, leaves, replace_all
from inputmend.grammar.trees import TreePath as Path


@dataclass(frozen=True)
class MarkedTree:
    """A reduced derivation tree with abstract and shared nodes marked."""

    tree: Node
    abstract: frozenset[Path]
    shared: tuple[SharedGroup, ...]
    model: GrammarModel
    layout: Layout

    def _shared_names(self) -> dict[Path, str]:
        return {path: group.name for group in self.shared for path in group.paths}

    def mark(self, path: Path) -> str:
        """``abstract``, ``shared $name1``, ``concrete`` or ``token``."""
        if path in self.abstract:
            return "abstract"
        names = self._shared_names()
        if path in names:
            return f"shared {names[path]}"
        node = get(self.tree, path)
        return "token" if node.is_leaf or self.model.count(node.symbol) == 1 else "concrete"

    def _walk_marked(self) -> Iterator[tuple[Path, Node, str | None]]:
        """Preorder (path, node, label) where label is set for placeholders, whose
        subtrees are skipped."""
        names = self._shared_names()
        stack: list[tuple[Path, Node]] = [((), self.tree)]
        while stack:
            path, node = stack.pop()
            if path in self.abstract:
                yield path, node, self.model.label(node.symbol)
                continue
            if path in names:
                yield path, node, f"<{names[path]}>"
                continue
            yield path, node, None
            for index in range(len(node.children) - 1, -1, -1):
                stack.append(((*path, index), node.children[index]))

    def compact(self) -> str:
        items: list[tuple[Node, Node, str]] = []
        for _, node, label in self._walk_marked():
            if label is not None:
                tokens = leaves(node)
                if tokens:  # empty abstract nodes are invisible
                    items.append((tokens[0], tokens[-1], label))
            elif node.is_leaf:
                items.append((node, node, node.text))
        return self.layout.join(items)

    def text(self) -> str:
        return self.layout.render(self.tree)

    def describe(self) -> str:
        """The tree as indented text, one node a line, with its mark and text."""
        lines = []
        for path, node, label in self._walk_marked():
            indent = "  " * len(path)
            mark = self.mark(path)
            text = self.layout.render(node) if not node.is_leaf else node.text
            if label is not None:
                lines.append(f"{indent}{node.symbol} [{mark}] {label} {text!r}")
            elif node.is_leaf:
                lines.append(f"{indent}{node.symbol} {text!r}")
            else:
                lines.append(f"{indent}{node.symbol} [{mark}] {text!r}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()

    def instantiate(self, generator: Generator, rng: random.Random, depth: int) -> Node:
        """A random instance: abstract nodes expanded anew, shared groups with one value."""
        replacements: list[tuple[Path, Node]] = []
        for path in sorted(self.abstract):
            symbol = get(self.tree, path).symbol
            replacements.append((path, generator.tree(symbol, rng, depth=depth)))
        for group in self.shared:
            symbol = get(self.tree, group.paths[0]).symbol
            value = generator.tree(symbol, rng, depth=depth)
            replacements.extend((path, value) for path in group.paths)
        return replace_all(self.tree, replacements)

    def produce(self, generator: Generator, count: int, rng: random.Random) -> list[str]:
        """Up to ``count`` grammar-valid instances (fewer only if generation keeps failing)."""
        produced: list[str] = []
        attempts = 0
        while len(produced) < count and attempts < 20 * count + 20:
            depth = attempts % (generator.max_depth + 1)
            attempts += 1
            try:
                tree = self.instantiate(generator, rng, depth)
            except GenerationError:
                break
            text = self.layout.render(tree)
            if not self.model.accepts(text):
                text = self.layout.render(tree, spaced=True)
                if not self.model.accepts(text):
                    continue
            produced.append(text)
        return produced
