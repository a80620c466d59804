"""Full derivation trees, and printing them back as text."""

from __future__ import annotations

import pytest

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.trees import (
    DerivationError,
    Layout,
    derivation_tree,
    in_language,
    leaves,
    walk,
)


@pytest.fixture(scope="module")
def expr() -> CompiledGrammar:
    return CompiledGrammar.load("expr")


def test_every_rule_application_is_a_node(expr: CompiledGrammar) -> None:
    text = "(1 + a) * 2"
    tree = derivation_tree(expr, text)
    assert tree.symbol == expr.info.start
    for _, node in walk(tree):
        if not node.is_leaf:
            rule = expr.rules[node.rule]
            assert rule.origin == node.symbol
            assert rule.expansion == tuple(child.symbol for child in node.children)
    tokens = leaves(tree)
    assert [leaf.text for leaf in tokens] == ["(", "1", "+", "a", ")", "*", "2"]
    assert [leaf.origin for leaf in tokens] == [0, 1, 3, 5, 6, 8, 10]
    assert tree.size == 7
    spans = [(t.origin, t.origin + len(t.text), t.symbol) for t in tokens if t.origin is not None]
    assert Layout(text, spans, space_ok=True).render(tree) == text


def test_texts_outside_the_language(expr: CompiledGrammar) -> None:
    with pytest.raises(DerivationError, match="unexpected `\\)` at offset 2"):
        derivation_tree(expr, "1 )")
    with pytest.raises(DerivationError, match="unexpected end of input at offset 3"):
        derivation_tree(expr, "1 +")
    with pytest.raises(DerivationError, match="at offset 0"):
        derivation_tree(expr, "%")
    assert in_language(expr, "1 + 2") and not in_language(expr, "1 +")


def test_deep_inputs_need_no_recursion(expr: CompiledGrammar) -> None:
    depth = 20_000
    tree = derivation_tree(expr, "(" * depth + "1" + ")" * depth)
    assert tree.size == 2 * depth + 1
