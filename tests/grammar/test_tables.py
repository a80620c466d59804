"""Flat LALR tables, the persistent stack and its interning."""

from __future__ import annotations

import pytest

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lark_internals import END
from inputmend.grammar.tables import ParseTables, StackInterner, StackNode, ValueNode


@pytest.fixture(scope="module")
def tables() -> ParseTables:
    return CompiledGrammar.load("json").tables


def _stack(tables: ParseTables, terminals: list[str]) -> StackNode:
    node = StackNode(tables.start_state, None)
    for terminal in terminals:
        shifted = tables.shift(node, terminal)
        assert shifted is not None, terminal
        node = shifted
    return node


def test_shift_reduces_then_shifts_on_a_persistent_stack(tables: ParseTables) -> None:
    array = _stack(tables, ["LSQB", "NUMBER"])
    comma = tables.shift(array, "COMMA")  # after reducing the number to a value
    assert comma is not None and comma.parent is not array
    assert tables.shift(array, "RSQB") is not None  # the old stack is unchanged
    assert tables.shift(array, "COLON") is None
    assert tables.shift(_stack(tables, ["NUMBER"]), END) is None


def test_viable_and_acceptable(tables: ParseTables) -> None:
    start = StackNode(tables.start_state, None)
    assert tables.viable(start, "LBRACE") and not tables.viable(start, "COLON")
    assert not tables.viable(start, END)
    in_object = _stack(tables, ["LBRACE", "STRING"])
    assert tables.acceptable(in_object) == frozenset({"COLON"})
    after_value = _stack(tables, ["LSQB", "NUMBER"])
    assert tables.acceptable(after_value) == frozenset({"COMMA", "RSQB"})
    assert tables.viable(_stack(tables, ["LSQB", "RSQB"]), END)
    # memoized on the top states: the same answer for an equal, separate stack
    assert tables.acceptable(_stack(tables, ["LSQB", "NUMBER"])) is tables.acceptable(after_value)


def test_equal_stacks_are_one_object_and_known_ones_cost_nothing(tables: ParseTables) -> None:
    interner = StackInterner(tables)
    first = interner.push(interner.root, [3, 5, 7])
    assert interner.push(interner.root, [3, 5, 7]) is first
    assert interner.push(interner.push(interner.root, [3]), [5, 7]) is first
    assert interner.push(interner.root, [3, 5, 8]) is not first
    assert interner.push(first, []) is first
    built = StackNode(7, StackNode(5, interner.push(interner.root, [3])))
    assert interner.intern(built) is first
    interner.clear()
    assert interner.push(interner.root, [3, 5, 7]) is not first


def test_a_stack_lists_its_states_from_the_bottom(tables: ParseTables) -> None:
    interner = StackInterner(tables)
    stack = interner.push(interner.root, [3, 5, 7])
    assert stack.states() == [interner.root.state, 3, 5, 7]
    assert ValueNode(9, stack, "value").states() == [interner.root.state, 3, 5, 7, 9]
    deep = interner.push(interner.root, list(range(100_000)))
    assert deep.states()[-3:] == [99_997, 99_998, 99_999]


def test_values_follow_the_reductions(tables: ParseTables) -> None:
    rules = CompiledGrammar.load("json").rules

    def reduce(rule: int, children: list[str]) -> str:
        return f"{rules[rule].origin}({' '.join(children)})"

    node: StackNode = StackNode(tables.start_state, None)
    for terminal in ["LSQB", "NUMBER", "RSQB"]:
        shifted = tables.shift_value(node, terminal, terminal.lower(), reduce)
        assert isinstance(shifted, ValueNode)
        node = shifted
    assert tables.shift_value(node, "LSQB", "lsqb", reduce) is None
    tree = "start(value(array(lsqb value(number(number)) rsqb)))"
    assert tables.finish_value(node, reduce) == tree
    unfinished = tables.shift_value(StackNode(tables.start_state, None), "LSQB", "[", reduce)
    assert unfinished is not None and tables.finish_value(unfinished, reduce) is None
