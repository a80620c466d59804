"""Tests of the bundled lark grammars (``grammars/*.lark``).

Everything goes through ``inputmend.grammar.registry`` (``resolve`` / ``build_parser``) so
that the tests check exactly what ships.  Covered here:

* every grammar builds as LALR(1) with the contextual lexer, without conflicts
  (except the documented dangling-else shift in TinyC);
* header fields (title, extensions; one grammar per extension);
* terminals are usable by the incremental checker: no lookbehind/lookahead, no
  terminal matching the empty string, and every prefix of every token of the
  valid samples partially matches its terminal with the ``regex`` module;
* hand-written valid and invalid samples per grammar, plus their CRLF and
  no-final-newline variants, and sample files under ``samples/``;
* tree shapes that the syntactic algorithms rely on;
* the FSynth corpus (``../shared/corpus``): every ``-valid`` file parses; the
  ``-invalid-*`` files that still parse are exactly the documented
  ``ACCEPTED_MUTANTS``; JSON agrees with Python's ``json`` module;
* the corpora of the newer formats (``tests/corpus/NAME/``, all valid) count as
  valid sample files of their grammar (their agreement with the reference
  parsers is checked in ``test_reference_checks.py``).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import random
import re
from pathlib import Path

import lark
import pytest
import regex

from inputmend.grammar import registry
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle

HERE = Path(__file__).resolve().parent
SAMPLES = HERE / "samples"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
FORMAT_CORPUS = HERE.parent / "corpus"

REQUIRED = {
    "json",
    "ini",
    "sexp",
    "tinyc",
    "dot",
    "obj",
    "csv",
    "expr",
    "toml",
    "jsonc",
    "xml",
    "yaml",
}
# Grammars with a layout (YAML): lark alone cannot parse them (the layout's
# zero-width tokens are missing), so the tests of lark's lexing skip them.
LAYOUT = {"yaml"}
CORPUS_FORMATS = ("json", "ini", "sexp", "tinyc")

# Shift/reduce conflicts that are resolved as shift on purpose (documented in
# the grammar header): grammar -> set of terminals.
EXPECTED_SHIFT_REDUCE = {"tinyc": {"ELSE"}}

# Mutants of the corpus that are still valid for the format, with the reason.
ACCEPTED_MUTANTS = {
    "sexp-invalid-single/04a6533e7f0046129820d3e77f412f49.lisp": (
        "'`' inserted after 'format': '`' is a terminating reader macro, so the list "
        "now holds 'format' and the quasi-quoted 't' (still valid Lisp)"
    ),
    "sexp-invalid-single/05a37ed9483d427e99a48e6eb3d5b487.lisp": (
        "a space turned into ''': the next datum is quoted (still valid Lisp)"
    ),
}

# JSON corpus files on which Python's json module and the grammar disagree.
JSON_DISAGREEMENTS: dict[str, str] = {}


# --------------------------------------------------------------------------
# helpers


def parser(name: str) -> lark.Lark:
    return registry.build_parser(registry.resolve(name))


def has_lone_surrogate(text: str) -> bool:
    return any(0xDC80 <= ord(ch) <= 0xDCFF for ch in text)


def _lark_accepts(name: str, text: str) -> bool:
    try:
        parser(name).parse(text)
    except lark.exceptions.LarkError:
        return False
    return True


@functools.cache
def _oracle(name: str) -> ReferenceGrammarOracle:
    return ReferenceGrammarOracle(name)


def accepts(name: str, text: str) -> bool:
    """What the checker would say: lone surrogates are rejected before parsing.
    A grammar with checks beside the parser (or a layout) is more than lark's
    parse: the oracle runs them."""
    if has_lone_surrogate(text):
        return False
    oracle = _oracle(name)
    if oracle.grammar.checks is not None or oracle.grammar.layout is not None:
        return oracle.check(text).valid
    return _lark_accepts(name, text)


def read_text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "surrogateescape").removeprefix("\ufeff")


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


# --------------------------------------------------------------------------
# hand-written samples: grammar -> (valid, invalid)

SAMPLES_INLINE: dict[str, tuple[list[str], list[str]]] = {
    "json": (
        [
            '{"a": [1, 2.5, -0, 1e10, 1E-2, 0.5e+3], "b": {"c": null}}\n',
            "[]",
            "{}",
            '"just a string"',
            "42",
            "-0.0e0",
            " \t\n true \n",
            '"escapes: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00"',
            '"non-ASCII is fine: \u00e9\u4e2d"',
            '[[[[{"deep": [{}]}]]]]\n',
            '{"dup": 1, "dup": 2}',
        ],
        [
            "",
            "{,}",
            '{"a": 1,}',
            "[1, 2,]",
            "[1 2]",
            "01",
            "+1",
            ".5",
            "5.",
            "1e",
            "-",
            "NaN",
            "Infinity",
            "-Infinity",
            "{'a': 1}",
            '{"a" 1}',
            "{a: 1}",
            '"tab\tinside"',
            '"newline\ninside"',
            '"bad escape \\x41"',
            '"short \\u12"',
            '"unterminated',
            "// comment\n1",
            "/* c */ 1",
            "True",
            "nul",
            "[1]]",
            "1 2",
            "\u00a01",
            "\f1",
        ],
    ),
    "ini": (
        [
            "",
            "\n\n",
            "; only comments\n# hash comment\n",
            "[section]\nname = value\nother: value with = and : inside\n",
            "  [indented]\n  key = indented pair before any pair is a pair\n",
            "[s]\nkey = first\n  continuation line\n\tanother ; with comment\n",
            "[s]\nkey = v\n\n; comment between\n  still a continuation\n",
            "name=value ; inline comment\n",
            "a;b = semicolon not after whitespace is part of the name\n",
            "[a;b]\n",
            "[sec] trailing text after the bracket is ignored\n",
            "[sec]   ; comment after header\n",
            "= empty name is allowed\n",
            "key =\nkey2 =   \n",
            "key = value with trailing spaces   \n",
            "[a]\n[a]\nx=1\n",
            "[]\n[ ]\n",
            "key = no final newline",
            "[last header]",
            "a=1\n  ",
            "k = v\n=empty\n  [x]\n",
            "[s]\nurl = http://example.org:80/?q=1#frag\n",
        ],
        [
            "just text\n",
            "[unclosed\n",
            "[ ;comment hides bracket]\n",
            "[name ;x]\n",
            "key ;comment = value\n",
            "  indented text before any pair\n",
            "[s]\n  text after header\n",
            "=empty\n  not a continuation after an empty name\n",
            "a = 1\nb\n",
            "a = 1\rb = 2\n",
            "a = nul\x00byte\n",
            "[s]\nkey = v\n[t]\n  no pair yet\n",
        ],
    ),
    "sexp": (
        [
            "",
            "; only a comment",
            "(a b c)",
            "()",
            "(a . b)",
            "(a b . (c d))",
            "'(quote ,unquote ,@splice `quasi #'fn)",
            '"string with \\" escape and\nnewline"',
            "#(1 2 3) #\\a #\\( #\\) #\\Space #:uninterned #xFF #b101 #t #f",
            ":keyword pkg:sym pkg::internal *special* +1 -1 1.5 1+ a.b .5",
            "#| block comment |# (a) #| another ||# b",
            "(a #|inline|# b)",
            "|escaped symbol| a\\ b",
            "(defun f (x)\n  ;; comment\n  (* x x))\n\n(f 2)\n",
            "(#+sbcl a #-sbcl b)",
        ],
        [
            "(",
            ")",
            "(a b",
            "a b)",
            "(. a)",
            "(a .)",
            "(a . b c)",
            "(a . b . c)",
            ".",
            "...",
            "'",
            "(a ')",
            '"unterminated',
            "#",
            "# a",
            "#|unterminated",
            "#\\",
            "(a ,)",
        ],
    ),
    "tinyc": (
        [
            "a=1;",
            ";",
            "{}",
            "{ a = 1; b = a + 2; }",
            "if (a < b) c = 1; else c = 2;",
            "if (a) if (b) c; else d;",
            "while (i < 100) i = i + 1;",
            "do i = i - 1; while (0 < i);",
            "a = b = c = 007;",
            "(1 + (2 - a)) < 3;",
            "{ ;;; {} }",
            "i=0<3 ;",
            "{\n\ta = 1;\n}\n",
        ],
        [
            "",
            "a = 1",
            "a; b;",
            "a < b < c;",
            "(a) = 1;",
            "1 = a;",
            "ab = 1;",
            "A = 1;",
            "a = 1 * 2;",
            "if a; ",
            "if (a) else b;",
            "do a; while (b)",
            "while (a);;",
            "{",
            "}",
            "ifa;",
            "a = -1;",
            "a = 1;\r",
        ],
    ),
    "dot": (
        [
            "digraph { a -> b }",
            "graph { a -- b -- c }",
            "strict digraph G { a; b; a -> b; }",
            "DIGRAPH g { NODE [shape=box]; Edge [color=red]; GRAPH [rankdir=LR] }",
            "digraph { nodes -> edges; graphs }",
            'digraph { rankdir = LR; a [label="x\\"y", color=red; style=bold] }',
            "digraph { a:p1:n -> b:sw; c:ne }",
            "digraph { subgraph cluster_x { a } -> { b c } }",
            'digraph { a [label="one" + "two" + "three"] }',
            "digraph { a [label=<<b>bold</b> <i>it</i>>] }",
            "digraph { -1 -> .5 -> 2. -> 3.25 }",
            "digraph { a [] [b=c] }",
            "# preprocessor line\ndigraph { // line\n a /* block\n */ }",
            'digraph { "a\\\\b" }',
            "digraph { \u00fcber -> \u4e2d }",
        ],
        [
            "",
            "digraph { a -> b",
            "digraph { a -- b }",
            "graph { a -> b }",
            "digraph { node }",
            "digraph { a [b] }",
            "digraph { a [b=] }",
            "digraph { a -> }",
            "digraph { = b }",
            "digraph a b { }",
            "tree { a }",
            "digraph { } digraph { }",
            'digraph { "unterminated }',
            'digraph { "a\\" }',
            "digraph { a [label=<unbalanced <b>] }",
            "digraph { a + b }",
            "digraph { a /* unterminated }",
            "strict { a }",
        ],
    ),
    "obj": (
        [
            "",
            "# comment only\n",
            "v 1 2 3\nv 1.5 -2.5e-3 +.5\nv 0 0 0 1\n",
            "vt 0.5\nvt 0.5 1\nvt 0 1 0\nvn 0 0 1\nvp 0.2\n",
            "f 1 2 3\nf 1/1 2/2 3/3 4/4\nf 1//1 2//2 3//3\nf 1/1/1 2/2/2 3/3/3\n",
            "f -1 -2 -3\nf -3/-3/-3 -2/-2/-2 -1/-1/-1\n",
            "l 1 2\nl 1/1 2/2 3/3\np 1\np 1 2 3\n",
            "g\ng a\ng a b c\no thing\ns off\ns 0\ns 12\n",
            "mtllib a.mtl b.mtl\nusemtl Material.001\nusemap map\nmaplib x.map\n",
            "  v 1 2 3  \n\t\nv\t1\t2\t3\n",
            "v 1 2 3 # trailing comment\n",
            "f 1 2 \\\n 3 4\n",
            "cstype bezier\ndeg 3\ncurv 0 1 1 2 3 4\nparm u 0 1\nend\n",
            "v 1 2 3 0.5 0.5 0.5\n",
            "v 1 2 3",
        ],
        [
            "v 1 2\n",
            "v 1 2 3 4 5 6 7 8\n",
            "v1 2 3\n",
            "v 1 2 x\n",
            "v 1..2 3 4\n",
            "f 1 2\n",
            "f 0 1 2\n",
            "f 1 2/2 3\n",
            "f 1/ 2/ 3/\n",
            "f 1/2/3/4 1 2\n",
            "f 1 2 3a\n",
            "vn 1 2\n",
            "s\n",
            "s maybe\n",
            "o\n",
            "unknown 1 2\n",
            "v 1 2 3\rv 1 2 3\n",
            "l 1\n",
        ],
    ),
    "csv": (
        [
            "",
            "a",
            "a,b,c\n1,2,3\n",
            "a,b\r\n1,2\r\n",
            ",,\n,\n",
            '"quoted","with ""double"" quotes","with, comma"\n',
            '"multi\nline","multi\r\nline crlf"\n',
            '""\n',
            "no final newline,x",
            "a,b\n\n1,2\n",
            "spaces are data , \t tabs too\n",
            "unicode,\u00e9\u4e2d\n",
            "a,b\n1,2,3\n",
        ],
        [
            '"unterminated\n',
            'a"b\n',
            '"a"b\n',
            '"a" ,b\n',
            'a,"b"c\n',
            "a\rb\n",
            '"a""\n',
        ],
    ),
    "toml": (
        [
            "",
            "\n\n# only a comment\n",
            'title = "TOML"\n[owner]\nname = "Tom"\n',
            "[[fruits]]\nname = 'apple'\n[[fruits.varieties]]\nname = \"red\"\n",
            "[ a . \"b c\" . 'd' ]\ne.f . g = 1\n",
            "true = false\n123 = 1979-05-27\ninf = nan\n- = 1\n",
            "a = 0x1F\nb = 0o755\nc = 0b1101\nd = -17\ne = 1_000\nf = +0\n",
            "a = 1e06\nb = -2E-2\nc = 6.626e-34\nd = 224_617.445_991\ne = -inf\nf = +nan\n",
            "odt = 1979-05-27T07:32:00.999999-07:00\nldt = 1979-05-27 07:32:00\n"
            "ld = 2000-02-29\nlt = 07:32:00.5\nz = 1979-05-27t07:32:00z\n",
            's = "tab\\t \\"q\\" \\u00e9 \\U0001F600"\nl = \'C:\\path\'\ne = ""\nf = \'\'\n',
            "s = \"\"\"\nRoses\\\n   are red\n\"\"\"\"\nl = '''\nraw \\n\n'''''\n",
            'a = """""\'\'"""\nb = \'\'\'\'\'"""\'\'\'\n',
            "a = [\n  1, # one\n  2,\n\n]\nb = []\nc = [[1, 2], ['x'], [{ y = 1 }]]\n",
            "t = { a = 1, b.c = [1, 2], d = {} }\ne = {}\n",
            "a = 1 # comment\n[t] # comment\n[[u]] # comment\n",
            "\t a = 1\t\n  [ t ]  \n",
            "key = 'no final newline'",
        ],
        [
            "a = 1 b = 2\n",
            "a =\n1\n",
            "a\n= 1\n",
            "a = 01\n",
            "a = 1__0\n",
            "a = 1_\n",
            "a = -0x1\n",
            "a = 1.\n",
            "a = .5\n",
            "a = 1e\n",
            "a = 2001-02-29\n",
            "a = 2000-13-01\n",
            "a = 0000-01-01\n",
            "a = 12:60:00\n",
            "a = 1979-05-27T07:32\n",
            "a = True\n",
            'a = "\\uD800"\n',
            'a = "\\U00110000"\n',
            'a = "\\x41"\n',
            "a = 'new\nline'\n",
            'a = """x\\  y"""\n',
            "# bell \x07\n",
            "a = [1,,2]\n",
            "a = [,]\n",
            "t = {a = 1,}\n",
            "t = {\na = 1}\n",
            "t = {a = 1 # c\n}\n",
            "[a]]\n",
            "[[a]\n",
            "[ [a] ]\n",
            "[]\n",
            "a.b. = 1\n",
            "a = 1\rb = 2\n",
            "= 1\n",
            'a = """unterminated\n',
        ],
    ),
    "jsonc": (
        [
            "",
            "// only a comment",
            "/* block */ \n",
            '{"a": [1, 2.5, -0, 1e10], "b": {"c": null}}\n',
            '{\n  // line comment\n  "a": 1, /* block */\n  "b": [true, false,],\n}\n',
            "[1, 2, 3,]",
            '{"a": 1,}',
            "/** doc **/ [] // end",
            "[1 /* * / */, 2]",
            '"a string // not a comment"',
            '"/* not a comment either */"',
            "\x0b\x0c\u00a0\u2003\ufeff[\u2028]\u3000",
            "[1, // comment ends at U+2028\u20282]",
        ],
        [
            "[,]",
            "{,}",
            "[1,,]",
            "[1,,2]",
            '{"a": 1,,}',
            "[1] ,",
            "1,",
            "/* unterminated",
            "[1 /* unterminated ]",
            "/ 1",
            "[1 / 2]",
            "[1 // comment hides the bracket]",
            "1 /**/ 2",
            "{'a': 1}",
            "{a: 1}",
            "01",
            "+1",
            "NaN",
            '"tab\tinside"',
            '"bad \\x41"',
            "# not a comment\n1",
        ],
    ),
    "xml": (
        [
            "<a><b/>text &amp; &#x41;</a>",
            '<?xml version="1.0" encoding="UTF-8"?>\n<!-- c -->\n<r a="1" b=\'&lt;2\'/>\n',
            '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>',
            '<p:a xmlns:p="urn:x" xml:lang="en"><p:b p:c="1"/></p:a>',
            "<a><![CDATA[ <not> & markup ]]><?pi data?></a>",
            "<a>&#9;&#x10FFFF;&#0065;</a>",
            "<a\n  x = 'y'\n></a  >",
            '<?xml-stylesheet href="s.css"?><a/>',
        ],
        [
            "",
            "<a></b>",
            "<a><b></a></b>",
            '<a x="1" x="2"/>',
            "<a>&nbsp;</a>",
            "<a>&#0;</a>",
            "<a>&#xD800;</a>",
            ' <?xml version="1.0"?><a/>',
            "<a/><?XML x?>",
            "<p:a/>",
            '<a p:x="1"/>',
            '<a b="1"c="2"/>',
            "< a/>",
            "<a>]]></a>",
            "<!-- a -- b --><a/>",
            "<a/><b/>",
            "<a/>text",
            "<a",
        ],
    ),
    "yaml": (
        [
            "a: 1\nb:\n  - x\n  - {y: [1, 2], z: 'q'}\n",
            "- a: 1\n  b: |\n    text\n    more\n- >-\n  folded\n",
            "? complex key\n: value\nkey:\n- indentless\n- entries\n",
            "base: &b {x: 1}\nderived: *b\n--- !!str\nsecond document\n...\n",
            '%YAML 1.1\n%TAG !e! tag:example.com,2000:\n--- !e!thing "quoted\n  over lines"\n',
            "plain scalar\n  continues here\n# comment\n",
            "",
            "key: value # comment\nempty:\nlist: []\n",
        ],
        [
            "a: b: c",
            "a:\n\tb: 1",
            "a: 1\t\n",
            "- a\nb: 1",
            "a: - b",
            "[a, - b]",
            "{a: 1",
            "*undefined",
            "&x a: 1\n&x b: 2\n",
            "!e!tag a",
            '"x\ny": 1',
            "key:\n  a: 1\n b: 2",
            "--- a: 1",
            "%YAML 2.0\n--- a",
            "a: |0\n  x",
            '"\\q"',
        ],
    ),
    "expr": (
        [
            "1 + ((2 * 3 / 4))",
            "a + a",
            "1",
            "abc",
            "-1",
            "+-+1",
            "1+2*3-4/5",
            "1 - -2",
            "(((a)))",
            "fed * (1 + 2)",
            "1\n+\t2",
        ],
        [
            "",
            "1 +",
            "+",
            "1 2",
            "a b",
            "()",
            "(1",
            "1)",
            "g",
            "A",
            "1 ** 2",
            "1 % 2",
            "1.5",
            "* 1",
        ],
    ),
}


def _valid_cases() -> list[tuple[str, str]]:
    return [(name, text) for name, (valid, _) in SAMPLES_INLINE.items() for text in valid]


def _invalid_cases() -> list[tuple[str, str]]:
    return [(name, text) for name, (_, invalid) in SAMPLES_INLINE.items() for text in invalid]


def _lark_cases(cases: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(name, text) for name, text in cases if name not in LAYOUT]


def _sample_files(kind: str) -> list[tuple[str, Path]]:
    files = [
        (path.parent.name, path) for path in sorted(SAMPLES.glob(f"*/{kind}_*")) if path.is_file()
    ]
    if kind == "valid":
        files += [
            (path.parent.name, path)
            for path in sorted(FORMAT_CORPUS.glob("*/*"))
            if path.parent.name in REQUIRED
        ]
    return files


def _file_id(value: object) -> str:
    return value.name if isinstance(value, Path) else str(value)


# --------------------------------------------------------------------------
# registry, headers, LALR construction


def test_required_grammars_are_bundled() -> None:
    registry.bundled.cache_clear()
    assert set(registry.bundled()) >= REQUIRED


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_header(name: str) -> None:
    info = registry.resolve(name)
    assert info.title and info.title != name
    assert info.extensions, "each grammar maps at least one extension"
    assert all(ext.startswith(".") and ext == ext.lower() for ext in info.extensions)
    first = info.path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("// title:")


def test_extensions_are_unique_and_resolve() -> None:
    seen: dict[str, str] = {}
    for name, info in registry.bundled().items():
        for ext in info.extensions:
            assert ext not in seen, f"{ext} mapped by {seen.get(ext)} and {name}"
            seen[ext] = name
            found = registry.for_extension("file" + ext.upper())
            assert found is not None and found.name == name
    expected = {
        ".json": "json",
        ".ini": "ini",
        ".lisp": "sexp",
        ".tinyc": "tinyc",
        ".dot": "dot",
        ".gv": "dot",
        ".obj": "obj",
        ".csv": "csv",
        ".expr": "expr",
        ".toml": "toml",
        ".jsonc": "jsonc",
    }
    for ext, name in expected.items():
        assert seen.get(ext) == name
    assert ".jsonl" not in seen


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_builds_as_lalr_without_unexpected_conflicts(name: str) -> None:
    info = registry.resolve(name)
    built = registry.build_parser(info)
    assert built.options.parser == "lalr"
    assert built.options.lexer == "contextual"
    shift_reduce, reduce_reduce = lalr_conflicts(info)
    assert shift_reduce == EXPECTED_SHIFT_REDUCE.get(name, set())
    assert not reduce_reduce


def lalr_conflicts(info: registry.GrammarInfo) -> tuple[set[str], list[str]]:
    """The terminals of shift/reduce conflicts (lark resolves them as shift) and
    the reduce/reduce conflicts, from lark's debug log of a fresh build
    (build_parser is cached, so its own log is not observable)."""
    records: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    handler = Collect()
    old_level = lark.logger.level
    lark.logger.addHandler(handler)
    lark.logger.setLevel(logging.DEBUG)
    try:
        lark.Lark(
            info.path.read_text(encoding="utf-8"),
            parser="lalr",
            lexer="contextual",
            start=info.start,
            propagate_positions=True,
            maybe_placeholders=False,
            debug=True,
            cache=False,
        )
    finally:
        lark.logger.removeHandler(handler)
        lark.logger.setLevel(old_level)
    shift_reduce = {
        message.split("terminal ")[1].split(":")[0]
        for message in records
        if "Shift/Reduce conflict" in message
    }
    return shift_reduce, [message for message in records if "Reduce/Reduce" in message]


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_terminals_suit_partial_matching(name: str) -> None:
    for terminal in parser(name).terminals:
        pattern = terminal.pattern.to_regexp()
        assert "(?<" not in pattern.replace("(?P<", ""), f"{terminal.name}: lookbehind"
        assert "(?=" not in pattern and "(?!" not in pattern, f"{terminal.name}: lookahead"
        compiled = regex.compile(pattern)
        assert compiled.fullmatch("") is None, f"{terminal.name} matches the empty string"
        # The empty prefix can always grow into a token.
        assert compiled.fullmatch("", partial=True) is not None


@pytest.mark.parametrize(("name", "text"), _lark_cases(_valid_cases()))
def test_token_prefixes_match_partially(name: str, text: str) -> None:
    built = parser(name)
    compiled = {t.name: regex.compile(t.pattern.to_regexp()) for t in built.terminals}
    for token in _tokens(built.parse(text)):
        pattern = compiled[token.type]
        assert pattern.fullmatch(str(token)) is not None
        for end in range(len(token)):
            assert pattern.fullmatch(str(token)[:end], partial=True) is not None


def _tokens(tree: lark.Tree) -> list[lark.Token]:
    return list(tree.scan_values(lambda v: isinstance(v, lark.Token)))


def _munch_parse(name: str, text: str) -> list[tuple[str, str]] | None:
    """Parse with a reference maximal-munch lexer driven by the LALR table.

    At each position, among the terminals the parser accepts in its current state
    plus the ignored ones, take the longest match; on a tie prefer literal
    (string) terminals, i.e. keywords, then higher priority.  Returns the tokens,
    or None if the text is rejected.  This is the lexing contract the grammars
    are written for (an incremental checker can use it instead of lark's lexer).
    """
    built = parser(name)
    terminals = {t.name: t for t in built.terminals}
    compiled = {n: regex.compile(t.pattern.to_regexp()) for n, t in terminals.items()}
    ignored = set(built.ignore_tokens)
    interactive = built.parse_interactive("")
    pos = 0
    tokens: list[tuple[str, str]] = []
    while pos < len(text):
        matches = []
        for term in (interactive.accepts() - {"$END"}) | ignored:
            match = compiled[term].match(text, pos)
            if match and match.end() > pos:
                matches.append((match.end(), term))
        if not matches:
            return None
        end = max(e for e, _ in matches)
        best = sorted(
            (t for e, t in matches if e == end),
            key=lambda t: (terminals[t].pattern.type != "str", -terminals[t].priority, t),
        )[0]
        if best not in ignored:
            try:
                interactive.feed_token(lark.Token(best, text[pos:end]))
            except lark.exceptions.UnexpectedInput:
                return None
            tokens.append((best, text[pos:end]))
        pos = end
    try:
        interactive.feed_eof()
    except lark.exceptions.UnexpectedInput:
        return None
    return tokens


@pytest.mark.parametrize(("name", "text"), _lark_cases(_valid_cases()))
def test_maximal_munch_lexing_agrees_on_valid(name: str, text: str) -> None:
    munched = _munch_parse(name, text)
    assert munched is not None
    # the tokens kept in lark's tree appear, in order, in the munched stream
    remaining = iter(munched)
    kept = [(tok.type, str(tok)) for tok in _tokens(parser(name).parse(text))]
    assert all(tok in remaining for tok in kept)


@pytest.mark.parametrize(("name", "text"), _lark_cases(_invalid_cases()))
def test_maximal_munch_lexing_agrees_on_invalid(name: str, text: str) -> None:
    # (the checks beside the parser reject some texts that lark's parse takes)
    if not has_lone_surrogate(text):
        assert (_munch_parse(name, text) is not None) == _lark_accepts(name, text)


# --------------------------------------------------------------------------
# samples


@pytest.mark.parametrize(("name", "text"), _valid_cases())
def test_valid_sample(name: str, text: str) -> None:
    assert accepts(name, text)


@pytest.mark.parametrize(("name", "text"), _valid_cases())
def test_valid_sample_crlf_and_without_final_newline(name: str, text: str) -> None:
    if "\n" in text:
        assert accepts(name, crlf(text)), "CRLF variant"
    stripped = text.removesuffix("\n").removesuffix("\r")
    if stripped != text:
        assert accepts(name, stripped), "without final newline"
        assert accepts(name, crlf(stripped)), "CRLF without final newline"


@pytest.mark.parametrize(("name", "text"), _invalid_cases())
def test_invalid_sample(name: str, text: str) -> None:
    assert not accepts(name, text)


@pytest.mark.parametrize(("name", "path"), _sample_files("valid"), ids=_file_id)
def test_valid_sample_file(name: str, path: Path) -> None:
    text = read_text(path)
    assert accepts(name, text)
    assert registry.for_path(path) == registry.resolve(name)


@pytest.mark.parametrize(("name", "path"), _sample_files("invalid"), ids=_file_id)
def test_invalid_sample_file(name: str, path: Path) -> None:
    assert not accepts(name, read_text(path))


def test_every_grammar_has_enough_samples() -> None:
    for name in REQUIRED:
        valid, invalid = SAMPLES_INLINE[name]
        files_valid = [p for n, p in _sample_files("valid") if n == name]
        files_invalid = [p for n, p in _sample_files("invalid") if n == name]
        assert len(valid) + len(files_valid) >= 6, name
        assert len(invalid) + len(files_invalid) >= 6, name
        crlf_files = [p for p in files_valid if b"\r\n" in p.read_bytes()]
        no_final = [p for p in files_valid if not p.read_bytes().endswith(b"\n")]
        assert crlf_files and no_final, f"{name}: need a CRLF file and one without final newline"


# --------------------------------------------------------------------------
# tree shapes


def _text(tree: lark.Tree, source: str) -> str:
    return source[tree.meta.start_pos : tree.meta.end_pos]


def test_expr_tree_has_paper_rules() -> None:
    source = "1 + ((2 * 3 / 4))"
    tree = parser("expr").parse(source)
    names = {sub.data for sub in tree.iter_subtrees()}
    assert {"expr", "op", "int"} <= names
    exprs = [_text(sub, source) for sub in tree.iter_subtrees() if sub.data == "expr"]
    assert "2 * 3 / 4" in exprs and source in exprs
    ops = [_text(sub, source) for sub in tree.iter_subtrees() if sub.data == "op"]
    assert sorted(ops) == ["*", "+", "/"]
    tree = parser("expr").parse("-a + b")
    names = {sub.data for sub in tree.iter_subtrees()}
    assert {"expr", "op", "prefix", "var"} <= names


def test_expr_precedence_and_associativity() -> None:
    source = "1 - 2 - 3 * 4"
    tree = parser("expr").parse(source)
    top = tree.children[0]
    assert top.data == "expr"
    # left operand of the last '-' is "1 - 2"; its right operand is "3 * 4"
    assert _text(top.children[0], source) == "1 - 2"
    assert _text(top.children[2], source) == "3 * 4"


def test_json_tree() -> None:
    source = '{"a": [1, true], "b": null}'
    tree = parser("json").parse(source)
    pairs = [sub for sub in tree.iter_subtrees() if sub.data == "pair"]
    assert [_text(p.children[0], source) for p in pairs] == ['"a"', '"b"']
    values = [_text(sub, source) for sub in tree.iter_subtrees() if sub.data == "value"]
    assert set(values) == {source, "[1, true]", "1", "true", "null"}


def test_ini_tree_groups_sections() -> None:
    source = "; top\nx = 0\n[a]\nk = v\n  more\n[b]\nj : w\n"
    tree = parser("ini").parse(source)
    kinds = [child.data for child in tree.children]
    assert kinds == ["comment", "pair", "section", "section"]
    first = tree.children[2]
    assert [child.data for child in first.children] == ["header", "pair", "continuation"]
    assert _text(first, source) == "[a]\nk = v\n  more\n"
    pair = first.children[1]
    assert [child.data for child in pair.children] == ["key", "value"]


def test_tinyc_dangling_else_binds_to_inner_if() -> None:
    source = "if (a) if (b) c; else d;"
    tree = parser("tinyc").parse(source)
    outer = tree.children[0]
    inner = outer.children[2]
    assert outer.data == inner.data == "statement"
    assert _text(inner, source) == "if (b) c; else d;"


def test_sexp_tree() -> None:
    source = "(a 'b . (c))"
    tree = parser("sexp").parse(source)
    kinds = {sub.data for sub in tree.iter_subtrees()}
    assert {"sexp", "list", "atom", "quoted"} <= kinds
    top = tree.children[0].children[0]
    assert top.data == "list"
    assert any(isinstance(c, lark.Token) and c.type == "DOT" for c in top.children)


def test_dot_tree() -> None:
    source = "digraph { a -> b [c=d]; node [e=f]; g = h; subgraph s { i } }"
    tree = parser("dot").parse(source)
    graph = tree.children[0]
    (stmt_list,) = [c for c in graph.children if isinstance(c, lark.Tree)]
    assert stmt_list.data == "stmt_list"
    stmts = stmt_list.children
    assert [s.data for s in stmts] == ["edge_stmt", "attr_stmt", "assignment", "subgraph"]


def test_obj_tree() -> None:
    source = "v 1 2 3\nvt 0 1\nf 1/1 1/1 1/1 # c\ng a\n"
    tree = parser("obj").parse(source)
    assert [c.data for c in tree.children] == ["vertex", "texcoord", "face", "comment", "group"]


def test_csv_tree() -> None:
    source = 'a,,"c"\n\n1\n'
    tree = parser("csv").parse(source)
    records = tree.children
    assert [len(r.children) for r in records] == [3, 1]
    assert all(f.data == "field" for r in records for f in r.children)


def test_toml_tree() -> None:
    source = 'a.b = [1, {c = "d"}]\n[t."u"]\nx = 1979-05-27\n[[arr]]\n'
    tree = parser("toml").parse(source)
    assert [child.data for child in tree.children] == ["keyval", "table", "keyval", "array_table"]
    keyval = tree.children[0]
    assert _text(keyval.children[0], source) == "a.b"
    assert [_text(sub, source) for sub in keyval.iter_subtrees_topdown()][1:] == [
        "a.b",
        '[1, {c = "d"}]',
        '[1, {c = "d"}]',
        "1",
        '{c = "d"}',
        '{c = "d"}',
        'c = "d"',
        "c",
        '"d"',
    ]
    assert _text(tree.children[1], source) == '[t."u"]'
    assert tree.children[2].children[1].children[0].type == "DATE_TIME"


def test_jsonc_tree_is_jsons() -> None:
    def shape(tree: lark.Tree) -> list[tuple[str, int]]:
        return [(sub.data, len(sub.children)) for sub in tree.iter_subtrees_topdown()]

    source = '{"a": [1, true,], /* c */ "b": null, // d\n}'
    stripped = '{"a": [1, true], "b": null}'
    assert shape(parser("jsonc").parse(source)) == shape(parser("json").parse(stripped))
    assert parser("jsonc").parse("// nothing but a comment").children == []


# --------------------------------------------------------------------------
# file names (JSONC files end in .json: they are named in the header)


def test_jsonc_header_lists_the_json_files_that_have_comments() -> None:
    jsonc = registry.resolve("jsonc")
    meant = [
        "tsconfig.json",
        "packages/web/tsconfig.app.json",
        "jsconfig.json",
        "repo/.vscode/settings.json",
        ".vscode/launch.json",
        ".vscode/tasks.json",
        ".vscode/extensions.json",
        ".devcontainer/devcontainer.json",
        ".devcontainer.json",
        "team.code-workspace",
    ]
    not_meant = ["package.json", "settings.json", "vscode/settings.json", "tsconfig.ts", "a.json"]
    assert all(registry.for_path(path) == jsonc for path in meant)
    assert not any(jsonc.names(path) for path in not_meant)
    assert registry.for_path("package.json") == registry.resolve("json")
    assert registry.for_extension("tsconfig.json") == registry.resolve("json")
    others = [info for name, info in registry.bundled().items() if name != "jsonc"]
    assert not any(glob.endswith(".json") for info in others for glob in info.files)


def test_xml_files_without_an_xml_extension_are_named() -> None:
    xml = registry.resolve("xml")
    for path in ("site/web.config", "App/app.config", "nuget.config", "etc/fonts/fonts.conf"):
        assert registry.for_path(path) == xml
    assert registry.for_path("app.conf") is None


def test_the_vs_code_client_hands_over_what_the_registry_maps() -> None:
    # client-vscode/src/selector.ts lists each bundled grammar's extensions and
    # file names (the editor chooses which documents reach the server).
    source = (HERE.parents[1] / "client-vscode" / "src" / "selector.ts").read_text()
    listed = {}
    for entry in re.finditer(r"\{\s*grammar: '(\w+)',(.*?)\}", source, re.DOTALL):
        fields = dict(re.findall(r"(extensions|files): \[(.*?)\]", entry.group(2), re.DOTALL))
        listed[entry.group(1)] = tuple(
            sorted(re.findall(r"'([^']*)'", fields.get(key, ""))) for key in ("extensions", "files")
        )
    expected = {
        name: (sorted(ext.removeprefix(".") for ext in info.extensions), sorted(info.files))
        for name, info in registry.bundled().items()
        if name != "cjson"  # the lenient JSON of the study's corpus: chosen by name only
    }
    assert listed == expected


# --------------------------------------------------------------------------
# work (speed itself is measured by bench/incremental_oracle.py, next to lark)


def test_a_100_kb_json_document_is_lexed_once() -> None:
    """The scan is linear: a whole-document check lexes each character once,
    and lark's parser agrees with it on the document."""
    rng = random.Random(7)

    def gen(depth: int) -> object:
        if depth > 3:
            return rng.choice([1, -2.5e3, 'text \u00e9 "q"', True, None, 0])
        if rng.random() < 0.5:
            return {f"key{i}": gen(depth + 1) for i in range(5)}
        return [gen(depth + 1) for _ in range(5)]

    parts: list[str] = []
    size = 0
    while size < 100_000:
        piece = json.dumps(gen(0), indent=2)
        parts.append(piece)
        size += len(piece) + 2
    document = "[" + ",\n".join(parts) + "]"
    parser("json").parse(document)
    oracle = IncrementalGrammarOracle("json")
    assert oracle.scan(document).feedback.valid
    assert oracle.scanned_chars == len(document)


# --------------------------------------------------------------------------
# corpus


def _corpus_folders(fmt: str) -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS} (expected <repo>/../shared/corpus)")
    folders = sorted(path for path in CORPUS.glob(f"{fmt}-*") if path.is_dir())
    if not folders:
        pytest.skip(f"no {fmt} folders in {CORPUS}")
    return folders


@pytest.mark.parametrize("fmt", CORPUS_FORMATS)
def test_corpus_valid_files_parse(fmt: str) -> None:
    folders = [f for f in _corpus_folders(fmt) if f.name == f"{fmt}-valid"]
    assert folders, f"{fmt}-valid missing"
    rejected = []
    files = sorted(folders[0].iterdir())
    assert files
    for path in files:
        text = read_text(path)
        if not accepts(fmt, text):
            rejected.append(path.name)
    assert rejected == []


@pytest.mark.parametrize("fmt", CORPUS_FORMATS)
def test_corpus_invalid_files_rejected_unless_documented(fmt: str) -> None:
    accepted = set()
    total = 0
    for folder in _corpus_folders(fmt):
        if "invalid" not in folder.name:
            continue
        for path in sorted(folder.iterdir()):
            total += 1
            if accepts(fmt, read_text(path)):
                accepted.add(f"{folder.name}/{path.name}")
    assert total > 0
    documented = {key for key in ACCEPTED_MUTANTS if key.startswith(f"{fmt}-")}
    assert accepted == documented


def _python_json_valid(text: str) -> bool:
    def reject_constant(name: str) -> object:
        raise ValueError(f"not RFC 8259: {name}")

    if has_lone_surrogate(text):
        return False
    try:
        json.loads(text, parse_constant=reject_constant)
    except ValueError:
        return False
    return True


def test_corpus_json_agrees_with_python_json() -> None:
    disagreements = {}
    for folder in _corpus_folders("json"):
        for path in sorted(folder.iterdir()):
            text = read_text(path)
            key = f"{folder.name}/{path.name}"
            ours, theirs = accepts("json", text), _python_json_valid(text)
            if ours != theirs:
                disagreements[key] = (ours, theirs)
    assert set(disagreements) == set(JSON_DISAGREEMENTS), disagreements


@pytest.mark.parametrize(("name", "text"), [c for c in _valid_cases() if c[0] == "json"])
def test_json_valid_samples_agree_with_python_json(name: str, text: str) -> None:
    assert _python_json_valid(text)


@pytest.mark.parametrize(("name", "text"), [c for c in _invalid_cases() if c[0] == "json"])
def test_json_invalid_samples_agree_with_python_json(name: str, text: str) -> None:
    assert not _python_json_valid(text)


def test_json_numbers_agree_with_python_json() -> None:
    numbers = ["0", "-0", "1.0", "1e5", "1E+5", "1e-5", "10", "-10.25e3", "1.5E0"]
    for number in numbers:
        assert accepts("json", number) and _python_json_valid(number)
        assert not math.isnan(float(number))
