"""Completion of truncated JSON documents of any depth: the completion step
alone and the repair service end to end.

For documents of about 100 KB nested 1 to 10 000 levels deep, cut at random
points (seeded), prints per depth:

* the first whole-document scan of the incremental grammar oracle (what
  ``services.repair`` pays first, to judge the input);
* the completion step alone, given that scan (``Completer.complete`` on the
  parser's stack at the end; the completer of the grammar is built once,
  its build time is printed apart);
* ``services.repair`` end to end with a fresh oracle (scan, completion, the
  check of the completed text, the layout strategy, ranking), and whether
  its top repair is the truncated text plus an ending.

    .venv/bin/python bench/completion.py [--cuts 20] [--seed 0] [--size 100000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from documents import json_document
from incremental_oracle import timed
from inputmend import services
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.incremental import IncrementalGrammarOracle

DEPTHS = (1, 10, 100, 1_000, 10_000)  # 1: documents.json_document, records nested 5 deep


def nested_document(depth: int, size: int) -> str:
    """Objects and arrays nested ``depth`` levels deep, about ``size``
    characters: the text each level holds is as long as it takes."""
    if depth == 1:
        return json_document(size)
    room = max(6, size // depth - 1)  # characters a level opens with
    opening, closing = [], []
    for level in range(depth):
        if level % 2:
            opening.append("[" + "1, " * ((room - 1) // 3))
            closing.append("]")
        else:
            opening.append('{"' + "k" * (room - 5) + '": ')
            closing.append("}")
    return "".join(opening) + "null" + "".join(reversed(closing)) + "\n"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds >= 0.001 else f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=100_000)
    options = parser.parse_args()
    grammar = CompiledGrammar.load("json")
    started = time.perf_counter()
    completer = grammar.completer
    built = time.perf_counter() - started
    assert completer is not None
    print("## Completing truncated JSON documents\n")
    print(f"completer of the json grammar built once in {ms(built)}\n")
    print(
        "| document | cuts | first scan median / max | completion step median / max "
        "| services.repair median / max | completed by appending |"
    )
    print("|---|---|---|---|---|---|")
    for depth in DEPTHS:
        text = nested_document(depth, options.size)
        rng = random.Random(f"{options.seed}/{depth}")
        scans, steps, repairs = [], [], []
        appended = 0
        for _ in range(options.cuts):
            cut = text[: rng.randrange(1, len(text.rstrip()))]
            oracle = IncrementalGrammarOracle(grammar)
            scan_started = time.perf_counter()
            scan = oracle.scan(cut)
            scans.append(time.perf_counter() - scan_started)
            end = scan.end
            assert end is not None, "a prefix of a valid document is a valid prefix"
            steps.append(timed(lambda cut=cut, end=end: completer.complete(cut, end), repeat=3))
            fresh = IncrementalGrammarOracle(grammar)
            repair_started = time.perf_counter()
            result = services.repair(cut, fresh)
            repairs.append(time.perf_counter() - repair_started)
            appended += bool(result.repairs) and result.repairs[0].text.startswith(cut)
        shape = "records, depth 5" if depth == 1 else f"depth {depth:,}"
        name = f"{len(text) / 1000:,.0f} KB, {shape}"
        print(
            f"| {name} | {options.cuts} "
            f"| {ms(statistics.median(scans))} / {ms(max(scans))} "
            f"| {ms(statistics.median(steps))} / {ms(max(steps))} "
            f"| {ms(statistics.median(repairs))} / {ms(max(repairs))} "
            f"| {appended}/{options.cuts} |"
        )


if __name__ == "__main__":
    main()
