"""Benchmark of the incremental grammar oracle against lark's own LALR parser.

Prints, for JSON documents of about 1 KB, 100 KB and 1 MB:
  * whole-document scan time of the oracle and of ``lark.Lark.parse`` (same run);
  * per-check time of a prefix check and of a single-character edit, and the
    time lark needs to re-parse the edited document from scratch;
  * the ratio of per-check time on 1 MB to 1 KB (the target is close to 1).
Then deep nesting (100 000 levels) and a 10 MB document.

    .venv/bin/python bench/incremental_oracle.py [--checks N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from documents import json_document
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.incremental import IncrementalGrammarOracle


def timed(function, repeat: int = 1) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--checks", type=int, default=2000)
    arguments.add_argument("--seed", type=int, default=0)
    options = arguments.parse_args()
    rng = random.Random(options.seed)
    compiled = CompiledGrammar.load("json")
    lark_parser = registry.build_parser(compiled.info)

    print("## Incremental JSON oracle vs lark LALR (one run, same machine)\n")
    print(
        "| document | lark parse | oracle scan | scan/lark | prefix check | edit check "
        "| chars lexed/edit | lark re-parse/check | speed-up |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    per_check: dict[int, float] = {}
    for size in (1_000, 100_000, 1_000_000):
        text = json_document(size)
        lark_time = timed(lambda text=text: lark_parser.parse(text), repeat=3 if size < 1e6 else 1)
        oracle = IncrementalGrammarOracle(compiled)
        scan_time = timed(lambda text=text, oracle=oracle: oracle.scan(text))
        base = oracle.scan(text)
        positions = [rng.randrange(len(text)) for _ in range(options.checks)]
        started = time.perf_counter()
        for position in positions:
            oracle.prefix(base, position)
        prefix_time = (time.perf_counter() - started) / len(positions)
        lexed = oracle.scanned_chars
        started = time.perf_counter()
        for position in positions:
            oracle.edit(base, position, position + 1, "x")
        edit_time = (time.perf_counter() - started) / len(positions)
        lexed_per_edit = (oracle.scanned_chars - lexed) / len(positions)
        per_check[size] = edit_time
        print(
            f"| {len(text) / 1000:,.0f} KB | {lark_time * 1000:,.1f} ms "
            f"| {scan_time * 1000:,.1f} ms "
            f"| {scan_time / lark_time:.2f} | {prefix_time * 1e6:,.0f} µs "
            f"| {edit_time * 1e6:,.0f} µs | {lexed_per_edit:,.0f} | {lark_time * 1000:,.1f} ms "
            f"| {lark_time / edit_time:,.0f}× |"
        )
    print(
        f"\nper-edit time 1 MB / 1 KB: {per_check[1_000_000] / per_check[1_000]:.2f} "
        f"(checks per second: {1 / per_check[1_000]:,.0f} on 1 KB, "
        f"{1 / per_check[1_000_000]:,.0f} on 1 MB)"
    )

    print("\n## Limits\n")
    oracle = IncrementalGrammarOracle(compiled)
    deep = "[" * 100_000 + "]" * 100_000
    print(
        f"* 100 000-deep nesting: scan {timed(lambda: oracle.check(deep)) * 1000:,.0f} ms, "
        f"verdict {oracle.check(deep).verdict.value}"
    )
    big = json_document(10_000_000)
    fresh = IncrementalGrammarOracle(compiled)
    scan_time = timed(lambda: fresh.scan(big))
    lark_big = timed(lambda: lark_parser.parse(big))
    base = fresh.scan(big)
    edits = [rng.randrange(len(big)) for _ in range(200)]
    started = time.perf_counter()
    for position in edits:
        fresh.edit(base, position, position, " ")
    edit_time = (time.perf_counter() - started) / len(edits)
    print(
        f"* {len(big) / 1e6:.1f} MB document: scan {scan_time:.2f} s "
        f"({len(big) / scan_time / 1e6:.2f} MB/s; lark {lark_big:.2f} s), "
        f"edit check {edit_time * 1e6:,.0f} µs"
    )
    times = []
    for _ in range(5):
        position = rng.randrange(len(big))
        edited = big[:position] + "#" + big[position:]
        times.append(timed(lambda edited=edited: fresh.check(edited)))
    print(
        f"* check(text) of an edited 10 MB text (finds the base by comparing texts): "
        f"median {statistics.median(times) * 1000:,.1f} ms"
    )


if __name__ == "__main__":
    main()
