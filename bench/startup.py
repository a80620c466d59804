"""Start-up: whole-process wall time of ``inputmend check`` and ``inputmend
repair`` on small files, next to ``python -m json.tool`` measured in the same
run, and where the start-up time goes (``python -X importtime``).

Each command runs ``--runs`` times, the commands taking turns so that a busy
moment of the machine falls on all of them alike, after one run each that is
not counted (it fills the operating system's file cache, Python's bytecode
files, and inputmend's grammar cache, which the commands keep in a folder of
the run's own). Two rows measure a first run instead: the grammar cache
turned off (``INPUTMEND_CACHE=0``). The table gives
the medians of the wall time (and the fastest run) and of the CPU time of
each, and each over json.tool's; on a busy machine
the CPU time is the steadier of the two. The goals: ``check`` 150 ms or
less, ``repair`` 300 ms or less.

    .venv/bin/python bench/startup.py [--runs 11] [--top 12]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

FILES = {
    "valid.json": '{"name": "inputmend", "tags": ["repair", "check"], "version": 1}\n',
    "broken.json": '{"name": "inputmend", "tags": ["repair", "check"] "version": 1}\n',
    "workflow.yaml": (
        "name: ci\n"
        "on: [push]\n"
        "jobs:\n"
        "  test:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - run: make test\n"
        "     - run: make lint\n"
    ),
}
"""Small inputs: a valid and a broken JSON file (a lost comma) and a GitHub
workflow with one mis-indented line."""


@dataclass(frozen=True)
class Command:
    """One command line measured, and the goal it is held to (None: none)."""

    label: str
    argv: tuple[str, ...]
    goal_s: float | None
    environment: tuple[tuple[str, str], ...] = ()


def inputmend_command() -> tuple[str, ...]:
    """The installed ``inputmend`` script beside this Python, as a user runs
    it; ``python -m inputmend`` when there is none."""
    script = Path(sys.executable).with_name("inputmend")
    return (str(script),) if script.exists() else (sys.executable, "-m", "inputmend")


NO_CACHE = (("INPUTMEND_CACHE", "0"),)


def commands() -> list[Command]:
    tool = inputmend_command()
    return [
        Command(
            "python -m json.tool valid.json",
            (sys.executable, "-m", "json.tool", "valid.json"),
            None,
        ),
        Command("inputmend check valid.json", (*tool, "check", "valid.json"), 0.150),
        Command("inputmend check broken.json", (*tool, "check", "broken.json"), 0.150),
        Command("inputmend repair broken.json", (*tool, "repair", "broken.json"), 0.300),
        Command("inputmend repair workflow.yaml", (*tool, "repair", "workflow.yaml"), 0.300),
        Command(
            "inputmend check valid.json (no cache)",
            (*tool, "check", "valid.json"),
            None,
            NO_CACHE,
        ),
        Command(
            "inputmend repair workflow.yaml (no cache)",
            (*tool, "repair", "workflow.yaml"),
            None,
            NO_CACHE,
        ),
    ]


def environment(folder: Path, command: Command) -> dict[str, str]:
    """The environment of a run: the grammar cache in ``folder`` (not the
    user's), bytecode written as an installed package has it, and the
    command's own variables."""
    inherited = {
        name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
    }
    return {**inherited, "XDG_CACHE_HOME": str(folder / "cache"), **dict(command.environment)}


@dataclass(frozen=True)
class Timing:
    """One run: wall seconds, and CPU seconds of the process (user and system)."""

    wall_s: float
    cpu_s: float


def timed_run(command: Command, folder: Path) -> Timing:
    """Run ``command`` to its end, its output discarded. The CPU time is the
    children's as the operating system counts it: unlike the wall time, it
    hardly grows when other work shares the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command.argv,
        cwd=folder,
        env=environment(folder, command),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Timing(wall, cpu)


def measure(measured: list[Command], folder: Path, runs: int) -> dict[str, list[Timing]]:
    """Each command's runs, the commands taking turns, after one uncounted run each."""
    for command in measured:
        timed_run(command, folder)
    times: dict[str, list[Timing]] = {command.label: [] for command in measured}
    for _ in range(runs):
        for command in measured:
            times[command.label].append(timed_run(command, folder))
    return times


@dataclass(frozen=True)
class ImportTime:
    """One line of ``-X importtime``: a module, its own and its cumulative microseconds."""

    module: str
    self_us: int
    cumulative_us: int


def import_times(stderr: str) -> list[ImportTime]:
    """The modules ``python -X importtime`` reported on ``stderr``."""
    found = []
    for line in stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        fields = [field.strip() for field in line.removeprefix("import time:").split("|")]
        if len(fields) != 3 or not fields[0].isdigit():
            continue  # the header line
        found.append(ImportTime(fields[2], int(fields[0]), int(fields[1])))
    return found


def top_imports(argv: tuple[str, ...], folder: Path, top: int) -> list[ImportTime]:
    """The ``top`` modules by their own import time in one run of ``argv``
    (under ``python -X importtime -m inputmend``)."""
    tool = inputmend_command()
    arguments = argv[len(tool) :]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "inputmend", *arguments],
        cwd=folder,
        env=environment(folder, Command("", argv, None)),
        capture_output=True,
        text=True,
        check=False,
    )
    ranked = sorted(import_times(done.stderr), key=lambda entry: -entry.self_us)
    return ranked[:top]


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each command (default 11)")
    parser.add_argument(
        "--top", type=int, default=12, help="import-time entries shown (default 12)"
    )
    args = parser.parse_args()
    measured = commands()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for file_name, text in FILES.items():
            (folder / file_name).write_text(text, encoding="utf-8")
        load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
        times = measure(measured, folder, args.runs)
        peer = times[measured[0].label]
        peer_wall = statistics.median(t.wall_s for t in peer)
        peer_cpu = statistics.median(t.cpu_s for t in peer)
        print(f"Load average (1, 5, 15 min) before the runs: {load}.\n")
        print(f"Whole process, median of {args.runs} runs (wall: fastest run in brackets):\n")
        print("| command | wall | / json.tool's | CPU | / json.tool's | goal (wall) |")
        print("|---|---|---|---|---|---|")
        for command in measured:
            runs = times[command.label]
            wall = statistics.median(t.wall_s for t in runs)
            cpu = statistics.median(t.cpu_s for t in runs)
            fastest = min(t.wall_s for t in runs)
            goal = "" if command.goal_s is None else milliseconds(command.goal_s)
            print(
                f"| `{command.label}` | {milliseconds(wall)} ({milliseconds(fastest)}) "
                f"| {wall / peer_wall:.1f}x | {milliseconds(cpu)} "
                f"| {cpu / max(peer_cpu, 1e-3):.1f}x | {goal} |"
            )
        for command in (measured[1], measured[3]):
            print(f"\nTop {args.top} imports of `{command.label}`, by their own time (one run):\n")
            print("| module | own | with what it imports |")
            print("|---|---|---|")
            for entry in top_imports(command.argv, folder, args.top):
                print(
                    f"| `{entry.module}` | {entry.self_us / 1000:.1f} ms "
                    f"| {entry.cumulative_us / 1000:.1f} ms |"
                )


if __name__ == "__main__":
    main()
