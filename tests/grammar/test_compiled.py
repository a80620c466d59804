"""The one analysis of a grammar: terminals, literals, ignored terminals, names."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.grammar.compiled import CompiledGrammar


@pytest.fixture(scope="module")
def keywords(tmp_path_factory: pytest.TempPathFactory) -> CompiledGrammar:
    path = tmp_path_factory.mktemp("grammar") / "keywords.lark"
    path.write_text(
        'start: (IF | NAME | ARROW)*\nIF: "if"i\nNAME: /[a-z]+/\nARROW: "->"\n'
        "COMMENT: /#[^\\n]*/\n%ignore COMMENT\n%ignore /[ \\n]+/\n"
    )
    return CompiledGrammar.load(str(path))


def test_terminals(keywords: CompiledGrammar) -> None:
    terminal = keywords.terminals["IF"]
    assert terminal.literal == "if" and terminal.fixed is None  # "if"i also matches "IF"
    assert keywords.terminals["ARROW"].fixed == "->"
    assert keywords.terminals["NAME"].literal is None
    assert keywords.literals == {"IF": "if", "ARROW": "->"}
    assert "COMMENT" in keywords.ignored
    assert keywords.patterns["NAME"].fullmatch("abc") is not None
    assert keywords.terminals["ARROW"].first_chars == frozenset("-")


def test_lexing_order_prefers_literals_then_patterns_then_layout(keywords: CompiledGrammar) -> None:
    order = [t.name for t in keywords.lexing_order]
    assert order.index("ARROW") < order.index("NAME") < order.index("COMMENT")
    assert order.index("IF") < order.index("NAME")


def test_names_for_users() -> None:
    grammar = CompiledGrammar.load("json")
    assert grammar.display("COLON") == "`:`"
    assert grammar.display("STRING") == "string"
    assert grammar.display("$END") == "end of input"
    assert grammar.expected({"COLON", "RBRACE", "WS"}) == "`:`, `}`"
    assert grammar.expected(set()) == "nothing more"
    many = {t for t in grammar.terminals if t not in grammar.ignored}
    assert grammar.expected(many).endswith("…")


def test_partial_tokens() -> None:
    grammar = CompiledGrammar.load("json")
    assert grammar.starters('"') >= {"STRING"}
    assert "NUMBER" not in grammar.starters('"')
    assert grammar.partial_extent("[tru", 1, {"TRUE", "FALSE"}) == 3
    assert grammar.partial_extent("[tru", 1, {"FALSE"}) == 0
    assert grammar.partial_extent("[ 1", 1, set()) == 1  # whitespace is always allowed
    assert grammar.partial_extent('"abc', 0, {"STRING"}, end=2) == 2


def test_tables_and_scanners_are_built_once() -> None:
    grammar = CompiledGrammar.load("json")
    assert grammar.tables is grammar.tables
    assert grammar.scanners is grammar.scanners
    assert grammar.tables.start_state in grammar.scanners


def test_a_grammar_file_that_does_not_exist(tmp_path: Path) -> None:
    from inputmend.core.oracle import OracleConfigError

    with pytest.raises(OracleConfigError, match="grammar file not found"):
        CompiledGrammar.load(str(tmp_path / "missing.lark"))


def test_a_grammar_is_loaded_once_and_again_when_its_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "mine.lark"
    path.write_text('start: "a"\n')
    first = CompiledGrammar.load(str(path))
    assert CompiledGrammar.load(str(path)) is first
    assert CompiledGrammar.load("mine.lark", base_dir=tmp_path) is first
    path.write_text('start: "a" "b"\n')  # another size: a change even within the clock's tick
    again = CompiledGrammar.load(str(path))
    assert again is not first and set(again.literals.values()) == {"a", "b"}
    assert CompiledGrammar.load("json") is CompiledGrammar.load("json")
