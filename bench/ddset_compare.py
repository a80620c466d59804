"""Compare inputmend's DDSET with the Debugging Book's DDSetDebugger.

For three calculator examples (the paper's doubled parentheses, a failure on
multiplication, a repeated variable) and seeds 0-4, both implementations
reduce the failing input and abstract it; the table shows the predicate
calls each needed (the original run included), the time, and the pattern.

The book's side runs fuzzingbook's ``GrammarReducer`` (Perses-like) and then
``DDSetDebugger`` on the paper's Fig. 2 grammar in the book's format; it is
skipped with a message when the ``debuggingbook`` package is not installed
(``pip install debuggingbook``; it is not a dependency of inputmend).

Usage: ``PYTHONPATH=server python bench/ddset_compare.py [--seeds 5]``
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from inputmend.algorithms.ddset import ddset
from inputmend.core.oracle import Outcome
from inputmend.grammar.compiled import CompiledGrammar


def doubled_parens(text: str) -> bool:
    return re.search(r"\(\(.*\)\)", text) is not None


def times(text: str) -> bool:
    return " * " in text


def repeated_variable(text: str) -> bool:
    names = re.findall(r"[a-f]+", text)
    return len(names) != len(set(names))


@dataclass(frozen=True)
class Example:
    name: str
    text: str
    fails: Callable[[str], bool]
    expected: dict[str, str]  # implementation -> the right pattern for its grammar


OURS = "inputmend ddset"
BOOK_FIG2 = "book: GrammarReducer + DDSetDebugger, paper's Fig. 2 grammar"
BOOK_EXPR = "book: DDSetDebugger alone, book's EXPR_GRAMMAR"

EXAMPLES = [
    Example(
        "doubled parens",
        "1 + ((2 * 3 / 4))",
        doubled_parens,
        # the right pattern keeps only what the failure needs: `<term> + ((<expr>))`
        # (the book's DDSetDebugger without a reduction phase) says too much
        {OURS: "((<expr>))", BOOK_FIG2: "((<expr>))", BOOK_EXPR: "((<expr>))"},
    ),
    # each grammar spells "anything * anything" with its own nonterminals
    Example(
        "multiplication",
        "1 + 2 * 3",
        times,
        {
            OURS: "<term> * <factor>",
            BOOK_FIG2: "<expr> * <expr>",
            BOOK_EXPR: "<factor> * <term>",
        },
    ),
    Example(
        "repeated variable",
        "a + a",
        repeated_variable,
        {OURS: "<$var1> <op> <$var1>", BOOK_FIG2: "a<op>a"},  # the book has no sharing
    ),
]

# The paper's Fig. 2 grammar in the book's format (<var> as one or more <char>).
BOOK_GRAMMAR: dict[str, list[str]] = {
    "<start>": ["<expr>"],
    "<expr>": ["<int>", "<var>", "<prefix><expr>", "(<expr>)", "<expr><op><expr>"],
    "<op>": [" + ", " - ", " * ", " / "],
    "<prefix>": ["+", "-"],
    "<int>": ["<digit><int>", "<digit>"],
    "<var>": ["<char><var>", "<char>"],
    "<digit>": list("0123456789"),
    "<char>": list("abcdef"),
}


@dataclass(frozen=True)
class Run:
    tests: int
    seconds: float
    pattern: str


def run_ours(example: Example, grammar: CompiledGrammar, seed: int) -> Run:
    def predicate(text: str) -> Outcome:
        return Outcome.FAIL if example.fails(text) else Outcome.PASS

    started = time.perf_counter()
    result = ddset(example.text, grammar, predicate, seed=seed)
    return Run(result.tests, time.perf_counter() - started, result.pattern)


def load_book() -> Any:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            from debuggingbook.DDSetDebugger import EXPR_GRAMMAR, DDSetDebugger
            from fuzzingbook.Fuzzer import Runner
            from fuzzingbook.Parser import EarleyParser
            from fuzzingbook.Reducer import GrammarReducer
    except ImportError as error:
        return error
    return DDSetDebugger, Runner, EarleyParser, GrammarReducer, EXPR_GRAMMAR


def run_book(example: Example, book: Any, seed: int, *, which: str) -> Run:
    dd_class, runner_class, parser_class, reducer_class, expr_grammar = book
    grammar = BOOK_GRAMMAR if which == BOOK_FIG2 else expr_grammar
    calls = [0]

    def fails(text: str) -> bool:
        calls[0] += 1
        return example.fails(text)

    class PredicateRunner(runner_class):  # type: ignore[misc, valid-type]
        def run(self, inp: str) -> tuple[str, str]:
            return inp, runner_class.FAIL if fails(inp) else runner_class.PASS

    def function(inp: str) -> None:
        if fails(inp):
            raise ValueError("failure")

    random.seed(seed)
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        text = example.text
        if which == BOOK_FIG2:
            text = reducer_class(PredicateRunner(), parser_class(grammar)).reduce(text)
        with dd_class(grammar) as debugger:
            function(text)
        pattern = debugger.generalize()["inp"]
    return Run(calls[0], time.perf_counter() - started, pattern)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    grammar = CompiledGrammar.load("expr")
    book = load_book()
    implementations = [OURS]
    if isinstance(book, Exception):
        print(f"(debuggingbook not installed: {book}; the book's columns are skipped)\n")
    else:
        implementations += [BOOK_FIG2, BOOK_EXPR]

    print(
        "| example | implementation | " + " | ".join(f"seed {s}" for s in range(args.seeds)) + " |"
    )
    print("|---|---|" + "---|" * args.seeds)
    summary: list[str] = []
    for example in EXAMPLES:
        for which in implementations:
            expected = example.expected.get(which)
            if expected is None:
                continue  # the book's EXPR_GRAMMAR has no variables
            runs = [
                run_ours(example, grammar, seed)
                if which == OURS
                else run_book(example, book, seed, which=which)
                for seed in range(args.seeds)
            ]
            cells = " | ".join(
                f"`{run.pattern}` ({run.tests} tests, {run.seconds * 1000:.0f} ms)" for run in runs
            )
            print(f"| {example.name} `{example.text}` | {which} | {cells} |")
            summary.append(describe(example, which, runs, expected))
    print()
    print(
        "| example | implementation | right pattern | distinct patterns | mean tests | max tests "
        "| mean time |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for line in summary:
        print(line)
    return 0


def describe(example: Example, who: str, runs: list[Run], expected: str) -> str:
    right = sum(run.pattern == expected for run in runs)
    distinct = len({run.pattern for run in runs})
    return (
        f"| {example.name} | {who} (right: `{expected}`) | {right}/{len(runs)} | {distinct} | "
        f"{statistics.mean(r.tests for r in runs):.1f} | {max(r.tests for r in runs)} | "
        f"{statistics.mean(r.seconds for r in runs) * 1000:.0f} ms |"
    )


if __name__ == "__main__":
    sys.exit(main())
