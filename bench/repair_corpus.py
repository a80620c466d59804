"""Repair benchmark on the FSynth study's corpus (and fresh mutations of it).

For every format (json, ini, sexp, tinyc) and corpus (``-invalid-single``,
``-invalid-mult``, and ``fresh-single`` / ``fresh-mult`` generated from
``-valid`` with the study's protocol: random byte insertion, deletion or
flip; one mutation, or 2 to 16), runs each repair strategy with a per-file
budget and prints a table: files repaired, median and p95 time, mean oracle
tests, mean edit distance to the corrupt input and to the valid original,
share of files whose top-1 and top-5 repairs equal the original exactly,
next to the study's numbers from ``paper-results.csv``.  The formats the study
did not cover (toml, yaml, xml, jsonc) have only fresh corpora, mutated the same way from
the valid files of ``tests/corpus/FORMAT/``.

"Same data" (JSON, TOML, YAML, XML, JSONC): the repair holds exactly the
original's data (Python's json values; for the others the data readings of
the everyday-damage judges, ``damage/judges.py``: tomllib values, PyYAML's
safe_load_all values, ElementTree's canonical XML (C14N 2.0), JSONC read as
JSON without comments and trailing commas).

For JSON it also compares data recovery with json-repair and the Debugging
Book's ddmax when those packages are installed: the share of repairs whose
data equals the original's after re-serialising both, and the edit distance
between the re-serialised texts.

    .venv/bin/python bench/repair_corpus.py [--formats json,ini] [--algorithms auto,fsynth]
        [--corpora single,mult,fresh-single,fresh-mult] [--timeout 10] [--jobs N]
        [--seed 0] [--limit N] [--command "PROG ARGS"] [--no-baselines]

``--cpu-clock`` counts the time cap and the times in the table in the CPU
time of the process that repairs, not in wall time: on a machine shared
with other work, a wall-time cap cuts repairs short that a quiet machine
finishes, and the answers then depend on the load.

``--command`` replaces the grammar by an external program (black-box
setting): it gets the input on stdin and must exit 0 (valid), 255
(incomplete) or anything else (invalid); ``--incomplete-pattern REGEX`` marks
incomplete inputs by their output instead, e.g. for jq:

    --formats json --command "jq ." --incomplete-pattern "at EOF"
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import random
import statistics
import sys
import time
import types
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import Levenshtein

from inputmend import services
from inputmend.config import defaults
from inputmend.core import budget as budget_module
from inputmend.core.budget import Budget
from inputmend.core.oracle import Oracle
from inputmend.core.text import decode_bytes
from inputmend.oracles.command import CommandOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repairs import pipeline, polish

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.damage.judges import data_reader

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FORMAT_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"
STUDY_FORMATS = ("json", "ini", "sexp", "tinyc")
FORMATS = (*STUDY_FORMATS, "toml", "yaml", "xml", "jsonc")
PAPER = {"fsynth": "brepair", "ddmax": "ddmax", "ddmax-syntactic": "ddmaxg"}


@dataclass(frozen=True)
class Case:
    format: str
    corpus: str
    name: str
    corrupt: bytes
    original: bytes


def mutate(data: bytes, count: int, rng: random.Random) -> bytes:
    """The study's protocol: random byte insertion, deletion or flip."""
    buffer = bytearray(data)
    for _ in range(count):
        kind = rng.choice(("insert", "delete", "flip"))
        if kind == "insert" or not buffer:
            buffer.insert(rng.randint(0, len(buffer)), rng.randrange(256))
        elif kind == "delete":
            del buffer[rng.randrange(len(buffer))]
        else:
            buffer[rng.randrange(len(buffer))] = rng.randrange(256)
    return bytes(buffer)


def fresh_cases(fmt: str, kind: str, seed: int, oracle: Oracle) -> list[Case]:
    rng = random.Random(f"{seed}-{fmt}-{kind}")
    cases = []
    folder = CORPUS / f"{fmt}-valid" if fmt in STUDY_FORMATS else FORMAT_CORPUS / fmt
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        original = path.read_bytes()
        for _ in range(100):
            count = 1 if kind == "fresh-single" else rng.randint(2, 16)
            corrupt = mutate(original, count, rng)
            if not oracle.check(decode_bytes(corrupt)[0]).valid:
                cases.append(Case(fmt, f"{fmt}-{kind}", path.name, corrupt, original))
                break
    return cases


def corpus_cases(fmt: str, kind: str) -> list[Case]:
    folder = CORPUS / f"{fmt}-invalid-{kind}"
    return [
        Case(
            fmt,
            folder.name,
            path.name,
            path.read_bytes(),
            (CORPUS / f"{fmt}-valid" / path.name).read_bytes(),
        )
        for path in sorted(folder.iterdir())
    ]


# json-invalid-mult was mutated from a re-formatted copy that put line breaks and
# indentation inside strings ("\n    body\n    "): cJSON, the study's subject, reads
# that, strict RFC 8259 does not.  That corpus is checked with the lenient `cjson`
# grammar, and compared with the original after re-serialising both with the
# whitespace at the ends of strings removed.
GRAMMAR_FOR_CORPUS = {"json-invalid-mult": "cjson"}


def _strip_strings(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return [_strip_strings(item) for item in value]
    if isinstance(value, dict):
        return {_strip_strings(key): _strip_strings(item) for key, item in value.items()}
    return value


def canonical_json(text: str, *, lenient: bool = False) -> str | None:
    try:
        data = json.loads(text, strict=not lenient)
    except (ValueError, RecursionError):
        return None
    if lenient:
        data = _strip_strings(data)
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def distance_to_original(case: Case, repaired: str) -> int:
    original = decode_bytes(case.original)[0]
    if case.corpus == "json-invalid-mult":
        # mutated from a re-formatted copy: compare after re-serialising both
        ours, theirs = canonical_json(repaired, lenient=True), canonical_json(original)
        if ours is not None and theirs is not None:
            return int(Levenshtein.distance(ours, theirs))
    return int(Levenshtein.distance(repaired, original))


# the data readings of the everyday-damage judges (tomllib, PyYAML, C14N, JSONC as JSON)
CANONICAL = {fmt: data_reader(fmt) for fmt in ("toml", "yaml", "xml", "jsonc")}


def equals_original(case: Case, repaired: str) -> bool:
    original = decode_bytes(case.original)[0]
    if repaired == original:
        return True
    if case.format == "json":
        lenient = case.corpus in GRAMMAR_FOR_CORPUS
        canonical = canonical_json(repaired, lenient=lenient)
        return canonical is not None and canonical == canonical_json(original, lenient=lenient)
    if case.format in CANONICAL:
        ours = CANONICAL[case.format](repaired)
        return ours is not None and ours == CANONICAL[case.format](original)
    return False


def build_oracle(case: Case, command: str | None, pattern: str | None = None) -> Oracle:
    if command:
        return CommandOracle(command, timeout_s=5, incomplete_pattern=pattern)
    return IncrementalGrammarOracle(GRAMMAR_FOR_CORPUS.get(case.corpus, case.format))


CLOCK: list[Callable[[], float]] = [time.perf_counter]
"""What the times in the table count: wall time, or with ``--cpu-clock``
the CPU time of the process (:func:`use_cpu_clock`)."""


def use_cpu_clock() -> None:
    """Count the repairs' time caps, and the times this benchmark reports,
    in this process's CPU time (as ``tests/clock.py`` makes them count work)."""
    cpu = types.SimpleNamespace(monotonic=time.process_time)
    for module in (budget_module, pipeline, polish):
        module.time = cpu  # type: ignore[attr-defined]
    CLOCK[0] = time.process_time


def run_case(
    case: Case, algorithm: str, timeout: float, command: str | None, pattern: str | None
) -> dict[str, Any]:
    oracle = build_oracle(case, command, pattern)
    text = decode_bytes(case.corrupt)[0]
    started = CLOCK[0]()
    budget = Budget(timeout_s=timeout, max_tests=defaults.RUN_MAX_TESTS)
    result = services.repair(text, oracle, algorithm=algorithm, budget=budget, top=5)
    elapsed = CLOCK[0]() - started
    oracle.close()
    # an input that is already valid (a mutation that kept it valid) needs no repair
    top = text if result.input_valid else result.repairs[0].text if result.repairs else None
    return {
        "format": case.format,
        "corpus": case.corpus,
        "file": case.name,
        "algorithm": algorithm,
        "repaired": top is not None,
        "time": elapsed,
        "tests": result.stats.tests,
        "to_corrupt": Levenshtein.distance(top, text) if top is not None else None,
        "to_original": distance_to_original(case, top) if top is not None else None,
        "original_to_corrupt": Levenshtein.distance(decode_bytes(case.original)[0], text),
        "top1": top is not None and equals_original(case, top),
        "top5": any(equals_original(case, r.text) for r in result.repairs),
        "data": (
            equals_original(case, top)
            if top is not None and (case.format == "json" or case.format in CANONICAL)
            else None
        ),
        "canonical_distance": _canonical_distance(case, top),
    }


def _canonical_distance(case: Case, repaired: str | None) -> int | None:
    if case.format != "json" or repaired is None:
        return None
    lenient = case.corpus in GRAMMAR_FOR_CORPUS
    ours = canonical_json(repaired, lenient=lenient)
    theirs = canonical_json(decode_bytes(case.original)[0], lenient=lenient)
    if ours is None or theirs is None:
        return None
    return int(Levenshtein.distance(ours, theirs))


BASELINES = {"json-repair": "json_repair", "book-ddmax": "debuggingbook"}
"""The JSON peers and the module each needs."""


def installed_baselines() -> list[str]:
    """The peers whose module is installed: a missing one is left out and
    said so, not counted as repairing nothing."""
    return [tool for tool, module in BASELINES.items() if importlib.util.find_spec(module)]


def run_baseline(case: Case, tool: str, timeout: float) -> dict[str, Any]:
    text = decode_bytes(case.corrupt)[0]
    started = CLOCK[0]()
    repaired: str | None = None
    try:
        if tool == "json-repair":
            import json_repair

            repaired = json_repair.repair_json(text)
        elif tool == "book-ddmax":
            repaired = _book_ddmax(text, timeout)
    except Exception:  # noqa: BLE001 - a baseline's failure is a data point
        repaired = None
    elapsed = CLOCK[0]() - started
    lenient = case.corpus in GRAMMAR_FOR_CORPUS
    valid = repaired is not None and canonical_json(repaired, lenient=lenient) is not None
    return {
        "format": case.format,
        "corpus": case.corpus,
        "file": case.name,
        "algorithm": tool,
        "repaired": valid,
        "time": elapsed,
        "tests": None,
        "to_corrupt": Levenshtein.distance(repaired, text) if valid and repaired else None,
        "to_original": distance_to_original(case, repaired) if valid and repaired else None,
        "top1": valid and repaired is not None and equals_original(case, repaired),
        "top5": valid and repaired is not None and equals_original(case, repaired),
        "data": valid and repaired is not None and equals_original(case, repaired),
        "canonical_distance": _canonical_distance(case, repaired) if valid else None,
    }


class _OutOfTime(BaseException):
    """Stops the book's debugger, which treats any Exception as a failing run."""


def _book_ddmax(text: str, timeout: float) -> str | None:
    """The Debugging Book's DeltaDebugger.max_args() (its ddmax), time-limited."""
    from debuggingbook.DeltaDebugger import DeltaDebugger

    deadline = time.monotonic() + timeout

    def strict(inp: str) -> None:
        if time.monotonic() > deadline:
            raise _OutOfTime
        json.loads(inp)

    try:
        with DeltaDebugger() as debugger:
            strict(text)
        result = debugger.max_args()["inp"]
        return str(result)
    except _OutOfTime:
        return None


Job = tuple[str, Case, str, float, str | None, str | None]


def _job(arguments: Job) -> dict[str, Any]:
    kind, case, algorithm, timeout, command, pattern = arguments
    if kind == "baseline":
        return run_baseline(case, algorithm, timeout)
    return run_case(case, algorithm, timeout, command, pattern)


def paper_rows(corpus: str) -> dict[str, dict[str, Any]]:
    rows = [
        r for r in csv.DictReader((CORPUS / "paper-results.csv").open()) if r["corpus"] == corpus
    ]
    summary = {}
    for ours, theirs in PAPER.items():
        selected = [r for r in rows if r["algorithm"] == theirs]
        if not selected:
            continue
        repaired = [r for r in selected if r["repaired"] == "true"]
        distances = [int(r["levenshtein"]) for r in repaired if r["levenshtein"]]
        times = sorted(float(r["runtime_s"]) for r in selected)
        summary[ours] = {
            "repaired": f"{len(repaired)}/{len(selected)}",
            "median": statistics.median(times),
            "tests": statistics.mean(int(r["oracle_runs"]) for r in selected),
            "to_original": statistics.mean(distances) if distances else None,
        }
    return summary


def _common_distances(corpus: str, rows: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
    """Distances to the original, ours and the study's FSynth's, on the files both repaired."""
    paper = {
        r["file"]: r
        for r in csv.DictReader((CORPUS / "paper-results.csv").open())
        if r["corpus"] == corpus and r["algorithm"] == "brepair"
    }
    ours, study = [], []
    for row in rows:
        theirs = paper.get(row["file"])
        if row["to_original"] is None or theirs is None or theirs["repaired"] != "true":
            continue
        if theirs["levenshtein"]:
            ours.append(row["to_original"])
            study.append(int(theirs["levenshtein"]))
    return ours, study


def _mean(values: list[Any]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.mean(values) if values else None


def _fmt(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def report(results: list[dict[str, Any]]) -> None:
    corpora = sorted({(r["format"], r["corpus"]) for r in results})
    for _format, corpus in corpora:
        rows = [r for r in results if r["corpus"] == corpus]
        total = len({r["file"] for r in rows})
        print(f"\n### {corpus} ({total} files)\n")
        print(
            "| algorithm | repaired | median time | p95 time | mean tests | dist. to corrupt "
            "| dist. to original | top-1 exact | top-5 exact | same data |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for algorithm in dict.fromkeys(r["algorithm"] for r in rows):
            mine = [r for r in rows if r["algorithm"] == algorithm]
            done = [r for r in mine if r["repaired"]]
            times = sorted(r["time"] for r in mine)
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            data = [r["data"] for r in mine if r["data"] is not None]
            print(
                f"| {algorithm} | {len(done)}/{len(mine)} ({100 * len(done) / len(mine):.0f}%) "
                f"| {statistics.median(times):.3f} s | {p95:.3f} s "
                f"| {_fmt(_mean([r['tests'] for r in mine]), 0)} "
                f"| {_fmt(_mean([r['to_corrupt'] for r in done]))} "
                f"| {_fmt(_mean([r['to_original'] for r in done]))} "
                f"| {100 * sum(r['top1'] for r in mine) / len(mine):.0f}% "
                f"| {100 * sum(r['top5'] for r in mine) / len(mine):.0f}% "
                f"| {f'{100 * sum(data) / len(mine):.0f}%' if data else '–'} |"
            )
        if "fresh" not in corpus:
            for algorithm, paper in paper_rows(corpus).items():
                print(
                    f"| study: {algorithm} | {paper['repaired']} | {paper['median']:.3f} s | – "
                    f"| {paper['tests']:,.0f} | – | {_fmt(paper['to_original'])} | – | – | – |"
                )
            print()
            for algorithm in dict.fromkeys(r["algorithm"] for r in rows):
                ours, study = _common_distances(
                    corpus, [r for r in rows if r["algorithm"] == algorithm]
                )
                if ours:
                    print(
                        f"On the {len(ours)} files that both {algorithm} and the study's FSynth "
                        f"repaired: mean distance to the original {statistics.mean(ours):.1f} "
                        f"(study {statistics.mean(study):.1f})."
                    )
        if corpus not in GRAMMAR_FOR_CORPUS:  # not mutated from a re-formatted copy
            for algorithm in dict.fromkeys(r["algorithm"] for r in rows):
                mine = [r for r in rows if r["algorithm"] == algorithm and r["repaired"]]
                if mine and "original_to_corrupt" in mine[0]:
                    reachable = [r for r in mine if r["original_to_corrupt"] <= r["to_corrupt"]]
                    print(
                        f"\n{algorithm}: the original is as close to the corrupt file as the "
                        f"top repair in {len(reachable)} of {len(mine)} files (only there can a "
                        "repair with fewest edits give it back)."
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--corpora", default="single,mult,fresh-single,fresh-mult")
    parser.add_argument("--algorithms", default="auto")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, help="files per corpus")
    parser.add_argument("--command", help="black-box oracle instead of the grammar")
    parser.add_argument(
        "--incomplete-pattern", help="with --command: output that marks incomplete input"
    )
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--save", type=Path, help="write raw results as JSON")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count the time cap and the reported times in CPU time, not wall time",
    )
    options = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"corpus not found at {CORPUS}")
    algorithms = options.algorithms.split(",")
    peers = [] if options.no_baselines else installed_baselines()
    jobs: list[Job] = []
    for fmt in options.formats.split(","):
        for kind in options.corpora.split(","):
            if kind.startswith("fresh"):
                cases = fresh_cases(fmt, kind, options.seed, IncrementalGrammarOracle(fmt))
            elif fmt not in STUDY_FORMATS:
                continue  # the study has no corpus of this format
            elif fmt == "json" and kind == "mult":
                print(
                    "note: json-invalid-mult is checked with the `cjson` grammar (raw line "
                    "breaks in strings, from the study's re-formatting, are accepted) and "
                    "compared with strings stripped of surrounding whitespace\n",
                    file=sys.stderr,
                )
                cases = corpus_cases(fmt, kind)
            else:
                cases = corpus_cases(fmt, kind)
            cases = cases[: options.limit] if options.limit else cases
            for case in cases:
                for algorithm in algorithms:
                    jobs.append(
                        (
                            "ours",
                            case,
                            algorithm,
                            options.timeout,
                            options.command,
                            options.incomplete_pattern,
                        )
                    )
                if fmt == "json":
                    for tool in peers:
                        jobs.append(("baseline", case, tool, options.timeout, None, None))
    started = time.perf_counter()
    initializer = use_cpu_clock if options.cpu_clock else None
    with ProcessPoolExecutor(max_workers=options.jobs, initializer=initializer) as pool:
        results = list(pool.map(_job, jobs, chunksize=1))
    oracle = options.command or "incremental grammar oracle"
    clock = "CPU" if options.cpu_clock else "wall"
    print(
        f"## Repair benchmark: {len(jobs)} runs, oracle: {oracle}, budget {options.timeout:g} s "
        f"({clock} time) per file, seed {options.seed}, "
        f"{time.perf_counter() - started:.0f} s wall time"
    )
    report(results)
    for tool, module in BASELINES.items():
        if not options.no_baselines and tool not in peers:
            print(f"\nnote: {tool} is not installed (module `{module}`): its rows are left out")
    if options.save:
        options.save.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
