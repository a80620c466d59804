"""Error-tolerant lexing with foreign tokens: roles, canonical values, cut-off tokens."""

from __future__ import annotations

import random

import pytest

from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import hints_beside
from inputmend.grammar.tolerant import (
    GenericLexer,
    GrammarLexer,
    Lexeme,
    Role,
    _ForeignTokens,
    _Held,
)


def _lexer(name: str) -> GrammarLexer:
    return GrammarLexer(CompiledGrammar.load(name), hints_beside(registry.bundled()[name].path))


@pytest.fixture(scope="module")
def json() -> GrammarLexer:
    return _lexer("json")


def _read(lexemes: list[Lexeme]) -> list[tuple[str | None, str, str]]:
    return [(t.kind, t.value, t.role.value) for t in lexemes]


def _lex(lexer: GrammarLexer | GenericLexer, text: str, *, foreign: bool = True) -> list[Lexeme]:
    return lexer.lex(text, 0, len(text), foreign=foreign)


def test_foreign_tokens_stand_for_their_canonical_form(json: GrammarLexer) -> None:
    text = "{'a': True, b: None} // note"
    assert _read(_lex(json, text)) == [
        ("LBRACE", "{", "structure"),
        ("STRING", '"a"', "data"),
        ("COLON", ":", "structure"),
        ("TRUE", "true", "data"),
        ("COMMA", ",", "structure"),
        ("STRING", '"b"', "data"),
        ("COLON", ":", "structure"),
        ("NULL", "null", "data"),
        ("RBRACE", "}", "structure"),
        (None, "", "layout"),  # the comment: removed
    ]
    assert [t.foreign for t in _lex(json, text)][:2] == [None, "single-quoted string"]


def test_without_foreign_tokens_the_same_text_is_junk(json: GrammarLexer) -> None:
    assert [t.role for t in _lex(json, "'a'", foreign=False)] == [Role.JUNK] * 3


def test_valid_text_is_read_as_the_grammar_reads_it(json: GrammarLexer) -> None:
    text = '{"url": "http://x.org/#a", "n": -1.5e3}'
    lexemes = _lex(json, text)
    assert all(t.foreign is None or t.value == text[t.start : t.end] for t in lexemes)
    assert [t.value for t in lexemes][3] == '"http://x.org/#a"'


@pytest.mark.parametrize("name", ["json", "jsonc"])
def test_only_a_string_with_inner_quotes_is_read_as_one_with_unescaped_quotes(
    name: str,
) -> None:
    lexer = _lexer(name)
    valid = _lex(lexer, '{"a": "say hi", "b": "x\\"y"}')
    assert [t.foreign for t in valid if t.kind == "STRING"] == [None] * 4
    inner = _lex(lexer, '{"a": "say "hi" now"}')
    assert [t.foreign for t in inner if t.kind == "STRING"] == [
        None,
        "unescaped quote in a string",
    ]


def test_a_token_cut_off_by_the_end_is_partial(json: GrammarLexer) -> None:
    last = _lex(json, '["fo')[-1]
    assert (last.kind, last.value, last.partial) == ("STRING", '"fo', True)
    assert _lex(json, '["fo"]')[1].partial is False
    assert _lex(json, "[tr")[-1].kind == "TRUE"


def test_a_cut_off_token_is_partial_also_where_a_shorter_token_matches() -> None:
    toml = _lexer("toml")
    # `""` is an empty string, but the text ends inside a `"""` string (of the
    # kind of strings, as the hints say)
    last = _lex(toml, 'a = """\nWelcome ')[-1]
    assert (last.kind, last.value, last.partial) == ("BASIC_STRING", '"""\nWelcome ', True)
    assert [t.value for t in _lex(toml, 'a = ""\nb = 1')] == ["a", "=", '""', "b", "=", "1"]


def test_a_comment_that_lost_its_end_reads_to_the_end_of_its_line() -> None:
    dot = _lexer("dot")
    text = "digraph {\n  a -> b; /* old\n  c -> d;\n}\n"
    assert [(t.value, t.role.value) for t in _lex(dot, text)][6:] == [
        ("/* old", "layout"),
        ("c", "data"),
        ("->", "structure"),
        ("d", "data"),
        (";", "structure"),
        ("}", "structure"),
    ]
    # a comment that does end reads as one, over its lines
    closed = _lex(dot, "digraph {\n  /* old\n  c */ d;\n}\n")
    assert [t.value for t in closed][2:4] == ["/* old\n  c */", "d"]


def test_roles_follow_lark_conventions_and_the_hints(json: GrammarLexer) -> None:
    ini = _lexer("ini")
    roles = {t.kind: t.role for t in _lex(ini, "[s]\na = 1\n; note\n")}
    assert roles["COMMENT"] is Role.LAYOUT  # declared in ini.hints.toml
    jsonc = GrammarLexer(CompiledGrammar.load("jsonc"))
    assert [t.role for t in _lex(jsonc, "[1 /* c */]")] == [
        Role.STRUCTURE,
        Role.DATA,
        Role.LAYOUT,  # an ignored terminal that is not whitespace
        Role.STRUCTURE,
    ]


def test_a_contextual_lexer_reads_tokens_as_the_parser_would() -> None:
    text = '<note day="mon">tea</note>'
    plain = GrammarLexer(CompiledGrammar.load("xml"))  # longest match: a run of text
    assert ("ATT_TEXT_APOS", ' day="mon">tea', "data") in _read(_lex(plain, text))
    assert _read(_lex(_lexer("xml"), text)) == [  # xml.hints.toml: contextual = true
        ("TAG_OPEN", "<note", "data"),
        ("ATTR_NAME", "day", "data"),
        ("EQUAL", "=", "structure"),
        ("QUOT", '"', "structure"),
        ("TEXT", "mon", "data"),  # [kinds]: text in a value or between tags
        ("QUOT", '"', "structure"),  # the closing quote: a tag's end may follow
        ("TAG_CLOSE", ">", "structure"),
        ("TEXT", "tea", "data"),
        ("END_TAG_OPEN", "</note", "structure"),  # its name is the start tag's: no data
        ("TAG_CLOSE", ">", "structure"),
    ]
    # broken text: where nothing the parser expects matches, any terminal does
    broken = _lex(_lexer("xml"), '<a b="1"c="2">')  # no blank before `c`
    assert [t.role for t in broken if t.role is Role.JUNK] == []
    assert [t.value for t in broken if t.guessed] == ['c="2">']  # read as any text
    doubled = _lex(_lexer("xml"), '<a b=="1"/>')
    assert [(t.kind, t.guessed) for t in doubled][2:4] == [("EQUAL", False), ("EQUAL", True)]


def test_hints_may_say_two_terminals_hold_one_kind_of_value() -> None:
    csv = _lexer("csv")
    assert {t.kind for t in _lex(csv, 'a,"b"\n') if t.role is Role.DATA} == {"TEXT"}


def test_a_foreign_token_wins_a_tie_with_a_terminal() -> None:
    ini = _lexer("ini")
    (comment,) = _lex(ini, "// TODO check this value")
    assert (comment.value, comment.role, comment.foreign) == (
        "; TODO check this value",
        Role.LAYOUT,
        "// comment line",
    )
    assert _lex(ini, "// url: x")[0].foreign is None  # a name and a value: valid INI


def test_a_yaml_list_item_reads_as_its_dash_and_its_value_in_a_window_of_any_start() -> None:
    yaml = _lexer("yaml")
    text = "  - tokio\n  keep in sync\n"
    assert _read(_lex(yaml, text, foreign=False)) == [
        ("DASH", "-", "structure"),
        ("PLAIN", "tokio", "data"),
        ("PLAIN", "keep in sync", "data"),
    ]


def test_a_window_may_start_anywhere_and_its_last_token_reach_beyond(json: GrammarLexer) -> None:
    text = '[1, "long string", 3]'
    lexemes = json.lex(text, 4, 6)
    assert [(t.start, t.end) for t in lexemes] == [(4, 17)]


def test_the_generic_lexer_reads_words_numbers_strings_and_punctuation() -> None:
    lexer = GenericLexer()
    assert _read(_lex(lexer, "key = 'a b', n=1.5; x_1 \"cut")) == [
        ("WORD", "key", "data"),
        ("PUNCT", "=", "structure"),
        ("STRING", "'a b'", "data"),
        ("PUNCT", ",", "structure"),
        ("WORD", "n", "data"),
        ("PUNCT", "=", "structure"),
        ("NUMBER", "1.5", "data"),
        ("PUNCT", ";", "structure"),
        ("WORD", "x_1", "data"),
        ("STRING", '"cut', "data"),
    ]
    assert _lex(lexer, '"cut')[0].partial


@pytest.mark.parametrize(
    ("grammar", "text", "value"),
    [
        ("dot", 'a [style=rounded,filled"];\nb [label="x"];', '"rounded,filled"'),
        ("dot", 'a -> b\nauth node" -> c\nd [label="x"]', '"auth node"'),
        ("dot", 'a -- build node" -- c;\nd [label="x"];', '"build node"'),
        ("sexp", '(load src/data/"\n  (f "x"))', '"src/data/"'),
    ],
)
def test_a_value_that_lost_its_opening_quote_reads_as_the_value(
    grammar: str, text: str, value: str
) -> None:
    """Not as a string opened by the quote left and running on over the next
    lines: the repair that puts the opening quote back keeps every token."""
    values = [t.value for t in _lex(_lexer(grammar), text)]
    assert value in values
    assert '"x"' in values


def test_ids_and_strings_that_have_both_quotes_read_as_before() -> None:
    dot = _read(_lex(_lexer("dot"), 'a -> b [label="big box", color=red];'))
    assert [value for _, value, _ in dot] == [
        *("a", "->", "b", "[", "label", "=", '"big box"', ",", "color", "=", "red", "]", ";")
    ]
    sexp = _read(_lex(_lexer("sexp"), '(f "a b" c)'))
    assert [value for _, value, _ in sexp] == ["(", "f", '"a b"', "c", ")"]


class _EveryCharacterLooked(GrammarLexer):
    """The lexer without its shortcut for brackets."""

    def _lone_literal(self, char: str) -> str | None:
        return None


@pytest.mark.parametrize("name", ["json", "toml", "dot", "sexp", "tinyc", "ini"])
def test_brackets_read_at_a_glance_read_as_before(name: str) -> None:
    grammar = CompiledGrammar.load(name)
    hints = hints_beside(registry.bundled()[name].path)
    quick, slow = GrammarLexer(grammar, hints), _EveryCharacterLooked(grammar, hints)
    rng = random.Random(name)
    pieces = ["{", "}", "[", "]", "(", ")", ",", ";", "=", '"a"', "1", " ", "\n", "x", "'", "//"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(30)))
        for foreign in (True, False):
            assert _lex(quick, text, foreign=foreign) == _lex(slow, text, foreign=foreign), text


def test_a_run_of_closers_is_structure(json: GrammarLexer) -> None:
    closers = _lex(json, '{"a": [1' + "]}" * 500)
    assert [(t.kind, t.role) for t in closers[-2:]] == [
        ("RSQB", Role.STRUCTURE),
        ("RBRACE", Role.STRUCTURE),
    ]


def test_a_foreign_token_is_not_looked_for_where_its_last_character_never_comes() -> None:
    hints = hints_beside(registry.bundled()["json"].path)
    tokens = _ForeignTokens(hints)
    rng = random.Random(2)
    for _ in range(500):
        text = "".join(
            rng.choice(['"', "'", "a", " ", "\\", "\n", ",", "}", "True"]) for _ in range(20)
        )
        for position in range(len(text)):
            expected = None
            for rewrite, *_ in tokens.by_char.get(text[position], tokens.any_start):
                found = rewrite.pattern.match(text, position)
                if found is not None and (expected is None or found.end() > expected[1].end()):
                    expected = rewrite, found
            if expected is not None and expected[1].end() == position:
                expected = None
            got = tokens.longest(text, position)
            assert (got and (got[0], got[1].span())) == (
                expected and (expected[0], expected[1].span())
            ), (text, position)


@pytest.mark.parametrize("name", ["json", "jsonc", "yaml", "toml", "xml", "csv", "ini"])
def test_a_foreign_token_is_not_looked_for_in_a_text_that_lacks_what_it_holds(
    name: str,
) -> None:
    """What a text holds (:class:`_Held`) tells which rewrites cannot match
    in it (a character each match holds is not there); the longest foreign
    token at each place is the same as without it."""
    tokens = _ForeignTokens(hints_beside(registry.bundled()[name].path))
    rng = random.Random(name)
    pieces = ['"', "'", "a", " ", "\\", "\n", "\t", ",", "}", "True", "+", "/*", "<", "#", "."]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30)))
        held = tokens.held(text)
        for position in range(len(text)):
            got = tokens.longest(text, position, held)
            expected = tokens.longest(text, position)
            assert (got and (got[0], got[1].span())) == (
                expected and (expected[0], expected[1].span())
            ), (text, position)


def test_a_record_without_backslashes_is_not_read_for_them() -> None:
    tokens = _ForeignTokens(hints_beside(registry.bundled()["json"].path))
    text = '{"a": "b", "c": [1, 2]}'
    every = [tried[0].name for tried in tokens.by_char['"']]
    usable = [tried[0].name for tried in _Held(text).usable('"', tokens.by_char['"'])]
    assert "backslashes not doubled" in every
    assert "backslashes not doubled" not in usable
    assert "unescaped quote in a string" in usable


def test_what_a_text_holds_is_looked_for_once_for_its_stretches() -> None:
    tokens = _ForeignTokens(hints_beside(registry.bundled()["json"].path))
    text = '{"a": "b"}'
    held = tokens.held(text)
    assert tokens.held(text) is held
    assert tokens.held(text + " ") is not held
    assert tokens.held(text) is not held  # only the last text's is kept


def test_the_readings_of_canonical_texts_kept_are_bounded(json: GrammarLexer) -> None:
    from inputmend.grammar.tolerant import CLASSIFIED

    for number in range(CLASSIFIED + 10):
        assert json.classify(f'"{number}"')[1] is Role.DATA
        assert len(json._canonical) <= CLASSIFIED
    assert json.classify("null") == json.classify("null")
