"""The error-tolerant lexer's loop in C reads every text as its Python loop does."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from inputmend.grammar import native, registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import hints_beside
from inputmend.grammar.tolerant import GrammarLexer, Lexeme
from tests.conftest import ROOT
from tests.grammar.test_native import DOCUMENTS, _mutated

needs_c = pytest.mark.skipif(not native.AVAILABLE, reason="the C extension is not built")

BUNDLED = sorted(registry.bundled())

EXTRA = [
    "",
    " \n\t ",
    '{"é": "Renée ☃", "k": \'v\', x: True, "\u00a0": [1, 2,]}',
    '{"a": "unclosed string\n  "b": 1}',
    '"cut off at the end',
    "'cut off single",
    '/* a comment that never ends\n{"a": 1}',
    "# comment\n<!-- open comment\n[a]\nk = v",
    '"""doc\nstring',
    "\udce9\ufeff\u200b{…}",
    "<a x='1'>t &amp; <b/></a>\n- k: v\n  'q': [1, 2]\n",
]


def _lexers(name: str) -> tuple[GrammarLexer, GrammarLexer]:
    grammar = CompiledGrammar.load(name)
    hints = hints_beside(registry.bundled()[name].path)
    return GrammarLexer(grammar, hints), GrammarLexer(grammar, hints, native=False)


def _documents(name: str) -> list[str]:
    """Texts of the grammar's own: its test samples, a few corpus documents
    and the scan tests' document (each cut to a few thousand characters)."""
    found = [DOCUMENTS[name]] if name in DOCUMENTS else []
    for folder in (ROOT / "tests/grammars/samples" / name, ROOT / "tests/corpus" / name):
        if folder.is_dir():
            files = sorted(path for path in folder.iterdir() if path.is_file())[:4]
            found += [_read(path)[:3000] for path in files]
    return found


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "surrogateescape")


def _same(first: list[Lexeme], second: list[Lexeme], text: str) -> None:
    assert first == second, text
    assert [type(lexeme) for lexeme in first] == [Lexeme] * len(first)


@needs_c
@pytest.mark.parametrize("name", BUNDLED)
def test_the_c_loop_lexes_as_the_python_loop(name: str) -> None:
    in_c, in_python = _lexers(name)
    rng = random.Random(name)
    documents = _documents(name) + EXTRA
    texts = list(documents)
    for document in documents:
        texts += [_mutated(document, rng) for _ in range(12) if document]
        texts += [document[:cut] for cut in range(0, len(document), max(1, len(document) // 9))]
    for text in texts:
        for foreign in (True, False):
            found = in_c.lex(text, 0, len(text), foreign=foreign)
            _same(found, in_python.lex(text, 0, len(text), foreign=foreign), text)
        if text:  # a stretch of the text
            start = rng.randrange(len(text))
            end = rng.randrange(start, len(text) + 1)
            found = in_c.lex(text, start, end)
            _same(found, in_python.lex(text, start, end), text[start:end])


@needs_c
@pytest.mark.parametrize("name", BUNDLED)
def test_the_c_loop_reads_every_lexer_without_a_parser_context(name: str) -> None:
    """Contextual lexers (XML's, INI's) keep the Python loop: it follows the
    parser's states, which the C loop does not."""
    in_c, in_python = _lexers(name)
    assert (in_c._loop() is None) == in_c.hints.contextual
    assert in_python._loop() is None


@needs_c
def test_a_foreign_token_inside_the_c_loop_is_read_as_in_python() -> None:
    in_c, in_python = _lexers("json")
    text = '{\'a\': True, b: None, "c": "x\ty", "d": .5, "e": +1} // note\n/* open'
    found = in_c.lex(text, 0, len(text))
    _same(found, in_python.lex(text, 0, len(text)), text)
    assert {lexeme.foreign for lexeme in found} >= {
        "single-quoted string",
        "True -> true",
        "unquoted key",
        "None -> null",
        "// comment",
    }
    assert found[-1].partial or found[-1].foreign is not None


@needs_c
def test_a_long_text_of_many_records_is_lexed_as_in_python() -> None:
    in_c, in_python = _lexers("json")
    rng = random.Random(7)
    lines = [
        f'{{"id": {i}, "name": "user{i}", "ok": {"true" if i % 2 else "false"}, '
        f'"v": [{rng.random():.3f}, "é{i}"]}}\n'
        for i in range(400)
    ]
    text = _mutated("".join(lines), rng)
    for foreign in (True, False):
        found = in_c.lex(text, 0, len(text), foreign=foreign)
        _same(found, in_python.lex(text, 0, len(text), foreign=foreign), "records")


def test_a_lexer_without_the_c_loop_reads_alone() -> None:
    _, in_python = _lexers("json")
    text = '{"a": [1, true, "x"]}'
    assert [lexeme.value for lexeme in in_python.lex(text, 0, len(text))] == [
        "{",
        '"a"',
        ":",
        "[",
        "1",
        ",",
        "true",
        ",",
        '"x"',
        "]",
        "}",
    ]


@needs_c
def test_a_loop_made_without_its_tables_says_so() -> None:
    from inputmend.grammar import _native  # type: ignore[attr-defined]

    with pytest.raises(ValueError, match="not initialized"):
        loop = _native.Tolerant.__new__(_native.Tolerant)
        loop.lex("{}", 0, 2, None, [], print, None, None, None, 1)


@needs_c
def test_the_foreign_tokens_tried_at_a_character_are_asked_once_per_text() -> None:
    """The C loop asks which foreign tokens to try at a character the first
    time it meets it in a text, for all the text's stretches after."""
    in_c, in_python = _lexers("json")
    text = '{"a": \'x\', "b": True, "c": 1}\n' * 50
    asked: list[int] = []
    tries = in_c._foreign.tries

    def counted(held: Any, code: int) -> Any:
        asked.append(code)
        return tries(held, code)

    in_c._foreign.tries = counted  # type: ignore[method-assign]
    found = in_c.lex(text, 0, len(text) // 2) + in_c.lex(text, len(text) // 2, len(text))
    assert found == in_python.lex(text, 0, len(text) // 2) + in_python.lex(
        text, len(text) // 2, len(text)
    )
    assert sorted(asked) == sorted(set(asked))
    assert {chr(code) for code in asked} >= {'"', ",", "1"}


@needs_c
def test_foreign_tokens_of_the_wrong_shape_are_a_clear_error() -> None:
    in_c, _ = _lexers("json")
    loop = in_c._loop()
    with pytest.raises(ValueError, match="tries"):
        loop.lex('"a"', 0, 3, True, [], print, [None] * 3, print, print, 4096)
    with pytest.raises(TypeError, match="tuple"):
        loop.lex('"a"', 0, 3, True, [], print, [None] * 128, lambda code: [code], print, 4096)
