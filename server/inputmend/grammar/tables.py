"""Flat LALR tables and the persistent parser stack they run on.

A parser stack is a chain of :class:`StackNode` (top first): pushing
allocates one node and shares the rest, so keeping a stack costs nothing.
:class:`StackInterner` makes equal stacks the same object, so two kept
stacks are compared by one identity test, and pushing a known stack
allocates nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from inputmend.grammar import native
from inputmend.grammar.lark_internals import END, BnfRule, LalrTable


class StackNode:
    """The top entry of a persistent parser stack: a parser state on
    ``parent`` (None at the bottom)."""

    __slots__ = ("parent", "state")

    def __init__(self, state: int, parent: StackNode | None) -> None:
        self.state = state
        self.parent = parent

    def states(self) -> list[int]:
        """The states of the stack from its bottom up to this entry."""
        states = []
        node: StackNode | None = self
        while node is not None:
            states.append(node.state)
            node = node.parent
        states.reverse()
        return states


if not TYPE_CHECKING and native.AVAILABLE:
    StackNode = native.StackNode  # the same, in C: the C loop of the scan makes them

V = TypeVar("V")
ACCEPTED = -1  # the parser's "action" on the end of the input once it may end there


class ValueNode(StackNode, Generic[V]):
    """A stack entry with a value for its symbol (a derivation subtree, the
    first token it covers, ...); the bottom entry is a plain :class:`StackNode`."""

    __slots__ = ("value",)

    def __init__(self, state: int, parent: StackNode, value: V) -> None:
        super().__init__(state, parent)
        self.value = value


Reduce = Callable[[int, list[V]], V]  # rule number, values of its symbols -> value of the rule


class Reduction(NamedTuple):
    """What reducing by a rule does: pop ``size`` entries, then go to
    the state for ``origin``."""

    size: int
    origin: str


class ParseTables:
    """An LALR(1) table flattened for speed.

    ``actions[state][terminal]`` is the next state for a shift, or ``-n - 1``
    to reduce by rule ``n`` (:attr:`reductions`); ``gotos[state][nonterminal]``
    is the state after a reduction."""

    def __init__(self, table: LalrTable, rules: Sequence[BnfRule]) -> None:
        self.start_state = table.start_state
        self.end_state = table.end_state
        self.reductions = [Reduction(len(rule.expansion), rule.origin) for rule in rules]
        self.actions: dict[int, dict[str, int]] = {}
        self.gotos: dict[int, dict[str, int]] = {}
        for state, row in table.rows.items():
            actions: dict[str, int] = {}
            gotos: dict[str, int] = {}
            for symbol, shift, target in row:
                if not shift:
                    actions[symbol] = -target - 1
                elif symbol.isupper() or symbol == END:
                    actions[symbol] = target
                else:
                    gotos[symbol] = target
            self.actions[state] = actions
            self.gotos[state] = gotos
        self._acceptable: dict[tuple[int, ...], frozenset[str]] = {}
        self._acceptable_depth: dict[int, int] = {}

    def shift(self, node: StackNode, terminal: str) -> StackNode | None:
        """The stack after feeding ``terminal`` (reductions, then the shift),
        or None when the parser cannot take it."""
        node, action = self._reduce(node, terminal, None)
        if action is None or terminal == END:
            return None
        return StackNode(action, node)

    def viable(self, node: StackNode, terminal: str) -> bool:
        """Would the parser accept ``terminal`` next (after any reductions)?"""
        _, action = self._reduce(node, terminal, None)
        return action == ACCEPTED if terminal == END else action is not None

    def shift_value(
        self, node: StackNode, terminal: str, value: V, reduce: Reduce[V]
    ) -> ValueNode[V] | None:
        """:meth:`shift` with values: each reduction's value is made by
        ``reduce`` from the values of the entries it pops, the shifted entry
        holds ``value``."""
        node, action = self._reduce(node, terminal, reduce)
        if action is None or terminal == END:
            return None
        return ValueNode(action, node, value)

    def finish_value(self, node: StackNode, reduce: Reduce[V]) -> V | None:
        """The value of the start symbol if the input may end on stack ``node``."""
        node, action = self._reduce(node, END, reduce)
        if action == ACCEPTED and isinstance(node, ValueNode):
            value: V = node.value
            return value
        return None

    def _reduce(
        self, node: StackNode, terminal: str, reduce: Reduce[V] | None
    ) -> tuple[StackNode, int | None]:
        """The reductions ``terminal`` calls for: the stack after them and the
        parser's action then, a state to shift to or None when it cannot take
        ``terminal`` (for the end of the input: :data:`ACCEPTED` once the start
        symbol is reduced).  With ``reduce``, entries hold values (see
        :meth:`shift_value`)."""
        actions, gotos, reductions = self.actions, self.gotos, self.reductions
        action = actions[node.state].get(terminal)
        while action is not None and action < 0:
            rule = -action - 1
            size, origin = reductions[rule]
            values: list[V] = []
            for _ in range(size):
                if reduce is not None:
                    assert isinstance(node, ValueNode)  # the bottom entry is never popped
                    values.append(node.value)
                node = node.parent  # type: ignore[assignment]
            state = gotos[node.state][origin]
            if reduce is None:
                node = StackNode(state, node)
            else:
                values.reverse()
                node = ValueNode(state, node, reduce(rule, values))
            if terminal == END and state == self.end_state:
                return node, ACCEPTED
            action = actions[state].get(terminal)
        return node, action

    def acceptable(self, node: StackNode) -> frozenset[str]:
        """The terminals the parser would accept next.  Memoized on the states
        of the top of the stack, as deep as the simulation has read below
        this top state so far."""
        state = node.state
        depth = self._acceptable_depth.get(state)
        if depth is not None:
            found = self._acceptable.get(_top_states(node, depth))
            if found is not None:
                return found
        accepted, read = self._simulate_acceptable(node)
        depth = max(depth or 0, read)
        self._acceptable_depth[state] = depth
        if len(self._acceptable) > 65536:
            self._acceptable.clear()
        self._acceptable[_top_states(node, depth)] = accepted
        return accepted

    def _simulate_acceptable(self, node: StackNode) -> tuple[frozenset[str], int]:
        """``acceptable`` and how deep below the top it read the stack.
        Terminals that reduce by the same rule share the reduction, so each
        path is simulated once.  A simulated stack is ``height`` pushed nodes
        on the real stack's node at ``base`` depth."""
        accepted: set[str] = set()
        deepest = 0
        actions, gotos, reductions = self.actions, self.gotos, self.reductions
        pending: list[tuple[StackNode, int, int, list[str]]] = [
            (node, 0, 0, [t for t in actions[node.state] if t != END])
        ]
        while pending:
            stack, height, base, terminals = pending.pop()
            row = actions[stack.state]
            by_rule: dict[int, list[str]] = {}
            for terminal in terminals:
                action = row.get(terminal)
                if action is None:
                    continue
                if action >= 0:
                    accepted.add(terminal)
                else:
                    by_rule.setdefault(action, []).append(terminal)
            for action, group in by_rule.items():
                size, origin = reductions[-action - 1]
                popped = stack
                for _ in range(size):
                    popped = popped.parent  # type: ignore[assignment]
                if size <= height:
                    height_left, base_left = height - size, base
                else:
                    height_left, base_left = 0, base + size - height
                    deepest = max(deepest, base_left)
                pushed = StackNode(gotos[popped.state][origin], popped)
                pending.append((pushed, height_left + 1, base_left, group))
        return frozenset(accepted), deepest


def _top_states(node: StackNode, depth: int) -> tuple[int, ...]:
    """The states of ``node`` and the ``depth`` nodes below it (fewer at the bottom)."""
    states = []
    current: StackNode | None = node
    for _ in range(depth + 1):
        if current is None:
            break
        states.append(current.state)
        current = current.parent
    return tuple(states)


class StackInterner:
    """Hash-consing of stacks: the stacks it makes on :attr:`root` are one
    object per content (a parent's identity stands for its content)."""

    def __init__(self, tables: ParseTables) -> None:
        self.root = StackNode(tables.start_state, None)  # the stack before any input
        self._nodes: dict[tuple[int, int], StackNode] = {}

    def push(self, base: StackNode, states: Iterable[int]) -> StackNode:
        """The interned stack of ``states`` pushed on the interned stack ``base``."""
        nodes = self._nodes
        for state in states:
            key = (state, id(base))
            found = nodes.get(key)
            if found is None:
                found = nodes[key] = StackNode(state, base)
            base = found
        return base

    def intern(self, node: StackNode) -> StackNode:
        """The interned stack with the contents of ``node``, a stack pushed
        (without this interner) on an interned one."""
        nodes = self._nodes
        states = []
        while node is not self.root and nodes.get((node.state, id(node.parent))) is not node:
            states.append(node.state)
            node = node.parent  # type: ignore[assignment]
        return self.push(node, reversed(states))

    def clear(self) -> None:
        self._nodes.clear()


if not TYPE_CHECKING and native.AVAILABLE:
    StackInterner = native.StackInterner  # the same, in C
