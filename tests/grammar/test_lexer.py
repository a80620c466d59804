"""The contextual scanner and the error-tolerant lexer."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lexer import Token, lex_tokens, lex_typed, next_match


@pytest.fixture(scope="module")
def json() -> CompiledGrammar:
    return CompiledGrammar.load("json")


def _pieces(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[start:end] for start, end in spans]


def test_error_tolerant_lexing_of_corrupt_text(json: CompiledGrammar) -> None:
    text = '{ "a": tru, *3.5 }'
    assert lex_typed(json, text) == [
        Token("LBRACE", 0, 1),
        Token("STRING", 2, 5),
        Token("COLON", 5, 6),
        Token(None, 7, 8),  # `t`, `r`, `u`: no terminal matches them
        Token(None, 8, 9),
        Token(None, 9, 10),
        Token("COMMA", 10, 11),
        Token(None, 12, 13),
        Token("NUMBER", 13, 16),
        Token("RBRACE", 17, 18),
    ]
    assert _pieces("true  false", lex_tokens(json, "true  false")) == ["true", "false"]
    assert lex_tokens(json, "") == []


def test_the_longest_match_wins_and_literals_win_ties(tmp_path: Path) -> None:
    path = tmp_path / "kw.lark"
    path.write_text('start: (IF | NAME)*\nIF: "if"\nNAME: /[a-z]+/\n%ignore " "\n')
    grammar = CompiledGrammar.load(str(path))
    assert [t.type for t in lex_typed(grammar, "if iffy")] == ["IF", "NAME"]


def test_stop_is_called_and_may_abort(json: CompiledGrammar) -> None:
    calls = []

    class Stopped(Exception):
        pass

    def stop() -> None:
        calls.append(1)
        if len(calls) > 2:
            raise Stopped

    with pytest.raises(Stopped):
        lex_typed(json, "[" + "1," * 5000 + "1]", stop=stop)


def test_the_contextual_scanner_of_a_state(json: CompiledGrammar) -> None:
    scanner = json.scanners[json.tables.start_state]
    match = next_match(scanner, '  "abc" x', 2)
    assert (match.lastgroup, match.end()) == ("STRING", 7)
    assert next_match(scanner, ":", 0) is None  # not acceptable at the start


def test_long_alternatives_tried_first_are_watched() -> None:
    # lark tries DOT's block comment before a name: on `/x` it may scan far
    # ahead, so names are watched for it; JSON has no such alternatives
    dot = CompiledGrammar.load("dot")
    block_comment = dot.patterns["BLOCK_COMMENT"]
    watched = [
        pattern
        for scanner in dot.scanners.values()
        for _, pattern in scanner.watch.get("IDENT", ())
    ]
    assert block_comment in watched
    json = CompiledGrammar.load("json")
    assert not any(scanner.watch for scanner in json.scanners.values())
