"""Hints files: the format, its checks, canonical forms, wrappers, the bundled files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import regex

from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import (
    NO_HINTS,
    WRAPPER_REACH,
    HintsError,
    hints_beside,
    hints_path,
    load_hints,
    parse_hints,
)

SOURCE = Path("x.hints.toml")


def _hints(data: dict[str, object]) -> object:
    return parse_hints(data, SOURCE)


def test_every_bundled_grammar_with_hints_loads_them() -> None:
    have = {name for name, info in registry.bundled().items() if hints_path(info.path).exists()}
    assert {"json", "jsonc", "ini", "csv", "dot", "sexp", "tinyc", "toml", "yaml", "xml"} <= have
    for name in have:
        hints = hints_beside(registry.bundled()[name].path)
        assert hints.source is not None and hints.rewrites + hints.wrappers, name


def test_names_are_whole_words_that_are_code() -> None:
    hints = parse_hints({"names": "t|nil|:\\w+"}, SOURCE)
    assert [w for w in ("t", "nil", ":key", "time", "n") if hints.names.fullmatch(w)] == [
        *("t", "nil", ":key")
    ]
    assert parse_hints({}, SOURCE).names is None


def test_heads_are_words_that_come_first_in_their_brackets() -> None:
    hints = parse_hints({"heads": "define|progn|\\+"}, SOURCE)
    assert [w for w in ("define", "progn", "+", "x", "defines") if hints.heads.fullmatch(w)] == [
        *("define", "progn", "+")
    ]
    assert parse_hints({}, SOURCE).heads is None


def test_a_grammar_without_a_hints_file_has_none(tmp_path: Path) -> None:
    grammar = tmp_path / "mine.lark"
    grammar.write_text('start: "a"\n')
    assert hints_path(grammar) == tmp_path / "mine.hints.toml"
    assert hints_beside(grammar) is NO_HINTS
    (tmp_path / "mine.hints.toml").write_text('filler = "a"\n[literals]\nA = "a"\n')
    assert hints_beside(grammar).filler == "a"


def test_a_grammar_reads_its_hints_once_and_again_when_they_change(tmp_path: Path) -> None:
    path = tmp_path / "mine.lark"
    path.write_text('start: "a"\n')
    grammar = CompiledGrammar.load(str(path))
    assert grammar.hints() is NO_HINTS
    beside = tmp_path / "mine.hints.toml"
    beside.write_text('filler = "a"\n')
    first = grammar.hints()
    assert first.filler == "a" and grammar.hints() is first  # not read again
    beside.write_text('filler = "aa"\n')  # another size: a change even within the clock's tick
    assert grammar.hints().filler == "aa"
    beside.unlink()
    assert grammar.hints() is NO_HINTS


def test_canonical_forms_fill_groups_and_escape_them() -> None:
    hints = parse_hints(
        {
            "token": [
                {
                    "name": "single-quoted string",
                    "pattern": r"'(?P<body>[^'\n]*)'",
                    "replace": '"{body}"',
                    "escape": {'"': '\\"'},
                },
                {"pattern": r"\+(\d+)", "replace": "{1}{{}}"},
            ],
            "literals": {"True": "true"},
        },
        SOURCE,
    )
    found = {rewrite.name: rewrite for rewrite in hints.tokens}
    quoted = found["single-quoted string"]
    assert quoted.canonical(quoted.pattern.match("'say \"hi\"'")) == '"say \\"hi\\""'
    plus = hints.tokens[2]
    assert plus.canonical(plus.pattern.match("+5")) == "5{}"
    true = found["True -> true"]
    assert true.pattern.match("True") and not true.pattern.match("Truex")
    assert true.pattern.search("isTrue") is None  # whole words only


def test_comments_are_removed_unless_a_replacement_is_given() -> None:
    hints = parse_hints(
        {"comment": [{"pattern": "//[^\n]*"}, {"pattern": "#(?P<t>[^\n]*)", "replace": ";{t}"}]},
        SOURCE,
    )
    first, second = hints.tokens
    assert first.canonical(first.pattern.match("// x")) == ""
    assert second.canonical(second.pattern.match("# x")) == "; x"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"colour": 1}, "top level: unknown key 'colour'"),
        ({"token": [{"pattern": "a"}]}, "token[0]: a token needs its canonical form"),
        ({"token": [{"replace": "a"}]}, "token[0]: a pattern is required"),
        ({"comment": [{"pattern": "("}]}, "comment[0].pattern: not a regular expression"),
        ({"fix": [{"pattern": "a*"}]}, "fix[0].pattern: the pattern matches the empty text"),
        ({"fix": [{"pattern": "a", "replace": "{x}"}]}, "the pattern has no group 'x'"),
        ({"fix": [{"pattern": "a", "colour": 1}]}, "fix[0]: unknown key 'colour'"),
        ({"fix": {"pattern": "a"}}, "fix: expected [[fix]] entries"),
        ({"roles": {"X": "paint"}}, "roles.X: expected one of data, structure, layout"),
        ({"wrapper": [{"name": "w"}]}, "wrapper[0]: a wrapper needs before, after or both"),
        ({"filler": 3}, "filler: expected a string, got int"),
        ({"contextual": "yes"}, "contextual: expected true or false"),
        ({"names": "("}, "names: not a regular expression"),
        ({"heads": "("}, "heads: not a regular expression"),
        ({"endings": {"X": "a"}}, "endings.X: expected a list of texts"),
        ({"literals": {"": "x"}}, "literals: an empty word"),
        ({"token": [{"pattern": "a", "replace": "b", "escape": {"": "c"}}]}, "cannot be escaped"),
    ],
)
def test_a_hints_file_that_breaks_the_format_is_refused_with_a_reason(
    data: dict[str, object], problem: str
) -> None:
    with pytest.raises(HintsError, match=r"hints file x\.hints\.toml") as raised:
        _hints(data)
    assert problem in str(raised.value)


def test_unreadable_and_broken_files_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(HintsError, match="cannot read hints file"):
        load_hints(tmp_path / "missing.hints.toml")
    broken = tmp_path / "broken.hints.toml"
    broken.write_text("filler = \n")
    with pytest.raises(HintsError, match="is not valid TOML"):
        load_hints(broken)


def test_wrappers_peel_fences_prose_and_code_around_the_data() -> None:
    hints = hints_beside(registry.bundled()["json"].path)
    data = '{"a": 1}'
    chat = f"Here is the fixed JSON:\n\n```json\n{data}\n```\nLet me know if that helps.\n"
    assert _unwrapped(chat, hints.wrapper_regions(chat)) == data
    for wrapped in (f"callback({data});", f"var data = {data};\n", f"export default {data};"):
        assert _unwrapped(wrapped, hints.wrapper_regions(wrapped)) == data
    inline = f"Here is the JSON you asked for: {data} Let me know if you need more."
    assert _unwrapped(inline, hints.wrapper_regions(inline)) == data
    log = f"2024-05-01 12:00:03 INFO payload={data}"
    assert _unwrapped(log, hints.wrapper_regions(log)) == data
    assert hints.wrapper_regions(data) == []
    assert hints.wrapper_regions('"a": [1]]') == []  # no words: not prose


def test_a_wrapper_with_two_ends_needs_both() -> None:
    hints = hints_beside(registry.bundled()["sexp"].path)
    assert hints.wrapper_regions("```lisp\n(a b)\n") == []
    assert _unwrapped("```lisp\n(a b)\n```\n", hints.wrapper_regions("```lisp\n(a b)\n```\n")) == (
        "(a b)"
    )


def test_the_end_of_a_wrapper_is_looked_for_near_the_end_of_the_text() -> None:
    hints = parse_hints({"wrapper": [{"before": "<", "after": ">[^>]*"}]}, SOURCE)
    near = "<" + "a" * WRAPPER_REACH + ">" + "b" * (WRAPPER_REACH - 2)
    assert [name for *_, name in hints.wrapper_regions(near)] == ["wrapper[0]", "wrapper[0]"]
    far = "<" + "a" * WRAPPER_REACH + ">" + "b" * (WRAPPER_REACH + 2)
    assert hints.wrapper_regions(far) == []


def _unwrapped(text: str, regions: list[tuple[int, int, str]]) -> str:
    kept, position = [], 0
    for start, end, _ in regions:
        kept.append(text[position:start])
        position = end
    return "".join(kept) + text[position:]


_RUN = r'(?:[^"\\\r\n]|\\.)'
"""A JSON string's characters, as the string patterns of its hints read them."""


@pytest.mark.parametrize(
    ("name", "rule", "lookahead"),
    [
        ("json", "unclosed string", rf"(?={_RUN}*+\r?$)"),
        ("json", "lone quote inside a string", rf'(?={_RUN}*+"[ \t])'),
        ("jsonc", "lone quote inside a string", rf'(?={_RUN}*+"[ \t])'),
    ],
)
def test_a_string_pattern_matches_as_without_its_lookahead(
    name: str, rule: str, lookahead: str
) -> None:
    """The lookahead after a string's first quote only makes the pattern
    fail sooner (at each string of a valid line): the same matches, at every
    place, with it and without it."""
    hints = hints_beside(registry.bundled()[name].path)
    (pattern,) = [rewrite.pattern for rewrite in hints.rewrites if rewrite.name == rule]
    assert lookahead in pattern.pattern
    without = regex.compile(pattern.pattern.replace(lookahead, "", 1), pattern.flags)
    rng = random.Random(rule)
    pieces = ['"', "\\", "\r", "\n", " ", "\t", ",", ":", "[", "]", "{", "}", "a", "x y", '\\"']
    pieces += ['"a"', ': "', '", "', "é"]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(24)))
        for overlapped in (False, True):
            found = [(m.span(), m.groups()) for m in pattern.finditer(text, overlapped=overlapped)]
            plain = [(m.span(), m.groups()) for m in without.finditer(text, overlapped=overlapped)]
            assert found == plain, text
