"""Completion of truncated JSON documents of any depth: the completion step
alone and the repair service end to end.

For documents of about 100 KB nested 1 to 10 000 levels deep, and one
object holding one 100 KB string (a base64 blob), cut at random points
(seeded), prints per document:

* the first whole-document scan of the incremental grammar oracle (what
  ``services.repair`` pays first, to judge the input);
* the completion step alone, given that scan (``Completer.complete`` on the
  parser's stack at the end; the completer of the grammar is built once,
  its build time is printed apart);
* ``services.repair`` end to end with a fresh oracle (scan, completion, the
  check of the completed text, the hints near the end, ranking), split into
  the first scan and the rest, and whether its top repair is the truncated
  text plus an ending (or, for a text cut after a comma, the text without
  it plus closers: ``[1, 2,`` -> ``[1, 2]``), and how many cuts took
  under 10 ms end to end;
* the process's first cut again, with a fresh oracle: what the first time
  cost more was built once per process (the scanners' and the terminals'
  DFAs, the grammar's hints);
* with ``--lsp``: the language server (``python -m inputmend lsp`` over
  stdio, default settings) holding the whole document open, a change that
  cuts its tail off, then codeAction requests (polled): the time to the
  first action that appends the completion (the quick repairs, which reuse
  the fast path's incremental scan) and to the preferred one (the final
  ranking, after the process pool's analysis).

    .venv/bin/python bench/completion.py [--cuts 20] [--seed 0] [--size 100000] [--lsp 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from documents import json_document
from incremental_oracle import timed
from inputmend import services
from inputmend.grammar import native
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.incremental import IncrementalGrammarOracle
from lsp_latency import CLOCK, Client, Text

DEPTHS = (1, 10, 100, 1_000, 10_000)  # 1: documents.json_document, records nested 5 deep
BLOB = 0  # a "depth" that stands for one object holding one long string (a base64 blob)
FAST = 0.010  # the mark of #11: completed in under 10 ms


def nested_document(depth: int, size: int) -> str:
    """Objects and arrays nested ``depth`` levels deep, about ``size``
    characters: the text each level holds is as long as it takes."""
    if depth == 1:
        return json_document(size)
    if depth == BLOB:
        return '{"id": 7, "data": "' + "QUJD" * (size // 4) + '"}\n'
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


async def lsp_completion(text: str, cuts: list[int], root: Path) -> list[tuple[float, float]]:
    """For each cut: seconds from the change that cuts ``text`` there to the
    first codeAction that appends the completion, and to the preferred one."""
    client = await Client.start({}, root)
    times = []
    try:
        for index, cut in enumerate(cuts):
            uri = (root / f"truncated-{index}.json").as_uri()
            document = Text(text)
            await client.open(uri, text)
            await client.wait(lambda uri=uri: client.diagnostics_for(uri, 1), 60)
            end = document.position(len(text))
            change = {"range": {"start": document.position(cut), "end": end}, "text": ""}
            sent = await client.change(uri, 2, [change])
            where = document.position(cut)
            appended = preferred = float("inf")
            while CLOCK() < sent + 120 and preferred == float("inf"):
                actions, _ = await client.code_actions(uri, where)
                for action in actions:
                    data = action.get("data") or {}
                    if data.get("version") == 2 and data.get("algorithm") == "completion":
                        appended = min(appended, CLOCK() - sent)
                        if action.get("isPreferred"):
                            preferred = CLOCK() - sent
                await asyncio.sleep(0.005)
            times.append((appended, preferred))
            await client.close_document(uri)
    finally:
        await client.stop()
    return times


def _appends(cut: str, repaired: str) -> bool:
    """Does ``repaired`` keep all of ``cut`` and only append to it, but for
    the comma ``cut`` may end in (a list closed after its last element)?"""
    kept = cut.rstrip()
    if repaired.startswith(cut) or not kept.endswith(","):
        return repaired.startswith(cut)
    return repaired.startswith(kept[:-1]) and "," not in repaired[len(kept) - 1 :]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds >= 0.001 else f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--lsp", type=int, default=0, help="cuts per depth for the server")
    options = parser.parse_args()
    grammar = CompiledGrammar.load("json")
    started = time.perf_counter()
    completer = grammar.completer
    built = time.perf_counter() - started
    assert completer is not None
    print("## Completing truncated JSON documents\n")
    loop = "yes" if native.AVAILABLE else "no (Python alone)"
    print(f"completer of the json grammar built once in {ms(built)}; scan's loop in C: {loop}\n")
    print(
        "| document | cuts | first scan median / max | completion step median / max "
        "| services.repair after the scan median / max | end to end median / max "
        f"| end to end under {FAST * 1000:.0f} ms "
        "| completed by appending (a trailing `,` may go) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    documents = []
    first: tuple[str, float] | None = None  # the process's first cut, end to end
    for depth in (*DEPTHS, BLOB):
        text = nested_document(depth, options.size)
        rng = random.Random(f"{options.seed}/{depth}")
        scans, steps, rests, totals = [], [], [], []
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
            repair_started = time.perf_counter()
            result = services.repair(cut, oracle)  # its first check reuses the scan
            rests.append(time.perf_counter() - repair_started)
            totals.append(scans[-1] + rests[-1])
            appended += bool(result.repairs) and _appends(cut, result.repairs[0].text)
            first = first or (cut, totals[-1])
        shape = {1: "records, depth 5", BLOB: "one long string"}.get(depth, f"depth {depth:,}")
        name = f"{len(text) / 1000:,.0f} KB, {shape}"
        documents.append((name, text, rng))
        print(
            f"| {name} | {options.cuts} "
            f"| {ms(statistics.median(scans))} / {ms(max(scans))} "
            f"| {ms(statistics.median(steps))} / {ms(max(steps))} "
            f"| {ms(statistics.median(rests))} / {ms(max(rests))} "
            f"| {ms(statistics.median(totals))} / {ms(max(totals))} "
            f"| {sum(total < FAST for total in totals)}/{options.cuts} "
            f"| {appended}/{options.cuts} |",
            flush=True,
        )
    if first is not None:
        # the same cut again, with a fresh oracle: what the first paid more was
        # built once for the process (the scanners' and terminals' DFAs, the hints)
        cut, once = first
        oracle = IncrementalGrammarOracle(grammar)
        started = time.perf_counter()
        oracle.scan(cut)
        services.repair(cut, oracle)
        again = time.perf_counter() - started
        print(
            f"\nThe process's first cut took {ms(once)} end to end; the same cut again, "
            f"with a fresh oracle, {ms(again)}: {ms(once - again)} of the first is built "
            "once per process."
        )
    if not options.lsp:
        return
    print("\n### The language server: a change that cuts the document -> codeAction\n")
    print("| document | cuts | -> completion offered median / max | -> preferred median / max |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="inputmend-completion-") as folder:
        for name, text, rng in documents:
            cuts = [rng.randrange(1, len(text.rstrip())) for _ in range(options.lsp)]
            times = asyncio.run(lsp_completion(text, cuts, Path(folder)))
            offered, preferred = [t for t, _ in times], [t for _, t in times]
            print(
                f"| {name} | {options.lsp} "
                f"| {ms(statistics.median(offered))} / {ms(max(offered))} "
                f"| {ms(statistics.median(preferred))} / {ms(max(preferred))} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
