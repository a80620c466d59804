"""Everyday damage: how often the top repair carries the data the document held.

For every bundled format (json, ini, csv, dot, sexp, tinyc, toml, yaml, xml,
jsonc) and damage
operator (truncation, a lost or doubled delimiter, a trailing delimiter, a
lost quote, a comment in a foreign style, single quotes, a literal from
another language, text around the data), damages valid seed documents
(seeded) and keeps the damaged texts the grammar rejects.  Then it runs

* this checkout's engine (``api.repair``, the format's grammar as oracle),
* "today's engine": the engine of ``--compare-ref REV`` (default: the
  merge-base with main), from an export of that revision's ``server/`` and
  ``grammars/``, in a subprocess on the same cases in the same run,
* json-repair on the JSON cases (when the package is installed),

and prints per format and operator how often the top repair (and any of the
top five) carries exactly the original data (see ``damage/judges.py``; for a
truncation: keeps all of the truncated text and only adds), the median
time and the data lost (non-whitespace characters of the damaged text that
the top repair deletes or overwrites).  It also times the completion of
truncated 100 KB and 1 MB JSON documents (and a 1,000-deep one).

    .venv/bin/python bench/everyday_damage.py [--formats json,ini] [--operators truncation]
        [--cases 50] [--seed 0] [--timeout 10] [--jobs N] [--compare-ref REV|none]
        [--show-failures N] [--dump DIR] [--save FILE] [--no-large]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.damage.corpus import Case, Generated, dump, generate_all  # noqa: E402
from bench.damage.evaluate import Outcome, Row, Verdict, judge, share  # noqa: E402
from bench.damage.formats import FORMATS, OPERATORS  # noqa: E402
from bench.documents import json_document  # noqa: E402

WORKER = REPO / "bench" / "damage" / "worker.py"
OURS, REF, JSON_REPAIR = "this checkout", "ref", "json-repair"


def git(*arguments: str) -> str:
    return subprocess.run(
        ["git", "-C", str(REPO), *arguments], capture_output=True, text=True, check=True
    ).stdout.strip()


# ------------------------------------------------------------------ engines


def run_engine(
    server: Path, cases: Sequence[dict[str, Any]], *, jobs: int, timeout: float
) -> dict[str, Outcome]:
    """Run the worker with ``server`` first on PYTHONPATH; outcomes by case id."""
    with tempfile.TemporaryDirectory(prefix="everyday-damage-") as folder:
        request, answer = Path(folder) / "cases.json", Path(folder) / "results.json"
        request.write_text(json.dumps({"timeout": timeout, "jobs": jobs, "cases": list(cases)}))
        environment = {**os.environ, "PYTHONPATH": str(server)}
        command = [sys.executable, str(WORKER), str(request), str(answer)]
        status = subprocess.run(command, env=environment).returncode
        if status != 0:
            raise SystemExit(f"the engine in {server} failed (exit {status}; its error is above)")
        results = json.loads(answer.read_text())
    engine = Path(results["engine"]).resolve()
    if not engine.is_relative_to(server.resolve()):
        raise SystemExit(f"the worker imported {engine}, not the engine in {server}")
    outcomes = {}
    texts = {case["id"]: case["text"] for case in cases}
    for result in results["results"]:
        times = result["times"]
        # an engine whose grammar accepts the damaged text leaves it as it is
        repairs = (texts[result["id"]],) if result["input_valid"] else tuple(result["repairs"])
        median = statistics.median(times) if times else None
        outcomes[result["id"]] = Outcome(repairs, median, result["error"])
    return outcomes


def resolve_ref(requested: str | None) -> tuple[str, str] | None:
    """The commit to compare with and how it was chosen; ``None`` for no comparison."""
    if requested == "none":
        return None
    try:
        if requested is None:
            return git("merge-base", "HEAD", "main"), "merge-base with main"
        return git("rev-parse", "--verify", f"{requested}^{{commit}}"), requested
    except subprocess.CalledProcessError as error:
        print(f"note: no engine to compare with ({error.stderr.strip()})", file=sys.stderr)
        return None


def same_engine(commit: str) -> bool:
    """Does ``commit`` have exactly this checkout's engine and grammars?"""
    try:
        for folder in ("server", "grammars"):
            if git("rev-parse", f"{commit}:{folder}") != git("rev-parse", f"HEAD:{folder}"):
                return False
    except subprocess.CalledProcessError:  # a folder that one of them does not have
        return False
    return not git("status", "--porcelain", "--", "server", "grammars")


def run_ref_engine(
    commit: str, cases: Sequence[dict[str, Any]], *, jobs: int, timeout: float
) -> dict[str, Outcome]:
    """The engine of ``commit``: its server/ and grammars/ exported to a temporary folder."""
    exported = subprocess.run(
        ["git", "-C", str(REPO), "archive", commit, "server", "grammars"], capture_output=True
    )
    if exported.returncode != 0:
        problem = exported.stderr.decode(errors="replace").strip()
        raise SystemExit(f"cannot export server/ and grammars/ of {commit[:10]}: {problem}")
    archive = exported.stdout
    with tempfile.TemporaryDirectory(prefix="everyday-damage-ref-") as folder:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        return run_engine(Path(folder) / "server", cases, jobs=jobs, timeout=timeout)


def run_json_repair(texts: dict[str, str]) -> dict[str, Outcome] | None:
    """json-repair on damaged texts (by case id); its output counts when it is strict JSON."""
    try:
        import json_repair
    except ImportError:
        print(
            "note: json-repair is not installed (pip install json-repair): its column is left out",
            file=sys.stderr,
        )
        return None
    outcomes = {}
    for case_id, text in texts.items():
        started = time.perf_counter()
        try:
            repaired = json_repair.repair_json(text, ensure_ascii=False)
        except Exception as error:  # noqa: BLE001 - a baseline's failure is a data point
            outcomes[case_id] = Outcome((), time.perf_counter() - started, str(error))
            continue
        seconds = time.perf_counter() - started
        outcomes[case_id] = Outcome((repaired,) if _is_json(repaired) else (), seconds)
    return outcomes


def _is_json(text: str) -> bool:
    def reject(name: str) -> None:
        raise ValueError(name)

    try:
        json.loads(text, parse_constant=reject)
    except (ValueError, RecursionError):
        return False
    return True


# --------------------------------------------------------- large truncations


def deep_json(depth: int) -> str:
    """Objects and arrays nested ``depth`` levels deep, a few values on each level."""
    opening, closing = [], []
    for level in range(depth):
        note = f"level {level} of the nested configuration, with a note to read"
        if level % 2:
            opening.append(f'[{level}, "{note}", {level * 0.5}, ')
            closing.append("]")
        else:
            opening.append(f'{{"level": {level}, "ok": true, "note": "{note}", "items": ')
            closing.append("}")
    return "".join(opening) + "null" + "".join(reversed(closing)) + "\n"


def _depth(text: str) -> int:
    """How deep brackets nest in a JSON text."""
    depth = deepest = 0
    for character in re.sub(r'"(?:[^"\\]|\\.)*"', "", text):
        if character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


@dataclass(frozen=True)
class Large:
    name: str
    damaged: str


def large_truncations(seed: int, cuts: int) -> list[Large]:
    """Truncated 100 KB, 1 MB and 1,000-deep JSON documents, ``cuts`` random cuts each."""
    cases = []
    for text in (json_document(100_000), json_document(1_000_000), deep_json(1_000)):
        name = f"{len(text) / 1000:,.0f} KB, depth {_depth(text):,}"
        rng = random.Random(f"{seed}/large/{name}")
        for _ in range(cuts):
            cases.append(Large(name, text[: rng.randrange(1, len(text.rstrip()))]))
    return cases


# ------------------------------------------------------------------- report


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f} s"


def _lost(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _tools(cases: Sequence[Case], verdicts: dict[str, dict[str, Verdict]]) -> list[str]:
    """The tools that judged these cases (json-repair only judges JSON)."""
    ids = {case.id for case in cases}
    return [tool for tool in (OURS, REF, JSON_REPAIR) if ids <= verdicts.get(tool, {}).keys()]


def _row(cases: Sequence[Case], verdicts: dict[str, Verdict]) -> Row:
    return Row.of([verdicts[case.id] for case in cases])


def report_format(
    fmt: str, generated: Sequence[Generated], verdicts: dict[str, dict[str, Verdict]]
) -> None:
    groups = [group for group in generated if group.format == fmt and group.cases]
    if not groups:
        return
    tools = _tools([case for group in groups for case in group.cases], verdicts)
    engines = [tool for tool in tools if tool != JSON_REPAIR]
    header = ["operator", "cases"]
    header += [f"{tool}: {column}" for tool in engines for column in ("top-1", "top-5")]
    header += [f"{JSON_REPAIR}: top-1"] if JSON_REPAIR in tools else []
    header += [f"{tool}: median time" for tool in tools]
    header += [f"{tool}: data lost" for tool in tools]
    print(f"\n### {fmt}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for group in groups:
        rows = {tool: _row(group.cases, verdicts[tool]) for tool in tools}
        cells = [group.operator, str(len(group.cases))]
        for tool in engines:
            cells += [
                share(rows[tool].top1, rows[tool].cases),
                share(rows[tool].top5, rows[tool].cases),
            ]
        if JSON_REPAIR in tools:
            cells.append(share(rows[JSON_REPAIR].top1, rows[JSON_REPAIR].cases))
        cells += [_seconds(rows[tool].median_s) for tool in tools]
        cells += [_lost(rows[tool].mean_lost) for tool in tools]
        print("| " + " | ".join(cells) + " |")
    for group in groups:
        if group.operator == "truncation":
            appended = ", ".join(
                f"{tool} {row.appended}/{row.cases}"
                for tool in tools
                if (row := _row(group.cases, verdicts[tool]))
            )
            print(f"\ntruncation: the top repair is the truncated text plus an ending: {appended}.")


def report_matrix(
    formats: Sequence[str], generated: Sequence[Generated], verdicts: dict[str, dict[str, Verdict]]
) -> None:
    """This checkout's top-1 share per format and operator in one table, with
    json-repair's in brackets where it judged the same cases."""
    groups = {(g.format, g.operator): g for g in generated if g.cases}
    operators = [op for op in OPERATORS if any((fmt, op) in groups for fmt in formats)]
    print("\n### Top repair carries the original data, by format and operator\n")
    print("| format | " + " | ".join(op.replace("-", " ") for op in operators) + " |")
    print("|---|" + "---|" * len(operators))
    for fmt in formats:
        cells = []
        for operator in operators:
            group = groups.get((fmt, operator))
            if group is None:
                cells.append("–")
                continue
            row = _row(group.cases, verdicts[OURS])
            cell = share(row.top1, row.cases)
            if JSON_REPAIR in _tools(group.cases, verdicts):
                theirs = _row(group.cases, verdicts[JSON_REPAIR])
                cell += f" ({share(theirs.top1, theirs.cases)})"
            cells.append(cell)
        print(f"| {fmt} | " + " | ".join(cells) + " |")


def report_summary(generated: Sequence[Generated], verdicts: dict[str, dict[str, Verdict]]) -> None:
    """Per operator over all formats, with the format where each tool does worst."""
    print("\n### Per operator, over all formats\n")
    for operator in OPERATORS:
        groups = [g for g in generated if g.operator == operator and g.cases]
        parts = []
        for tool in (OURS, REF, JSON_REPAIR):
            mine = [g for g in groups if set(_tools(g.cases, verdicts)) >= {tool}]
            if not mine:
                continue
            row = _row([case for group in mine for case in group.cases], verdicts[tool])
            part = f"{tool} {share(row.top1, row.cases)} of {row.cases}"
            if len(mine) > 1:
                worst = min(mine, key=lambda g: _row(g.cases, verdicts[tool]).top1 / len(g.cases))
                lowest = _row(worst.cases, verdicts[tool])
                part += f" (lowest: {worst.format} {share(lowest.top1, lowest.cases)})"
            parts.append(part)
        if parts:
            print(f"* {operator}: " + "; ".join(parts))


def report_large(large: Sequence[Large], outcomes: dict[str, dict[str, Outcome]]) -> None:
    print("\n### Completing truncated large JSON documents (api.repair wall time)\n")
    print("| tool | document | cuts | median time | max time | completed by appending |")
    print("|---|---|---|---|---|---|")
    for tool, results in outcomes.items():
        for name in dict.fromkeys(case.name for case in large):
            mine = [(i, case) for i, case in enumerate(large) if case.name == name]
            times = [results[f"large/{i}"].seconds for i, _ in mine]
            times_known = [t for t in times if t is not None]
            appended = sum(
                bool(results[f"large/{i}"].repairs)
                and results[f"large/{i}"].repairs[0].startswith(case.damaged)
                for i, case in mine
            )
            print(
                f"| {tool} | {name} | {len(mine)} "
                f"| {_seconds(statistics.median(times_known) if times_known else None)} "
                f"| {_seconds(max(times_known) if times_known else None)} "
                f"| {appended}/{len(mine)} |"
            )


def report_failures(
    generated: Sequence[Generated], verdicts: dict[str, Verdict], count: int
) -> None:
    print(f"\n### Where {OURS} fails (first {count} per format and operator)\n")
    for group in generated:
        failed = [verdicts[c.id] for c in group.cases if c.id in verdicts]
        failed = [v for v in failed if not v.top1][:count]
        for verdict in failed:
            case = verdict.case
            at = _first_difference(case.original, case.damaged)
            window = slice(max(0, at - 30), at + 50)
            print(f"* `{case.id}` ({case.seed}), at offset {at}:")
            print(f"  damaged:    {case.damaged[window]!r}")
            print(f"  original:   {case.original[window]!r}")
            top = verdict.top[window] if verdict.top is not None else "(no repair)"
            print(f"  top repair: {top!r}")


def _first_difference(left: str, right: str) -> int:
    return next(
        (i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b),
        min(len(left), len(right)),
    )


# --------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--operators", default=",".join(OPERATORS))
    parser.add_argument("--cases", type=int, default=50, help="cases per format and operator")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--tries",
        type=int,
        default=40,
        help="damages tried per wanted case before an operator gives up on a format",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per repair")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--compare-ref",
        help="revision of today's engine, or none (default: the merge-base with main)",
    )
    parser.add_argument("--show-failures", type=int, default=0, metavar="N")
    parser.add_argument("--dump", type=Path, metavar="DIR", help="write the cases to files")
    parser.add_argument("--save", type=Path, metavar="FILE", help="write per-case results")
    parser.add_argument(
        "--large-cuts", type=int, default=5, help="cuts per large truncated JSON document (0: none)"
    )
    options = parser.parse_args()
    formats = [name for name in options.formats.split(",") if name]
    operators = [name for name in options.operators.split(",") if name]
    unknown = sorted(set(formats) - set(FORMATS)) + sorted(set(operators) - set(OPERATORS))
    if unknown:
        parser.error(f"unknown format or operator: {', '.join(unknown)}")

    started = time.perf_counter()
    generated = generate_all(
        formats, operators, count=options.cases, seed=options.seed, tries=options.tries
    )
    cases = [case for group in generated for case in group.cases]
    if options.dump:
        dump(cases, options.dump)
        print(f"wrote {len(cases)} cases to {options.dump}", file=sys.stderr)
    large = (
        large_truncations(options.seed, options.large_cuts)
        if "json" in formats and "truncation" in operators
        else []
    )
    requests = [
        {"id": case.id, "grammar": case.format, "text": case.damaged, "top": 5} for case in cases
    ] + [
        {"id": f"large/{i}", "grammar": "json", "text": case.damaged, "top": 1, "alone": True}
        for i, case in enumerate(large)
    ]
    jobs, timeout = options.jobs, options.timeout
    outcomes = {OURS: run_engine(REPO / "server", requests, jobs=jobs, timeout=timeout)}
    ref = resolve_ref(options.compare_ref)
    ref_note = "no comparison"
    if ref is not None:
        commit, chosen = ref
        ref_note = f"{commit[:10]} ({chosen})"
        if same_engine(commit):
            ref_note += ": the same server/ and grammars/ as this checkout (its column is left out)"
        else:
            outcomes[REF] = run_ref_engine(commit, requests, jobs=jobs, timeout=timeout)
    json_texts = {case.id: case.damaged for case in cases if case.format == "json"}
    if json_texts:
        json_texts |= {f"large/{i}": case.damaged for i, case in enumerate(large)}
        baseline = run_json_repair(json_texts)
        if baseline is not None:
            outcomes[JSON_REPAIR] = baseline

    verdicts = {
        tool: {case.id: judge(case, results[case.id]) for case in cases if case.id in results}
        for tool, results in outcomes.items()
    }
    print(
        f"## Everyday damage: {len(cases)} cases ({options.cases} wanted per format and "
        f"operator), seed {options.seed}, {options.timeout:g} s per repair, "
        f"{options.jobs} jobs, {time.perf_counter() - started:.0f} s wall time\n"
    )
    print(f"today's engine (ref): {ref_note}")
    for group in generated:
        if len(group.cases) < options.cases:
            print(
                f"note: {group.format}/{group.operator}: {len(group.cases)} cases "
                f"({group.tries} damages tried)"
            )
    for tool, results in outcomes.items():
        errors = [outcome.error for outcome in results.values() if outcome.error]
        if errors:
            print(f"note: {tool} failed with an error on {len(errors)} cases, e.g. {errors[0]}")
    report_matrix(formats, generated, verdicts)
    for fmt in formats:
        report_format(fmt, generated, verdicts)
    report_summary(generated, verdicts)
    if large:
        report_large(large, outcomes)
    if options.show_failures:
        report_failures(generated, verdicts[OURS], options.show_failures)
    if options.save:
        saved = {tool: [asdict(v) for v in mine.values()] for tool, mine in verdicts.items()}
        options.save.write_text(json.dumps(saved, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
