"""Repairs the hints propose and the oracle decides, on everyday and invented damage."""

from __future__ import annotations

import json as jsonlib
from pathlib import Path
from typing import Any

import pytest

import inputmend.algorithms.hints as hints_module
from inputmend import services
from inputmend.algorithms.hints import Guidance, guidance, hint_repairs
from inputmend.config.defaults import RUN_MAX_TESTS
from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.core.oracle import Feedback, Verdict
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import NO_HINTS, parse_hints
from inputmend.grammar.syntax import syntax_of
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.python import CallableOracle

BUDGET = Budget(max_tests=RUN_MAX_TESTS)
"""Bounded by work as the CLI is, with no wall-time cap: the same answer under any load."""


def _oracle(name: str) -> IncrementalGrammarOracle:
    return IncrementalGrammarOracle(name)


def _texts(name: str, text: str) -> list[str]:
    oracle = _oracle(name)
    hints = guidance(oracle.grammar).hints
    found = hint_repairs(text, oracle, hints=hints, locator=oracle, budget=BUDGET)
    for repair in found.repairs:  # the edits describe the text, in the input's offsets
        assert apply_edits(text, repair.edits) == repair.text and repair.algorithm == "hints"
    return [repair.text for repair in found.repairs]


def _data(texts: list[str]) -> list[object]:
    return [jsonlib.loads(text) for text in texts]


@pytest.mark.parametrize(
    ("damaged", "data"),
    [
        ("{'name': 'Ada', 'age': 36, 'admin': True, 'boss': None}", None),
        ("{name: 'Ada', age: 36, admin: true, boss: undefined,}", None),
        ('{"name": "Ada", // the name\n "age": 36, /* years */ "admin": true, "boss": null}', None),
        ('{"name": "Ada", "age": 36, # years\n "admin": true, "boss": NaN}', None),
    ],
)
def test_python_and_javascript_objects_become_json(damaged: str, data: object) -> None:
    del data
    expected = {"name": "Ada", "age": 36, "admin": True, "boss": None}
    assert expected in _data(_texts("json", damaged))


@pytest.mark.parametrize("grammar", ["json", "jsonc"])
@pytest.mark.parametrize(
    ("printed", "repaired"),
    [
        # print() of a Python dict: tuples and sets are lists, the top repair
        # (not the whole text wrapped in one string)
        (
            "{'city': 'Oslo', 'pos': (59.9, 10.7), 'open': False, 'note': None}",
            '{"city": "Oslo", "pos": [59.9, 10.7], "open": false, "note": null}',
        ),
        (
            "{'tags': {'red', 'blue'}, 'one': ('x',), 'none': ()}",
            '{"tags": ["red", "blue"], "one": ["x"%s], "none": []}',
        ),
        ("[(1, 'a'), (2, 'b')]", '[[1, "a"], [2, "b"]]'),
        ("{'grid': ((0, 1), (2, 3)), 'seen': set()}", '{"grid": [[0, 1], [2, 3]], "seen": []}'),
    ],
)
def test_a_printed_python_dict_becomes_json(grammar: str, printed: str, repaired: str) -> None:
    result = services.repair(printed, _oracle(grammar), top=3, budget=BUDGET)
    # a one-element tuple's comma: a trailing comma, which JSONC allows
    assert result.repairs[0].text == repaired.replace("%s", "," if grammar == "jsonc" else "")
    assert not result.repairs[0].lossy


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # the edge operator of the other kind of graph (not the edge deleted)
        ("graph roads {\n  oslo -> bergen;\n}\n", "graph roads {\n  oslo -- bergen;\n}\n"),
        ("digraph build {\n  src -- obj [w=2];\n}\n", "digraph build {\n  src -> obj [w=2];\n}\n"),
        # every edge directed: the graph was meant to be a digraph
        (
            "strict graph g {\n  a -> b;\n  b -> c;\n}\n",
            "strict digraph g {\n  a -> b;\n  b -> c;\n}\n",
        ),
    ],
)
def test_an_edge_of_the_other_kind_of_graph(damaged: str, repaired: str) -> None:
    result = services.repair(damaged, _oracle("dot"), top=3, budget=BUDGET)
    assert result.repairs[0].text == repaired


def test_chat_answers_log_lines_and_javascript_lose_their_wrapping() -> None:
    data = '{\n  "items": [1, 2.5, "three"],\n  "ok": true\n}'
    for wrapped in (
        f"Sure! Here is the JSON you asked for:\n\n```json\n{data}\n```\n\nAnything else?\n",
        f"Here is the data:\n{data}\nLet me know if you need more.",
        f"2024-05-01T12:00:03Z INFO request body={data}",
        f"jsonp_callback_42({data});",
        f"const settings = {data};\n",
        f"export default {data};",
    ):
        assert jsonlib.loads(data) in _data(_texts("json", wrapped)), wrapped


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_text_after_the_data_goes_and_the_final_line_break_stays(ending: str) -> None:
    data = '{"a": [1, 2]}'
    wrapped = f"Here it is:{ending}```json{ending}{data}{ending}```{ending}Anything else?{ending}"
    texts = _texts("json", wrapped)
    assert texts[0] == data + ending
    assert data in texts  # the removal of everything after the data is still a candidate


def test_unescaped_quotes_inside_a_string_get_their_backslash() -> None:
    texts = _texts("json", '{"quote": "He said "hi" to me", "n": 1}')
    assert {"quote": 'He said "hi" to me', "n": 1} in _data(texts)


def test_a_plain_fault_before_foreign_syntax_does_not_hide_it() -> None:
    # no hint explains the doubled comma; a plain step passes it, and the
    # unescaped quotes after it are still the hints' to fix
    texts = _texts("json", '{"n": 1,, "quote": "He said "hi" to me", "m": [1 2]}')
    assert {"n": 1, "quote": 'He said "hi" to me', "m": [1, 2]} in _data(texts)


def test_plain_steps_alone_make_no_hint_repair() -> None:
    assert _texts("json", '{"a": 1,, "b": 2}') == []


def test_plain_steps_that_delete_the_text_stop() -> None:
    # an object that lost its opening brace: no hint explains what follows,
    # and plain steps would delete it character by character to the end
    oracle = _oracle("json")
    text = '"id": 239, ' + ", ".join(f'"k{i}": {i}' for i in range(30)) + "}"
    found = hint_repairs(
        text, oracle, hints=guidance(oracle.grammar).hints, locator=oracle, budget=BUDGET
    )
    assert found.repairs == ()
    assert len(found.rewrites) == hints_module.PLAIN_DELETIONS
    assert all(name.startswith("delete") for name in found.rewrites)


def test_a_step_that_ties_with_another_hint_s_is_walked_from_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `port 8080` lost its `=` or is a continuation line: either step reaches
    # the next fault, whose repair each walk then adds; the ranking chooses
    text = "[server]\nhost = example.org\nport 8080\n\n[paths\nroot = /srv\n"
    texts = _texts("ini", text)
    assert "[server]\nhost = example.org\nport = 8080\n\n[paths]\nroot = /srv\n" in texts
    assert "[server]\nhost = example.org\n port 8080\n\n[paths]\nroot = /srv\n" in texts
    # with no walk begun again, the first step's repair of both is the only one
    monkeypatch.setattr(hints_module, "BRANCHES", 0)
    assert len(_texts("ini", text)) == 1


def test_a_walk_of_hundreds_of_steps_keeps_its_edits() -> None:
    # a foreign literal on each of 500 lines: a step each, a chain of 500 drafts
    text = "{\n" + ",\n".join(f'  "k{i}": True' for i in range(500)) + "\n}"
    (repaired,) = _texts("json", text)
    assert jsonlib.loads(repaired) == {f"k{i}": True for i in range(500)}


@pytest.mark.parametrize("grammar", ["json", "jsonc"])
def test_a_windows_path_gets_its_backslashes_doubled(grammar: str) -> None:
    texts = _texts(grammar, '{"dir": "D:\\Temp\\new\\build", "n": 1}')
    assert {"dir": "D:\\Temp\\new\\build", "n": 1} in _data(texts)


@pytest.mark.parametrize("grammar", ["json", "jsonc"])
def test_a_line_break_typed_in_a_string_becomes_an_escape(grammar: str) -> None:
    texts = _texts(grammar, '{"msg": "Dear Ann,\r\nthanks!\n\tBob", "n": 1}')
    assert {"msg": "Dear Ann,\r\nthanks!\n\tBob", "n": 1} in _data(texts)


@pytest.mark.parametrize("grammar", ["json", "jsonc"])
def test_strings_joined_with_plus_become_one_string_first(grammar: str) -> None:
    text = '{"url": "http://www.ex" + "ample.org", "n": 1}'
    assert {"url": "http://www.example.org", "n": 1} in _data(_texts(grammar, text))
    # ranked first: every character is kept, no quote escaped into the string
    first = services.repair(text, _oracle(grammar), budget=BUDGET).repairs[0]
    assert jsonlib.loads(first.text) == {"url": "http://www.example.org", "n": 1}


@pytest.mark.parametrize("grammar", ["json", "jsonc"])
def test_a_regular_expression_literal_becomes_its_pattern_s_string(grammar: str) -> None:
    texts = _texts(grammar, '{"v": /^2\\.4\\.0$/, "ids": [/a"b/, "c"]}')
    assert {"v": "^2\\.4\\.0$", "ids": ['a"b', "c"]} in _data(texts)
    # flags have no place in a string: such a literal is not the hint's
    assert _texts(grammar, '{"v": /^a$/i, "n": 1}') == []


def test_concatenated_documents_become_one_array() -> None:
    texts = _texts("json", '{"a": 1}\n{"b": 2}\n{"c": 3}\n')
    assert [{"a": 1}, {"b": 2}, {"c": 3}] in _data(texts)


def test_a_record_on_lines_cut_off_is_completed_in_the_array() -> None:
    # JSON Lines with a record that lost its closers: closed at its line's
    # end, not merged with the next records into one object of repeated keys
    text = '{"a": 1}\n{"a": 2, "b": [3\n{"a": 4}\n'
    assert [{"a": 1}, {"a": 2, "b": [3]}, {"a": 4}] in _data(_texts("json", text))
    top = services.repair(text, _oracle("json"), top=1, budget=BUDGET).repairs[0]
    assert top.text == '[{"a": 1},\n{"a": 2, "b": [3]},\n{"a": 4}]\n'
    # a document whose lines are one object is no list of records
    assert not _texts("json", '{\n  "a": 1\n  "b": 2\n}\n')


def test_an_attribute_value_of_words_is_quoted_in_dot() -> None:
    text = "digraph { a [label=Hello World]; b [label=x color=red]; }\n"
    top = services.repair(text, _oracle("dot"), top=1, budget=BUDGET).repairs[0]
    assert top.text == text.replace("Hello World", '"Hello World"')


def test_numbers_as_javascript_writes_them() -> None:
    assert [0.5, 5, -0.25, 3.0] in _data(_texts("json", "[.5, +5, -.25, 3.]"))
    # leading zeros: every digit kept, as a string (not 7, not 0e07)
    assert {"zip": "01234", "id": "-007.5", "n": 0} in _data(
        _texts("json", '{"zip": 01234, "id": -007.5, "n": 0}')
    )
    # another base: every digit kept, as a string (not the 0 before the x)
    printed = '{"flags": 0x2A, "bits": [0b0110, 7]}'
    top = services.repair(printed, _oracle("json"), top=1, budget=BUDGET).repairs[0]
    assert jsonlib.loads(top.text) == {"flags": "0x2A", "bits": ["0b0110", 7]}


def test_text_that_parses_is_never_rewritten() -> None:
    text = '{"url": "http://example.org/#top", "note": "it\'s // fine", "x": True}'
    (repaired,) = _texts("json", text)
    assert jsonlib.loads(repaired) == {
        "url": "http://example.org/#top",
        "note": "it's // fine",
        "x": True,
    }


@pytest.mark.parametrize("grammar", ["json", "jsonc"])
def test_a_single_quoted_string_holds_its_escaped_quote(grammar: str) -> None:
    # `\'` is a quote inside a Python or JavaScript string: it does not end
    # it, and in JSON it is the apostrophe alone
    (repaired,) = _texts(grammar, "{'msg': 'it\\'s fine', 'n': 1}")
    assert jsonlib.loads(repaired) == {"msg": "it's fine", "n": 1}


def test_what_the_hints_cannot_fix_is_finished_by_the_finisher() -> None:
    oracle = _oracle("json")
    text = "{'a': [1, 2"  # single quotes, and cut off

    def finish(rest: str, budget: Budget) -> tuple[list[Repair], RunStats]:
        assert rest == '{"a": [1, 2'
        return [Repair(rest + "]}", (Edit(len(rest), 0, "]}"),), "t", True, 2)], RunStats(1, 0.0)

    found = hint_repairs(
        text,
        oracle,
        hints=guidance(oracle.grammar).hints,
        locator=oracle,
        budget=BUDGET,
        finish=finish,
    )
    assert [r.text for r in found.repairs] == ['{"a": [1, 2]}']
    assert found.stats.tests >= 2  # the finisher's run counted too


def test_a_program_decides_what_the_grammar_proposes() -> None:
    """A program (here a function) that accepts only JSON with a "version":
    the JSON grammar locates errors and proposes, the program decides."""

    def strict(text: str) -> None:
        value = jsonlib.loads(text)
        if not isinstance(value, dict) or "version" not in value:
            raise ValueError("no version")

    program = CallableOracle(strict)
    guide = guidance(CompiledGrammar.load("json"))
    locator = IncrementalGrammarOracle(CompiledGrammar.load("json"))
    good = hint_repairs(
        "{'version': 2}", program, hints=guide.hints, locator=locator, budget=BUDGET
    )
    assert [r.text for r in good.repairs] == ['{"version": 2}']
    bad = hint_repairs("{'name': 2}", program, hints=guide.hints, locator=locator, budget=BUDGET)
    assert bad.repairs == ()  # the grammar's proposal, refused by the program


@pytest.mark.parametrize(
    ("grammar", "damaged", "repaired"),
    [
        ("ini", "[main]\n// keep in sync\nname = x\n", "[main]\n; keep in sync\nname = x\n"),
        ("ini", "[main\nname = x\n", "[main]\nname = x\n"),
        ("ini", "main]\nname = x\n", "[main]\nname = x\n"),
        ("ini", "[main]\ncolor  #fff\n", "[main]\ncolor = #fff\n"),
        # `deps = ` and its items below, its `=` lost: the blanks stay behind
        ("ini", "[main]\ndeps  \n  a\n  b\n", "[main]\ndeps = \n  a\n  b\n"),
        (
            "ini",
            "cat > app.ini <<'EOF'\n[main]\nname = x\nEOF\n",
            "[main]\nname = x",
        ),
        ("dot", "digraph { a -> 'b c'; }", 'digraph { a -> "b c"; }'),
        ("dot", "digraph { a -> b ->; }", "digraph { a -> b; }"),
        ("dot", "digraph { a ->-> b; }", "digraph { a -> b; }"),
        ("dot", 'digraph { a [label=big box"]; }', 'digraph { a [label="big box"]; }'),
        (
            "dot",
            'digraph {\n  a [style=rounded,filled"];\n  b [label="x"];\n}\n',
            'digraph {\n  a [style="rounded,filled"];\n  b [label="x"];\n}\n',
        ),
        (
            "dot",
            'digraph {\n  a -> build node" -> c;\n  b [label="x"];\n}\n',
            'digraph {\n  a -> "build node" -> c;\n  b [label="x"];\n}\n',
        ),
        ("sexp", "(a b) # note\n(c)\n", "(a b) ; note\n(c)\n"),
        ("sexp", "```lisp\n(a b)\n```\n", "(a b)"),
        ("tinyc", "{ a = 10L; // ten\n}", "{ a = 10;\n}"),
        ("tinyc", "/* init */ a = 1;", "a = 1;"),
        ("tinyc", "{ x = 1; /* todo\n  y = 2;\n}", "{ x = 1;\n  y = 2;\n}"),
        ("json", '{\n  "a": 1, /* note\n  "b": 2\n}\n', '{\n  "a": 1,\n  "b": 2\n}\n'),
        ("toml", "[tool]\nname: 'x'\n", "[tool]\nname = 'x'\n"),
        ("toml", "[tool]\nflag = True\n", "[tool]\nflag = true\n"),
        ("toml", "[tool]\nname = hello world\n", '[tool]\nname = "hello world"\n'),
        ("toml", "[tool]\n  my key = 1\n", '[tool]\n  "my key" = 1\n'),
        ("toml", "[package]\nedition = 2018 and more\n", '[package]\nedition = "2018 and more"\n'),
        # a value that starts with punctuation no TOML value starts with is text
        ("toml", "[deps]\nserde = ^1.0 # pinned\n", '[deps]\nserde = "^1.0" # pinned\n'),
        (
            "toml",
            "[deps]\nx = { version = >=0.3, optional = true }\n",
            '[deps]\nx = { version = ">=0.3", optional = true }\n',
        ),
        ("ini", "[a\r\nx = 1\r\n", "[a]\r\nx = 1\r\n"),  # a line end of \r\n too
        # a tab among lines indented by four: as deep as its siblings
        ("yaml", "db:\n\timage: x\n    env: 1\n", "db:\n    image: x\n    env: 1\n"),
        ("json", '{"a":\u00a01,\u00a0"b": 2}', '{"a": 1, "b": 2}'),
        ("json", "[1,\u200b 2]", "[1, 2]"),
        ("json", '{1: "a", -2: "b"}', '{"1": "a", "-2": "b"}'),
        ("dot", "digraph { a --> b; c => d; }", "digraph { a -> b; c -> d; }"),
        ("dot", "digraph { my-service -> db-1; }", 'digraph { "my-service" -> db-1; }'),
        ("yaml", "name: 'O'Brien'\nid: 1\n", 'name: "O\'Brien"\nid: 1\n'),
        ("jsonc", "{'a': 1, /* kept */ }", '{"a": 1, /* kept */ }'),
        # JavaScript's and Python's \' in a double-quoted string
        ("json", '{"msg": "it\\\'s \\"ok\\""}', '{"msg": "it\'s \\"ok\\""}'),
        ("jsonc", '["it\\\'s"] // x', '["it\'s"] // x'),
        # typographic quotes pasted from a word processor or chat
        ("json", "{\u201cname\u201d: \u201eDave\u201c}", '{"name": "Dave"}'),
        ("json", "[\u2018it\u2019s\u2019]", '["it\u2019s"]'),
        ("jsonc", "{\u201ca\u201d: 1} // x", '{"a": 1} // x'),
        ("toml", "[tool]\nname = \u201cDave\u201d\n", '[tool]\nname = "Dave"\n'),
        (
            "dot",
            "digraph { a [label=\u201cStart here\u201d]; }",
            'digraph { a [label="Start here"]; }',
        ),
        ("csv", 'id,text\n1,"a "quoted" word"\n', 'id,text\n1,"a ""quoted"" word"\n'),
        ("csv", 'id,text\n1,"He said "hi""\n2,x\n', 'id,text\n1,"He said ""hi"""\n2,x\n'),
        # a field that lost its opening quote holds quotes doubled as inside quotes
        ("csv", 'id,note\n1,said ""hi"""\n', 'id,note\n1,"said ""hi"""\n'),
        ("csv", 'id,who,n\n1,Nan ""N"" Lee, Anne",2\n', 'id,who,n\n1,"Nan ""N"" Lee, Anne",2\n'),
        # an ellipsis for items or a value left out holds no data
        ("json", "[1, 2, 3, ...]", "[1, 2, 3]"),
        ("json", "[..., 4, 5]", "[4, 5]"),
        ("jsonc", '{"a": 1, \u2026}', '{"a": 1}'),
        ("json", '{"items": ..., "n": 2}', '{"items": null, "n": 2}'),
        # a Windows path: a literal string keeps it as written, unless it
        # holds an apostrophe
        ("toml", 'path = "C:\\Users\\x"\n', "path = 'C:\\Users\\x'\n"),
        ("toml", 'p = "C:\\Users\\it\'s"\n', 'p = "C:\\\\Users\\\\it\'s"\n'),
        # inner quotes that end the string's text, before its own quote
        ("dot", 'digraph { a [label="say "hi""]; }', 'digraph { a [label="say \\"hi\\""]; }'),
        ("json", '{"a": "say "hi""}', '{"a": "say \\"hi\\""}'),
        ("jsonc", '{"a": "say "hi""}', '{"a": "say \\"hi\\""}'),
        # inner quotes glued to the text around them, one inside a word
        ("json", '{"a": "<"jo"@x.org>"}', '{"a": "<\\"jo\\"@x.org>"}'),
        ("json", '{"a": "x --"no"-cache"}', '{"a": "x --\\"no\\"-cache"}'),
        ("json", '{"a": "M"IT"}', '{"a": "M\\"IT"}'),
        # one quote of a pair lost its backslash: the other stays as it is
        ("json", '{"a": "<b c="d\\" />"}', '{"a": "<b c=\\"d\\" />"}'),
        ("jsonc", '{"a": "<b c="d\\" />"}', '{"a": "<b c=\\"d\\" />"}'),
        ("jsonc", '{"a": "x\\\\"y" z"}', '{"a": "x\\\\\\"y\\" z"}'),
        # a tab typed in a string, a \u that is no escape: kept as written
        ("json", '{"a": "x\ty"}', '{"a": "x\\ty"}'),
        ("jsonc", '{"a": "x\ty"}', '{"a": "x\\ty"}'),
        ("json", '{"a": "\\u12"}', '{"a": "\\\\u12"}'),
        # a regular expression that lost one backslash of a pair: the pairs
        # are escaped backslashes, kept; the lone one is doubled
        ("json", '{"a": "^\\\\s*\\s"}', '{"a": "^\\\\s*\\\\s"}'),
        ("jsonc", '{"a": "\\\\b\\d\\n"} // x', '{"a": "\\\\b\\\\d\\\\n"} // x'),
        # an end tag that lost its slash, before its parent's end tag
        ("xml", "<a><b>x<b></a>", "<a><b>x</b></a>"),
        # another language's comment after a value ends the value
        (
            "toml",
            "[a]\nenabled = true ; set by the installer\n",
            "[a]\nenabled = true # set by the installer\n",
        ),
        ("toml", "[a]\nname = hello ; note\n", '[a]\nname = "hello" # note\n'),
        # prose before data that begins with a comment
        ("toml", "Sure! Here it is\n\n# settings\n[a]\nx = 1\n", "# settings\n[a]\nx = 1\n"),
        (
            "dot",
            "Here is the graph:\n\n// pipeline\ndigraph { a -> b; }\n",
            "// pipeline\ndigraph { a -> b; }\n",
        ),
        # YAML reserves `@` and the backquote at the start of a plain value
        ("yaml", "user: @admin\nid: 1\n", 'user: "@admin"\nid: 1\n'),
        ("yaml", "steps:\n  - `make`\n", 'steps:\n  - "`make`"\n'),
        # a key that lost its colon before its comment
        ("yaml", "a: 1\nfunding # your name\nb: 2\n", "a: 1\nfunding: # your name\nb: 2\n"),
        # double quotes inside a double-quoted value: single quotes around it
        (
            "yaml",
            'name: x\ndescription: "A tool for "fixing" data"\n',
            "name: x\ndescription: 'A tool for \"fixing\" data'\n",
        ),
        (
            "yaml",
            'sizes:\n  - "a 15" laptop, it\'s new"\n',
            "sizes:\n  - 'a 15\" laptop, it''s new'\n",
        ),
        # a flow mapping's value that begins with `#` lost its opening quote
        # (YAML reads a comment there), even where the error shows a line on
        (
            "yaml",
            "a:\n  f: {$ref: #/defs/F'}\n  t: {$ref: '#/defs/T'}\n",
            "a:\n  f: {$ref: '#/defs/F'}\n  t: {$ref: '#/defs/T'}\n",
        ),
    ],
)
def test_what_users_get_wrong_in_each_format(grammar: str, damaged: str, repaired: str) -> None:
    assert repaired in _texts(grammar, damaged)


@pytest.mark.parametrize(
    "damaged",
    [
        "job:\n  steps:\n  - uses: a\n    with: b\n  FIXME\n  - run: c\n",  # between items
        "env:\n  global:\n  default\n  - A=1\n",  # above the items of a key with no value
    ],
)
def test_a_word_alone_above_items_the_lines_above_hold_is_no_key(damaged: str) -> None:
    # a colon would move the items below out of their sequence into the
    # new key's value: the word is a comment that lost its `#`
    word = next(line for line in damaged.splitlines() if ":" not in line and "-" not in line)
    assert not any(word + ":" in text for text in _texts("yaml", damaged))


def test_a_word_alone_above_its_compact_sequence_is_a_key() -> None:
    damaged = "job:\n  runs-on: linux\n  steps\n  - run: make\n"
    assert damaged.replace("steps", "steps:") in _texts("yaml", damaged)


def test_csv_quotes_are_proposed_at_every_field_the_ranking_chooses() -> None:
    text = 'name,amount\n"Lee, Ann",1\nMüller, Zoë",2\n"Chen, Mei",3\n'
    assert text.replace("Müller", '"Müller') in _texts("csv", text)
    cut = 'name,amount\n"Lee, Ann,1\n"Chen, Mei",3\n'
    assert cut.replace("Ann,", 'Ann",') in _texts("csv", cut)


def test_a_run_of_plain_steps_searches_the_text_before_them_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a lost opening quote deep in a long document: the hints pass the
    # error by many small steps; the fixes anywhere before an error are
    # looked for in the whole text once, then only near each new error
    rows = [f'  {{"id": {n}, "email": "u{n}@example.com"}}' for n in range(400)]
    rows[200] = rows[200].replace('"email"', 'email"')
    text = "[\n" + ",\n".join(rows) + "\n]\n"
    starts: list[int] = []
    real = hints_module._rewrites_at

    def spy(
        text: str, error: int, hints: Any, anchors: Any, early: int, last: Any = None, **kw: Any
    ) -> Any:
        if not anchors:
            starts.append(early)
        return real(text, error, hints, anchors, early, last, **kw)

    monkeypatch.setattr(hints_module, "_rewrites_at", spy)
    _texts("json", text)
    assert starts and starts[0] == 0 and all(start > 0 for start in starts[1:])


def test_hints_need_an_error_position_and_stop_at_the_budget() -> None:
    oracle = _oracle("json")
    blind = CallableOracle(lambda text: Feedback(Verdict.INCORRECT))
    hints = guidance(oracle.grammar).hints
    assert hint_repairs("{'a': 1}", blind, hints=hints, locator=None, budget=BUDGET).repairs == ()
    spent = hint_repairs(
        "{'a': 1}", oracle, hints=hints, locator=oracle, budget=Budget(max_tests=0)
    )
    assert spent.repairs == ()
    assert (
        hint_repairs("{'a': 1}", oracle, hints=NO_HINTS, locator=oracle, budget=BUDGET).repairs
        == ()
    )


def test_a_broken_hints_file_is_reported_and_not_used(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "g.lark").write_text('start: "a"\n')
    (folder / "g.hints.toml").write_text("colour = 1\n")
    guide = guidance(CompiledGrammar.load(str(folder / "g.lark")))
    assert isinstance(guide, Guidance) and guide.hints is NO_HINTS
    assert guide.problem is not None and "unknown key 'colour'" in guide.problem


def test_fixes_are_tried_only_where_the_oracle_rejects() -> None:
    hints = parse_hints({"fix": [{"pattern": "b", "replace": "a"}]}, NO_HINTS.source or __file__)  # type: ignore[arg-type]
    oracle = _oracle("json")
    found = hint_repairs('["b", b]', oracle, hints=hints, locator=oracle, budget=BUDGET)
    assert [r.text for r in found.repairs] == []  # `a` is no JSON either; "b" is untouched


def test_a_program_for_json_files_is_guided_by_the_json_grammar() -> None:
    """``--python json:loads`` on a ``.json`` file: the bundled grammar's
    hints propose and its lexer judges, the function decides."""
    from inputmend.config.schema import OracleSpec
    from inputmend.oracles.factory import build_oracle
    from inputmend.oracles.wrappers import GuidedOracle, find_part
    from inputmend.services import guide_of, repair

    oracle = build_oracle(OracleSpec(python="json:loads"), suffix=".json")
    try:
        assert find_part(oracle, GuidedOracle) is not None
        grammar = guide_of(oracle)
        assert grammar is not None and grammar.info.name == "json"
        result = repair("{'scripts': {'test': 'jest',}, 'private': True}", oracle, budget=BUDGET)
        best = result.repairs[0]
        assert jsonlib.loads(best.text) == {"scripts": {"test": "jest"}, "private": True}
        assert best.algorithm == "hints" and best.data_lost == 0
    finally:
        oracle.close()
    unguided = build_oracle(OracleSpec(python="json:loads"), suffix=".data")
    try:
        assert guide_of(unguided) is None
    finally:
        unguided.close()


def test_a_jsonc_string_that_lost_its_closing_quote_is_closed_before_the_line_s_comment() -> None:
    for comment in ("/* the target */", "// the target"):
        text = '{\n  "target": "es2016,      ' + comment + '\n  "strict": true\n}\n'
        assert '"target": "es2016",' in "\n".join(_texts("jsonc", text)), comment


def test_a_shell_comment_line_in_jsonc_is_removed() -> None:
    text = '{\n\t"body": [\n\t\t"a",\n\t\t# FIXME\n\t\t"b"\n\t]\n}\n'
    assert '{\n\t"body": [\n\t\t"a",\n\t\t"b"\n\t]\n}\n' in _texts("jsonc", text)


def test_a_grammar_s_guidance_is_made_once_and_again_when_its_hints_change(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mine.lark"
    path.write_text('start: "a"\n')
    grammar = CompiledGrammar.load(str(path))
    beside = tmp_path / "mine.hints.toml"
    beside.write_text('filler = "a"\n')
    first = guidance(grammar)
    assert first.hints.filler == "a"
    assert guidance(grammar) is first  # the same lexer, with what it has learnt
    beside.write_text('filler = "aa"\n')
    again = guidance(grammar)
    assert again is not first and again.hints.filler == "aa"
    assert again.lexer is not first.lexer and again.lexer.hints is again.hints


def test_an_ini_line_without_a_name_after_a_value_is_offered_as_its_continuation() -> None:
    text = "[s]\nName=Foo\nand more words\nIcon=foo\n"
    oracle = IncrementalGrammarOracle("ini")
    result = services.repair(text, oracle, budget=Budget(max_tests=500))
    continued = text.replace("\nand", "\n and")
    assert continued in [repair.text for repair in result.repairs]


def test_a_line_of_prose_in_a_small_ini_file_gets_its_comment_marker_back() -> None:
    text = "[server]\nthis is a comment\nport = 8080\n"
    result = services.repair(text, IncrementalGrammarOracle("ini"), budget=Budget(max_tests=500))
    best = result.repairs[0]
    assert best.text.replace(";", "#") == "[server]\n# this is a comment\nport = 8080\n"
    assert not best.lossy


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("{name: demo}", {"name": "demo"}),  # the key by its hint, the value as words
        ("[red, green]", ["red", "green"]),
        ('{"site": http://example.org/a b}', {"site": "http://example.org/a b"}),
        # words that begin as `false` and `null` do: the parser stops inside them
        ("[fast, nice]", ["fast", "nice"]),
    ],
)
def test_words_where_a_value_stands_are_written_as_a_string(text: str, wanted: object) -> None:
    oracle = _oracle("json")
    hints = guidance(oracle.grammar).hints
    quote = syntax_of(oracle.grammar).strings[0].quoted
    found = hint_repairs(text, oracle, hints=hints, locator=oracle, budget=BUDGET, quote=quote)
    assert wanted in _data([repair.text for repair in found.repairs])
    # markup before a number is no word: deleting it is the finish's to find
    markup = '{"price": **3.45}'
    found = hint_repairs(markup, oracle, hints=hints, locator=oracle, budget=BUDGET, quote=quote)
    assert {"price": "**3.45"} not in _data([repair.text for repair in found.repairs])


def test_words_in_a_toml_array_are_written_as_a_string_from_their_first_letter() -> None:
    oracle = _oracle("toml")
    hints = guidance(oracle.grammar).hints
    quote = syntax_of(oracle.grammar).strings[0].quoted
    text = 'keywords = ["c", ffi and more, "build"]\n'  # read up to `ff`: `f` begins `false`
    found = hint_repairs(text, oracle, hints=hints, locator=oracle, budget=BUDGET, quote=quote)
    wanted = 'keywords = ["c", "ffi and more", "build"]\n'
    assert wanted in [repair.text for repair in found.repairs]
    json = _oracle("json")
    quote = syntax_of(json.grammar).strings[0].quoted
    cut = '{"a": tru}'  # an error after the word, not in it: `true` cut short
    hints = guidance(json.grammar).hints
    found = hint_repairs(cut, json, hints=hints, locator=json, budget=BUDGET, quote=quote)
    assert '{"a": "tru"}' not in [repair.text for repair in found.repairs]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('{"d": "a 15" laptop"}', {"d": 'a 15" laptop'}),  # an inch mark
        ('{"d": "27" monitor, 4K"}', {"d": '27" monitor, 4K'}),
        # the words after it hold an address; the string starts a line
        ('{"d": "Jo" Doe (https://x.org)"}', {"d": 'Jo" Doe (https://x.org)'}),
        ('{"d": [\n  "Jo" Doe"\n]}', {"d": ['Jo" Doe']}),
        ("{`a`: `it's`}", {"a": "it's"}),  # template literals
    ],
)
def test_a_lone_quote_and_backquotes_are_read_as_strings(text: str, wanted: object) -> None:
    for name in ("json", "jsonc"):
        assert wanted in _data(_texts(name, text))


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, declaration": true}',  # a string that lost its opening quote
        '["dist", ISODate("**jest**")]',  # a call
        '{\\"a\\": \\"b\\"}',  # the letters of escapes, once a plain step deleted a backslash
    ],
)
def test_words_followed_by_a_quote_or_a_call_or_after_a_plain_step_are_not_quoted(
    text: str,
) -> None:
    oracle = _oracle("json")
    hints = guidance(oracle.grammar).hints
    quote = syntax_of(oracle.grammar).strings[0].quoted
    found = hint_repairs(text, oracle, hints=hints, locator=oracle, budget=BUDGET, quote=quote)
    assert not any("quote `" in repair.note for repair in found.repairs)


def test_an_xml_element_left_open_is_ended_where_its_text_ends() -> None:
    # at the end of its line, past a `>` in a quoted attribute value
    text = '<r>\n  <t a="x>y">text\n</r>\n'
    assert '<r>\n  <t a="x>y">text</t>\n</r>\n' in _texts("xml", text)
    # before the blanks that lay out the next line, not after them
    text = "<r>\n  <v>\n    <id>v-1\n  </v>\n</r>\n"
    found = _texts("xml", text)
    assert "<r>\n  <v>\n    <id>v-1</id>\n  </v>\n</r>\n" in found
    assert not any("</id></v>" in repaired for repaired in found)
    # blanks after a start tag are layout, not text to end
    text = "<r>\n  <a>  \n    <b/>\n</r>\n"
    assert not any("<a>  </a>" in repaired for repaired in _texts("xml", text))


def test_an_xml_element_is_not_ended_before_a_sibling_without_content_under_it() -> None:
    # an element its own line ends is not the one left open
    text = "<d>\n  <k>A\n  <s>1</s>\n  <k>B</k>\n  <f/>\n</d>\n"
    assert not any("</k></k>" in repaired for repaired in _texts("xml", text))
    # without indentation, the next line says nothing of where the end tag was
    text = "<t>\n<h>\n<r/>\n\n<b/>\n</t>\n"
    assert not any("<h>\n</h>" in repaired for repaired in _texts("xml", text))
    # with content indented under it, before the next line as little indented
    text = "<l>\n  <i>\n    <n/>\n  <i>\n    <n/>\n  </i>\n</l>\n"
    assert "<l>\n  <i>\n    <n/></i>\n  <i>\n    <n/>\n  </i>\n</l>\n" in _texts("xml", text)


def test_an_xml_value_that_lost_its_quote_in_a_tag_over_lines_ends_with_its_line() -> None:
    # one attribute a line: the value ran on over the line break, past a `>`
    text = '<f>\n  <field\n    id="{a>b} c\n    name="n">\n  </field>\n</f>\n'
    found = _texts("xml", text)
    assert text.replace("b} c\n", 'b} c"\n', 1) in found
    # not ended at the `>`, with the next line's attribute made text
    assert text.replace("{a>", '{a">', 1) not in found


def test_an_xml_value_that_lost_its_quote_before_a_slash_and_the_tags_end_keeps_the_slash() -> None:
    # `3.0/>`: the `/` ends the value (a URL's path), or an empty-element tag
    text = '<a>\n  <link href="https://example.org/3.0/>Terms</link>\n</a>\n'
    assert text.replace("3.0/>", '3.0/">', 1) in _texts("xml", text)


def _searched(text: str, early: int, end: int, error: int, hints: Any) -> list[tuple[str, Any]]:
    """What the pattern pass keeps, found by each pattern's search alone."""
    found = []
    for rewrite in hints.rewrites:
        overlapped = rewrite.kind == "fix"
        for match in rewrite.pattern.finditer(text, early, end, overlapped=overlapped):
            if match.start() > error:
                break
            if match.end() > match.start():
                found.append((rewrite.name, match))
    return found


@pytest.mark.parametrize("grammar", ["json", "jsonc", "toml", "yaml", "ini", "xml"])
def test_the_pattern_pass_finds_what_each_pattern_s_search_finds(grammar: str) -> None:
    import random

    hints = CompiledGrammar.load(grammar).hints()
    rng = random.Random(grammar)
    pieces = ['"', "'", "a b", ": ", ", ", "{", "}", "[", "]", "\n", "#", "//", "0.", "1", "\\"]
    texts = [
        '{"a": "He said "hi" to me", b: 1,}',
        "[1, 2, 3,] // note\n",
        *("".join(rng.choice(pieces) for _ in range(rng.randrange(1, 60))) for _ in range(200)),
    ]
    for text in texts:
        for error in sorted({0, len(text) // 2, len(text) - 1, rng.randrange(len(text) + 1)}):
            early = rng.randrange(error + 1)
            end = min(len(text), error + rng.choice((3, 512)))
            scanned = hints_module._scan(text, early, end, error, hints, lambda: None)
            got = [(rewrite.name, match.span(), match.groupdict()) for rewrite, match in scanned]
            searched = _searched(text, early, end, error, hints)
            assert got == [(name, m.span(), m.groupdict()) for name, m in searched], text
