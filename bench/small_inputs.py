"""Small inputs: how long one damaged record or model answer of up to 300 bytes takes to repair.

Small JSON documents (the record shapes of ``bench/records_bench.py``: API
users, configuration objects, log events, package manifests, GeoJSON
features; of a larger one its first fields that fit in ``--max-bytes``), on one line,
each damaged once by an everyday damage operator of ``bench/damage`` (a
damage that leaves the document valid is drawn again).  Each of these
repairs them all in a process of its own, one after the other (in one
process the second would find what the first learnt of the same texts in
the caches a grammar's oracles share):

* ``inputmend.repair(text, grammar="json")``: the one-call library API,
  which builds its oracle on every call;
* record mode's repair (``inputmend repair --records lines``, and
  ``repair_stream``): one oracle, built once, for every record;
* ``json_repair.repair_json`` (when installed), the peer.

The CPU time of each repair (``time.process_time``, so the machine's load
inflates it less than the wall time) gives the median, 95th percentile and
worst; the goal is a median of 1 ms and a 95th percentile of 10 ms.  The
share of repairs that give the original data back is judged as in the
everyday-damage benchmark.  The functions that cost most in record mode's
repairs of the middle half of the cases by CPU time follow (cProfile, own
time, then the engine's functions by the time spent in them and in what they
call): the goal is a median, and the slowest quarter (the searches of the
few inputs nothing cheaper repairs) would otherwise hide where a median
repair's time goes.  Then the same repairs' stages, measured without the
profiler: the CPU time of each generator (deciding whether it is wanted, and
running), how often it ran and found nothing, and how much of it ran after a
repair :func:`~inputmend.repairs.pipeline.settled` the request (only the
generators that break ties still run then); the rest of a repair is its
setup, the judging of settled repairs, the checks by the whole oracle, the
ranking and the polish.

    .venv/bin/python bench/small_inputs.py [--cases 300] [--max-bytes 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.damage.corpus import Case  # noqa: E402
from bench.damage.evaluate import carries_data  # noqa: E402
from bench.damage.formats import FORMATS  # noqa: E402
from bench.damage.lexing import is_valid  # noqa: E402
from bench.records_bench import _json_records  # noqa: E402

GOAL_P50_MS = 1.0
GOAL_P95_MS = 10.0


def small_documents(rng: random.Random, count: int, max_bytes: int) -> Iterator[str]:
    """``count`` JSON documents of at most ``max_bytes`` UTF-8 bytes."""
    made = 0
    for value in _json_records(rng):
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
        if len(text.encode("utf-8")) > max_bytes:
            # a record too large: keep its first fields that fit
            if not isinstance(value, dict):
                continue
            kept: dict[str, Any] = {}
            for key, item in value.items():
                kept[key] = item
                if len(json.dumps(kept).encode("utf-8")) > max_bytes:
                    del kept[key]
                    break
            if len(kept) < 2:
                continue
            text = json.dumps(kept, ensure_ascii=rng.random() < 0.5)
        yield text
        made += 1
        if made == count:
            return


def damaged_cases(count: int, max_bytes: int, seed: int) -> list[Case]:
    rng = random.Random(f"{seed}/small")
    operators = FORMATS["json"].operators
    names = sorted(operators)
    cases = []
    for number, text in enumerate(small_documents(rng, count, max_bytes)):
        while True:
            operator = rng.choice(names)
            damaged = operators[operator](text, rng)
            if (
                damaged
                and damaged != text
                and "\n" not in damaged
                and not is_valid("json", damaged)
            ):
                break
        cases.append(Case(f"small/{operator}/{number}", "json", operator, "", text, damaged))
    return cases


Repairer = Callable[[str], str | None]


def library_repair() -> Repairer:
    import inputmend

    def run(text: str) -> str | None:
        repairs = inputmend.repair(text, grammar="json", timeout=1.0).repairs
        return repairs[0].text if repairs else None

    return run


def record_repair() -> Repairer:
    from inputmend.records.oracles import record_oracle
    from inputmend.records.process import RecordProcessor, RecordSettings

    oracle, fast = record_oracle("lines", None)
    processor = RecordProcessor("lines", oracle, fast, RecordSettings())

    def run(text: str) -> str | None:
        result = processor.judge(text, line=1, ending="\n", size=len(text.encode("utf-8")))
        return result.output if result.repair is not None else None

    return run


def json_repair_repair() -> Repairer:
    import json_repair

    def run(text: str) -> str | None:
        return str(json_repair.repair_json(text))

    return run


@dataclass
class Measured:
    """CPU and wall milliseconds of each repair, and how many gave the data back."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    good: int = 0


def measure(repairer: Repairer, cases: list[Case]) -> Measured:
    """Each case repaired by ``repairer``, after one repair that builds what is
    built once per process."""
    measured = Measured()
    repairer(cases[0].damaged)
    for case in cases:
        started, clock = time.process_time(), time.perf_counter()
        repaired = repairer(case.damaged)
        measured.cpu.append(1000 * (time.process_time() - started))
        measured.wall.append(1000 * (time.perf_counter() - clock))
        measured.good += repaired is not None and carries_data(case, repaired)
    return measured


REPAIRERS: dict[str, Callable[[], Repairer]] = {
    "library": library_repair,
    "record": record_repair,
    "json_repair": json_repair_repair,
}


def measured_apart(name: str, args: argparse.Namespace) -> Measured:
    """The repairs of the repairer ``name`` of :data:`REPAIRERS`, measured in
    a process of its own."""
    command = [
        sys.executable,
        __file__,
        "--cases",
        str(args.cases),
        "--max-bytes",
        str(args.max_bytes),
        "--seed",
        str(args.seed),
        "--only",
        name,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    return Measured(found["cpu"], found["wall"], found["good"])


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 10 else f"{value:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--max-bytes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=sorted(REPAIRERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    cases = damaged_cases(args.cases, args.max_bytes, args.seed)
    if args.only is not None:  # one repairer's measurement, for the process that runs all
        found = measure(REPAIRERS[args.only](), cases)
        print(json.dumps({"cpu": found.cpu, "wall": found.wall, "good": found.good}))
        return
    sizes = [len(case.damaged.encode("utf-8")) for case in cases]
    print(
        f"# Small inputs: {len(cases)} damaged JSON documents of {min(sizes)}-{max(sizes)} bytes "
        f"(median {statistics.median(sizes):.0f}), {os.cpu_count()} CPUs, "
        f"Python {sys.version.split()[0]}\n"
    )
    runs = {
        '`inputmend.repair(text, grammar="json")`': "library",
        "record mode (one oracle for every record)": "record",
    }
    if importlib.util.find_spec("json_repair") is not None:
        runs["`json_repair.repair_json` (peer)"] = "json_repair"
    print(
        "| repair | CPU median | CPU 95th pct | CPU worst | wall median | wall 95th pct "
        "| data back |"
    )
    print("|---|---|---|---|---|---|---|")
    for label, name in runs.items():
        found = measured_apart(name, args)
        cpu, wall = found.cpu, found.wall
        print(
            f"| {label} | {_ms(statistics.median(cpu))} | {_ms(_percentile(cpu, 0.95))} "
            f"| {_ms(max(cpu))} | {_ms(statistics.median(wall))} | "
            f"{_ms(_percentile(wall, 0.95))} | {found.good}/{len(cases)} |",
            flush=True,
        )
    print(
        f"\nGoal: a CPU median of {GOAL_P50_MS:g} ms and a 95th percentile of {GOAL_P95_MS:g} ms."
    )

    middle = middle_half(record_repair(), cases)
    repairer = record_repair()
    repairer(cases[0].damaged)  # what is built once per process: not in the profile
    profile = cProfile.Profile()
    profile.enable()
    for case in middle:
        repairer(case.damaged)
    profile.disable()
    print(
        f"\nWhere record mode's repairs of the middle half by CPU time ({len(middle)} cases) "
        "spend their time (cProfile):"
    )
    listings: tuple[tuple[str, str, tuple[str | int, ...]], ...] = (
        ("tottime", "own time, top 12", (12,)),
        ("cumulative", "the engine's functions with what they call, top 16", (_ENGINE, 16)),
    )
    for order, title, restriction in listings:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(*restriction)
        print(f"\n{title}:\n")
        print("```")
        listing = out.getvalue().strip().splitlines()
        start = next(i for i, line in enumerate(listing) if line.lstrip().startswith("ncalls"))
        for line in listing[start:]:
            print(line.replace(str(REPO) + "/", ""))
        print("```")
    print_stages(middle)
    alone = ranked_alone(cases)
    print(
        f"\nRecord mode ranks its best repair alone: in the {alone.rankings} rankings of more "
        f"than one repair, the whole ranking's first in {alone.same}; layout scores read "
        f"{alone.read}, against {alone.read_all} when all are ranked."
    )


_ENGINE = r"inputmend/(repairs|algorithms)/"
"""The engine's modules: the generators, the ranking, the judge, the polish
(their cumulative times are the stages of a repair)."""


def middle_half(repairer: Repairer, cases: list[Case]) -> list[Case]:
    """The cases between the first and the third quartile of ``repairer``'s
    CPU time, in their order (the median repair's kind: the profile of every
    case is mostly the slowest quarter's)."""
    cpu = measure(repairer, cases).cpu
    by_time = sorted(range(len(cases)), key=lambda index: cpu[index])
    kept = set(by_time[len(cases) // 4 : len(cases) - len(cases) // 4])
    return [case for index, case in enumerate(cases) if index in kept]


@dataclass
class Stage:
    """One generator's part of the repairs measured by :func:`stages`."""

    cpu: float = 0.0
    """Seconds: deciding whether it is wanted, and running it."""
    runs: int = 0
    empty: int = 0
    """Runs that found nothing."""
    after: float = 0.0
    """Seconds spent after a repair settled the request."""


@dataclass
class Stages:
    """Where record mode's repairs of some cases spend their CPU time."""

    cases: int
    total: float = 0.0
    generators: dict[str, Stage] = field(default_factory=dict)
    settled_by: Counter[str] = field(default_factory=Counter)
    """How many cases a repair of each generator settled first."""


def stages(cases: list[Case]) -> Stages:
    """The generators' CPU time in record mode's repairs of ``cases`` (the
    repair pipeline's, with the arguments record mode gives it), each case
    repaired twice: once timed, and once, untimed, to find the first
    generator whose repair settles it (its judgement and check by the whole
    oracle would otherwise count in the timed run's stages)."""
    from inputmend.config import defaults
    from inputmend.core.budget import Budget
    from inputmend.records.oracles import record_oracle
    from inputmend.records.process import RecordSettings
    from inputmend.repairs import pipeline
    from inputmend.repairs.context import RepairContext, verify
    from inputmend.repairs.generators import Candidates, Generator
    from inputmend.services import REPAIR_ALGORITHMS

    settings = RecordSettings()
    algorithm = REPAIR_ALGORITHMS[settings.algorithm]
    oracle, _ = record_oracle("lines", None)
    budget = Budget(timeout_s=settings.timeout_s, max_tests=settings.max_tests)
    Event = tuple[str, float, int | None]  # generator, seconds, found (None: not wanted)
    events: list[Event] = []
    settling: list[str] = []  # the first generator with a settled repair

    def timed(generator: Generator, *, classify: bool) -> Generator:
        def wanted(context: RepairContext, found: tuple[Any, ...]) -> bool:
            started = time.process_time()
            verdict = generator.wanted(context, found)
            if not verdict:
                events.append((generator.name, time.process_time() - started, None))
            return verdict

        def run(context: RepairContext, found: tuple[Any, ...], share: Budget) -> Candidates:
            started = time.process_time()
            candidates = generator.run(context, found, share)
            events.append((generator.name, time.process_time() - started, len(candidates.repairs)))
            if (
                classify
                and not settling
                and any(
                    r.valid and pipeline.settled(context, r) and verify(context.oracle, r.text)
                    for r in candidates.repairs
                )
            ):
                settling.append(generator.name)
            return candidates

        return replace(generator, wanted=wanted, run=run)

    def repair(text: str, *, classify: bool) -> None:
        pipeline.run(
            text,
            oracle,
            [timed(generator, classify=classify) for generator in algorithm.generators],
            budget=budget,
            top=defaults.TOP_REPAIRS,
            max_loss=settings.loss,
            fit_to_oracle=algorithm.fit_to_oracle,
        )

    found = Stages(len(cases))
    repair(cases[0].damaged, classify=False)  # what is built once per process
    for case in cases:
        events.clear()
        settling.clear()
        started = time.process_time()
        repair(case.damaged, classify=False)
        found.total += time.process_time() - started
        timed_events = list(events)
        events.clear()
        repair(case.damaged, classify=True)
        order = [name for name, _, _ in events]
        settled_at = order.index(settling[0]) if settling else len(order)
        after = set(order[settled_at + 1 :]) if settling else set()
        if settling:
            found.settled_by[settling[0]] += 1
        for name, seconds, repairs in timed_events:
            stage = found.generators.setdefault(name, Stage())
            stage.cpu += seconds
            stage.runs += repairs is not None
            stage.empty += repairs == 0
            if name in after:
                stage.after += seconds
    return found


def print_stages(cases: list[Case]) -> None:
    """The table of :func:`stages` for ``cases``."""
    found = stages(cases)
    count = found.cases

    def per_case(seconds: float) -> str:
        return f"{1000 * seconds / count:.3f} ms"

    print(
        f"\nRecord mode's stages in the same {count} repairs, without the profiler "
        f"(CPU per case, {per_case(found.total)} in all):\n"
    )
    print("| generator | CPU per case | runs | runs that found nothing | after a settled repair |")
    print("|---|---|---|---|---|")
    spent = 0.0
    for name, stage in sorted(found.generators.items(), key=lambda item: -item[1].cpu):
        spent += stage.cpu
        print(
            f"| {name} | {per_case(stage.cpu)} | {stage.runs} | {stage.empty} "
            f"| {per_case(stage.after)} |"
        )
    print(
        f"| setup, judging settled repairs, checks, ranking, polish | "
        f"{per_case(found.total - spent)} | | | |"
    )
    settled = sum(found.settled_by.values())
    by = ", ".join(f"{name} {number}" for name, number in found.settled_by.most_common())
    print(f"\nA repair settled {settled} of the {count} cases (first found by: {by}).")


@dataclass
class Alone:
    """Record mode's rankings of its best repair alone, against all of them."""

    rankings: int = 0
    """Rankings of more than one repair."""
    same: int = 0
    """Of them, those whose best is the whole ranking's first, with the same
    features and score."""
    read: int = 0
    """Layout scores read for the best alone."""
    read_all: int = 0
    """Layout scores read when all are ranked."""


def ranked_alone(cases: list[Case]) -> Alone:
    """Record mode's repairs of ``cases``: each ranking of the best repair
    alone (:func:`~inputmend.algorithms.ranking.scored` with ``only_top``)
    ranked again whole, untimed, to check that its best is the whole
    ranking's first, and how many layout scores each reads (the ranking of
    the best alone reads a repair's layout and style only where it may be
    best)."""
    from inputmend.repairs import rank

    found = Alone()
    whole = rank.scored

    def counted(layout: Callable[[str], int] | None, counts: list[int]) -> Any:
        if layout is None:
            return None

        def read(text: str) -> int:
            counts[0] += 1
            return layout(text)

        return read

    def checked(original: str, repairs: Any, top: int, **options: Any) -> Any:
        repairs = list(repairs)
        if not options.get("only_top") or len({r.text for r in repairs}) <= 1:
            return whole(original, repairs, top, **options)
        layout = options.pop("layout", None)
        alone, every = [0], [0]
        best = whole(original, repairs, top, layout=counted(layout, alone), **options)
        options["only_top"] = False
        first = whole(original, repairs, top, layout=counted(layout, every), **options)[:top]
        found.rankings += 1
        found.same += best == first
        found.read += alone[0]
        found.read_all += every[0]
        return best

    repairer = record_repair()
    rank.scored = checked
    try:
        for case in cases:
            repairer(case.damaged)
    finally:
        rank.scored = whole
    return found


if __name__ == "__main__":
    main()
