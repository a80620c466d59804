"""Random derivation trees from a lark grammar, bounded so generation terminates.

Below ``max_depth`` a nonterminal picks a random usable rule (one whose
minimal expansion fits the remaining ``max_size`` token budget); at or past
``max_depth`` it picks a cheapest rule (fewest tokens, then lowest height
among such rules, which strictly shrinks and so always terminates).
Depth 0 therefore gives a smallest instance.  Regex terminals get random
strings that must fully match the terminal and must not be a keyword of
another terminal; small finite languages can be enumerated instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.grammar.trees import DerivationNode as Node
from inputmend.grammar.trees import inner, leaf

_VALUE_RETRIES = 25


class GenerationError(RuntimeError):
    """A symbol cannot be generated (e.g. a terminal declared without a pattern)."""


@dataclass
class _Frame:
    symbol: str
    rule: int
    depth: int
    children: list[Node] = field(default_factory=list)


class Generator:
    """Random and enumerated instances of grammar symbols."""

    def __init__(self, model: GrammarModel, *, max_depth: int = 8, max_size: int = 40) -> None:
        self.model = model
        self.max_depth = max_depth
        self.max_size = max_size
        self._enumerated: dict[str, list[Node] | None] = {}
        self._canonical: dict[str, str] = {}

    def terminal_value(self, name: str, rng: random.Random, *, minimal: bool = False) -> str:
        info = self.model.terminals.get(name)
        if info is None:
            raise GenerationError(f"terminal {name} has no definition to generate from")
        if info.literal is not None:
            return info.literal
        if info.generator is None:
            if not info.observed:
                raise GenerationError(f"cannot generate terminal {name}")
            return rng.choice(info.observed)
        for attempt in range(_VALUE_RETRIES):
            value = info.generator.generate(rng, minimal=minimal and attempt < 3)
            if not value or info.regex.fullmatch(value) is None:
                continue
            owner = self.model.literal_owner.get(value)
            if owner is not None and owner != name:
                continue  # would lex as a keyword
            return value
        if info.observed:
            return rng.choice(info.observed)
        raise GenerationError(f"could not generate a value for terminal {name}")

    def canonical_value(self, name: str) -> str:
        """One fixed shortest value of a terminal (the same every time)."""
        value = self._canonical.get(name)
        if value is None:
            value = self.terminal_value(name, random.Random(name), minimal=True)
            self._canonical[name] = value
        return value

    def tree(self, symbol: str, rng: random.Random, *, depth: int | None = None) -> Node:
        """A random tree for ``symbol``; ``depth`` limits random choices.

        Depth 0 gives the *canonical* smallest instance: first cheapest rule,
        fixed shortest terminal values.  A chain of unit rules (expr -> term ->
        factor) thus yields the same text at every level, and testing it once
        answers for the whole chain (the predicate cache does the rest)."""
        model = self.model
        max_depth = self.max_depth if depth is None else depth
        canonical = max_depth == 0
        if model.is_terminal(symbol):
            if canonical:
                return leaf(symbol, self.canonical_value(symbol))
            return leaf(symbol, self.terminal_value(symbol, rng))
        if not model.generatable(symbol):
            raise GenerationError(f"{symbol} cannot derive any finite text")
        committed = [model.cost[symbol]]  # tokens emitted + minimal cost of pending symbols

        def choose(name: str, level: int) -> int:
            base = model.cost[name]
            if canonical:
                options = model.cheapest[name][:1]
            elif level >= max_depth:
                options = model.cheapest[name]
            else:
                options = [
                    r
                    for r in model.usable[name]
                    if committed[0] + model.rule_cost[r] - base <= self.max_size
                ] or model.cheapest[name]
            rule = rng.choice(options)
            committed[0] += model.rule_cost[rule] - base
            return rule

        stack = [_Frame(symbol, choose(symbol, 0), 0)]
        result: Node | None = None
        while stack:
            frame = stack[-1]
            expansion = model.rules[frame.rule].expansion
            if len(frame.children) == len(expansion):
                node = inner(frame.symbol, frame.rule, frame.children)
                stack.pop()
                if stack:
                    stack[-1].children.append(node)
                else:
                    result = node
                continue
            child = expansion[len(frame.children)]
            if model.is_terminal(child):
                if canonical:
                    text = self.canonical_value(child)
                else:
                    text = self.terminal_value(child, rng, minimal=frame.depth + 1 > max_depth)
                frame.children.append(leaf(child, text))
            else:
                stack.append(_Frame(child, choose(child, frame.depth + 1), frame.depth + 1))
        assert result is not None
        return result

    def enumerate(self, symbol: str, limit: int) -> list[Node] | None:
        """Every derivation of ``symbol`` if there are at most ``limit``, else None."""
        count = self.model.count(symbol)
        if count is None or count > limit or count == 0:
            return None
        if symbol not in self._enumerated:
            self._enumerated[symbol] = self._enumerate(symbol, limit, 0)
        return self._enumerated[symbol]

    def _enumerate(self, symbol: str, limit: int, level: int) -> list[Node] | None:
        if level > 200:
            return None  # absurdly deep non-recursive nesting: do not enumerate
        model = self.model
        if model.is_terminal(symbol):
            info = model.terminals[symbol]
            values = info.values if info.values is not None else info.observed
            return [leaf(symbol, value) for value in values]
        results: list[Node] = []
        for rule_id in model.usable[symbol]:
            combos: list[list[Node]] = [[]]
            for child in model.rules[rule_id].expansion:
                options = (
                    self.enumerate(child, limit)
                    if model.is_terminal(child) or child in self._enumerated
                    else self._enumerate(child, limit, level + 1)
                )
                if options is None:
                    return None
                combos = [[*combo, option] for combo in combos for option in options]
                if len(combos) > limit:
                    return None
            results.extend(inner(symbol, rule_id, combo) for combo in combos)
            if len(results) > limit:
                return None
        return results
