"""Record mode at scale: records/s, peak memory, and the data damaged records get back.

Generates a JSON Lines file of N varied nested records (API users and pages,
configuration objects, log events, package manifests, GeoJSON features, as
in ``bench/damage/seeds.py``) and a CSV export of N rows (quoted fields with
commas, doubled quotes and line breaks), with a share of the records damaged
by the everyday damage operators of ``bench/damage`` (JSON: truncation, lost
and doubled delimiters, trailing commas, lost quotes, comments, single
quotes, foreign literals, text around the data; CSV: truncation, lost
quotes).  A damage that leaves the record valid, or (JSON Lines) puts a line
break into it, is drawn again.  Then it measures, each run a separate
process tree whose resident memory is sampled every 50 ms:

* ``inputmend repair FILE -o OUT`` with the local engine (``--jobs 2``) and
  on a local Dask cluster of two workers (``--engine dask --jobs 2``);
* JSON: a plain Python loop that calls ``json.loads`` on each line and
  ``json_repair.repair_json`` when it fails (one core);
* valid records alone: ``inputmend check`` and ``repair`` on the undamaged
  file with one worker (``--jobs 1``): what a valid record costs per core
  (records/s by wall time, and per CPU second, which a busy machine
  inflates less; both include the command's start-up);
* memory against file size: ``check --jobs 2`` on the valid file and on
  four copies of it;
* where the damaged records' time goes: each damaged record judged again in
  this process, one at a time, by the processor a worker builds (the CPU
  time of each: mean, median, tail, by damage operator), then once more
  under the profiler, whose cumulative times say which stages of the
  repair (each generator, the ranking, the polish) and which functions
  take it; and the slowest tenth alone: each generator's runs on it (CPU
  time, oracle runs, repairs, the records whose repair it found), its ten
  slowest records, its profile.

The share of damaged records that come back with the original data is
judged as in the everyday-damage benchmark (``bench/damage/evaluate.py``):
the repaired record holds exactly the original's data (JSON read strictly,
CSV rows as Python's ``csv`` reads them), or for a truncation keeps all that
is left and only adds to it.  A record that is not repaired (left as it was)
does not.

    .venv/bin/python bench/records_bench.py [--records 1000000] [--damaged 0.01]
        [--formats json,csv] [--seed 0] [--keep DIR]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import cProfile
import csv
import dataclasses
import importlib.util
import io
import json
import os
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.damage.corpus import Case  # noqa: E402
from bench.damage.evaluate import carries_data  # noqa: E402
from bench.damage.formats import FORMATS  # noqa: E402
from bench.damage.lexing import is_valid  # noqa: E402
from bench.damage.seeds import (  # noqa: E402
    CITIES,
    PEOPLE,
    _api_page,
    _config,
    _events,
    _geo,
    _package,
    _user,
)

INPUTMEND = [sys.executable, "-m", "inputmend"]


# ------------------------------------------------------------------ records
def _json_records(rng: random.Random) -> Iterator[Any]:
    shapes: list[Callable[[int], Any]] = [
        lambda n: _user(rng, n),
        lambda n: _events(rng)[0],
        _config_for(rng),
        lambda n: _package(rng),
        lambda n: _geo(rng)["features"][0],
        lambda n: _api_page(rng) if n % 10 == 0 else _user(rng, n),
    ]
    number = 0
    while True:
        number += 1
        yield shapes[number % len(shapes)](number)


def _config_for(rng: random.Random) -> Callable[[int], Any]:
    return lambda n: _config(rng)


CSV_HEADER = ["id", "name", "last, first", "email", "city", "amount", "quantity", "date", "note"]
NOTES = ("", "paid in full", "call back, after 5pm", 'customer said "urgent"', "line one\nline two")


def _csv_rows(rng: random.Random) -> Iterator[list[Any]]:
    number = 0
    while True:
        number += 1
        name = rng.choice(PEOPLE)
        yield [
            number,
            name,
            ", ".join(reversed(name.split(" ", 1))),
            f"user{number}@example.org",
            rng.choice(CITIES)[0],
            round(rng.uniform(-500, 5000), 2),
            rng.randint(0, 40),
            f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            rng.choice(NOTES),
        ]


def _csv_text(row: list[Any]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(row)
    return buffer.getvalue()[:-1]


def _csv_damaged(text: str) -> bool:
    """Is a damaged row no longer a row of the header's width?"""
    if not is_valid("csv", text):
        return True
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return len(rows) != 1 or len(rows[0]) != len(CSV_HEADER)


@dataclass(frozen=True)
class Generated:
    path: Path
    valid: Path  # the same records, none damaged
    cases: dict[int, Case]  # by the line the damaged record starts on
    records: int


def generate(fmt: str, folder: Path, count: int, share: float, seed: int) -> Generated:
    """Write ``count`` records (a share damaged) and the same records undamaged."""
    rng = random.Random(f"{seed}/records/{fmt}")
    damage_rng = random.Random(f"{seed}/records/{fmt}/damage")
    operators = FORMATS[fmt].operators
    names = sorted(operators)
    cases: dict[int, Case] = {}
    extension = ".jsonl" if fmt == "json" else ".csv"
    path, valid = folder / f"records{extension}", folder / f"valid{extension}"
    line = 1
    with (
        path.open("w", encoding="utf-8", newline="") as out,
        valid.open("w", encoding="utf-8", newline="") as clean,
    ):
        if fmt == "json":
            source: Iterator[str] = (
                json.dumps(record, ensure_ascii=rng.random() < 0.5) for record in _json_records(rng)
            )
        else:
            header = _csv_text(CSV_HEADER)
            out.write(header + "\n")
            clean.write(header + "\n")
            line += 1
            source = (_csv_text(row) for row in _csv_rows(rng))
        for _, text in zip(range(count), source, strict=False):
            written = text
            if damage_rng.random() < share:
                while True:
                    operator = damage_rng.choice(names)
                    damaged = operators[operator](text, damage_rng)
                    if damaged is None or damaged == text:
                        continue
                    if fmt == "json" and ("\n" in damaged or is_valid("json", damaged)):
                        continue
                    if fmt == "csv" and not _csv_damaged(damaged):
                        continue
                    break
                cases[line] = Case(f"{fmt}/{operator}/{line}", fmt, operator, "", text, damaged)
                written = damaged
            out.write(written + "\n")
            clean.write(text + "\n")
            line += written.count("\n") + 1
    return Generated(path, valid, cases, count)


# ---------------------------------------------------------------- measuring
@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_mb: float
    status: int
    stderr: str
    cpu_s: float
    """CPU time (user and system) of the process tree: the command and every
    process it waited for (its workers), which a busy machine inflates far
    less than the wall time."""


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        process = psutil.Process(pid)
        members = [process, *process.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for member in members:
        with contextlib.suppress(psutil.Error):
            total += member.memory_info().rss
    return total


def measure(command: list[str], stdout: Path | None = None) -> Measured:
    """Run ``command``; wall time, CPU time and the peak resident memory of
    its process tree."""
    started = time.monotonic()
    with stdout.open("w") if stdout else open(os.devnull, "w") as sink:
        return _measure(command, sink, started)


def _measure(command: list[str], sink: Any, started: float) -> Measured:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, text=True, cwd=REPO)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = process.communicate()
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Measured(time.monotonic() - started, peak / 2**20, process.returncode, stderr, cpu)


def json_repair_loop(source: str, target: str) -> None:
    """The baseline: json.loads each line, json_repair.repair_json when it fails."""
    import json_repair

    with (
        open(source, encoding="utf-8", errors="surrogateescape", newline="") as lines,
        open(target, "w", encoding="utf-8", errors="surrogateescape", newline="") as out,
    ):
        for line in lines:
            text = line.rstrip("\n")
            try:
                json.loads(text)
                out.write(line)
            except ValueError:
                out.write(json_repair.repair_json(text) + "\n")


# ------------------------------------------------------------------ judging
@dataclass
class Recovery:
    """Damaged records that came back with the original data, per operator."""

    total: collections.Counter[str]
    recovered: collections.Counter[str]
    unchanged: collections.Counter[str]


def judge(cases: dict[int, Case], outputs: dict[int, str]) -> Recovery:
    """``outputs``: what the output holds for the record that starts on each
    damaged line."""
    total: collections.Counter[str] = collections.Counter()
    recovered: collections.Counter[str] = collections.Counter()
    unchanged: collections.Counter[str] = collections.Counter()
    for line, case in cases.items():
        total[case.operator] += 1
        text = outputs.get(line, case.damaged)
        if text == case.damaged:
            unchanged[case.operator] += 1
        elif carries_data(case, text):
            recovered[case.operator] += 1
    return Recovery(total, recovered, unchanged)


def reported(path: Path) -> dict[int, str]:
    """inputmend's ``--json`` report: the output of each record that was not valid."""
    outputs = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            outputs[record["line"]] = record["output"]
    return outputs


def aligned(path: Path, wanted: set[int]) -> dict[int, str]:
    """The lines ``wanted`` of an output with one record per line (json-repair's)."""
    outputs = {}
    with path.open(encoding="utf-8", errors="surrogateescape", newline="") as lines:
        for number, line in enumerate(lines, 1):
            if number in wanted:
                outputs[number] = line.removesuffix("\n")
    return outputs


# ---------------------------------------------------------------- breakdown
def _processor(fmt: str, generated: Generated) -> Any:
    """The record processor a worker of ``repair`` builds for this file."""
    from inputmend.records.engines import RecordJob
    from inputmend.records.oracles import csv_fields
    from inputmend.records.process import RecordSettings

    columns = None
    if fmt == "csv":
        with generated.path.open(encoding="utf-8", newline="") as lines:
            columns = csv_fields(lines.readline().rstrip("\n"))
    return RecordJob(
        "lines" if fmt == "json" else "csv", None, RecordSettings(), columns=columns
    ).processor()


def _judge_all(processor: Any, cases: list[tuple[int, Case]]) -> list[float]:
    """Each damaged record judged (and repaired) by ``processor``: the CPU
    seconds of each."""
    spent = []
    for line, case in cases:
        started = time.process_time()
        processor.judge(case.damaged, line=line, ending="\n", size=len(case.damaged.encode()))
        spent.append(time.process_time() - started)
    return spent


def _stages() -> dict[str, list[CodeType]]:
    """The stages of one repair, by name: each generator of the ``auto``
    algorithm, the generators' tests of whether to run, the pipeline's own
    steps, and the oracle's scans (which the stages above all call)."""
    from inputmend.oracles.incremental import IncrementalGrammarOracle
    from inputmend.repairs import context, pipeline, polish, rank
    from inputmend.services import REPAIR_ALGORITHMS

    stages: dict[str, list[CodeType]] = {}
    tests: list[CodeType] = []
    for generator in REPAIR_ALGORITHMS["auto"].generators:
        run = getattr(generator.run, "__code__", None)
        if run is not None:
            stages.setdefault(f"generator {generator.name}", [run])
        wanted = getattr(generator.wanted, "__code__", None)
        if wanted is not None and wanted not in tests:
            tests.append(wanted)
    stages["the generators' tests of whether to run"] = tests
    stages["context of the request"] = [context.context_of.__code__]
    stages["settled: is a repair known to be first"] = [pipeline.settled.__code__]
    stages["ranking"] = [rank.rank_in.__code__]
    stages["polish"] = [polish.polish.__code__]
    stages["oracle scans (inside the stages above)"] = [IncrementalGrammarOracle.scan.__code__]
    return stages


def breakdown(fmt: str, generated: Generated) -> None:
    """Print where the damaged records' CPU time goes (see the module's docstring)."""
    cases = sorted(generated.cases.items())
    if not cases:
        return
    loaded = "inputmend.repairs.pipeline" in sys.modules  # by an earlier format's breakdown
    started = time.process_time()
    processor = _processor(fmt, generated)
    first = _judge_all(processor, cases[:1])[0]
    setup = time.process_time() - started
    spent = _judge_all(processor, cases)
    total = sum(spent)
    ordered = sorted(spent)
    tail = ordered[-max(1, len(ordered) // 10) :]
    machinery = (
        "the repair machinery loaded before, by the format above"
        if loaded
        else "the repair machinery loaded, as each worker process does once"
    )
    print("\nWhere the damaged records' time goes (this process, one record at a time):\n")
    print(
        f"- the processor built and the first damaged record judged, {machinery}: "
        f"{1000 * setup:.0f} ms CPU ({1000 * first:.0f} ms of it the record)\n"
        f"- then {len(spent):,} damaged records: {total:.2f} s CPU; per record mean "
        f"{1000 * total / len(spent):.2f} ms, median {1000 * statistics.median(spent):.2f} ms, "
        f"p95 {1000 * ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms, "
        f"max {1000 * ordered[-1]:.0f} ms; the slowest 10% take {sum(tail) / total:.0%}"
    )
    by_operator: dict[str, list[float]] = collections.defaultdict(list)
    for (_, case), seconds in zip(cases, spent, strict=True):
        by_operator[case.operator].append(seconds)
    print("\n| operator | records | CPU | share | mean | median |\n|---|---|---|---|---|---|")
    for operator, times in sorted(by_operator.items(), key=lambda item: -sum(item[1])):
        print(
            f"| {operator} | {len(times)} | {sum(times):.2f} s | {sum(times) / total:.0%} "
            f"| {1000 * sum(times) / len(times):.2f} ms "
            f"| {1000 * statistics.median(times):.2f} ms |"
        )
    _profile(processor, cases, "The same records")
    slowest = sorted(range(len(cases)), key=lambda index: -spent[index])[: len(tail)]
    _tail(processor, [cases[index] for index in sorted(slowest)], sum(tail))


def _profile(processor: Any, cases: list[tuple[int, Case]], title: str) -> None:
    """``cases`` judged again under the profiler: the stages' and the
    functions' shares of the CPU time."""
    # CPU time, not wall time: a busy machine would charge its waits to
    # whatever function was running
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for line, case in cases:
        processor.judge(case.damaged, line=line, ending="\n", size=len(case.damaged.encode()))
    profiler.disable()
    table: dict[tuple[str, int, str], Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    profiled = sum(entry[2] for entry in table.values())  # every function's own time
    print(
        f"\n{title} under the profiler ({profiled:.1f} s CPU with its overhead): "
        "the stages' cumulative time (a stage at 1% or more), as a share of the whole\n"
    )
    print("| stage | calls | share |\n|---|---|---|")
    for name, codes in _stages().items():
        keys = [(code.co_filename, code.co_firstlineno, code.co_name) for code in codes]
        found = [table[key] for key in keys if key in table]
        share = sum(entry[3] for entry in found) / profiled
        if share >= 0.01:
            print(f"| {name} | {sum(entry[1] for entry in found):,} | {share:.0%} |")
    print("\nThe functions with the most time of their own:\n")
    print("| function | calls | own time | share |\n|---|---|---|---|")
    for (path, number, function), entry in sorted(table.items(), key=lambda item: -item[1][2])[:12]:
        where = os.path.relpath(path, REPO) if path.startswith(str(REPO)) else path
        print(
            f"| `{where}:{number}({function})` | {entry[1]:,} | {1000 * entry[2]:,.0f} ms "
            f"| {entry[2] / profiled:.0%} |"
        )


@dataclass(frozen=True)
class _Run:
    """One generator's run on one record: CPU seconds, oracle runs, repairs."""

    name: str
    seconds: float
    tests: int
    repairs: int


@contextlib.contextmanager
def _watched(runs: list[_Run]) -> Iterator[None]:
    """While inside, each generator of the ``auto`` algorithm notes its runs
    in ``runs`` (the algorithm is put back after)."""
    from inputmend import services

    chosen = services.REPAIR_ALGORITHMS["auto"]

    def watch(generator: Any) -> Any:
        def run(context: Any, found: Any, budget: Any) -> Any:
            started = time.process_time()
            candidates = generator.run(context, found, budget)
            seconds = time.process_time() - started
            runs.append(
                _Run(generator.name, seconds, candidates.cost.tests, len(candidates.repairs))
            )
            return candidates

        return dataclasses.replace(generator, run=run)

    watched = tuple(watch(generator) for generator in chosen.generators)
    services.REPAIR_ALGORITHMS["auto"] = dataclasses.replace(chosen, generators=watched)
    try:
        yield
    finally:
        services.REPAIR_ALGORITHMS["auto"] = chosen


def _tail(processor: Any, cases: list[tuple[int, Case]], seconds: float) -> None:
    """The slowest tenth of the damaged records: which generators ran on
    them, at what cost in CPU and oracle runs, which one found the repair
    the record got; its ten slowest records one by one; and the profile of
    the tail alone."""
    print(
        f"\nThe slowest tenth ({len(cases):,} records, {seconds:.2f} s CPU) judged again, "
        "each generator's runs timed (the rest of a record's time: the context, the "
        "ranking, the polish):\n"
    )
    records: list[tuple[float, Case, str, list[_Run]]] = []
    for line, case in cases:
        runs: list[_Run] = []
        with _watched(runs):
            started = time.process_time()
            result = processor.judge(
                case.damaged, line=line, ending="\n", size=len(case.damaged.encode())
            )
            took = time.process_time() - started
        winner = result.repair.algorithm if result.repair is not None else result.status.value
        records.append((took, case, winner, runs))
    total = sum(record[0] for record in records)
    wins = collections.Counter(record[2] for record in records)
    by_name: dict[str, list[_Run]] = collections.defaultdict(list)
    for *_, runs in records:
        for run in runs:
            by_name[run.name].append(run)
    print(
        "| generator | records it ran on | CPU | share | oracle runs | repairs "
        "| records it won |\n|---|---|---|---|---|---|---|"
    )
    for name, runs in sorted(by_name.items(), key=lambda item: -sum(r.seconds for r in item[1])):
        cpu = sum(run.seconds for run in runs)
        print(
            f"| {name} | {len(runs)} | {1000 * cpu:.0f} ms | {cpu / total:.0%} "
            f"| {sum(run.tests for run in runs):,} | {sum(run.repairs for run in runs):,} "
            f"| {wins.get(name, 0)} |"
        )
    outside = total - sum(run.seconds for runs in by_name.values() for run in runs)
    print(
        f"| (outside the generators) | {len(records)} | {1000 * outside:.0f} ms "
        f"| {outside / total:.0%} | | | |"
    )
    print(
        "\n| record | operator | CPU | repaired by | generators over 1 ms (CPU, oracle runs) "
        "|\n|---|---|---|---|---|"
    )
    for took, case, winner, runs in sorted(records, key=lambda record: -record[0])[:10]:
        costly = ", ".join(
            f"{run.name} {1000 * run.seconds:.1f} ms / {run.tests}"
            for run in sorted(runs, key=lambda run: -run.seconds)
            if run.seconds >= 0.001
        )
        print(
            f"| `{_clip(case.damaged)}` | {case.operator} | {1000 * took:.1f} ms "
            f"| {winner} | {costly} |"
        )
    _profile(processor, cases, "The slowest tenth")


def _clip(text: str, limit: int = 60) -> str:
    """The start of a record for a table cell."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return shown.replace("|", "\\|").replace("`", "'")


# ------------------------------------------------------------------ running
def _rate(records: int, seconds: float) -> str:
    return f"{records / seconds:,.0f}"


def _row(label: str, records: int, measured: Measured, extra: str = "") -> str:
    status = "" if measured.status in (0, 1) else f" (exit {measured.status})"
    return (
        f"| {label} | {measured.seconds:.1f} s{status} | {measured.cpu_s:.1f} s "
        f"| {_rate(records, measured.seconds)} | {measured.peak_mb:.0f} MB |{extra}"
    )


def _ratios(runs: dict[str, Measured], peer: Measured) -> str:
    """Each run's speed as a share of the peer's (issue #30's goal: 0.5x):
    by wall time, and by CPU time (which a busy machine inflates less; the
    peer uses one core, inputmend two processes)."""
    parts = [
        f"{label}: {peer.seconds / run.seconds:.2f}x by wall time, "
        f"{peer.cpu_s / run.cpu_s:.2f}x by CPU time"
        for label, run in runs.items()
        if run.status in (0, 1) and run.seconds > 0 and run.cpu_s > 0
    ]
    return "Against the peer's loop (its records/s is 1x): " + "; ".join(parts) + "."


def _summary_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if " records in " in line]
    return lines[-1] if lines else stderr.strip().splitlines()[-1] if stderr.strip() else ""


def bench_format(fmt: str, folder: Path, args: argparse.Namespace) -> None:
    started = time.monotonic()
    generated = generate(fmt, folder, args.records, args.damaged, args.seed)
    size_mb = generated.path.stat().st_size / 2**20
    print(
        f"\n## {fmt}: {generated.records:,} records ({size_mb:,.0f} MB), "
        f"{len(generated.cases):,} damaged (generated in {time.monotonic() - started:.0f} s)\n",
        flush=True,
    )
    mode = ["--records", "lines" if fmt == "json" else "csv"]
    outputs: dict[str, dict[int, str]] = {}
    rows = []
    timed: dict[str, Measured] = {}  # inputmend's runs, for the ratios to the peer
    peer: Measured | None = None
    runs = {
        "inputmend, local engine, 2 processes": ["--jobs", "2"],
        "inputmend, Dask, local cluster of 2 workers": ["--engine", "dask", "--jobs", "2"],
    }
    for label, options in runs.items():
        if "dask" in options and not _has_dask():
            rows.append(f"| {label} | – | – | – | – | the Dask extra is not installed |")
            continue
        target = folder / f"out-{len(outputs)}{generated.path.suffix}"
        report = folder / f"out-{len(outputs)}.report.jsonl"
        command = [*INPUTMEND, "repair", str(generated.path), *mode, "-o", str(target), *options]
        measured = measure([*command, "--json"], stdout=report)
        outputs[label] = reported(report)
        timed[label] = measured
        rows.append(
            _row(label, generated.records, measured, f" {_summary_line(measured.stderr)} |")
        )
        print(rows[-1], file=sys.stderr, flush=True)  # progress
    if fmt == "json":
        label = "json.loads, then json_repair.repair_json (a Python loop, 1 core)"
        if importlib.util.find_spec("json_repair") is None:
            rows.append(f"| {label} | – | – | – | – | json-repair is not installed |")
        else:
            target = folder / "out-json-repair.jsonl"
            command = [sys.executable, __file__, "json-repair", str(generated.path), str(target)]
            measured = peer = measure(command)
            outputs["json-repair"] = aligned(target, set(generated.cases))
            rows.append(_row(label, generated.records, measured, " |"))
            print(rows[-1], file=sys.stderr, flush=True)
    print("\n| run | time | CPU | records/s | peak memory | summary |\n|---|---|---|---|---|---|")
    print("\n".join(rows))
    if peer is not None:
        print(f"\n{_ratios(timed, peer)}")

    print("\nValid records alone (the undamaged file), one worker:\n")
    print(
        "| run | time | CPU | records/s | peak memory | records per CPU second |"
        "\n|---|---|---|---|---|---|"
    )
    for verb in ("check", "repair"):
        command = [*INPUTMEND, verb, str(generated.valid), *mode, "--jobs", "1"]
        if verb == "repair":
            command += ["-o", str(folder / f"valid-out{generated.path.suffix}")]
        measured = measure(command)
        per_cpu = f" {_rate(generated.records, measured.cpu_s)} |" if measured.cpu_s > 0 else " – |"
        print(_row(f"`{verb} --jobs 1`", generated.records, measured, per_cpu), flush=True)

    print("\nMemory against file size (`check --jobs 2`):\n")
    print("| file | time | CPU | records/s | peak memory |\n|---|---|---|---|---|")
    big = folder / f"valid-x4{generated.path.suffix}"
    _concatenate(generated.valid, big, 4, skip_header=fmt == "csv")
    for path, records in ((generated.valid, generated.records), (big, 4 * generated.records)):
        size = path.stat().st_size / 2**20
        command = [*INPUTMEND, "check", str(path), *mode, "--jobs", "2"]
        print(_row(f"{records:,} records, {size:,.0f} MB", records, measure(command)), flush=True)
    big.unlink()

    print("\nDamaged records that come back with the original data:\n")
    recoveries = {label: judge(generated.cases, found) for label, found in outputs.items()}
    operators = sorted(next(iter(recoveries.values())).total)
    labels = list(recoveries)
    print("| operator | records | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for operator in [*operators, "all"]:
        cells = []
        for label in labels:
            recovery = recoveries[label]
            got = _sum(recovery.recovered, operator)
            cells.append(f"{got:,} ({_share(got, _sum(recovery.total, operator))})")
        total = _sum(next(iter(recoveries.values())).total, operator)
        print(f"| {operator} | {total:,} | " + " | ".join(cells) + " |")
    for label, recovery in recoveries.items():
        left = sum(recovery.unchanged.values())
        print(f"\n{label}: {left:,} damaged records left as they were (not repaired).")
    if args.breakdown:
        breakdown(fmt, generated)


def _sum(counter: collections.Counter[str], operator: str) -> int:
    return sum(counter.values()) if operator == "all" else counter[operator]


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "–"


def _concatenate(source: Path, target: Path, copies: int, *, skip_header: bool) -> None:
    with target.open("wb") as out:
        for copy in range(copies):
            with source.open("rb") as data:
                if skip_header and copy:
                    data.readline()
                shutil.copyfileobj(data, out, 1 << 20)


def _has_dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    if sys.argv[1:2] == ["json-repair"]:
        json_repair_loop(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--damaged", type=float, default=0.01, help="share of damaged records")
    parser.add_argument("--formats", default="json,csv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, help="keep the generated files and outputs here")
    parser.add_argument(
        "--no-breakdown",
        dest="breakdown",
        action="store_false",
        help="skip the breakdown of the damaged records' time",
    )
    args, _ = parser.parse_known_args()
    print(f"# Record mode: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="records-bench-") as scratch:
        folder = args.keep or Path(scratch)
        for fmt in args.formats.split(","):
            bench_format(fmt, folder, args)


if __name__ == "__main__":
    main()
