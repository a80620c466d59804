"""What the command line prints: error lines, JSON records, repairs with
unified diffs, failure-inducing spans and DDSET patterns.

A per-file job returns a *record*: the JSON object ``--json`` prints, plus
private keys (starting with ``_``) that only the text output needs.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Iterable
from typing import Any

from inputmend.cli.files import InputFile
from inputmend.core.model import Abstraction, Diagnosis, Edit, RepairResult
from inputmend.core.render import describe_edits
from inputmend.core.text import LineIndex, snippet
from inputmend.oracles.base import Feedback

SPANS_SHOWN = 50


def error_line(name: str, text: str, feedback: Feedback) -> str:
    """``FILE:LINE:COLUMN: error: MESSAGE`` (without a position when unknown)."""
    offset = feedback.error_offset
    prefix = f"{name}:{LineIndex(text).human(offset)}:" if offset is not None else f"{name}:"
    return f"{prefix} error: {feedback.message or feedback.verdict.value + ' input'}"


def error_json(text: str, feedback: Feedback) -> dict[str, Any] | None:
    if feedback.valid:
        return None
    result: dict[str, Any] = {"verdict": feedback.verdict.value, "message": feedback.message}
    if feedback.error_offset is not None:
        line, column = LineIndex(text).position(feedback.error_offset)
        result.update(offset=feedback.error_offset, line=line + 1, column=column + 1)
    return result


def print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=True))


def public(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its private keys: what ``--json`` prints."""
    return {key: value for key, value in record.items() if not key.startswith("_")}


def problem(path: str, error: Exception) -> dict[str, Any]:
    """The record of a file that could not be processed."""
    return {"file": path, "problem": str(error)}


def _edits_json(edits: Iterable[Edit]) -> list[dict[str, Any]]:
    return [edit.to_json() for edit in edits]


def _edits_of(data: list[dict[str, Any]]) -> list[Edit]:
    return [Edit(e["offset"], e["delete"], e["insert"]) for e in data]


def check_record(source: InputFile, name: str, feedback: Feedback) -> dict[str, Any]:
    return {
        "file": name,
        "valid": feedback.valid,
        "error": error_json(source.text, feedback),
        "encoding": source.encoding.to_json(),
        "_line": error_line(name, source.text, feedback),
    }


def repair_record(
    name: str, source: InputFile, initial: Feedback, result: RepairResult, written: str | None
) -> dict[str, Any]:
    partial = result.partial
    return {
        "file": name,
        "valid": result.input_valid,
        "error": error_json(source.text, initial),
        "encoding": source.encoding.to_json(),
        "repairs": [
            {
                "text": repair.text,
                "edits": _edits_json(repair.edits),
                "distance": repair.distance,
                "data_lost": repair.data_lost,
                "tokens_kept": repair.tokens_kept,
                "lossy": repair.lossy,
                "algorithm": repair.algorithm,
            }
            for repair in result.repairs
        ],
        "tests": result.stats.tests,
        "elapsed_s": round(result.stats.elapsed_s, 6),
        "budget_exhausted": result.stats.budget_exhausted,
        "notes": list(result.notes),
        "written": written,
        "partial": None
        if partial is None
        else {"text": partial.text, "edits": _edits_json(partial.edits), "complete": False},
        "_text": source.text,
        "_line": error_line(name, source.text, initial),
        "_stop": result.stats.stop_reason,
    }


def diff(name: str, before: str, after: str, label: str) -> str:
    """A unified diff that marks a missing final newline as ``diff`` does."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=name,
        tofile=f"{name} ({label})",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def print_repair(record: dict[str, Any], *, detailed: bool) -> None:
    """The diagnosis and the ranked repairs (all when ``detailed``, else the best)."""
    path, text = record["file"], record["_text"]
    if record["valid"]:
        print(f"{path}: valid; nothing to repair")
        return
    print(record["_line"])
    repairs = record["repairs"]
    budget_note = f" (stopped early: {record['_stop']})" if record["budget_exhausted"] else ""
    print(
        f"{len(repairs)} repair(s) from {record['tests']} oracle runs "
        f"in {record['elapsed_s']:.2f}s{budget_note}"
    )
    for note in record["notes"]:
        print(f"note: {note}")
    index = LineIndex(text)
    for rank, repair in enumerate(repairs if detailed else repairs[:1], 1):
        print(
            f"\nRepair {rank} ({repair['algorithm']}, distance {repair['distance']}): "
            f"{describe_edits(index, _edits_of(repair['edits']))}"
        )
        sys.stdout.write(diff(path, text, repair["text"], f"repair {rank}"))
    partial = record["partial"]
    if not repairs and partial is not None and detailed:
        described = describe_edits(index, _edits_of(partial["edits"]))
        print(f"\nPartial repair (incomplete, not valid): {described}")
        sys.stdout.write(diff(path, text, partial["text"], "partial repair"))
    if record["written"]:
        print(f"\n{record['written']}")


def explain_json(
    name: str, source: InputFile, initial: Feedback, diagnosis: Diagnosis | None
) -> dict[str, Any]:
    index = LineIndex(source.text)
    spans = []
    for span in diagnosis.spans if diagnosis is not None else ():
        line, column = index.position(span.start)
        spans.append(
            {
                "start": span.start,
                "end": span.end,
                "text": source.text[span.start : span.end],
                "line": line + 1,
                "column": column + 1,
            }
        )
    return {
        "file": name,
        "valid": initial.valid,
        "error": error_json(source.text, initial),
        "encoding": source.encoding.to_json(),
        "algorithm": diagnosis.algorithm if diagnosis else None,
        "spans": spans,
        "passing": diagnosis.passing if diagnosis else None,
        "failing": diagnosis.failing if diagnosis else None,
        "tests": diagnosis.stats.tests if diagnosis else 1,
        "elapsed_s": round(diagnosis.stats.elapsed_s, 6) if diagnosis else 0.0,
        "budget_exhausted": diagnosis.stats.budget_exhausted if diagnosis else False,
        "notes": list(diagnosis.notes) if diagnosis else [],
    }


def print_explanation(
    name: str, source: InputFile, initial: Feedback, diagnosis: Diagnosis | None
) -> None:
    if diagnosis is None:
        print(f"{name}: valid; nothing to explain")
        return
    text = source.text
    index = LineIndex(text)
    print(error_line(name, text, initial))
    stats = diagnosis.stats
    chars = sum(span.end - span.start for span in diagnosis.spans)
    kind = {"ddmin": "minimal failing", "dd": "isolated difference"}
    label = kind.get(diagnosis.algorithm, "failure-inducing")
    print(
        f"{diagnosis.algorithm}: {len(diagnosis.spans)} {label} span(s), "
        f"{chars} character(s), {stats.tests} oracle runs in {stats.elapsed_s:.2f}s"
        + (f" (stopped early: {stats.stop_reason})" if stats.budget_exhausted else "")
    )
    for note in diagnosis.notes:
        print(f"note: {note}")
    for span in diagnosis.spans[:SPANS_SHOWN]:
        print(f"  {name}:{index.human(span.start)}: `{snippet(text[span.start : span.end])}`")
    if len(diagnosis.spans) > SPANS_SHOWN:
        print(f"  … and {len(diagnosis.spans) - SPANS_SHOWN} more")


def abstraction_json(name: str, result: Abstraction, seed: int) -> dict[str, Any]:
    stats = result.stats
    data: dict[str, Any] = {
        "file": name,
        "algorithm": "ddset",
        "pattern": result.pattern,
        "reduced": result.reduced,
        "tests": stats.tests,
        "instances": list(result.instances),
        "elapsed_s": round(stats.elapsed_s, 6),
        "budget_exhausted": stats.budget_exhausted,
        "seed": seed,
        "notes": list(result.notes),
    }
    if result.verification is not None:
        failing, total, unresolved = result.verification
        data["verify"] = {"failing": failing, "resolved": total, "unresolved": unresolved}
    return data


def print_abstraction(name: str, result: Abstraction, seed: int) -> None:
    stats = result.stats
    stopped = f" (stopped early: {stats.stop_reason})" if stats.budget_exhausted else ""
    print(f"{name}: abstract failure-inducing input (DDSET, seed {seed}):")
    print(f"  {result.pattern.strip()}")
    print(f"reduced input: {snippet(result.reduced.strip(), 200)}")
    print(f"{stats.tests} predicate runs in {stats.elapsed_s:.2f}s{stopped}")
    for note in result.notes:
        print(f"note: {note}")
    if result.instances:
        print("more inputs from the pattern:")
        for instance in result.instances:
            print(f"  {snippet(instance.strip(), 200)}")
    if result.verification is not None:
        failing, total, unresolved = result.verification
        print(
            f"verify: {failing} of {total} produced inputs fail"
            + (f" ({unresolved} unresolved)" if unresolved else "")
        )
