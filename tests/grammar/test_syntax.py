"""The syntax roles derived from a grammar and its hints."""

from __future__ import annotations

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.syntax import NO_SYNTAX, syntax_of


def test_roles_come_from_the_grammar_and_its_hints() -> None:
    json = syntax_of(CompiledGrammar.load("json"))
    assert json.brackets is not None
    assert set(json.brackets.openers) == {"{", "["}
    assert set(json.brackets.closers) == {"}", "]"}
    assert json.filler == "null"
    assert json.quotes == json.brackets.quotes


def test_a_grammar_without_nesting_brackets_has_none() -> None:
    ini = syntax_of(CompiledGrammar.load("ini"))
    assert ini.brackets is None
    assert ini.quotes == ()


def test_roles_are_derived_once_per_grammar() -> None:
    grammar = CompiledGrammar.load("sexp")
    assert syntax_of(grammar) is syntax_of(grammar)
    assert NO_SYNTAX.brackets is None and NO_SYNTAX.filler is None
