"""Completion without search: the shortest text that finishes a valid prefix."""

from __future__ import annotations

import heapq
from pathlib import Path

import pytest

from inputmend.core.oracle import Verdict
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.completion import Completer, CompletionError, _align
from inputmend.grammar.lark_internals import END
from inputmend.grammar.tables import StackNode
from inputmend.oracles.incremental import IncrementalGrammarOracle

SAMPLES = Path(__file__).resolve().parents[1] / "grammars" / "samples"

CASES = {
    "json": [
        ('{"a": [{"b": 1', "}]}"),
        ('["foo', '"]'),  # a string cut off is closed, not overwritten
        ('{"a": tr', "ue}"),  # a literal cut off is finished
        ("[1.", "0]"),  # the last token grows into a longer one
        ('{"a', '":null}'),  # a value is invented: the hints' filler
        ("", "null"),
    ],
    "sexp": [("(defun f (x)", ")"), ('(a "b', '")'), ("(a . ", "0)")],
    "tinyc": [("{ if (a < 3", ");}"), ("do", ";while(a);")],
    "dot": [("digraph {", "}"), ('graph { a [label="x', '"]}'), ("digraph { /* note", "*/}")],
    "ini": [("[sec", "]"), ("k", ":")],
    "csv": [('a,"b', '"')],
    "toml": [("a = [1, 2", "]"), ('a = {x = "', '"}')],
    # the name stack beside the parser writes the end tags and fits cut-off names
    "xml": [
        ("<shelf><book>Dune", "</book></shelf>"),
        ("<shelf>\n  <book>Dune</bo", "ok></shelf>"),
        ('<s:shelf xmlns:s="urn:s"><s:book', "/></s:shelf>"),
        ("<p>fish &am", "p;</p>"),
        ('<!DOCTYPE p [<!ENTITY who "me">]><p>&w', "ho;</p>"),
        ("<p><!-- cut", "--></p>"),
        # the hints' endings: a declaration names an encoding readers know
        ('<?xml version="1.0" encodi', 'ng="UTF-8"?><a/>'),
        ('<?xml version="1.0" encoding="', 'UTF-8"?><a/>'),
    ],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_completions_are_shortest_and_valid(name: str) -> None:
    oracle = IncrementalGrammarOracle(name)
    parser = registry.build_parser(oracle.grammar.info)
    for prefix, expected in CASES[name]:
        assert oracle.completion(prefix) == expected, prefix
        parser.parse(prefix + expected)  # lark agrees: raises if not


def test_complete_and_incorrect_texts() -> None:
    oracle = IncrementalGrammarOracle("json")
    assert oracle.completion("[1]") == ""
    assert oracle.completion("[1]]") is None


def test_depth_costs_no_recursion() -> None:
    oracle = IncrementalGrammarOracle("json")
    deep = '{"a": [' * 20_000 + "1"
    assert oracle.completion(deep) == "]}" * 20_000


def test_repeated_nesting_is_copied_only_where_the_stack_repeats() -> None:
    """Runs of one nesting pattern, broken by others and by runs of another
    period, complete exactly as level by level would."""
    oracle = IncrementalGrammarOracle("json")
    levels = (
        [("[", "]")] * 7
        + [('{"k": [1, ', "]}")] * 300
        + [('{"x": 1, "y": ', "}")]
        + [('[{"a": ', "}]"), ("[", "]"), ("[", "]")] * 200
        + [('{"z": [', "]}")] * 5
    )
    prefix = "".join(opening for opening, _ in levels) + "tr"
    ending = "ue" + "".join(closing for _, closing in reversed(levels))
    assert oracle.completion(prefix) == ending


def test_fillers_choose_what_is_invented() -> None:
    grammar = CompiledGrammar.load("json")
    oracle = IncrementalGrammarOracle(grammar)
    scan = oracle.scan('{"a":')
    assert scan.end is not None
    assert Completer(grammar, filler="null").complete('{"a":', scan.end) == "null}"
    assert Completer(grammar, filler="7").complete('{"a":', scan.end) == "7}"
    assert Completer(grammar).complete('{"a":', scan.end) == "null}"  # the hints' filler
    assert Completer(grammar, filler="").complete('{"a":', scan.end) == "0}"  # the shortest
    ignored = Completer(grammar, filler="x")  # not a token of the grammar: not used
    assert ignored.complete('{"a":', scan.end) == "0}"
    nulls = Completer(grammar, filler="null")
    assert nulls.fillers == {"NULL": "null", "value": "null", "start": "null"}
    listed = oracle.scan("[1,").end
    assert listed is not None and nulls.complete("[1,", listed) == "null]"


def test_a_completion_the_name_checks_refuse_is_none() -> None:
    grammar = CompiledGrammar.load("xml")
    completer = grammar.completer
    oracle = IncrementalGrammarOracle(grammar)
    scan = oracle.scan("<a></")
    assert completer is not None and scan.end is not None
    assert completer.complete("<a></", scan.end) == "a>"
    assert grammar.checks is not None
    closed = grammar.checks.initial  # a state with no element open: no end tag fits
    assert completer.complete("<a></", scan.end._replace(extra=(None, closed))) is None


def test_endings_finish_a_cut_off_token_like_a_model() -> None:
    grammar = CompiledGrammar.load("json")
    oracle = IncrementalGrammarOracle(grammar)
    scan = oracle.scan('{"a": "')
    assert scan.end is not None
    assert Completer(grammar).complete('{"a": "', scan.end) == '"}'
    modelled = Completer(grammar, endings={"STRING": ['"(none)"']})
    assert modelled.complete('{"a": "', scan.end) == '(none)"}'
    begun = oracle.scan('{"a": "x').end
    assert begun is not None
    assert modelled.complete('{"a": "x', begun) == '"}'  # the model's end that fits


def test_words_are_kept_apart() -> None:
    grammar = CompiledGrammar.load("sexp")
    completer = Completer(grammar)
    assert completer.join(["a", "b", ")"], before="(") == "a b)"
    assert completer.join(["b"], before="(a") == " b"
    csv = Completer(CompiledGrammar.load("csv"))
    assert csv.join(["a", "b"]) == "ab"  # no ignored blank to put between them


def test_tables_that_do_not_match_the_rules_are_refused() -> None:
    rules = [("start", ("A",)), ("$root", ("start",))]
    with pytest.raises(CompletionError):
        _align(rules, {0: {"B": 1}, 1: {}}, {0: {}, 1: {}}, 0)


def _reference_cost(completer: Completer, node: StackNode) -> int | None:
    """The cheapest completion by brute force: Dijkstra over parser stacks,
    shifting any terminal (its cheapest text, blanks not counted)."""
    tables = completer.tables

    def key(stack: StackNode) -> tuple[int, ...]:
        states = []
        current: StackNode | None = stack
        while current is not None:
            states.append(current.state)
            current = current.parent
        return tuple(states)

    costs = {
        name: len(text.replace(" ", ""))
        for name, text in completer.texts.items()
        if name in completer.grammar.terminals
    }
    heap: list[tuple[int, int, StackNode]] = [(0, 0, node)]
    seen: set[tuple[int, ...]] = set()
    tie = 0
    while heap:
        cost, _, stack = heapq.heappop(heap)
        if key(stack) in seen:
            continue
        seen.add(key(stack))
        if tables.viable(stack, END):
            return cost
        for terminal, length in costs.items():
            shifted = tables.shift(stack, terminal)
            if shifted is not None and len(key(shifted)) < 64:
                tie += 1
                heapq.heappush(heap, (cost + length, tie, shifted))
    return None


@pytest.mark.parametrize("name", ["json", "sexp", "dot", "ini", "csv", "tinyc"])
def test_completions_of_every_token_boundary_are_cheapest(name: str) -> None:
    oracle = IncrementalGrammarOracle(name)
    completer = oracle.grammar.completer
    assert completer is not None
    parser = registry.build_parser(oracle.grammar.info)
    samples = sorted((SAMPLES / name).glob("valid_*"))
    assert samples
    for sample in samples:
        text = sample.read_text(encoding="utf-8")
        for token in oracle.tokens(text)[:100]:
            prefix = text[: token.end]
            scan = oracle.scan(prefix)
            assert scan.end is not None, prefix
            suffix = completer.complete(prefix, scan.end)
            assert suffix is not None, prefix
            parser.parse(prefix + suffix)
            if scan.end.position == len(prefix) and len(suffix) <= 3:  # the reference is slow
                expected = _reference_cost(completer, scan.end.stack)
                assert len(suffix.replace(" ", "")) == expected, (prefix, suffix)


YAML_CASES = [
    ("a: [1, 2", "]"),
    ("k: v\nl:\n  - 1\n  - [a, {b: c", "}]"),
    ('a: "abc', '"'),
    # a cut-off alias is finished as an anchor the document declared
    ("base: &defaults\n  x: 1\nuse:\n  <<: *defa", "ults"),
    ("a: &xy 1\nb: [*x", "y]"),
]


def test_a_grammar_with_a_layout_is_completed_with_its_zero_width_tokens() -> None:
    """YAML's block tokens are written by its layout, not by the text: the
    completion counts them free and leaves them to it."""
    oracle = IncrementalGrammarOracle("yaml")
    for prefix, expected in YAML_CASES:
        assert oracle.completion(prefix) == expected, prefix
        assert oracle.check(prefix + expected).valid, prefix


def test_cuts_of_the_yaml_corpus_are_completed() -> None:
    oracle = IncrementalGrammarOracle("yaml")
    corpus = Path(__file__).resolve().parents[1] / "corpus" / "yaml"
    incomplete = completed = 0
    for sample in sorted(corpus.glob("*.y*ml")):
        text = sample.read_text(encoding="utf-8")
        for cut in range(len(text) // 13, len(text), len(text) // 13 + 1):
            prefix = text[:cut]
            if oracle.check(prefix).verdict is not Verdict.INCOMPLETE:
                continue
            incomplete += 1
            suffix = oracle.completion(prefix)
            completed += suffix is not None and oracle.check(prefix + suffix).valid
    assert incomplete > 50
    assert completed >= incomplete - 2  # a cut-off `%YAML` directive is not finished
