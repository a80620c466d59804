"""What DDSET needs to know about a grammar beyond its compiled rules:
terminal generators, minimal expansion costs, language sizes, unit-rule
chains, display names; and its derivation trees with their layout."""

from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from inputmend.algorithms.ddset.regexgen import RegexGenerator, RegexUnsupported
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.trees import DerivationNode, Layout, derivation_tree, in_language, leaves

INFINITE = math.inf
COUNT_CAP = 1_000_000


@dataclass
class TerminalValues:
    """How to produce values of one terminal."""

    name: str
    literal: str | None
    regex: Any  # compiled pattern of the terminal
    generator: RegexGenerator | None
    values: list[str] | None  # the whole (small, finite) language, if known
    observed: list[str]

    @property
    def generatable(self) -> bool:
        return self.literal is not None or self.generator is not None or bool(self.observed)


class GrammarModel:
    """The compiled grammar of a :class:`CompiledGrammar`, analysed for DDSET."""

    def __init__(self, grammar: CompiledGrammar) -> None:
        self.grammar = grammar
        self.start = grammar.info.start
        self.rules = grammar.rules
        self.rules_of: dict[str, list[int]] = {}
        for rule_id, rule in enumerate(self.rules):
            self.rules_of.setdefault(rule.origin, []).append(rule_id)
        # a space between generated tokens is harmless where the grammar ignores it
        self.space_ok = any(
            grammar.patterns[name].fullmatch(" ") is not None for name in grammar.ignored
        )
        self.literal_owner: dict[str, str] = {}
        self.terminals: dict[str, TerminalValues] = {}
        for name, terminal in grammar.terminals.items():
            literal = terminal.fixed
            generator = None
            values = None
            if literal is None:
                try:
                    generator = RegexGenerator(terminal.source)
                    values = generator.values()
                except (RegexUnsupported, re.error):
                    generator = None
            else:
                self.literal_owner[literal] = name
                values = [literal]
            self.terminals[name] = TerminalValues(
                name, literal, terminal.pattern, generator, values, []
            )
        self._analyse()

    # -- analysis -----------------------------------------------------------------

    def is_terminal(self, symbol: str) -> bool:
        return symbol not in self.rules_of

    def observe(self, tree: DerivationNode) -> None:
        """Remember token values of an input (fallback for terminals we cannot generate)."""
        changed = False
        for node in leaves(tree):
            info = self.terminals.get(node.symbol)
            if info is not None and node.text not in info.observed:
                if not info.generatable:
                    changed = True
                info.observed.append(node.text)
        if changed:
            self._analyse()

    def _terminal_cost(self, symbol: str) -> float:
        info = self.terminals.get(symbol)
        return 1.0 if info is not None and info.generatable else INFINITE

    def _analyse(self) -> None:
        # minimal token cost of every symbol
        cost: dict[str, float] = {name: INFINITE for name in self.rules_of}
        changed = True
        while changed:
            changed = False
            for rule in self.rules:
                total = 0.0
                for symbol in rule.expansion:
                    total += cost[symbol] if symbol in cost else self._terminal_cost(symbol)
                if total < cost[rule.origin]:
                    cost[rule.origin] = total
                    changed = True
        self.cost = cost
        self.rule_cost = [self.symbols_cost(rule.expansion) for rule in self.rules]
        # height restricted to minimal-cost rules: choosing by it always terminates
        height: dict[str, float] = {name: INFINITE for name in self.rules_of}
        changed = True
        while changed:
            changed = False
            for rule_id, rule in enumerate(self.rules):
                if self.rule_cost[rule_id] != cost[rule.origin] or cost[rule.origin] == INFINITE:
                    continue
                value = 1 + max((height.get(s, 0.0) for s in rule.expansion), default=0.0)
                if value < height[rule.origin]:
                    height[rule.origin] = value
                    changed = True
        self.cheapest: dict[str, list[int]] = {}
        for name, rule_ids in self.rules_of.items():
            best = [
                r
                for r in rule_ids
                if self.rule_cost[r] == cost[name]
                and cost[name] < INFINITE
                and 1 + max((height.get(s, 0.0) for s in self.rules[r].expansion), default=0.0)
                == height[name]
            ]
            self.cheapest[name] = best
        self.usable: dict[str, list[int]] = {
            name: [r for r in ids if self.rule_cost[r] < INFINITE]
            for name, ids in self.rules_of.items()
        }
        # language sizes (number of derivations; None: infinite or huge)
        counts: dict[str, int | None] = {}
        for name, info in self.terminals.items():
            if info.values is not None:
                counts[name] = len(info.values)
            elif info.generator is None and info.observed:
                counts[name] = len(info.observed)
            else:
                counts[name] = None if info.generatable else 0
        pending = set(self.rules_of)
        progress = True
        while progress:
            progress = False
            for name in list(pending):
                size: int | None = 0
                ready = True
                for rule_id in self.usable[name]:
                    product: int | None = 1
                    for symbol in self.rules[rule_id].expansion:
                        if symbol in pending:
                            ready = False
                            break
                        part = counts.get(symbol, 0)
                        product = None if part is None or product is None else product * part
                    if not ready:
                        break
                    size = None if size is None or product is None else size + product
                    if size is not None and size > COUNT_CAP:
                        size = None
                if ready:
                    counts[name] = size
                    pending.discard(name)
                    progress = True
        for name in pending:  # recursive, or depends on recursion
            counts[name] = None
        self.counts = counts
        # unit-rule chains: wrap a node of symbol S into nonterminal N
        self.chains: dict[str, dict[str, tuple[int, ...]]] = {}
        for name in self.rules_of:
            found: dict[str, tuple[int, ...]] = {}
            queue: deque[tuple[str, tuple[int, ...]]] = deque([(name, ())])
            while queue:
                symbol, chain = queue.popleft()
                for rule_id in self.rules_of.get(symbol, ()):
                    expansion = self.rules[rule_id].expansion
                    if len(expansion) != 1:
                        continue
                    target = expansion[0]
                    if target == name or target in found:
                        continue
                    found[target] = (*chain, rule_id)
                    if target in self.rules_of:
                        queue.append((target, found[target]))
            self.chains[name] = found

    def symbols_cost(self, symbols: tuple[str, ...]) -> float:
        total = 0.0
        for symbol in symbols:
            total += self.cost[symbol] if symbol in self.cost else self._terminal_cost(symbol)
        return total

    def count(self, symbol: str) -> int | None:
        """How many values ``symbol`` derives (None: infinitely or very many)."""
        return self.counts.get(symbol)

    def generatable(self, symbol: str) -> bool:
        if symbol in self.cost:
            return self.cost[symbol] < INFINITE
        return self._terminal_cost(symbol) < INFINITE

    def same_language_child(self, parent: DerivationNode) -> bool:
        """True when ``parent``'s only child derives exactly what ``parent`` does
        (the parent's symbol has a single rule of a single symbol)."""
        if parent.is_leaf:
            return False
        rules = self.rules_of.get(parent.symbol, [])
        return len(rules) == 1 and len(self.rules[rules[0]].expansion) == 1

    # -- parsing -------------------------------------------------------------------

    def parse(self, text: str) -> tuple[DerivationNode, Layout]:
        """The full derivation tree of ``text`` and its layout (raises
        :class:`~inputmend.grammar.trees.DerivationError`)."""
        tree = derivation_tree(self.grammar, text)
        tokens = [
            (node.origin, node.origin + len(node.text), node.symbol)
            for node in leaves(tree)
            if node.origin is not None
        ]
        return tree, Layout(text, tokens, self.space_ok)

    def accepts(self, text: str) -> bool:
        return in_language(self.grammar, text)

    # -- display -------------------------------------------------------------------

    def display(self, symbol: str) -> str:
        """A readable name for a symbol in a pattern (without the angle brackets)."""
        rule_ids = self.rules_of.get(symbol)
        if rule_ids is None:
            return symbol.lstrip("_") or symbol
        aliases = {self.rules[r].alias for r in rule_ids}
        if len(aliases) == 1:
            alias = aliases.pop()
            if alias:
                return alias
        if symbol.startswith("__") and ("_star_" in symbol or "_plus_" in symbol):
            base = [
                self.rules[r].expansion for r in rule_ids if symbol not in self.rules[r].expansion
            ]
            if len(base) == 1 and len(base[0]) == 1:
                return self.display(base[0][0])
        return symbol.lstrip("_") or symbol

    def label(self, symbol: str) -> str:
        """``<name>`` for a symbol; EBNF repetition helpers become ``<item>+``."""
        name = self.display(symbol)
        helper = symbol.startswith("__") and ("_star_" in symbol or "_plus_" in symbol)
        if helper and name != symbol.lstrip("_"):
            return f"<{name}>+"
        return f"<{name}>"
