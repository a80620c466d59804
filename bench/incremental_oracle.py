"""Benchmark of the incremental grammar oracle against lark's own LALR parser.

Prints, for JSON documents of about 1 KB, 100 KB and 1 MB:
  * whole-document scan time of the oracle and of ``lark.Lark.parse`` (same run);
  * per-check time of a prefix check and of a single-character edit, and the
    time lark needs to re-parse the edited document from scratch;
  * the ratio of per-check time on 1 MB to 1 KB (the target is close to 1);
  * the same checks on a 1 MB YAML document (indentation-aware: a layout
    beside the parser), and its edit check next to JSON's 1 MB (the target
    is within 2x), the two measured in alternating rounds;
Then deep nesting (100 000 levels) and a 10 MB document.

Per-check times are CPU time of this process (``time.process_time``): on a
shared machine they move less with the load than wall-clock time, and a
check never waits for anything else.  ``--rows yaml`` runs only the YAML
comparison (JSON's 1 MB edit check beside YAML's).

    .venv/bin/python bench/incremental_oracle.py [--checks N] [--seed S] [--rows all|yaml]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from documents import json_document, yaml_document
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.incremental import IncrementalGrammarOracle

ROUNDS = 10  # alternating rounds of the YAML and JSON edit checks


def timed(function, repeat: int = 1) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


@dataclass(frozen=True)
class Checks:
    """Seconds of a whole scan and of one prefix or edit check, and the
    characters an edit check lexes."""

    scan: float
    prefix: float
    edit: float
    lexed_per_edit: float


def measure_checks(
    oracle: IncrementalGrammarOracle, text: str, rng: random.Random, count: int
) -> Checks:
    """Scan ``text``, then ``count`` prefix checks and single-character edits
    (the character at a random position becomes ``x``)."""
    scan_time = timed(lambda: oracle.scan(text))
    base = oracle.scan(text)
    positions = [rng.randrange(len(text)) for _ in range(count)]
    started = time.process_time()
    for position in positions:
        oracle.prefix(base, position)
    prefix_time = (time.process_time() - started) / count
    lexed = oracle.scanned_chars
    started = time.process_time()
    for position in positions:
        oracle.edit(base, position, position + 1, "x")
    edit_time = (time.process_time() - started) / count
    return Checks(scan_time, prefix_time, edit_time, (oracle.scanned_chars - lexed) / count)


def alternating_edits(
    documents: list[tuple[IncrementalGrammarOracle, str]], rng: random.Random, count: int
) -> list[float]:
    """CPU seconds per single-character edit of each document, measured in
    :data:`ROUNDS` rounds that take turns (a change of the machine's load
    weighs on every document alike); ``count`` edits per document in all."""
    bases = [oracle.scan(text) for oracle, text in documents]
    spent = [0.0] * len(documents)
    per_round = max(1, count // ROUNDS)
    for _ in range(ROUNDS):
        for index, ((oracle, text), base) in enumerate(zip(documents, bases, strict=True)):
            positions = [rng.randrange(len(text)) for _ in range(per_round)]
            started = time.process_time()
            for position in positions:
                oracle.edit(base, position, position + 1, "x")
            spent[index] += time.process_time() - started
    return [total / (per_round * ROUNDS) for total in spent]


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--checks", type=int, default=2000)
    arguments.add_argument("--seed", type=int, default=0)
    arguments.add_argument("--rows", choices=("all", "yaml"), default="all")
    options = arguments.parse_args()
    rng = random.Random(options.seed)
    compiled = CompiledGrammar.load("json")
    if options.rows == "all":
        json_rows(compiled, rng, options.checks)
    yaml_rows(compiled, rng, options.checks)
    if options.rows == "all":
        limits(compiled, rng)


def json_rows(compiled: CompiledGrammar, rng: random.Random, count: int) -> None:
    """JSON of 1 KB, 100 KB and 1 MB against lark's parser."""
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
        checks = measure_checks(IncrementalGrammarOracle(compiled), text, rng, count)
        per_check[size] = checks.edit
        print(
            f"| {len(text) / 1000:,.0f} KB | {lark_time * 1000:,.1f} ms "
            f"| {checks.scan * 1000:,.1f} ms "
            f"| {checks.scan / lark_time:.2f} | {checks.prefix * 1e6:,.0f} µs "
            f"| {checks.edit * 1e6:,.0f} µs | {checks.lexed_per_edit:,.0f} "
            f"| {lark_time * 1000:,.1f} ms | {lark_time / checks.edit:,.0f}× |"
        )
    print(
        f"\nper-edit time 1 MB / 1 KB: {per_check[1_000_000] / per_check[1_000]:.2f} "
        f"(checks per second: {1 / per_check[1_000]:,.0f} on 1 KB, "
        f"{1 / per_check[1_000_000]:,.0f} on 1 MB)"
    )


def yaml_rows(compiled: CompiledGrammar, rng: random.Random, count: int) -> None:
    """1 MB of YAML and of JSON: scans, prefix checks, and the edit checks
    of the two in alternating rounds, with their ratio."""
    print(
        "\n## YAML (indentation: PyYAML's scanner as the layout) vs JSON, 1 MB\n\n"
        "| document | oracle scan | prefix check | edit check (alternating) "
        "| chars lexed/edit |\n|---|---|---|---|---|"
    )
    rows = [
        ("JSON", IncrementalGrammarOracle(compiled), json_document(1_000_000)),
        ("YAML", IncrementalGrammarOracle("yaml"), yaml_document(1_000_000)),
    ]
    checks = [measure_checks(oracle, text, rng, count) for _, oracle, text in rows]
    edits = alternating_edits([(oracle, text) for _, oracle, text in rows], rng, count)
    for (name, _, text), row, edit in zip(rows, checks, edits, strict=True):
        print(
            f"| {len(text) / 1000:,.0f} KB {name} | {row.scan * 1000:,.1f} ms "
            f"| {row.prefix * 1e6:,.0f} µs | {edit * 1e6:,.0f} µs "
            f"| {row.lexed_per_edit:,.0f} |"
        )
    print(f"\nYAML edit check / JSON's: {edits[1] / edits[0]:.2f}")


def limits(compiled: CompiledGrammar, rng: random.Random) -> None:
    """Deep nesting and a 10 MB document."""
    lark_parser = registry.build_parser(compiled.info)
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
