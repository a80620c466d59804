"""What the command line prints: error lines, JSON records, repairs with
bounded unified diffs, failure-inducing spans and DDSET patterns.

A per-file job returns a *record*: the JSON object ``--json`` prints, plus
private keys (starting with ``_``) that only the text output needs.  The
diffs are built in the job from the edits (hunks around them, long lines
cut around the change), so a repair of a 5 MB file prints as fast as one of
a small file and the time reported includes building them.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, Literal, TextIO

from inputmend.cli.files import InputFile
from inputmend.core.conflicts import conflict_message
from inputmend.core.model import Abstraction, Diagnosis, Edit, Repair, RepairResult, apply_edits
from inputmend.core.oracle import Feedback, error_span
from inputmend.core.render import Lexer, describe_repair
from inputmend.core.text import (
    UNDECODABLE,
    UNDECODABLE_MESSAGE,
    UTF8,
    Encoding,
    LineIndex,
    escape_undecodable,
    printable,
    snippet,
    undecodable_message,
)

SPANS_SHOWN = 50
CONTEXT_LINES = 3
"""Unchanged lines shown around each change of a diff."""
WHOLE_HUNK_LINES = 2000
"""Lines of a hunk (before and after) up to which difflib compares it whole;
a longer one (thousands of changes in a row) is compared edit by edit."""
LINE_SHOWN = 160
"""Characters of a long line a diff shows (around the change)."""
_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def error_message(text: str, feedback: Feedback, encoding: Encoding = UTF8) -> str:
    """What is wrong with ``text``, in words (a merge conflict by name; an
    undecodable character as what it was in the file, read in ``encoding``)."""
    offset = feedback.error_offset
    message = conflict_message(text, offset) or feedback.message
    undecodable = offset is not None and UNDECODABLE.fullmatch(text[offset : offset + 1])
    if message == UNDECODABLE_MESSAGE and offset is not None and undecodable:
        message = undecodable_message(text, offset, encoding)
    return message or f"{feedback.verdict.value} input"


def error_line(name: str, text: str, feedback: Feedback, encoding: Encoding = UTF8) -> str:
    """``FILE:LINE:COLUMN: error: MESSAGE`` (without a position when unknown)."""
    offset = feedback.error_offset
    prefix = f"{name}:{LineIndex(text).human(offset)}:" if offset is not None else f"{name}:"
    return printable(f"{prefix} error: {error_message(text, feedback, encoding)}")


def region(index: LineIndex, start: int, end: int) -> dict[str, int]:
    """The characters ``[start, end)`` of the text of ``index``: their offset
    and length, and 1-based line and column of the start and of the end (the
    end column is the one just after the last character, as SARIF counts)."""
    line, column = index.position(start)
    end_line, end_column = index.position(end)
    return {
        "offset": start,
        "length": end - start,
        "line": line + 1,
        "column": column + 1,
        "end_line": end_line + 1,
        "end_column": end_column + 1,
    }


def finding(index: LineIndex, feedback: Feedback) -> dict[str, Any] | None:
    """An invalid input's problem for the CI formats: its kind (the verdict),
    message, and the region to mark (:func:`~inputmend.core.oracle.error_span`;
    none when the oracle does not say where)."""
    if feedback.valid:
        return None
    span = error_span(index.text, feedback)
    return {
        "rule": feedback.verdict.value,
        "message": error_message(index.text, feedback),
        "region": None if feedback.error_offset is None else region(index, span.start, span.end),
    }


def error_json(text: str, feedback: Feedback) -> dict[str, Any] | None:
    if feedback.valid:
        return None
    result: dict[str, Any] = {"verdict": feedback.verdict.value, "message": feedback.message}
    if feedback.error_offset is not None:
        line, column = LineIndex(text).position(feedback.error_offset)
        result.update(offset=feedback.error_offset, line=line + 1, column=column + 1)
    return result


def print_json(data: dict[str, Any], stream: TextIO | None = None) -> None:
    print(json.dumps(data, ensure_ascii=True), file=stream or sys.stdout)


def public(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its private keys: what ``--json`` prints."""
    return {key: value for key, value in record.items() if not key.startswith("_")}


def problem(path: str, error: Exception) -> dict[str, Any]:
    """The record of a file that could not be processed."""
    return {"file": path, "problem": str(error)}


def _edits_json(edits: Iterable[Edit]) -> list[dict[str, Any]]:
    return [edit.to_json() for edit in edits]


def check_record(source: InputFile, name: str, feedback: Feedback) -> dict[str, Any]:
    return {
        "file": name,
        "valid": feedback.valid,
        "error": error_json(source.text, feedback),
        "encoding": source.encoding.to_json(),
        "_line": error_line(name, source.text, feedback, source.encoding),
        "_finding": None if feedback.valid else finding(LineIndex(source.text), feedback),
    }


def repair_record(
    name: str,
    source: InputFile,
    initial: Feedback,
    result: RepairResult,
    repairs: Sequence[Repair],
    written: str | None,
    lexer: Lexer | None,
) -> dict[str, Any]:
    """The record of a repaired file; ``repairs`` are the ones to show (the
    result's, equivalent ones merged), each with its title and diff."""
    partial = result.partial
    text = source.text
    index = LineIndex(text)
    where = index.human
    return {
        "file": name,
        "valid": result.input_valid,
        "error": error_json(text, initial),
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
                "summary": describe_repair(
                    text, repair.edits, lexer=lexer, where=where, repaired=repair.text
                ),
            }
            for repair in repairs
        ],
        "tests": result.stats.tests,
        "elapsed_s": round(result.stats.elapsed_s, 6),
        "budget_exhausted": result.stats.budget_exhausted,
        "stop_reason": result.stats.stop_reason,
        "time_capped": result.stats.time_capped,
        "notes": list(result.notes),
        "written": written,
        "partial": None
        if partial is None
        else {"text": partial.text, "edits": _edits_json(partial.edits), "complete": False},
        "_line": error_line(name, text, initial, source.encoding),
        "_finding": finding(index, initial),
        "_regions": [[region(index, e.offset, e.end) for e in r.edits] for r in repairs],
        "_stop": result.stats.stop_reason,
        "_where": [where(r.edits[0].offset) if r.edits else "" for r in repairs],
        "_diffs": [
            bounded_diff(name, index, r.edits, f"repair {rank}", source.encoding)
            for rank, r in enumerate(repairs, 1)
        ],
        "_partial": None
        if partial is None
        else (
            describe_repair(text, partial.edits, lexer=lexer, where=where),
            bounded_diff(name, index, partial.edits, "partial repair", source.encoding),
        ),
    }


def _hunks(index: LineIndex, edits: Sequence[Edit]) -> list[tuple[int, int, list[Edit]]]:
    """Line ranges (first, last) of the original with the edits in them and
    more than the context lines around them (difflib, run on each range,
    decides the hunks inside it), overlapping ranges merged."""
    last_line = len(index.starts) - 1
    margin = CONTEXT_LINES + 1
    hunks: list[tuple[int, int, list[Edit]]] = []
    for edit in sorted(edits, key=lambda e: (e.offset, e.delete)):
        first, last = index.position(edit.offset)[0], index.position(edit.end)[0]
        low, high = max(0, first - margin), min(last_line, last + margin)
        if hunks and low <= hunks[-1][1] + 1:
            previous = hunks.pop()
            hunks.append((previous[0], max(previous[1], high), [*previous[2], edit]))
        else:
            hunks.append((low, high, [edit]))
    return hunks


def _cut(line: str, focus: int) -> str:
    """A long line cut to :data:`LINE_SHOWN` characters around ``focus``."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if len(body) <= LINE_SHOWN:
        return line
    start = max(0, min(focus - LINE_SHOWN // 2, len(body) - LINE_SHOWN))
    cut = body[start : start + LINE_SHOWN]
    return ("…" if start else "") + cut + ("…" if start + LINE_SHOWN < len(body) else "") + ending


def bounded_diff(
    name: str, index: LineIndex, edits: Sequence[Edit], label: str, encoding: Encoding = UTF8
) -> str:
    """A unified diff of the text of ``index`` and that text with ``edits``
    applied, built from the edits: only the lines around them are compared,
    and lines longer than :data:`LINE_SHOWN` are cut around the change.  A
    missing final newline is marked as ``diff`` does."""
    before = index.text
    out = [f"--- {name}\n", f"+++ {name} ({label})\n"]
    shift = 0  # lines the earlier hunks added
    for low, high, hunk_edits in _hunks(index, edits):
        start, end = index.starts[low], index.line_span(high)[1]
        old = before[start:end]
        new = apply_edits(old, [Edit(e.offset - start, e.delete, e.insert) for e in hunk_edits])
        old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
        focus = hunk_edits[0].offset - index.starts[index.position(hunk_edits[0].offset)[0]]
        if len(old_lines) + len(new_lines) <= WHOLE_HUNK_LINES:
            lines = list(difflib.unified_diff(old_lines, new_lines, n=CONTEXT_LINES))[2:]
        else:
            local = [Edit(e.offset - start, e.delete, e.insert) for e in hunk_edits]
            lines = _unified(old_lines, new_lines, _line_opcodes(old_lines, local))
        for line in lines:
            header = _HUNK.match(line)
            if header is not None:
                old_start = int(header[1]) + low
                new_start = int(header[3]) + low + shift
                line = f"@@ -{old_start}{header[2] or ''} +{new_start}{header[4] or ''} @@\n"
            else:
                line = line[0] + _cut(line[1:], focus)
            line = escape_undecodable(line, encoding)  # an undecodable byte shows as \xe9
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        shift += len(new_lines) - len(old_lines)
    return "".join(out)


Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
"""difflib's (tag, old start, old end, new start, new end), over lines."""


class _KnownOpcodes(difflib.SequenceMatcher):  # type: ignore[type-arg]
    """A matcher whose opcodes are known already (grouping them is difflib's)."""

    def __init__(self, opcodes: list[Opcode]) -> None:
        super().__init__(None, [], [])
        self._known = opcodes

    def get_opcodes(self) -> list[Opcode]:
        return self._known


def _line_opcodes(old_lines: list[str], edits: list[Edit]) -> list[Opcode]:
    """The line opcodes of ``old_lines`` and their text with ``edits`` applied,
    each stretch of lines the edits touch compared on its own: linear in the
    lines, where difflib comparing the whole of a hunk with thousands of
    changes (3,000 merge conflicts in a row) took 20 s."""
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    size = starts[-1]
    complete = not old_lines or old_lines[-1].endswith(("\n", "\r"))

    def line_of(offset: int) -> int:
        if offset == size and not complete:
            return len(old_lines) - 1  # appended to the last line
        return bisect.bisect_right(starts, offset) - 1

    spans: list[tuple[int, int, list[Edit]]] = []
    for edit in sorted(edits, key=lambda e: (e.offset, e.delete)):
        first = line_of(edit.offset)
        last = line_of(max(edit.end - 1, edit.offset)) + 1 if first < len(old_lines) else first
        if spans and first < spans[-1][1]:
            low, high, group = spans.pop()
            spans.append((low, max(high, last), [*group, edit]))
        else:
            spans.append((first, last, [edit]))
    opcodes: list[Opcode] = []
    at_old = at_new = 0
    for low, high, group in spans:
        if low > at_old:
            opcodes.append(("equal", at_old, low, at_new, at_new + low - at_old))
            at_new += low - at_old
        shifted = [Edit(e.offset - starts[low], e.delete, e.insert) for e in group]
        changed = apply_edits("".join(old_lines[low:high]), shifted)
        while high < len(old_lines) and not changed.endswith(("\n", "\r")):
            changed += old_lines[high]  # a line break deleted: the next line joins
            high += 1
        ours, theirs = old_lines[low:high], changed.splitlines(keepends=True)
        matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            opcodes.append((tag, low + i1, low + i2, at_new + j1, at_new + j2))
        at_old, at_new = high, at_new + len(theirs)
    if at_old < len(old_lines):
        opcodes.append(("equal", at_old, len(old_lines), at_new, at_new + len(old_lines) - at_old))
    return opcodes


def _unified(old_lines: list[str], new_lines: list[str], opcodes: list[Opcode]) -> list[str]:
    """The hunks of a unified diff (as difflib writes them, without the
    file headers) of the lines ``opcodes`` describe."""

    def span(start: int, stop: int) -> str:
        length = stop - start
        if length == 1:
            return str(start + 1)
        return f"{start if not length else start + 1},{length}"

    out: list[str] = []
    for group in _KnownOpcodes(opcodes).get_grouped_opcodes(CONTEXT_LINES):
        first, last = group[0], group[-1]
        out.append(f"@@ -{span(first[1], last[2])} +{span(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in old_lines[i1:i2]]
                continue
            out += ["-" + line for line in old_lines[i1:i2]]
            out += ["+" + line for line in new_lines[j1:j2]]
    return out


def print_repair(record: dict[str, Any], *, detailed: bool, stream: TextIO | None = None) -> None:
    """The diagnosis and the ranked repairs (all when ``detailed``, else the best)."""
    stream = stream or sys.stdout
    path = record["file"]
    if record["valid"]:
        print(f"{path}: valid; nothing to repair", file=stream)
        if record["written"]:
            print(record["written"], file=stream)
        return
    print(record["_line"], file=stream)
    repairs = record["repairs"]
    budget_note = f" (stopped early: {record['_stop']})" if record["budget_exhausted"] else ""
    print(
        f"{len(repairs)} repair(s) from {record['tests']} oracle runs "
        f"in {record['elapsed_s']:.2f}s{budget_note}",
        file=stream,
    )
    for note in record["notes"]:
        print(f"note: {note}", file=stream)
    shown = repairs if detailed else repairs[:1]
    for rank, (repair, where, diff) in enumerate(
        zip(shown, record["_where"], record["_diffs"], strict=False), 1
    ):
        lossy = ", lossy" if repair["lossy"] else ""
        print(
            f"\nRepair {rank} ({repair['algorithm']}, distance {repair['distance']}{lossy}, "
            f"at {where}): {repair['summary']}",
            file=stream,
        )
        stream.write(diff)
    partial = record["_partial"]
    if not repairs and partial is not None and detailed:
        print(f"\nPartial repair (incomplete, not valid): {partial[0]}", file=stream)
        stream.write(partial[1])
    if record["written"]:
        print(f"\n{record['written']}", file=stream)
    if "total_s" in record:
        print(f"total time {record['total_s']:.2f}s", file=stream)


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
        "stop_reason": diagnosis.stats.stop_reason if diagnosis else None,
        "time_capped": diagnosis.stats.time_capped if diagnosis else False,
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
    print(error_line(name, text, initial, source.encoding))
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
        "stop_reason": stats.stop_reason,
        "time_capped": stats.time_capped,
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
