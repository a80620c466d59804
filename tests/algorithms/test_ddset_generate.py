"""DDSET's generators: regex strings, grammar-bounded trees, derivation parsing, layout."""

from __future__ import annotations

import random
import re

import pytest

from inputmend.algorithms.ddset.generate import Generator
from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.algorithms.ddset.reduce import candidates
from inputmend.algorithms.ddset.regexgen import RegexGenerator, RegexUnsupported
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.trees import Layout, get, leaves, replace, walk


@pytest.mark.parametrize(
    "pattern",
    [
        r"[0-9]+",
        r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?",
        r'"(?:[^"\\]|\\.)*"',
        r"[^\s;#]+",
        r"(?i:select|insert)",
        r"(ab|cd){2,4}x?",
        r"(a|b)c\1",
        r"\w+\d\s",
        r"[a-f]",
        r".+",
        r"^a(?=b)b$",
    ],
)
def test_regex_strings_match(pattern: str) -> None:
    generator = RegexGenerator(pattern)
    rng = random.Random(0)
    compiled = re.compile(pattern)
    for _ in range(200):
        value = generator.generate(rng)
        assert compiled.fullmatch(value), (pattern, value)
    assert compiled.fullmatch(generator.generate(rng, minimal=True))


def test_negated_class_picks_printable_ascii_outside_the_set() -> None:
    generator = RegexGenerator(r"[^a-z0-9]")
    seen = {generator.generate(random.Random(seed)) for seed in range(300)}
    assert all(32 <= ord(c) < 127 and not re.fullmatch("[a-z0-9]", c) for c in seen)
    assert len(seen) > 10


def test_repeats_are_capped_and_minimal_is_shortest() -> None:
    generator = RegexGenerator(r"x*", repeat_cap=3)
    lengths = {len(generator.generate(random.Random(seed))) for seed in range(100)}
    assert lengths == {0, 1, 2, 3}
    assert RegexGenerator(r"ab+").generate(random.Random(1), minimal=True) == "ab"


def test_finite_languages_are_enumerated() -> None:
    assert RegexGenerator(r"[+-]").values() == ["+", "-"]
    assert RegexGenerator(r"(a|b)c?").values() == ["a", "ac", "b", "bc"]
    assert RegexGenerator(r"[0-9]+").values() is None


def test_unsupported_regex() -> None:
    with pytest.raises(RegexUnsupported):
        RegexGenerator(r"[^\x00-\x7f]")


@pytest.mark.parametrize("name", sorted(registry.bundled()))
def test_generated_instances_parse(name: str) -> None:
    """Every bundled grammar: bounded random trees print as text the grammar accepts."""
    model = GrammarModel(CompiledGrammar.load(name))
    generator = Generator(model, max_depth=6, max_size=30)
    layout = Layout("", [], model.space_ok)
    rng = random.Random(1)
    for attempt in range(60):
        tree = generator.tree(model.start, rng, depth=attempt % 7)
        assert tree.size <= 30 + 10  # the size budget, plus one cheapest completion
        text = layout.render(tree)
        assert model.accepts(text) or model.accepts(layout.render(tree, spaced=True)), text


def test_depth_zero_gives_a_smallest_instance() -> None:
    model = GrammarModel(CompiledGrammar.load("expr"))
    generator = Generator(model)
    for seed in range(20):
        tree = generator.tree("expr", random.Random(seed), depth=0)
        assert tree.size == 1
        assert re.fullmatch(r"[0-9]|[a-f]", leaves(tree)[0].text)


def test_model_analysis_of_expr() -> None:
    model = GrammarModel(CompiledGrammar.load("expr"))
    assert model.count("op") == 2
    assert model.count("PLUS") == 1
    assert model.count("expr") is None
    assert model.cost["expr"] == 1
    assert model.display("mulop") == "op"  # alias
    assert model.label("expr") == "<expr>"
    generator = Generator(model)
    values = generator.enumerate("op", 10)
    assert values is not None
    assert sorted(leaves(v)[0].text for v in values) == ["+", "-"]


def test_full_derivation_tree_and_layout_roundtrip() -> None:
    model = GrammarModel(CompiledGrammar.load("tinyc"))
    text = "  { i=1;\n  while (i<3)   i=i+1; }\n"
    tree, layout = model.parse(text)
    assert layout.render(tree) == text
    symbols = {node.symbol for _, node in walk(tree)}
    assert "__statement_star_0" in symbols or any(s.startswith("__") for s in symbols)
    # every node is an application of a compiled rule
    for _, node in walk(tree):
        if not node.is_leaf:
            rule = model.rules[node.rule]
            assert rule.origin == node.symbol
            assert rule.expansion == tuple(child.symbol for child in node.children)


def test_reduction_candidates_use_unit_chains() -> None:
    model = GrammarModel(CompiledGrammar.load("expr"))
    tree, layout = model.parse("1 + 2 * 3")
    expr = get(tree, (0,))
    texts = [layout.render(replace(tree, (0,), c)) for c in candidates(expr, model)]
    assert texts[:3] == ["1", "2", "3"]  # numbers wrapped back into expr -> term -> factor
    assert "2 * 3" in texts


def test_layout_gaps_for_generated_tokens() -> None:
    model = GrammarModel(CompiledGrammar.load("expr"))
    tree, layout = model.parse("(1 + 2)")
    generated = Generator(model).tree("expr", random.Random(3), depth=4)
    text = layout.render(replace(tree, (0, 0, 0, 1), generated))
    assert model.accepts(text)
    assert text.startswith("(") and not text.startswith("( ")
