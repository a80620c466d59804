"""The error-tolerant lexer's loop in C reads every text as its Python loop does."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from inputmend.grammar import native, registry, tolerant
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
@pytest.mark.parametrize("reached", [False, True])
@pytest.mark.parametrize("name", BUNDLED)
def test_the_c_loop_lexes_as_the_python_loop(
    name: str, reached: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the foreign tokens' reach automata (``reached``: built for any
    text, not only a long one) and without."""
    if reached:
        monkeypatch.setattr(tolerant, "REACHED_FROM", 0)
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
        loop.lex("{}", 0, 2, None, [], print, None, None, None, 1, None)


@needs_c
def test_the_foreign_tokens_tried_at_a_character_are_asked_once_per_text() -> None:
    """The C loop asks which foreign tokens to try at a character the first
    time it meets it in a text, for all the text's stretches after."""
    in_c, in_python = _lexers("json")
    text = '{"a": \'x\', "b": True, "c": 1}\n' * 50
    asked: list[int] = []
    tries = in_c._foreign.tries

    def counted(held: Any, numbers: Any, code: int) -> Any:
        asked.append(code)
        return tries(held, numbers, code)

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
        loop.lex('"a"', 0, 3, True, [], print, [None] * 3, print, print, 4096, None)
    with pytest.raises(TypeError, match="tuple"):
        loop.lex('"a"', 0, 3, True, [], print, [None] * 128, lambda code: [code], print, 4096, None)


def _ends(dfa: tuple[Any, ...], text: str, start: int) -> set[int]:
    """Where the reach automaton ``dfa`` marks an end, walked from ``start``."""
    _, width, state, ascii_classes, high, table, ends = dfa
    found: set[int] = set()
    for index in range(start, len(text)):
        code = ord(text[index])
        cls = ascii_classes[code] if code < 128 else high
        if cls < 0:
            return set(range(index, len(text) + 1)) | found  # not followed: anything
        state = table[state * width + cls]
        if state < 0:
            break
        if ends[state] >= 0:
            found.add(index + 1)
    return found


@pytest.mark.parametrize("name", ["json", "jsonc", "yaml", "toml", "xml", "dot"])
def test_every_foreign_token_ends_where_its_reach_automaton_says_one_may(name: str) -> None:
    """The automaton reads the pattern without its lookarounds: every match
    of the pattern is one of its texts, so a place where it ends none
    before a token's end has no foreign token that reaches that far."""
    hints = hints_beside(registry.bundled()[name].path)
    rng = random.Random(name)
    pieces = ['"', "'", "a", "Z", " ", "\\", "\n", "\t", ",", ":", "}", "]", "True", "+", "/*"]
    pieces += ["*/", "<", ">", "#", ".", "...", "0", "12", "-", "=", "\u2026", "\u201c", "é"]
    built = 0
    for rewrite in hints.tokens:
        dfa = tolerant.reach_dfa(rewrite.pattern.pattern, rewrite.pattern.flags)
        if dfa is None:
            continue
        built += 1
        for _ in range(60):
            text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 24)))
            for position in range(len(text)):
                found = rewrite.pattern.match(text, position)
                if found is not None and found.end() > position:
                    assert found.end() in _ends(dfa, text, position), (rewrite.name, text)
    assert built


def test_a_possessive_repeat_has_the_reach_automaton_of_a_greedy_one() -> None:
    """A repeat that gives nothing back reads what a greedy one reads, so a
    hint written with one (to fail fast) keeps its automaton, which a long
    text's lexing uses to rule it out."""
    greedy = r'"(?:[^"\\\r\n]|\\.)*(?<!,)"(?=[ \t]*[,}\]])'
    possessive = greedy.replace(")*", ")*+")
    assert possessive != greedy
    found = tolerant.reach_dfa(possessive, 0)
    assert found is not None
    assert found == tolerant.reach_dfa(greedy, 0)


def test_a_negative_lookahead_keeps_out_of_the_automaton_the_characters_it_refuses() -> None:
    """A negative lookahead whose pattern matches a character alone refuses
    that character next: a string with a quote inside that no colon may
    follow has no match in a key and the value after it, and its automaton
    says so (without the lookahead it reads on to the value's end)."""
    pattern = r'"[^"\n]*"(?![ \t]*[:,])[^"\n]*"'
    text = '"id": "x"'
    assert re.match(pattern, text) is None
    guarded = tolerant.reach_dfa(pattern, 0)
    unguarded = tolerant.reach_dfa(pattern.replace("(?![ \\t]*[:,])", ""), 0)
    assert guarded is not None and unguarded is not None
    assert _ends(unguarded, text, 0) == {text.index("x")}
    assert _ends(guarded, text, 0) == set()
    assert _ends(guarded, '"a"b"', 0) == {5}


@pytest.mark.parametrize(
    "lookahead",
    [r"(?![ \t]*+[ \t])", r"(?!(?>[ \t]*)[ \t])", r"(?!\w)", r"(?![ \t]x)", r"(?!$)"],
)
def test_a_negative_lookahead_it_cannot_read_whole_refuses_nothing(lookahead: str) -> None:
    """Where the lookahead's pattern may refuse a text its characters spell
    (a possessive repeat, an atomic group), holds a category, or matches no
    character alone, the automaton reads on as without it."""
    pattern = '"a"' + lookahead + '[^"]*"'
    plain = tolerant.reach_dfa('"a"[^"]*"', 0)
    assert plain is not None
    assert tolerant.reach_dfa(pattern, 0) == plain


@needs_c
def test_short_texts_read_in_all_as_much_as_a_long_one_build_the_reach_automata() -> None:
    """The repairs of many records read as many characters as a long
    document: the automata are built then, and the lexemes stay the same."""
    in_c, in_python = _lexers("json")
    record = '{"id": 1, "name": "user", \'tags\': ["a", "b"], "ok": True, "x": .5}'
    read = 0
    while read < tolerant.REACHED_FROM:
        assert in_c._reaches[0] is None
        text = record.replace("1", str(read))  # each record a text of its own
        assert in_c.lex(text, 0, len(text)) == in_python.lex(text, 0, len(text))
        read += len(text)
    assert in_c._reaches[0] is not None
    assert in_c.lex(record, 0, len(record)) == in_python.lex(record, 0, len(record))


@needs_c
def test_a_long_text_runs_the_foreign_tokens_it_cannot_rule_out_only() -> None:
    """In a document long enough for the reach automata, a pattern runs only
    where a match of it could reach the end of the token there: a string's
    hints for line breaks and lone quotes do not run at every string."""
    in_c, in_python = _lexers("json")
    line = '{"id": 1, "name": "user", "tags": ["a", "b"], "ok": true, "x": 0.5}\n'
    text = line * (tolerant.REACHED_FROM // len(line) + 1)
    runs = {"reached": 0, "all": 0}
    tries = in_c._foreign.tries

    def counted(held: Any, numbers: Any, code: int) -> Any:
        key = "reached" if numbers else "all"

        def run(match: Any) -> Any:
            def counted_match(*args: Any) -> Any:
                runs[key] += 1
                return match(*args)

            return counted_match

        return tuple((run(m), last, r, n) for m, last, r, n in tries(held, numbers, code))

    in_c._foreign.tries = counted  # type: ignore[method-assign]
    found = in_c.lex(text, 0, len(text))
    assert found == in_python.lex(text, 0, len(text))
    short = text[: tolerant.REACHED_FROM // 2]
    fresh, _ = _lexers("json")
    fresh._foreign.tries = counted  # type: ignore[method-assign]
    assert fresh.lex(short, 0, len(short)) == in_python.lex(short, 0, len(short))
    per_line = {key: count / text.count("\n") for key, count in runs.items()}
    per_line["all"] = runs["all"] / short.count("\n")
    assert per_line["reached"] < per_line["all"] / 3
