"""The everyday-damage judges: same data, kept prefix, data lost."""

from __future__ import annotations

import pytest
from bench.damage.judges import data_lost, keeps_prefix, same_data

SAME = [
    ("json", '{"a": [1, 1.5, true, null], "b": "\\u00e9"}', '{"a":[1,1.50,true,null],"b":"é"}'),
    ("ini", "[s]\nname = value ; note\n  more\n", "; c\n[s]\nname=value\n more ; x\n"),
    ("csv", 'a,"b c"\n1,2\n', '"a",b c\r\n\n1,"2"\r\n'),
    (
        "dot",
        'digraph G { a -> "b" [label="x", color=red]; }',
        'digraph "G" {a->b[label=x color="red"]}',
    ),
    ("sexp", "(defun f (x) ; doc\n  (+ x 1))", "(defun f (x)\n(+ x 1))"),
    ("tinyc", "{ a = 1 ; }", "{a=1;}"),
    ("toml", 'a = 1 # c\n[t]\nb = "x"\n', "a=1\n[t]\nb='x'"),
    ("yaml", "a: [1, 'x']  # c\nb:\n  c: yes\n", 'a:\n- 1\n- "x"\nb: {c: true}\n'),
    ("xml", '<a x="1"><!-- c --><b/></a>', "<a x='1'><b></b></a>"),
    ("jsonc", '{"a": [1,], // c\n}', '{"a":[1]}'),
]
CHANGED = [
    ("json", '{"a": 1}', ['{"a": 1.0}', '{"a": true}', '{"a": "1"}', '{"a": 1, "a": 1}', "[1]"]),
    ("json", '{"a": 1, "b": 2}', ['{"b": 2, "a": 1}']),
    ("ini", "[s]\nname = value\n", ["[s]\nname = other\n", "[t]\nname = value\n", "[s]\nname=\n"]),
    ("csv", "a,b\n1,2\n", ["a,b\n1,3\n", "a,b,\n1,2\n", "a,b\n1\n2\n"]),
    ("dot", "digraph { a -> b }", ["digraph { a -> c }", "digraph { b -> a }", "graph { a -- b }"]),
    ("sexp", "(f x)", ["(f y)", "(f (x))", '(f "x")']),
    ("tinyc", "{ a = 1 ; }", ["{ a = 2 ; }", "{ b = 1 ; }", "{ a = 1 ; ; }"]),
    ("toml", "a = 1\n", ["a = 1.0\n", 'a = "1"\n', "a = 1\na = 1\n", "[a]\n"]),
    ("yaml", "a: 1\n", ["a: '1'\n", "a: 2\n", "- a: 1\n", "a: 1\n---\n"]),
    ("xml", '<a x="1">t</a>', ['<a x="2">t</a>', "<a>t</a>", '<a x="1">u</a>', '<a x="1"/>']),
    ("jsonc", '{"a": 1}', ['{"a": 1.0}', "// c\n[1]", '{"a": 1,,}']),
]


@pytest.mark.parametrize(("fmt", "original", "relaid"), SAME)
def test_same_data_accepts_the_original_in_another_layout(
    fmt: str, original: str, relaid: str
) -> None:
    assert same_data(fmt, original, original)
    assert same_data(fmt, original, relaid)


@pytest.mark.parametrize(("fmt", "original", "changes"), CHANGED)
def test_same_data_rejects_a_changed_value(fmt: str, original: str, changes: list[str]) -> None:
    for changed in changes:
        assert not same_data(fmt, original, changed), changed


def test_an_exponent_past_what_a_decimal_holds_is_no_data() -> None:
    assert not same_data("json", '{"a": 1.5}', '{"a": 1.5e9999999999999999999}')


def test_same_data_rejects_invalid_text_and_json_constants() -> None:
    assert not same_data("json", '{"a": 1}', '{"a": 1')
    assert not same_data("json", "[null]", "[NaN]")
    assert not same_data("ini", "[s]\n", "[s\n")
    assert not same_data("xml", "<a>t</a>", "<a>t</b>")  # lark alone would accept it
    assert not same_data("yaml", "a: 1\n", "a: 1\n\tb: 2\n")


@pytest.mark.parametrize(
    ("truncated", "repaired", "kept"),
    [
        ('{"a": tr', '{"a": true}', True),
        ('{"a": tr', '{"a": null}', False),
        ('{"a": "ab', '{"a": "ab"}', True),
        ('{"a": "ab', '{"a": "abc"}', True),
        ('{"a": "ab', '{"a": "a"}', False),
        ('["caf\\u00', '["café"]', True),
        ('["a\\\\u00', '["a\\\\u00"]', True),
        ('["a\\\\u00', '["a\\\\"]', False),
        ('{"a":1,"b', '{\n  "a": 1,\n  "b": null\n}', True),
        ('{"a":1,"b', '{"a": 1}', False),
        ("[1, 2", "[1]", False),
        ("[1, 2", "[1, 2]", True),
        ("[1, 2", "[1, 23]", True),
        ("[1.", "[1.5]", True),
        ("[1, 2", "[1, 2", False),
        # cut off after a separator: closed without it, or with what followed
        ("[1, 2, ", "[1, 2]", True),
        ('{"a": 1,', '{"a": 1}', True),
        ('{"a": 1,', '{"a": 1, "b": 2}', True),
        ("[1, 2, ", "[1]", False),
    ],
)
def test_keeps_prefix_for_json(truncated: str, repaired: str, kept: bool) -> None:
    assert keeps_prefix("json", truncated, repaired) is kept


def test_keeps_prefix_for_other_formats() -> None:
    assert keeps_prefix("ini", "[sec", "[sec]")
    assert keeps_prefix("ini", "[s]\nke", "[s]\nkey=")
    assert not keeps_prefix("ini", "[s]\nke", "[s]\n")
    assert keeps_prefix("sexp", "(defun f (x", "(defun f (x))")
    assert not keeps_prefix("sexp", "(defun f (x", "(defun f)")
    assert keeps_prefix("dot", 'digraph { a -> "long na', 'digraph { a -> "long name" }')
    # a comment cut off in the middle: kept as written, then closed
    assert keeps_prefix("jsonc", '{"a": 1, /* see th', '{"a": 1, /* see th*/}')
    assert keeps_prefix("jsonc", "/* orders\n * in ce", "/* orders\n * in ce*/null")
    assert not keeps_prefix("jsonc", '{"a": 1, /* see th', '{"a": 1}')
    # TOML reads line breaks as tokens: the closer may come before the last one
    assert keeps_prefix("toml", 'a = [\n  { b = 1 },\n  ', 'a = [\n  { b = 1 },]\n  ')
    assert not keeps_prefix("toml", 'a = [\n  { b = 1 },\n  ', 'a = [\n]\n  ')


def test_data_lost_counts_deleted_and_overwritten_non_blanks() -> None:
    assert data_lost('{"a" 1}', '{"a": 1}') == 0
    assert data_lost('{"a": 1}x', '{"a": 1}') == 1
    assert data_lost('{"a": 1}  ', '{"a": 1}') == 0
    assert data_lost("[True]", "[true]") == 1
