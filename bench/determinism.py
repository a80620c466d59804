"""Determinism: the same input gives the same answer on a quiet and on a busy machine.

Runs the same work twice and compares the outputs byte for byte:

* repairs: everyday damage cases of every bundled format (``bench/damage``),
  each repaired with ``inputmend.repair``'s defaults (a work bound of oracle
  runs, a wall-time safety cap), once on a quiet machine and once while
  ``--burners`` processes spin on the CPU (``python -c 'while 1: pass'``);
* records: a JSON Lines file with damaged records through ``inputmend repair
  --records lines``, with the local engine on a quiet machine, and with the
  local and the Dask engine (a two-worker local cluster, when the Dask extra
  is installed) under the same load.

Peer, in the same run: the same work with a tight wall-time cap
(``--peer-timeout``; no work bound for the repairs), which a busy machine
reaches sooner: its answers may differ between the passes, and each run
says how many reached the cap.  The table gives per pass the answers that
reached the cap and the CPU time, and how many answers are byte-identical.

    .venv/bin/python bench/determinism.py [--cases 2] [--records 2000] [--burners 2]
        [--peer-timeout 0.2] [--seed 0] [--no-dask]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.damage.corpus import generate_all  # noqa: E402
from bench.damage.formats import FORMATS, OPERATORS  # noqa: E402

Answers = dict[str, tuple[str, ...]]  # case id -> what the run gave for it, in order


@dataclass(frozen=True)
class Pass:
    """One run over all cases: its answers, how many reached the time cap, its CPU time."""

    answers: Answers
    capped: int
    cpu_s: float


@contextlib.contextmanager
def load(burners: int) -> Iterator[None]:
    """``burners`` processes that spin on the CPU while the block runs."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(burners)]
    try:
        time.sleep(0.5)  # let them take the CPU
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def repair_pass(cases: list[tuple[str, str, str]], timeout: float, max_tests: int | None) -> Pass:
    """Every case repaired in this process: its ranked repairs' texts."""
    from inputmend import api

    answers: Answers = {}
    capped = 0
    started = time.process_time()
    for case_id, fmt, text in cases:
        result = api.repair(text, grammar=fmt, timeout=timeout, max_tests=max_tests)
        answers[case_id] = tuple(repair.text for repair in result.repairs)
        capped += result.stats.time_capped
    return Pass(answers, capped, time.process_time() - started)


def damaged_jsonl(count: int, seed: int) -> str:
    """JSON Lines, about one record in ten damaged by an everyday slip."""
    rng = random.Random(seed)
    lines = []
    for number in range(count):
        record = json.dumps(
            {"id": number, "name": f"item {number}", "tags": ["a", "b"][: rng.randint(0, 2)]}
        )
        roll = rng.random()
        if roll < 0.03:
            record = record[: rng.randint(5, len(record) - 1)]  # truncated
        elif roll < 0.06:
            record = record.replace(", ", " ", 1)  # a lost comma
        elif roll < 0.08:
            record = record.replace('"', "'")  # single quotes
        elif roll < 0.10:
            record = record.replace("}", "", 1)  # a lost brace
        lines.append(record + "\n")
    return "".join(lines)


def records_pass(source: Path, engine: str, options: list[str], folder: Path) -> Pass:
    """``inputmend repair --records lines`` of ``source`` with ``engine``: the
    output file's lines, and the records the summary says reached the cap."""
    target = folder / f"out-{engine}-{time.monotonic_ns()}.jsonl"
    before = _children_cpu()
    command = [sys.executable, "-m", "inputmend", "repair", str(source), "--records", "lines"]
    command += ["--engine", engine, "--jobs", "2", "-o", str(target), "--json", *options]
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    capped = sum(
        bool(json.loads(line).get("time_capped"))
        for line in (done.stdout + done.stderr).splitlines()
        if line.startswith("{")
    )
    lines = target.read_text().splitlines()
    answers: Answers = {str(number): (line,) for number, line in enumerate(lines, 1)}
    return Pass(answers, capped, _children_cpu() - before)


def identical(first: Pass, second: Pass) -> int:
    return sum(first.answers[key] == second.answers.get(key) for key in first.answers)


def row(label: str, first: Pass, second: Pass) -> str:
    total = len(first.answers)
    same = identical(first, second)
    return (
        f"| {label} | {same} of {total}{'' if same == total else ' **differ**'} | "
        f"{first.capped} / {second.capped} | {first.cpu_s:.1f} s / {second.cpu_s:.1f} s |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2, help="cases per format and operator")
    parser.add_argument("--records", type=int, default=2000, help="records in the JSON Lines file")
    parser.add_argument("--burners", type=int, default=2, help="CPU-spinning processes")
    parser.add_argument("--peer-timeout", type=float, default=0.2, help="the peer's time cap (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-dask", action="store_true", help="leave the Dask engine out")
    options = parser.parse_args()

    from inputmend.config import defaults

    generated = generate_all(
        list(FORMATS), list(OPERATORS), count=options.cases, seed=options.seed, tries=40
    )
    cases = [(case.id, case.format, case.damaged) for group in generated for case in group.cases]
    work = defaults.RUN_MAX_TESTS, defaults.RUN_TIMEOUT_S
    peer_cap = options.peer_timeout
    dask = not options.no_dask and importlib.util.find_spec("distributed") is not None

    runs: list[tuple[str, Callable[[], Pass], Callable[[], Pass]]] = [
        (
            f"repairs, defaults ({work[0]} oracle runs, cap {work[1]:g} s)",
            lambda: repair_pass(cases, work[1], work[0]),
            lambda: repair_pass(cases, work[1], work[0]),
        ),
        (
            f"peer: repairs, time only (cap {peer_cap:g} s, no work bound)",
            lambda: repair_pass(cases, peer_cap, None),
            lambda: repair_pass(cases, peer_cap, None),
        ),
    ]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "records.jsonl"
        source.write_text(damaged_jsonl(options.records, options.seed))
        record_work = f"{defaults.RECORD_MAX_TESTS} runs, cap {defaults.RECORD_TIMEOUT_S:g} s"
        for engine in ["local", *(["dask"] if dask else [])]:
            runs.append(
                (
                    f"records, local quiet vs {engine} busy ({record_work} per record)",
                    lambda: records_pass(source, "local", [], folder),
                    functools.partial(records_pass, source, engine, [], folder),
                )
            )
        runs.append(
            (
                f"peer: records, local quiet vs {'dask' if dask else 'local'} busy "
                f"(cap {peer_cap:g} s per record)",
                lambda: records_pass(source, "local", ["--timeout", str(peer_cap)], folder),
                lambda: records_pass(
                    source, "dask" if dask else "local", ["--timeout", str(peer_cap)], folder
                ),
            )
        )
        lines = []
        for label, quiet, busy in runs:
            first = quiet()
            with load(options.burners):
                second = busy()
            lines.append(row(label, first, second))
            print(lines[-1], file=sys.stderr)

    uptime = os.getloadavg()
    print(
        f"## Determinism: {len(cases)} everyday damage cases ({options.cases} per format and "
        f"operator, seed {options.seed}), {options.records} JSON Lines records; "
        f"second pass under {options.burners} CPU-spinning processes; "
        f"load average before the end {uptime[0]:.2f}\n"
    )
    print("| run (quiet pass / busy pass) | byte-identical answers | reached the time cap | CPU |")
    print("|---|---|---|---|")
    print("\n".join(lines))
    if not dask:
        print("\n- the Dask extra is not installed (or --no-dask): the Dask engine is left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
