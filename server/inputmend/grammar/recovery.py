"""The units of token-level ddmax, as a parser with error recovery sees the input."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lexer import Token, lex_typed
from inputmend.grammar.tables import ParseTables, StackNode, ValueNode

RECOVERY_REACH = 64  # tokens skipped / stack entries popped at most to recover


class _Recovery(NamedTuple):
    """How to go on after an error: resume at token ``resume`` on stack
    ``entry``; tokens from ``first_abandoned`` on were given up."""

    resume: int
    entry: StackNode
    first_abandoned: int


def recovery_units(
    grammar: CompiledGrammar, text: str, *, stop: Callable[[], None] | None = None
) -> list[tuple[int, int]]:
    """Units for syntactic ddmax as a parser with error recovery sees the input.

    Like the ANTLR parse tree of the ddmax paper (where `"price" 3.45` is one
    error node): the tokens the LALR parser accepts are units of their own;
    at an error it recovers in panic mode, popping the fewest stack entries
    and skipping the fewest tokens until a later token is accepted, and
    everything it abandons -- the popped construct's tokens and the skipped
    ones -- becomes one unit.  ``stop`` is called now and then (it may raise).
    Each stack entry's value is the index of the first token it covers.
    """
    tables = grammar.tables
    tokens = lex_typed(grammar, text, stop=stop)
    group = list(range(len(tokens)))  # tokens in one unit share a group number
    node = StackNode(tables.start_state, None)
    index = 0
    while index < len(tokens):
        if stop is not None and index % 512 == 0:
            stop()
        kind = tokens[index].type
        if kind is not None and tables.viable(node, kind):
            node = _shift(tables, node, kind, index)
            index += 1
            continue
        recovery = _recover(tables, tokens, node, index)
        if recovery is None:  # nothing later can be taken up: the rest is one unit
            for k in range(index, len(tokens)):
                group[k] = index
            break
        for k in range(recovery.first_abandoned, recovery.resume):
            group[k] = recovery.first_abandoned
        node = recovery.entry
        index = recovery.resume
    units: list[tuple[int, int]] = []
    for k, (_, start, end) in enumerate(tokens):
        if k > 0 and group[k] == group[k - 1]:
            units[-1] = (units[-1][0], end)
        else:
            units.append((start, end))
    return units


def _shift(tables: ParseTables, node: StackNode, kind: str, index: int) -> StackNode:
    """Feed a token the parser accepts; reduced entries start where their
    first symbol started."""

    def first_token(rule: int, starts: list[int]) -> int:
        return starts[0] if starts else index

    shifted = tables.shift_value(node, kind, index, first_token)
    assert shifted is not None  # the caller checked that the parser takes the token
    return shifted


def _recover(
    tables: ParseTables, tokens: list[Token], node: StackNode, index: int
) -> _Recovery | None:
    """The cheapest (popped entries + skipped tokens) way to go on after an
    error at ``tokens[index]``."""
    best: tuple[int, _Recovery] | None = None
    for resume in range(index, min(len(tokens), index + RECOVERY_REACH)):
        skipped = resume - index
        if best is not None and skipped >= best[0]:
            break
        kind = tokens[resume].type
        if kind is None:
            continue
        entry: StackNode | None = node
        depth, first = 0, index
        while entry is not None and depth < RECOVERY_REACH:
            if (depth or skipped) and tables.viable(entry, kind):
                cost = depth + skipped
                if best is None or cost < best[0]:
                    best = (cost, _Recovery(resume, entry, first))
                break
            if isinstance(entry, ValueNode):
                first = min(first, entry.value)
            entry = entry.parent
            depth += 1
    return None if best is None else best[1]
