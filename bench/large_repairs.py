"""Repairs of one everyday slip in a large document: time, oracle runs, and
whether the top repair gives the document back.

A 125 KB and a 1.1 MB indented JSON document (records as a program writes
them) each get one slip in the middle: a lost comma, a key's lost opening
quote; or they are written as JSON Lines, each record a document of its own
on its line (800 and 7,000 documents to join into one array).  For each,
``services.repair`` runs once with the default budget and once with a 1 s
budget (how far past its budget a run goes, and whether it stopped at that
time cap); its CPU time is shown beside
one lark parse of the valid document and json_repair on the same damage,
and beside the sweep alone (``algorithms.sweep`` on a fresh oracle: the
rest of a repair is verifying, judging and ranking what it found).
``--profile`` prints the top entries (by own time) of a cProfile of the
records-on-lines repair of the largest document, run once more apart from
the timed runs.

    .venv/bin/python bench/large_repairs.py [--sizes 800,7000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import time
from collections.abc import Callable

from inputmend import services
from inputmend.algorithms.sweep import sweep
from inputmend.config import defaults
from inputmend.core.budget import Budget
from inputmend.grammar import registry
from inputmend.oracles.incremental import IncrementalGrammarOracle


def document(records: int) -> str:
    rng = random.Random(records)
    data = [
        {
            "id": i,
            "name": f"user{i}",
            "email": f"u{i}@example.com",
            "tags": ["a", "b"],
            "score": round(rng.random() * 100, 2),
            "active": i % 2 == 0,
        }
        for i in range(records)
    ]
    return json.dumps(data, indent=2) + "\n"


def lost_comma(text: str) -> str:
    at = text.rindex(",", 0, text.index('"score"', len(text) // 2))
    return text[:at] + text[at + 1 :]


def lost_key_quote(text: str) -> str:
    at = text.index('"email"', len(text) // 2)
    return text[:at] + text[at + 1 :]


def documents_on_lines(text: str) -> str:
    """The records as JSON Lines: one document after another, which the sweep
    joins into one array again (a comma between each two of them)."""
    return "".join(json.dumps(record) + "\n" for record in json.loads(text))


SLIPS: dict[str, Callable[[str], str]] = {
    "lost comma": lost_comma,
    "lost key quote": lost_key_quote,
    "records on lines": documents_on_lines,
}


def peer_cpu(text: str) -> str:
    """json_repair's CPU time on ``text`` (a dash when it is not installed:
    ``pip install json-repair``, the bench extra)."""
    try:
        import json_repair  # the peer is optional
    except ImportError:
        return "-"
    started = time.process_time()
    json_repair.loads(text)
    return f"{time.process_time() - started:.2f} s"


def sweep_cpu(text: str) -> str:
    """The sweep's CPU time alone on ``text`` (a fresh oracle, its hints
    loaded before), and how many faults it fixed."""
    oracle = IncrementalGrammarOracle("json")
    hints = oracle.grammar.hints()
    started = time.process_time()
    result = sweep(text, oracle, hints=hints, budget=Budget(timeout_s=30))
    spent = time.process_time() - started
    faults = f"{result.faults:,} fault" + ("s" if result.faults != 1 else "")
    return f"{spent:.2f} s ({faults})"


BUDGETS = (
    Budget(timeout_s=defaults.RUN_TIMEOUT_S, max_tests=defaults.RUN_MAX_TESTS),
    Budget(timeout_s=1),
)
"""The CLI's and the library's default budget (a work bound and a time cap),
and a tight time cap alone."""


def _label(budget: Budget) -> str:
    runs = "" if budget.max_tests is None else f", {budget.max_tests:,} runs"
    return f"{budget.timeout_s:g} s{runs}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="800,7000", help="records per document")
    parser.add_argument(
        "--profile", action="store_true", help="profile the largest records-on-lines repair"
    )
    args = parser.parse_args()
    parse = registry.build_parser(IncrementalGrammarOracle("json").grammar.info).parse
    rows = []
    parses = []
    for records in (int(n) for n in args.sizes.split(",")):
        original = document(records)
        started = time.process_time()
        parse(original)
        lark_s = time.process_time() - started
        parses.append(f"{len(original) / 1000:,.0f} KB: {lark_s:.2f} s")
        for slip, damage in SLIPS.items():
            damaged = damage(original)
            peer = peer_cpu(damaged)
            alone = sweep_cpu(damaged)
            for budget in BUDGETS:
                oracle = IncrementalGrammarOracle("json")  # a fresh oracle: nothing scanned yet
                started = time.process_time()
                result = services.repair(damaged, oracle, budget=budget)
                spent = time.process_time() - started
                capped = " (time cap)" if result.stats.time_capped else ""
                back = bool(result.repairs) and json.loads(result.repairs[0].text) == json.loads(
                    original
                )
                rows.append(
                    f"| {len(original) / 1000:,.0f} KB | {slip} | {_label(budget)} "
                    f"| {spent:.2f} s | {spent / lark_s:.2f} | {result.stats.tests} "
                    f"| {'yes' if back else 'no'}{capped} | {alone} | {peer} |"
                )
    print("one lark parse of the valid document (CPU): " + "; ".join(parses))
    print()
    print(
        "| document | slip | budget | CPU time | / lark parse | oracle runs "
        "| top repair gives it back | sweep alone CPU | json_repair CPU |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if args.profile:  # a run of its own: the profiler's overhead is not in the table
        largest = max(int(n) for n in args.sizes.split(","))
        print()
        print(profiled(documents_on_lines(document(largest))))


def profiled(text: str) -> str:
    """The top of a cProfile of ``services.repair`` of ``text`` on a fresh
    oracle, by own time: where the time goes, not who calls it."""
    oracle = IncrementalGrammarOracle("json")
    profiler = cProfile.Profile()
    profiler.enable()
    services.repair(text, oracle, budget=Budget(timeout_s=600))  # the profiler slows it
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
    return out.getvalue()


if __name__ == "__main__":
    main()
