"""Run the benchmarks and write their tables into bench/README.md (``make bench``).

Each benchmark's table in the README stands between two marker comments,
``<!-- table: NAME -->`` and ``<!-- end table -->``. A run replaces what is
between them with the line saying which machine measured it (CPU model,
cores, system, Python) and what the script printed, its headings moved two
levels down to sit under the README's own. Everything outside the markers is
left as it is, and a benchmark that fails leaves its table alone, so the
README always holds the last good numbers of each benchmark; git keeps the
earlier ones.

    .venv/bin/python bench/run_all.py [--only NAME,...] [--list] [--no-write]

The black-box repair benchmark needs the small C JSON checker in
``subjects/json_check.c`` (exit 0 valid, 255 incomplete, 1 invalid, like the
FSynth study's subjects); it is compiled with ``gcc`` when available.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
CHECKER = "{json_check}"  # stands for the compiled black-box subject in arguments
MARKER = re.compile(r"<!-- table: ([\w-]+) -->\n.*?<!-- end table -->", re.S)


@dataclass(frozen=True)
class Benchmark:
    """One table of the README: the script that prints it, and how it is run."""

    name: str
    script: str
    arguments: tuple[str, ...] = ()
    environment: Mapping[str, str] = field(default_factory=dict)

    def command_line(self) -> str:
        """How to run it alone, as the README shows it."""
        settings = "".join(f"{key}={value} " for key, value in self.environment.items())
        words = [f"bench/{self.script}", *self.arguments]
        return settings + ".venv/bin/python " + " ".join(words).replace(CHECKER, "json_check")


BENCHMARKS = (
    Benchmark("startup", "startup.py", ("--runs", "11")),
    Benchmark("incremental_oracle", "incremental_oracle.py", ("--checks", "500")),
    Benchmark("completion", "completion.py", ("--cuts", "20")),
    Benchmark("completion_python", "completion.py", ("--cuts", "20"), {"INPUTMEND_NATIVE": "0"}),
    Benchmark("large_repairs", "large_repairs.py"),
    Benchmark("many_faults", "many_faults.py"),
    Benchmark("repair_corpus", "repair_corpus.py", ("--timeout", "10")),
    Benchmark(
        "repair_corpus_black_box",
        "repair_corpus.py",
        (
            "--formats",
            "json",
            "--corpora",
            "single,fresh-single",
            "--no-baselines",
            "--command",
            CHECKER,
        ),
    ),
    Benchmark("everyday_damage", "everyday_damage.py", ("--compare-ref", "none")),
    Benchmark("records", "records_bench.py", ("--records", "100000", "--formats", "json,csv")),
    Benchmark("small_inputs", "small_inputs.py"),
    Benchmark("determinism", "determinism.py"),
    Benchmark("ddset_compare", "ddset_compare.py"),
    Benchmark("lsp_latency", "lsp_latency.py"),
)


def machine() -> str:
    """The machine the numbers are measured on, in one line."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            names = [line.split(":", 1)[1].strip() for line in cpuinfo if "model name" in line]
        model = names[0] if names else model
    except OSError:
        pass
    cores = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    return (
        f"{model}, {cores} cores ({usable} usable), {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def demote(text: str, levels: int = 2) -> str:
    """``text`` with its markdown headings ``levels`` deeper (fenced code left alone)."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and re.match(r"#{1,6} ", line):
            line = "#" * levels + line
        lines.append(line)
    return "\n".join(lines)


def table(benchmark: Benchmark, output: str, measured_on: str) -> str:
    """What stands between the benchmark's markers after a run."""
    body = demote(output.strip("\n"))
    return f"Measured on: {measured_on}.\n`{benchmark.command_line()}`\n\n{body}\n"


def tables_in(readme: str) -> list[str]:
    """The names of the tables the README has markers for, in order."""
    return [match[1] for match in MARKER.finditer(readme)]


def rewrite(readme: str, name: str, content: str) -> str:
    """``readme`` with the table ``name`` replaced by ``content``; the rest as it was."""
    matches = [match for match in MARKER.finditer(readme) if match[1] == name]
    if len(matches) != 1:
        raise ValueError(f"bench/README.md has {len(matches)} tables named {name!r}, not one")
    (match,) = matches
    replaced = f"<!-- table: {name} -->\n{content.rstrip()}\n<!-- end table -->"
    return readme[: match.start()] + replaced + readme[match.end() :]


def compile_checker(folder: Path) -> Path | None:
    """The black-box subject, compiled into ``folder``; None without a C compiler."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    binary = folder / "json_check"
    subprocess.check_call([compiler, "-O2", "-o", str(binary), str(HERE / "subjects/json_check.c")])
    return binary


def run(benchmark: Benchmark, checker: Path | None) -> str | None:
    """Run one benchmark, its output shown as it comes; what it printed, or None
    when it failed or could not run."""
    if CHECKER in benchmark.arguments and checker is None:
        print(f"no C compiler: skipping {benchmark.name}", flush=True)
        return None
    arguments = [argument.replace(CHECKER, str(checker)) for argument in benchmark.arguments]
    command = [sys.executable, str(HERE / benchmark.script), *arguments]
    environment = {**os.environ, **benchmark.environment}
    print(f"\n# {benchmark.name}: {benchmark.command_line()}\n", flush=True)
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environment) as process:
        assert process.stdout is not None
        printed = []
        for line in process.stdout:
            sys.stdout.write(line)
            printed.append(line)
    if process.returncode != 0:
        print(f"{benchmark.name} failed (exit status {process.returncode}): its table is kept")
        return None
    return "".join(printed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = [benchmark.name for benchmark in BENCHMARKS]
    parser.add_argument("--only", help=f"comma-separated names of: {', '.join(names)}")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--no-write", action="store_true", help="leave bench/README.md alone")
    options = parser.parse_args(argv)
    if options.list:
        for benchmark in BENCHMARKS:
            print(f"{benchmark.name}: {benchmark.command_line()}")
        return 0
    chosen = options.only.split(",") if options.only else names
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error(f"unknown benchmarks: {', '.join(unknown)}")
    measured_on = machine()
    print(f"machine: {measured_on}", flush=True)
    status = 0
    with tempfile.TemporaryDirectory() as folder:
        checker = compile_checker(Path(folder))
        for benchmark in (b for b in BENCHMARKS if b.name in chosen):
            output = run(benchmark, checker)
            if output is None:
                status = 1
                continue
            if not options.no_write:
                readme = README.read_text(encoding="utf-8")
                content = table(benchmark, output, measured_on)
                README.write_text(rewrite(readme, benchmark.name, content), encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
