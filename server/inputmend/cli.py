"""Command-line interface: argument parsing and output formatting only."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inputmend import __version__, api, batch, grammars
from inputmend.config import FileSettings, OracleSpec, settings_for
from inputmend.oracles import build_oracle
from inputmend.oracles.base import Feedback, Oracle, OracleConfigError
from inputmend.oracles.grammar import CompiledGrammar
from inputmend.oracles.predicates import CommandPredicate, PythonPredicate
from inputmend.oracles.wrappers import Budget
from inputmend.results import Diagnosis, Edit, Repair, RepairResult
from inputmend.text import Document, InputError, LineIndex, looks_binary, read_document, snippet

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A one-line error for the user; exit code 2."""


def _oracle_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("oracle (default: .inputmend.toml, else by file extension)")
    group.add_argument("--grammar", metavar="NAME|PATH.lark", help="bundled grammar or .lark file")
    group.add_argument(
        "--command",
        metavar='"PROG ARGS"',
        help="program that validates the input (stdin, or {file} for a temporary file)",
    )
    group.add_argument("--python", metavar="MOD:FUNC", help="function that raises on bad input")
    group.add_argument(
        "--incomplete-exit",
        type=int,
        default=255,
        metavar="N",
        help="exit code meaning 'incomplete input' (default 255)",
    )
    group.add_argument(
        "--incomplete-pattern", metavar="REGEX", help="output that marks an input as incomplete"
    )
    group.add_argument(
        "--test-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds per program run (default 10)",
    )
    return parent


def _budget_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, metavar="S", help="time budget (default 30s)")
    parser.add_argument("--max-tests", type=int, metavar="N", help="budget of oracle runs")


def _jobs_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="files processed in parallel (default: all cores)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inputmend",
        description="Find what makes an input invalid, and repair it.",
    )
    parser.add_argument("--version", action="version", version=f"inputmend {__version__}")
    commands = parser.add_subparsers(dest="subcommand", metavar="COMMAND", required=True)
    oracle = _oracle_options()

    check = commands.add_parser(
        "check", parents=[oracle], help="validate files (exit 0 valid, 1 invalid, 2 error)"
    )
    check.add_argument("files", nargs="+", metavar="FILE|FOLDER")
    check.add_argument("--json", action="store_true", help="one JSON object per file")
    _jobs_option(check)

    repair = commands.add_parser("repair", parents=[oracle], help="print ranked repairs")
    repair.add_argument("files", nargs="+", metavar="FILE|FOLDER")
    repair.add_argument("--algorithm", choices=api.REPAIR_ALGORITHMS, default="auto")
    repair.add_argument("--top", type=int, default=5, metavar="N", help="repairs to show")
    _budget_options(repair)
    out = repair.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="OUT", help="write the best repair to OUT")
    out.add_argument(
        "--in-place", action="store_true", help="write the best repair to FILE (keeps FILE.orig)"
    )
    repair.add_argument("--json", action="store_true", help="one JSON object per file")
    _jobs_option(repair)

    explain = commands.add_parser(
        "explain", parents=[oracle], help="show the failure-inducing parts of a file"
    )
    explain.add_argument("file", metavar="FILE")
    explain.add_argument("--algorithm", choices=(*api.EXPLAIN_ALGORITHMS, "ddset"), default="ddmax")
    explain.add_argument(
        "--unit", choices=("char", "line"), default="char", help="element granularity"
    )
    ddset_group = explain.add_argument_group(
        "ddset (the document parses, the program under test --command/--python fails on it)"
    )
    ddset_group.add_argument(
        "--fail-pattern", metavar="REGEX", help="output (or exception message) of the failure"
    )
    ddset_group.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ddset_group.add_argument(
        "--instances", type=int, default=5, metavar="N", help="inputs to produce from the pattern"
    )
    ddset_group.add_argument(
        "--verify", type=int, default=0, metavar="K", help="produce K inputs, count the failing"
    )
    _budget_options(explain)
    explain.add_argument("--json", action="store_true", help="print one JSON object")

    commands.add_parser("grammars", help="list the bundled grammars")

    lsp = commands.add_parser("lsp", help="start the language server (stdio)")
    lsp.add_argument("--tcp", type=int, metavar="PORT", help="listen on a TCP port instead")
    lsp.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    return parser


def _flags(args: argparse.Namespace) -> OracleSpec:
    return OracleSpec(
        grammar=args.grammar,
        command=args.command,
        python=args.python,
        incomplete_exit=args.incomplete_exit,
        incomplete_pattern=args.incomplete_pattern,
        test_timeout_s=args.test_timeout,
        source="command line",
    )


def _load(path: str, args: argparse.Namespace) -> tuple[Document, FileSettings, Oracle]:
    document = read_document(path)
    if looks_binary(document.text):
        raise InputError(f"{path}: looks like binary data, not a text format")
    if args.test_timeout <= 0:
        raise UsageError("--test-timeout must be positive")
    settings = settings_for(Path(path), _flags(args))
    oracle = build_oracle(settings.spec, suffix=Path(path).suffix)
    return document, settings, oracle


def _budget(args: argparse.Namespace, settings: FileSettings) -> Budget:
    timeout = args.timeout if args.timeout is not None else settings.limits.timeout_s
    max_tests = args.max_tests if args.max_tests is not None else settings.limits.max_tests
    if timeout is not None and timeout <= 0:
        raise UsageError("--timeout must be positive")
    if max_tests is not None and max_tests <= 0:
        raise UsageError("--max-tests must be positive")
    return Budget(timeout_s=timeout, max_tests=max_tests)


def _error_line(name: str, text: str, feedback: Feedback) -> str:
    offset = feedback.error_offset if feedback.error_offset is not None else len(text)
    where = LineIndex(text).human(offset) if feedback.error_offset is not None else ""
    prefix = f"{name}:{where}:" if where else f"{name}:"
    return f"{prefix} error: {feedback.message or feedback.verdict.value + ' input'}"


def _error_json(text: str, feedback: Feedback) -> dict[str, Any] | None:
    if feedback.valid:
        return None
    result: dict[str, Any] = {"verdict": feedback.verdict.value, "message": feedback.message}
    if feedback.error_offset is not None:
        line, column = LineIndex(text).position(feedback.error_offset)
        result.update(offset=feedback.error_offset, line=line + 1, column=column + 1)
    return result


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=True))


def _problem(path: str, error: Exception) -> dict[str, Any]:
    return {"file": path, "problem": str(error)}


def check_one(path: str, args: argparse.Namespace) -> dict[str, Any]:
    """Check one file; never raises."""
    try:
        document, _, oracle = _load(path, args)
    except (InputError, OracleConfigError, UsageError) as error:
        return _problem(path, error)
    try:
        feedback = oracle.check(document.text)
    finally:
        oracle.close()
    return {
        "file": path,
        "valid": feedback.valid,
        "error": _error_json(document.text, feedback),
        "_line": _error_line(path, document.text, feedback),
    }


def _public(result: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if not key.startswith("_")}


def _jobs(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs <= 0:
        raise UsageError("--jobs must be positive")
    return args.jobs or os.cpu_count() or 1


def _files(args: argparse.Namespace) -> list[str]:
    explicit = any(x is not None for x in (args.grammar, args.command, args.python))
    files = batch.expand(args.files, every_file=explicit)
    if not files:
        raise UsageError("no files to process (folders contain no file with a known format)")
    return files


def cmd_check(args: argparse.Namespace) -> int:
    files = _files(args)
    progress = batch.Progress(len(files), "checking")
    counts = {"valid": 0, "invalid": 0, "problem": 0}
    for result in batch.run(check_one, files, args, jobs=_jobs(args), progress=progress):
        progress.clear()
        if "problem" in result:
            counts["problem"] += 1
            print(f"inputmend: error: {result['problem']}", file=sys.stderr)
            if args.json:
                _print_json(_public(result))
            continue
        counts["valid" if result["valid"] else "invalid"] += 1
        if args.json:
            _print_json(_public(result))
        elif result["valid"]:
            print(f"{result['file']}: valid")
        else:
            print(result["_line"])
    progress.clear()
    if len(files) > 1 and not args.json:
        print(
            f"{len(files)} files: {counts['valid']} valid, {counts['invalid']} invalid"
            + (f", {counts['problem']} not checked" if counts["problem"] else "")
        )
    if counts["problem"]:
        return EXIT_USAGE
    return EXIT_INVALID if counts["invalid"] else EXIT_OK


def _describe_edits(text: str, edits: Sequence[Edit]) -> str:
    index = LineIndex(text)
    parts = []
    for edit in edits[:3]:
        where = index.human(edit.offset)
        removed = text[edit.offset : edit.end]
        if edit.delete and edit.insert:
            parts.append(f"replace `{snippet(removed)}` by `{snippet(edit.insert)}` at {where}")
        elif edit.delete:
            parts.append(f"delete `{snippet(removed)}` at {where}")
        else:
            parts.append(f"insert `{snippet(edit.insert)}` at {where}")
    if len(edits) > 3:
        parts.append(f"and {len(edits) - 3} more edits")
    return "; ".join(parts)


def _diff(name: str, before: str, after: str, label: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=name,
        tofile=f"{name} ({label})",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _write_atomically(path: Path, data: bytes) -> None:
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _backup_path(path: Path) -> Path:
    candidate = path.with_name(path.name + ".orig")
    number = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.orig.{number}")
        number += 1
    return candidate


def _write_repair(
    args: argparse.Namespace, path: str, document: Document, repair: Repair
) -> str | None:
    data = document.encode(repair.text)
    source = Path(path)
    if args.in_place:
        backup = _backup_path(source)
        backup.write_bytes(document.encode())
        _write_atomically(source, data)
        return f"wrote {source} (original kept as {backup})"
    if args.output:
        target = Path(args.output)
        if target.exists() and target.resolve() == source.resolve():
            raise UsageError("-o names the input file; use --in-place to overwrite it")
        _write_atomically(target, data)
        return f"wrote {target}"
    return None


def _repair_record(
    path: str, document: Document, initial: Feedback, result: RepairResult, written: str | None
) -> dict[str, Any]:
    return {
        "file": path,
        "valid": result.input_valid,
        "error": _error_json(document.text, initial),
        "repairs": [
            {
                "text": repair.text,
                "edits": [edit.to_json() for edit in repair.edits],
                "distance": repair.distance,
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
        if result.partial is None
        else {
            "text": result.partial.text,
            "edits": [edit.to_json() for edit in result.partial.edits],
            "complete": False,
        },
    }


def repair_one(path: str, args: argparse.Namespace) -> dict[str, Any]:
    """Repair one file (writing only when asked); never raises."""
    try:
        document, settings, oracle = _load(path, args)
        budget = _budget(args, settings)
    except (InputError, OracleConfigError, UsageError) as error:
        return _problem(path, error)
    try:
        initial = oracle.check(document.text)
        result = api.repair(
            document.text, oracle, algorithm=args.algorithm, budget=budget, top=args.top
        )
    finally:
        oracle.close()
    written = None
    try:
        if result.repairs and (args.in_place or args.output):
            written = _write_repair(args, path, document, result.repairs[0])
    except (OSError, UsageError) as error:
        return _problem(path, error)
    record = _repair_record(path, document, initial, result, written)
    record["_text"] = document.text
    record["_line"] = _error_line(path, document.text, initial)
    record["_stop"] = result.stats.stop_reason
    return record


def _print_repair(record: dict[str, Any], *, detailed: bool) -> None:
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
    for rank, repair in enumerate(repairs if detailed else repairs[:1], 1):
        edits = [Edit(e["offset"], e["delete"], e["insert"]) for e in repair["edits"]]
        print(
            f"\nRepair {rank} ({repair['algorithm']}, distance {repair['distance']}): "
            f"{_describe_edits(text, edits)}"
        )
        sys.stdout.write(_diff(path, text, repair["text"], f"repair {rank}"))
    partial = record["partial"]
    if not repairs and partial is not None and detailed:
        edits = [Edit(e["offset"], e["delete"], e["insert"]) for e in partial["edits"]]
        print(f"\nPartial repair (incomplete, not valid): {_describe_edits(text, edits)}")
        sys.stdout.write(_diff(path, text, partial["text"], "partial repair"))
    if record["written"]:
        print(f"\n{record['written']}")


def cmd_repair(args: argparse.Namespace) -> int:
    if args.top <= 0:
        raise UsageError("--top must be positive")
    files = _files(args)
    if args.output and len(files) > 1:
        raise UsageError("-o takes one input file; use --in-place for several")
    detailed = len(files) == 1
    progress = batch.Progress(len(files), "repairing")
    outcome: dict[str, list[str]] = {"repaired": [], "valid": [], "failed": [], "problem": []}
    reasons: dict[str, str] = {}
    for record in batch.run(repair_one, files, args, jobs=_jobs(args), progress=progress):
        progress.clear()
        path = record["file"]
        if "problem" in record:
            outcome["problem"].append(path)
            reasons[path] = record["problem"]
            print(f"inputmend: error: {record['problem']}", file=sys.stderr)
            if args.json:
                _print_json(_public(record))
            continue
        if record["valid"]:
            outcome["valid"].append(path)
        elif record["repairs"]:
            outcome["repaired"].append(path)
        else:
            outcome["failed"].append(path)
            reasons[path] = "; ".join(record["notes"]) or "no repair found"
            if record["budget_exhausted"]:
                reasons[path] += f" ({record['_stop']})"
        if args.json:
            _print_json(_public(record))
        else:
            if not detailed:
                print(f"\n== {path}")
            _print_repair(record, detailed=detailed)
    progress.clear()
    if not detailed:
        summary = (
            f"{len(files)} files: {len(outcome['repaired'])} repaired, "
            f"{len(outcome['valid'])} already valid, {len(outcome['failed'])} not repaired"
            + (f", {len(outcome['problem'])} not processed" if outcome["problem"] else "")
        )
        stream = sys.stderr if args.json else sys.stdout
        print(("\n" if not args.json else "") + summary, file=stream)
        for path in outcome["failed"] + outcome["problem"]:
            print(f"  {path}: {reasons[path]}", file=stream)
    if outcome["problem"]:
        return EXIT_USAGE
    return EXIT_INVALID if outcome["failed"] else EXIT_OK


def _explain_json(
    path: str, document: Document, initial: Feedback, diagnosis: Diagnosis | None
) -> dict[str, Any]:
    index = LineIndex(document.text)
    spans = []
    if diagnosis is not None:
        for span in diagnosis.spans:
            line, column = index.position(span.start)
            spans.append(
                {
                    "start": span.start,
                    "end": span.end,
                    "text": document.text[span.start : span.end],
                    "line": line + 1,
                    "column": column + 1,
                }
            )
    return {
        "file": path,
        "valid": initial.valid,
        "error": _error_json(document.text, initial),
        "algorithm": diagnosis.algorithm if diagnosis else None,
        "spans": spans,
        "passing": diagnosis.passing if diagnosis else None,
        "failing": diagnosis.failing if diagnosis else None,
        "tests": diagnosis.stats.tests if diagnosis else 1,
        "elapsed_s": round(diagnosis.stats.elapsed_s, 6) if diagnosis else 0.0,
        "budget_exhausted": diagnosis.stats.budget_exhausted if diagnosis else False,
        "notes": list(diagnosis.notes) if diagnosis else [],
    }


def _predicate(
    args: argparse.Namespace, spec: OracleSpec, text: str, suffix: str
) -> CommandPredicate | PythonPredicate:
    command = args.command or spec.command
    python = args.python or spec.python
    if command is not None:
        return CommandPredicate(
            command,
            original=text,
            fail_pattern=args.fail_pattern,
            timeout_s=args.test_timeout,
            suffix=suffix,
            cwd=spec.base_dir,
        )
    if python is not None:
        return PythonPredicate(
            python,
            original=text,
            message_pattern=args.fail_pattern,
            timeout_s=args.test_timeout,
            base_dir=str(spec.base_dir) if spec.base_dir else None,
        )
    raise UsageError("ddset needs the program under test: --command or --python")


def cmd_ddset(args: argparse.Namespace) -> int:
    document = read_document(args.file)
    if args.instances < 0 or args.verify < 0:
        raise UsageError("--instances and --verify must not be negative")
    settings = settings_for(Path(args.file), _flags(args))
    grammar_name = args.grammar or settings.spec.grammar
    if grammar_name is None:
        info = grammars.for_extension(args.file)
        if info is None:
            raise UsageError("ddset needs a grammar: --grammar NAME|PATH.lark")
        grammar_name = info.name
    grammar = CompiledGrammar.load(grammar_name, base_dir=settings.spec.base_dir)
    try:
        predicate = _predicate(args, settings.spec, document.text, Path(args.file).suffix)
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        result = api.abstract(
            document.text,
            grammar,
            predicate,
            seed=args.seed,
            budget=_budget(args, settings),
            instances=args.instances,
            verify=args.verify,
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    finally:
        predicate.close()
    stats = result.stats
    if args.json:
        data: dict[str, Any] = {
            "file": args.file,
            "algorithm": "ddset",
            "pattern": result.pattern,
            "reduced": result.reduced,
            "tests": stats.tests,
            "instances": list(result.instances),
            "elapsed_s": round(stats.elapsed_s, 6),
            "budget_exhausted": stats.budget_exhausted,
            "seed": args.seed,
            "notes": list(result.notes),
        }
        if result.verification is not None:
            failing, total, unresolved = result.verification
            data["verify"] = {"failing": failing, "resolved": total, "unresolved": unresolved}
        _print_json(data)
        return EXIT_OK
    stopped = f" (stopped early: {stats.stop_reason})" if stats.budget_exhausted else ""
    print(f"{args.file}: abstract failure-inducing input (DDSET, seed {args.seed}):")
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
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    if args.algorithm == "ddset":
        return cmd_ddset(args)
    document, settings, oracle = _load(args.file, args)
    try:
        initial = oracle.check(document.text)
        diagnosis = None
        if not initial.valid:
            diagnosis = api.explain(
                document.text,
                oracle,
                algorithm=args.algorithm,
                budget=_budget(args, settings),
                unit=args.unit,
            )
    finally:
        oracle.close()
    if args.json:
        _print_json(_explain_json(args.file, document, initial, diagnosis))
        return EXIT_OK
    if diagnosis is None:
        print(f"{args.file}: valid; nothing to explain")
        return EXIT_OK
    text = document.text
    index = LineIndex(text)
    print(_error_line(args.file, text, initial))
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
    for span in diagnosis.spans[:50]:
        print(f"  {args.file}:{index.human(span.start)}: `{snippet(text[span.start : span.end])}`")
    if len(diagnosis.spans) > 50:
        print(f"  … and {len(diagnosis.spans) - 50} more")
    return EXIT_OK


def cmd_grammars(args: argparse.Namespace) -> int:
    del args
    for info in grammars.bundled().values():
        print(f"{info.name:8} {info.title}  [{' '.join(info.extensions)}]")
    return EXIT_OK


def cmd_lsp(args: argparse.Namespace) -> int:
    from inputmend.lsp.server import serve

    serve(tcp_port=args.tcp)
    return EXIT_OK


COMMANDS = {
    "check": cmd_check,
    "repair": cmd_repair,
    "explain": cmd_explain,
    "grammars": cmd_grammars,
    "lsp": cmd_lsp,
}


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.subcommand](args)
    except (InputError, OracleConfigError, UsageError) as error:
        print(f"inputmend: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("inputmend: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


__all__ = ["main"]
