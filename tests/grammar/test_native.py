"""The scan's loop in C: the same scans as the Python loop, its DFAs match as
Python's ``re`` does, and without the extension everything runs in Python."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inputmend.core.oracle import Verdict
from inputmend.grammar import native
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lexer import lex_typed
from inputmend.grammar.regex import _CharClass, prefix_extent
from inputmend.grammar.scan import STOP_EVERY, Scan, Scanner
from inputmend.grammar.tables import StackNode, ValueNode
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.conftest import ROOT

needs_c = pytest.mark.skipif(not native.AVAILABLE, reason="the C extension is not built")

DOCUMENTS = {
    "json": '{"name": "Ada", "tags": ["a", "b\\n\\u00e9"], "n": -1.5e3, "ok": true,\n'
    ' "none": null, "deep": [[{"x": [1, 2, {"y": "z"}]}]], "s": "Renée"}\n',
    "jsonc": '// settings\n{\n  /* block */ "a": 1, // one\n  "b": [true, false,],\n}\n',
    "toml": '# app\n[server]\nhost = "example.org"\nport = 8080\nratio = 0.5\n'
    "when = 1979-05-27T07:32:00Z\n[[bin]]\nname = 'demo'\nflags = [1, 2, 3]\n"
    'inline = { a = 1, b = "x" }\ndoc = """\nhello\n"""\n',
    "dot": 'digraph G {\n  rankdir=LR; node [shape=box];\n  a -> b -> c [label="x y"];\n'
    "  subgraph cluster_0 { d; e }\n  /* note */ b -> d; // end\n  f [label=<b>bold</b>];\n}\n",
    "sexp": '(defun f (x &key (y 1))\n  "Doc: ~a"\n  #| block |# (if (> x 0) (g x) \'(h . x)))\n'
    "; comment\n(let ((s #\\a)) `(,s ,@(list 1 2)))\n",
    "tinyc": "{ i = 1; while (i < 100) { if (i < 50) i = i + 2; else i = i - 1; } }\n",
    "ini": "; comment\n[section]\nkey = value\nother: 2\n[next one]\nempty =\n",
    "csv": 'name,city,note\nSmith,Oslo,"a, b"\n"Doe, J",Rome,"said ""hi"""\n',
}
ALPHABET = " \n\t{}[]()<>\",:;=#/*\\'-+.01eaxé\udce9\u00a0"


def _contents(node: StackNode | None) -> tuple[int, ...]:
    states = []
    while node is not None:
        states.append(node.state)
        node = node.parent
    return tuple(states)


def _summary(scan: Scan) -> tuple[Any, ...]:
    end = scan.end
    ending = None
    if end is not None:
        ending = (
            _contents(end.stack),
            _contents(end.before),
            end.last_start,
            end.last_end,
            end.position,
        )
    stacks = [_contents(stack) for stack in scan.stacks]
    return (scan.feedback, list(scan.positions), stacks, list(scan.far), ending)


def _mutated(text: str, rng: random.Random) -> str:
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.5 and at < len(text):
            text = text[:at] + text[at + rng.randrange(1, 4) :]
        else:
            text = text[:at] + rng.choice(ALPHABET) + text[at:]
    return text


@needs_c
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_the_c_loop_scans_as_the_python_loop(name: str) -> None:
    grammar = CompiledGrammar.load(name)
    assert grammar.native_program is not None and grammar.native_program.program is not None
    rng = random.Random(name)
    texts = [DOCUMENTS[name], DOCUMENTS[name] * 40]
    texts += [_mutated(DOCUMENTS[name], rng) for _ in range(60)]
    texts += [DOCUMENTS[name][:cut] for cut in range(0, len(DOCUMENTS[name]), 7)]
    for every in (8, 2):
        in_c = Scanner(grammar, checkpoint_every=every, margin=32)
        in_python = Scanner(grammar, checkpoint_every=every, margin=32)
        in_python.program = None
        for text in texts:
            first, second = in_c.fresh(text), in_python.fresh(text)
            assert _summary(first) == _summary(second), text
            for _ in range(3):  # edits: from checkpoints, rejoining the base
                start = rng.randrange(len(text) + 1)
                end = min(len(text), start + rng.choice((0, 1, 3)))
                insert = rng.choice(("", *ALPHABET, text[start : start + 9]))
                edited = in_c.edit(first, start, end, insert)
                assert _summary(edited) == _summary(in_python.edit(second, start, end, insert))


@needs_c
@pytest.mark.parametrize("length", [10, 300, 5_000, 70_000])
def test_a_token_longer_than_its_window_is_read_on_as_in_python(length: int) -> None:
    grammar = CompiledGrammar.load("json")
    in_c = Scanner(grammar, checkpoint_every=8, margin=32)
    in_python = Scanner(grammar, checkpoint_every=8, margin=32)
    in_python.program = None
    text = '{"id": [1, 2], "data": "' + "QUJD" * length
    first, second = in_c.fresh(text), in_python.fresh(text)
    assert _summary(first) == _summary(second)
    for start, delete, insert in [
        (len(text), 0, '"}'),
        (len(text), 0, '"'),
        (len(text), 0, "\\"),
        (len(text) - 1, 1, ""),
        (30, 0, '"'),  # the long token ends early: what follows is read anew
        (3, 1, "x"),
    ]:
        edited = in_c.edit(first, start, start + delete, insert)
        assert _summary(edited) == _summary(in_python.edit(second, start, start + delete, insert))


@needs_c
def test_a_long_document_stops_for_the_budget_in_the_c_loop() -> None:
    grammar = CompiledGrammar.load("json")
    calls = []

    def stop() -> None:
        calls.append(1)
        if len(calls) == 2:
            raise TimeoutError

    text = "[" + "1, " * (5 * STOP_EVERY) + "1]"
    with pytest.raises(TimeoutError):
        Scanner(grammar, checkpoint_every=8, margin=32).fresh(text, stop=stop)


@needs_c
@pytest.mark.parametrize("tokens", [STOP_EVERY - 1, STOP_EVERY, STOP_EVERY + 1])
def test_a_text_of_as_many_tokens_as_a_stop_hook_s_turn_calls_it_as_in_python(
    tokens: int,
) -> None:
    grammar = CompiledGrammar.load("json")
    # `[`, pairs of `1` and `,`, then `1]` (an odd number of tokens) or `[]]`
    ending = "1]" if tokens % 2 else "[]]"
    text = "[" + "1," * ((tokens - 1 - len(ending)) // 2) + ending
    calls = {"c": 0, "python": 0}
    in_c = Scanner(grammar, checkpoint_every=8, margin=32)
    in_python = Scanner(grammar, checkpoint_every=8, margin=32)
    in_python.program = None
    first = in_c.fresh(text, stop=lambda: calls.__setitem__("c", calls["c"] + 1))
    second = in_python.fresh(text, stop=lambda: calls.__setitem__("python", calls["python"] + 1))
    assert _summary(first) == _summary(second)
    assert calls["c"] == calls["python"]


@needs_c
@pytest.mark.parametrize("name", [*sorted(DOCUMENTS), "xml", "yaml"])
def test_the_error_tolerant_lexer_reads_as_in_python(name: str) -> None:
    grammar = CompiledGrammar.load(name)
    in_c = grammar.native_program
    assert in_c is not None
    rng = random.Random(name)
    document = DOCUMENTS.get(name, "<a x='1'>t &amp; <b/></a>\n- k: v\n  'q': [1, 2]\n")
    texts = [document, *(_mutated(document, rng) for _ in range(80))]
    found = [lex_typed(grammar, text) for text in texts]
    grammar.__dict__["native_program"] = None  # the Python lexer alone
    try:
        assert found == [lex_typed(grammar, text) for text in texts]
    finally:
        grammar.__dict__["native_program"] = in_c


# -- the DFAs match as Python's re ------------------------------------------


def test_a_class_tells_its_ascii_members_as_it_tells_any_character() -> None:
    rng = random.Random(8)
    for _ in range(2000):
        chars = frozenset(chr(rng.randrange(300)) for _ in range(rng.randrange(4)))
        low = [rng.randrange(300) for _ in range(rng.randrange(3))]
        ranges = tuple(sorted((start, start + rng.randrange(200)) for start in low))
        negate, ignore_case = rng.random() < 0.3, rng.random() < 0.5
        chars_class = _CharClass(chars, ranges=ranges, negate=negate, ignore_case=ignore_case)
        expected = tuple(chr(code) in chars_class for code in range(128))
        assert native._ascii_members(chars_class) == expected, (chars, ranges)


PATTERNS = [
    # alternation order, not the longest match: `a` before `ab`
    [("A", "a"), ("AB", "ab"), ("B", "b+")],
    # greedy and lazy repeats, counted repeats, optional parts (`cabcd`: `cab`, not all)
    [("LAZY", "x.*?y"), ("GREEDY", "z.*y"), ("COUNT", "q{2,3}"), ("OPT", "c(?:ab)?(?:abcd)?")],
    # classes, negation, case-insensitive keywords and escapes of a string
    [("KW", "(?i:select|set)"), ("NAME", "[A-Za-z_][A-Za-z0-9_]*"), ("NUM", r"-?\d+(?:\.\d+)?")],
    [("STR", r'"(?:[^"\\]|\\.)*"'), ("WS", r"[ \t\n]+"), ("ANY", r"[^\s\"]")],
    [("COMMENT", r"/\*(?:.|\n)*?\*/"), ("SLASH", "/"), ("STAR", r"\*")],
]


def _dfa_match(dfa: tuple[Any, ...], text: str, pos: int) -> tuple[int, int]:
    """The DFA's token at ``pos``: (place of its terminal, end), -1 for none."""
    _count, width, state, ascii_classes, high, table, match = dfa
    found, end = -1, pos
    for at in range(pos, len(text)):
        code = ord(text[at])
        cls = ascii_classes[code] if code < 128 else high
        assert cls >= 0, "a character the DFA does not follow"
        state = table[state * width + cls]
        if state < 0:
            break
        if match[state] >= 0:
            found, end = match[state], at + 1
    return found, end


@pytest.mark.parametrize("terminals", PATTERNS, ids=lambda t: "-".join(n for n, _ in t))
def test_a_scanner_dfa_matches_as_pythons_re(terminals: list[tuple[str, str]]) -> None:
    source = "|".join(f"(?P<{name}>{pattern})" for name, pattern in terminals)
    compiled = re.compile(source)
    dfa = native.scanner_dfa(((source, compiled.flags),))
    assert dfa is not None
    names = [name for name, _ in terminals]
    letters = "".join(sorted(set("".join(p for _, p in terminals) + ' xyzqabcdSELct"\\/*\n')))
    rng = random.Random(source)
    for _ in range(2000):
        text = "".join(rng.choice(letters) for _ in range(rng.randrange(1, 12)))
        expected = compiled.match(text)
        place, end = _dfa_match(dfa, text, 0)
        if expected is None:
            assert place == -1, text
        else:
            assert (names[place], end) == (expected.lastgroup, expected.end()), text


def test_what_a_dfa_cannot_follow_is_left_to_python() -> None:
    for pattern in (r"a(?=b)", r"^a", r"(a)\1", r"(?:a*)*b", r"a*+"):
        assert native.scanner_dfa(((f"(?P<T>{pattern})", re.UNICODE),)) is None, pattern
    # a class that differs beyond ASCII: those characters are not followed
    dfa = native.scanner_dfa(((r"(?P<W>\w+)", re.UNICODE),))
    assert dfa is not None and dfa[4] == -1
    dfa = native.scanner_dfa(((r'(?P<S>"[^"]*")', re.UNICODE),))
    assert dfa is not None and dfa[4] >= 0


@needs_c
def test_the_extent_of_a_token_is_the_regex_modules() -> None:
    grammar = CompiledGrammar.load("json")
    assert grammar.native_program is not None
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice('"\\u0aeE.-+19 ,tr') for _ in range(rng.randrange(1, 10)))
        for name in ("STRING", "NUMBER", "TRUE"):
            expected = prefix_extent(grammar.patterns[name], text, 0)
            assert grammar.native_program.extent(name, text, 0, len(text)) == expected, text


@needs_c
def test_a_terminal_that_backtracks_for_minutes_is_matched_at_once(tmp_path: Path) -> None:
    # /(a+)+b/ on "aaa...!" takes re minutes; its DFA reads the text once
    (tmp_path / "slow.lark").write_text('start: WORD (" " WORD)*\nWORD: /(a+)+b/\n')
    oracle = IncrementalGrammarOracle(str(tmp_path / "slow.lark"))
    feedback = oracle.check("a" * 40 + "!")
    assert (feedback.verdict, feedback.error_offset) == (Verdict.INCORRECT, 40)
    assert oracle.check("ab aab aaab").valid


@needs_c
def test_a_position_outside_the_text_is_an_error_not_a_read_outside_it() -> None:
    grammar = CompiledGrammar.load("json")
    assert grammar.native_program is not None
    program = native._terminals(grammar.native_program._key)[0]
    for call in (
        lambda: program.extent(0, "abc", -5, 2),
        lambda: program.match(0, "abc", 9),
        lambda: program.longest("abc", -1, 5),
        lambda: program.match(99, "abc", 0),
    ):
        with pytest.raises(IndexError):
            call()


# -- the stack's nodes and their interner in C ------------------------------


@needs_c
def test_interned_stacks_are_one_object_per_content() -> None:
    interner = native.StackInterner(CompiledGrammar.load("json").tables)
    root = interner.root
    pushed = interner.push(root, [3, 4, 5])
    assert interner.push(root, [3, 4, 5]) is pushed
    assert interner.push(interner.push(root, [3]), [4, 5]) is pushed
    assert _contents(pushed) == (5, 4, 3, root.state)
    assert interner.intern(StackNode(5, StackNode(4, interner.push(root, [3])))) is pushed
    interner.clear()
    assert interner.push(root, [3, 4, 5]) is not pushed  # forgotten, made again
    value = ValueNode(7, pushed, "v")  # the Python subclass of the C node
    assert (value.state, value.parent, value.value) == (7, pushed, "v")


@needs_c
def test_a_stack_a_million_deep_is_freed_without_recursion() -> None:
    node = StackNode(0, None)
    for state in range(1_000_000):
        node = StackNode(state % 7, node)
    del node  # would overflow the C stack if freed by recursion


def test_without_the_extension_everything_runs_in_python() -> None:
    environment = {**os.environ, "INPUTMEND_NATIVE": "0", "PYTHONPATH": str(ROOT / "server")}
    script = (
        "from inputmend.grammar import native\n"
        "from inputmend.grammar.tables import StackNode\n"
        "from inputmend.oracles.incremental import IncrementalGrammarOracle\n"
        "assert not native.AVAILABLE and StackNode.__module__ == 'inputmend.grammar.tables'\n"
        "assert StackNode(5, StackNode(3, StackNode(0, None))).states() == [0, 3, 5]\n"
        "oracle = IncrementalGrammarOracle('json')\n"
        "print(oracle.check('{\"a\": [1, 2').verdict.value, oracle.completion('{\"a\": [1, 2'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["incomplete", "]}"]
