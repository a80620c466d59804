"""The syntax roles derived from a grammar and its hints."""

from __future__ import annotations

import regex

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import Hints, Rewrite
from inputmend.grammar.syntax import NO_SYNTAX, Comments, spanning_openers, syntax_of


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


def test_comments_come_from_the_layout_terminals() -> None:
    assert syntax_of(CompiledGrammar.load("yaml")).comments == Comments(line=("#",))
    # INI's comments are a rule's tokens, named layout by its hints
    assert syntax_of(CompiledGrammar.load("ini")).comments == Comments(line=("#", ";"))
    jsonc = syntax_of(CompiledGrammar.load("jsonc")).comments
    assert jsonc == Comments(line=("//",), block=(("/*", "*/"),), spanning=("/*",))
    assert syntax_of(CompiledGrammar.load("xml")).comments.block == (("<!--", "-->"),)
    # JSON has no comments; its hints read foreign ones, a block comment among them
    assert syntax_of(CompiledGrammar.load("json")).comments == Comments(spanning=("/*",))


def test_the_openers_of_comments_that_may_hold_a_line_break() -> None:
    def spanning(name: str) -> tuple[str, ...]:
        return syntax_of(CompiledGrammar.load(name)).comments.spanning

    # block comments of the grammar: their opener's first two characters
    assert spanning("jsonc") == ("/*",)
    assert spanning("dot") == ("/*",)
    assert spanning("sexp") == ("#|",)
    assert spanning("xml") == ("<!",)
    # line comments hold no line break; TOML's foreign `/* */` of its hints does
    assert spanning("yaml") == ()
    assert spanning("ini") == ()
    assert spanning("toml") == ("/*",)
    # no comments, none in the hints either
    assert spanning("cjson") == ()


def test_a_spanning_comment_of_the_hints_only_when_it_is_a_comment() -> None:
    # a foreign token that is no comment (a string over lines) opens none,
    # nor a comment pattern that starts with a letter or holds no line break
    hints = Hints(
        tokens=(
            Rewrite("string", regex.compile(r'"[^"]*"'), kind="token"),
            Rewrite("rem", regex.compile(r"REM[\s\S]*?END"), kind="comment"),
            Rewrite("line", regex.compile(r"--[^\n]*"), kind="comment"),
            Rewrite("block", regex.compile(r"\(\*[\s\S]*?\*\)"), kind="comment"),
        )
    )
    assert spanning_openers(None, hints) == frozenset({"(*"})


def test_a_terminal_of_the_rest_of_a_line_that_is_not_layout_is_no_comment() -> None:
    # YAML's %DIRECTIVE runs to the end of its line too
    assert "%" not in syntax_of(CompiledGrammar.load("yaml")).comments.line


def test_string_quotes_and_how_a_quote_is_written_inside() -> None:
    yaml = {quote.quote: quote.escape for quote in syntax_of(CompiledGrammar.load("yaml")).strings}
    assert yaml == {'"': "backslash", "'": "double"}
    toml = syntax_of(CompiledGrammar.load("toml")).strings
    assert {quote.quote: quote.escape for quote in toml} == {'"': "backslash", "'": None}
    assert [quote.quoted("it's") for quote in toml] == ['"it\'s"', None]
    assert syntax_of(CompiledGrammar.load("csv")).strings[0].quoted('a "b"') == '"a ""b"""'
    assert syntax_of(CompiledGrammar.load("ini")).strings == ()
