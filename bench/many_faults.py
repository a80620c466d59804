"""Repairs of many slips in a large JSON document: CPU time, rate, oracle
runs, and whether the top repair gives the data back exactly; json_repair
and one lark parse of the valid document as peers in the same run.

The 3.3 MB document is the records of ``large_repairs.py`` (20,000 of
them); a seeded choice of its fields gets one slip each, the kinds taking
turns (mixed: a lost comma, an unquoted key, Python's ``True``), or one kind
throughout (systematic damage).  ``services.repair`` runs with the default
budget on a fresh oracle.  ``--profile`` prints the top entries of a
cProfile of the mixed repair with the most slips (run once more, apart
from the timed runs).

    .venv/bin/python bench/many_faults.py [--records 20000] [--slips 10,100,1400] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from inputmend import services
from inputmend.core.model import RepairResult
from inputmend.grammar import registry
from inputmend.oracles.incremental import IncrementalGrammarOracle

sys.path.insert(0, str(Path(__file__).parent))
from large_repairs import BUDGETS, document

FIELD = re.compile(r',\n *"(?P<key>[a-z]+)": (?P<value>true|[^\n,]*)')


def lose_comma(found: re.Match[str]) -> str:
    return found.group(0)[1:]


def unquote_key(found: re.Match[str]) -> str:
    return found.group(0).replace(f'"{found["key"]}"', found["key"], 1)


def python_true(found: re.Match[str]) -> str:
    text = found.group(0)
    return (
        text[: found.start("value") - found.start()] + "True" if found["value"] == "true" else text
    )


SLIPS: dict[str, Callable[[re.Match[str]], str]] = {
    "lost comma": lose_comma,
    "unquoted key": unquote_key,
    "Python True": python_true,
}


def damaged(text: str, slips: int, kinds: list[str], seed: int) -> str:
    """``text`` with ``slips`` fields damaged (a seeded choice), the kinds
    taking turns; a ``True`` goes to a field that holds ``true``."""
    fields = list(FIELD.finditer(text))
    rng = random.Random(seed)
    truths = [f for f in fields if f["value"] == "true"]
    others = [f for f in fields if f["value"] != "true"]
    wanted = [kinds[i % len(kinds)] for i in range(slips)]
    chosen: list[tuple[re.Match[str], str]] = []
    trues = wanted.count("Python True")
    chosen += [(f, "Python True") for f in rng.sample(truths, trues)]
    rest = [k for k in wanted if k != "Python True"]
    chosen += list(zip(rng.sample(others, len(rest)), rest, strict=True))
    pieces: list[str] = []
    position = 0
    for found, kind in sorted(chosen, key=lambda c: c[0].start()):
        pieces += [text[position : found.start()], SLIPS[kind](found)]
        position = found.end()
    pieces.append(text[position:])
    return "".join(pieces)


def cpu(action: Callable[[], object]) -> tuple[object, float]:
    started = time.process_time()
    result = action()
    return result, time.process_time() - started


def repaired(text: str, profile: bool) -> tuple[RepairResult, float, str]:
    """``services.repair`` of ``text`` on a fresh oracle: the result, its CPU
    time, and the top of its profile when ``profile``."""
    oracle = IncrementalGrammarOracle("json")
    profiler = cProfile.Profile() if profile else None
    started = time.process_time()
    if profiler is not None:
        profiler.enable()
    result = services.repair(text, oracle, budget=BUDGETS[0])
    if profiler is not None:
        profiler.disable()
    spent = time.process_time() - started
    profiled = ""
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        profiled = out.getvalue()
    return result, spent, profiled


def peer(text: str, data: object) -> tuple[str, str]:
    """json_repair's CPU time on ``text`` and whether it gives ``data`` back
    (dashes when it is not installed: ``pip install json-repair``)."""
    try:
        import json_repair
    except ImportError:
        return "-", "-"
    started = time.process_time()
    fixed = json_repair.loads(text)
    spent = time.process_time() - started
    return f"{spent:.2f} s", "yes" if fixed == data else "no"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20000, help="records in the document")
    parser.add_argument("--slips", default="10,100,1400", help="slips per document")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile the largest mixed case")
    args = parser.parse_args()
    original = document(args.records)
    data = json.loads(original)
    size = len(original.encode())
    parse = registry.build_parser(IncrementalGrammarOracle("json").grammar.info).parse
    _, lark_s = cpu(lambda: parse(original))
    print(f"document: {size / 1e6:.1f} MB; one lark parse of it: {lark_s:.2f} s CPU")
    print()
    print(
        "| damage | slips | CPU time | rate | oracle runs | data back exactly "
        "| json_repair CPU | json_repair data back |"
    )
    print("|---|---|---|---|---|---|---|---|")
    counts = [int(n) for n in args.slips.split(",")]
    cases = [(list(SLIPS), n) for n in counts] + [([kind], max(counts)) for kind in SLIPS]
    for kinds, slips in cases:
        text = damaged(original, slips, kinds, args.seed)
        result, spent, _ = repaired(text, profile=False)
        back = bool(result.repairs) and json.loads(result.repairs[0].text) == data
        peer_time, peer_back = peer(text, data)
        print(
            f"| {', '.join(kinds)} | {slips:,} | {spent:.2f} s | {size / 1e6 / spent:.1f} MB/s "
            f"| {result.stats.tests:,} | {'yes' if back else 'no'} | {peer_time} | {peer_back} |"
        )
    if args.profile:  # a run of its own: the profiler's overhead is not in the table
        text = damaged(original, max(counts), list(SLIPS), args.seed)
        print()
        print(repaired(text, profile=True)[2])


if __name__ == "__main__":
    main()
