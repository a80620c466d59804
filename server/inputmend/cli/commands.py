"""The subcommands: settings and oracle for each file, the service call,
the output (:mod:`~inputmend.cli.render`) and the writes (:mod:`~inputmend.cli.files`).

``check_one`` and ``repair_one`` are the per-file jobs of a batch: top-level
functions that never raise, so that they can run in worker processes and one
bad file never stops the others.  ``-`` names standard input (alone, and run
in this process); ``-o -`` writes the best repair to standard output and the
report to standard error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from inputmend.cli import batch, github, gitlab, render, sarif
from inputmend.cli.errors import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    USER_ERRORS,
    InputError,
    UsageError,
)
from inputmend.cli.files import (
    InputFile,
    expand,
    read_input,
    write_in_place,
    write_output,
)
from inputmend.config import defaults
from inputmend.config.discovery import FileSettings, settings_for
from inputmend.config.schema import OracleSpec
from inputmend.config.trust import Trust
from inputmend.core.budget import Budget
from inputmend.core.loss import LossLimit, significant
from inputmend.core.oracle import Oracle
from inputmend.core.render import distinct
from inputmend.core.text import DecodeError, decode, encoding_name, looks_binary, printable
from inputmend.grammar import registry
from inputmend.oracles.factory import (
    build_oracle,
    build_predicate,
    grammar_only_note,
    load_grammar,
)
from inputmend.oracles.watchdog import Overrun, cpu_limit, overrun_message, run_limit

STDIN = "-"
"""The file name that means standard input (and, for ``-o``, standard output)."""
STDIN_NAME = "<stdin>"


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


def _settings(path: str, args: argparse.Namespace) -> FileSettings:
    """The file's settings; a configuration file that would run programs is
    obeyed only by the rule of :mod:`inputmend.config.trust`."""
    return settings_for(Path(path), _flags(args), trust=command_line_trust(args))


def command_line_trust(args: argparse.Namespace) -> Trust:
    """The trust of this command line: the folders it names."""
    return Trust.command_line(args.files if hasattr(args, "files") else [args.file])


def warn(warning: str | None, shown: set[str]) -> None:
    """Print a warning on stderr, once."""
    if warning and warning not in shown:
        shown.add(warning)
        print(f"inputmend: warning: {printable(warning)}", file=sys.stderr)


def _check_encoding(args: argparse.Namespace) -> None:
    if args.encoding != "auto":
        try:
            encoding_name(args.encoding)
        except DecodeError as error:
            raise UsageError(f"--encoding: {error}") from None


def _read(path: str, encoding: str) -> InputFile:
    """The file, or standard input for ``-``."""
    if path != STDIN:
        return read_input(path, encoding=encoding)
    try:
        decoded = decode(sys.stdin.buffer.read(), encoding=encoding)
    except DecodeError as error:
        raise InputError(f"{STDIN_NAME}: {error}") from None
    return InputFile(Path(STDIN), decoded.text, decoded.encoding)


def _display_name(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def _load(path: str, args: argparse.Namespace) -> tuple[InputFile, FileSettings, Oracle]:
    source = _read(path, args.encoding)
    if looks_binary(source.text):
        raise InputError(f"{_display_name(path)}: looks like binary data, not a text format")
    settings = _settings(path, args)
    oracle = build_oracle(settings.spec, suffix=Path(path).suffix, encoding=source.encoding)
    note = grammar_only_note(settings.spec)
    if note is not None:
        settings = replace(settings, warning="; ".join(filter(None, (settings.warning, note))))
    return source, settings, oracle


def _budget(args: argparse.Namespace, settings: FileSettings) -> Budget:
    timeout = args.timeout if args.timeout is not None else settings.limits.timeout_s
    max_tests = args.max_tests if args.max_tests is not None else settings.limits.max_tests
    if max_tests is not None and max_tests <= 0:
        raise UsageError("--max-tests must be positive")
    return Budget(timeout_s=timeout, max_tests=max_tests)


def _loss(args: argparse.Namespace, settings: FileSettings) -> tuple[LossLimit, bool]:
    """The loss limit, and whether a lossy repair may be written anyway."""
    limit = settings.limits.max_loss
    if args.max_loss is not None:
        try:
            limit = LossLimit.parse(args.max_loss)
        except ValueError as error:
            raise UsageError(f"--max-loss: {error}") from None
    return limit, args.allow_loss or settings.limits.allow_loss


def _jobs(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs <= 0:
        raise UsageError("--jobs must be positive")
    return args.jobs or os.cpu_count() or 1


def _files(args: argparse.Namespace) -> list[str]:
    _check_encoding(args)
    if STDIN in args.files:
        if len(args.files) > 1:
            raise UsageError("- (standard input) cannot be combined with other files")
        if getattr(args, "in_place", False):
            raise UsageError("--in-place cannot rewrite standard input; use -o OUT or -o -")
        return [STDIN]
    explicit = any(x is not None for x in (args.grammar, args.command, args.python))
    files = expand(args.files, every_file=explicit)
    if not files:
        raise UsageError("no files to process (folders contain no file with a known format)")
    return files


class Report:
    """The records of a run in the ``--output-format`` chosen: ``text`` (the
    caller prints it), ``json`` (a line per file), ``github`` (workflow
    commands per file), ``sarif`` or ``gitlab`` (one report at the end).
    Summaries go to standard error where the standard output is for machines."""

    def __init__(self, output_format: str, stream: TextIO, files: list[str]) -> None:
        self.format = output_format
        self.stream = stream
        self.files = [_display_name(name) for name in files]
        self.kept: list[dict[str, Any]] = []

    @property
    def text(self) -> bool:
        return self.format == "text"

    @property
    def summary_stream(self) -> TextIO:
        return sys.stderr if self.format in ("json", "sarif", "gitlab") else self.stream

    def add(self, record: dict[str, Any]) -> None:
        """Write (or keep, for SARIF) one file's record in a machine format."""
        if self.format == "json":
            render.print_json(render.public(record), stream=self.stream)
        elif self.format == "github":
            for line in github.workflow_commands(record):
                print(line, file=self.stream)
        elif self.format in ("sarif", "gitlab"):
            self.kept.append(record)

    def problem(self, record: dict[str, Any]) -> bool:
        """Say that a file could not be processed; whether it was such a record."""
        if "problem" not in record:
            return False
        print(f"inputmend: error: {printable(record['problem'])}", file=sys.stderr)
        self.add(record)
        return True

    def close(self) -> None:
        """Write the report of the whole run (SARIF, GitLab), its files in the
        order given, whatever order the worker processes finished in, so that
        a run's report is the same on any machine."""
        rank = {name: index for index, name in enumerate(self.files)}
        kept = sorted(self.kept, key=lambda r: (rank.get(r["file"], len(rank)), r["file"]))
        if self.format == "sarif":
            render.print_json(sarif.log(kept), stream=self.stream)
        elif self.format == "gitlab":
            print(json.dumps(gitlab.report(kept), ensure_ascii=True, indent=1), file=self.stream)


# ------------------------------------------------------------------ check
def check_one(path: str, args: argparse.Namespace) -> dict[str, Any]:
    """Check one file; never raises."""
    try:
        source, settings, oracle = _load(path, args)
    except USER_ERRORS as error:
        return render.problem(path, error)
    try:
        feedback = oracle.check(source.text)
    finally:
        oracle.close()
    return {
        **render.check_record(source, _display_name(path), feedback),
        "_warning": settings.warning,
    }


def cmd_check(args: argparse.Namespace) -> int:
    files = _files(args)
    progress = batch.ProgressBar(len(files), "checking")
    counts = {"valid": 0, "invalid": 0, "problem": 0}
    warned: set[str] = set()
    report = Report(args.output_format, sys.stdout, files)
    for record in batch.run(check_one, files, args, jobs=_jobs(args), progress=progress):
        progress.clear()
        warn(record.get("_warning"), warned)
        if report.problem(record):
            counts["problem"] += 1
            continue
        counts["valid" if record["valid"] else "invalid"] += 1
        if not report.text:
            report.add(record)
        elif record["valid"]:
            print(f"{printable(record['file'])}: valid")
        else:
            print(record["_line"])
    progress.clear()
    report.close()
    if len(files) > 1 and report.format != "json":
        print(
            f"{len(files)} files: {counts['valid']} valid, {counts['invalid']} invalid"
            + (f", {counts['problem']} not checked" if counts["problem"] else ""),
            file=report.summary_stream,
        )
    if counts["problem"]:
        return EXIT_USAGE
    return EXIT_INVALID if counts["invalid"] else EXIT_OK


# ----------------------------------------------------------------- repair
def repair_one(path: str, args: argparse.Namespace) -> dict[str, Any]:
    """Repair one file (writing only when asked); never raises."""
    from inputmend import services  # the repair algorithms: not loaded by `check`

    started = time.monotonic()
    try:
        source, settings, oracle = _load(path, args)
        budget = _budget(args, settings)
        limit, allow_loss = _loss(args, settings)
    except USER_ERRORS as error:
        return render.problem(_display_name(path), error)
    seconds = run_limit(budget.timeout_s, settings.spec.test_timeout_s)
    try:
        with cpu_limit(seconds):
            checked = time.monotonic()
            initial = oracle.check(source.text)
            result = services.repair(
                source.text,
                oracle,
                algorithm=args.algorithm,
                budget=budget,
                top=defaults.CANDIDATES_PER_REPAIR * args.top,
                max_loss=limit,
                spent_s=time.monotonic() - checked,
                encoding=source.encoding,
            )
            lexer = services.lexer_of(oracle)
    except Overrun as overrun:
        message = f"{path}: {overrun_message(overrun)}"
        return render.problem(_display_name(path), UsageError(message))
    finally:
        oracle.close()
    repairs = distinct(source.text, result.repairs, lexer)[: args.top]
    # the best repair is written only when it is not lossy, or that is allowed
    best = repairs[0] if repairs and (allow_loss or not repairs[0].lossy) else None
    written = None
    try:
        if best is None:
            if args.in_place or args.output not in (None, STDIN):
                why = (
                    "the file is already valid"
                    if result.input_valid
                    else "the best repair is lossy"
                    if repairs
                    else "no repair was found"
                )
                written = f"nothing written: {why}"
        elif args.in_place:
            written = write_in_place(source, best.text, force=args.force)
        elif args.output == STDIN:
            sys.stdout.buffer.write(source.encode(best.text))
            sys.stdout.flush()
        elif args.output:
            written = write_output(source, best.text, Path(args.output), force=args.force)
    except (OSError, InputError) as error:
        return render.problem(_display_name(path), error)
    name = _display_name(path)
    record = render.repair_record(name, source, initial, result, repairs, written, lexer)
    if repairs and best is None:
        record["notes"].append(
            f"not repaired (lossy): the best repair loses {repairs[0].data_lost} of the input's "
            f"{significant(source.text)} non-whitespace characters (the limit is "
            f"{limit.describe()}); --allow-loss writes it anyway"
        )
        record["_lossy"] = True
    record["total_s"] = round(time.monotonic() - started, 6)
    return {**record, "_warning": settings.warning}


def cmd_repair(args: argparse.Namespace) -> int:
    if args.top <= 0:
        raise UsageError("--top must be positive")
    files = _files(args)
    if args.output and len(files) > 1:
        raise UsageError("-o takes one input file; use --in-place for several")
    detailed = len(files) == 1
    # with -o -, standard output carries the repaired text only
    report = Report(args.output_format, sys.stderr if args.output == STDIN else sys.stdout, files)
    progress = batch.ProgressBar(len(files), "repairing")
    outcome: dict[str, list[str]] = {
        "repaired": [],
        "valid": [],
        "failed": [],
        "lossy": [],
        "problem": [],
    }
    reasons: dict[str, str] = {}
    warned: set[str] = set()
    for record in batch.run(repair_one, files, args, jobs=_jobs(args), progress=progress):
        progress.clear()
        warn(record.get("_warning"), warned)
        path = record["file"]
        if report.problem(record):
            outcome["problem"].append(path)
            reasons[path] = record["problem"]
            continue
        if record["valid"]:
            outcome["valid"].append(path)
        elif record.get("_lossy"):
            outcome["lossy"].append(path)
            reasons[path] = record["notes"][-1]
        elif record["repairs"]:
            outcome["repaired"].append(path)
        else:
            outcome["failed"].append(path)
            reasons[path] = "; ".join(record["notes"]) or "no repair found"
            if record["budget_exhausted"]:
                reasons[path] += f" ({record['_stop']})"
        if not report.text:
            report.add(record)
        else:
            if not detailed:
                print(f"\n== {path}")
            render.print_repair(record, detailed=detailed, stream=report.stream)
    progress.clear()
    report.close()
    if not detailed:
        summary = (
            f"{len(files)} files: {len(outcome['repaired'])} repaired, "
            f"{len(outcome['valid'])} already valid, {len(outcome['failed'])} not repaired"
            + (f", {len(outcome['lossy'])} not repaired (lossy)" if outcome["lossy"] else "")
            + (f", {len(outcome['problem'])} not processed" if outcome["problem"] else "")
        )
        stream = report.summary_stream
        print(("\n" if report.text else "") + summary, file=stream)
        for path in outcome["failed"] + outcome["lossy"] + outcome["problem"]:
            print(f"  {path}: {reasons[path]}", file=stream)
    if outcome["problem"]:
        return EXIT_USAGE
    return EXIT_INVALID if outcome["failed"] or outcome["lossy"] else EXIT_OK


# ---------------------------------------------------------------- explain
def cmd_ddset(args: argparse.Namespace) -> int:
    from inputmend import services

    source = _read(args.file, args.encoding)
    if args.instances < 0 or args.verify < 0:
        raise UsageError("--instances and --verify must not be negative")
    settings = _settings(args.file, args)
    warn(settings.warning, set())
    spec = settings.spec
    if spec.grammar is None:
        info = registry.for_path(args.file)
        if info is not None:
            spec = replace(spec, grammar=info.name)
    grammar = load_grammar(spec)
    try:
        predicate = build_predicate(
            spec,
            original=source.text,
            fail_pattern=args.fail_pattern,
            suffix=source.path.suffix,
            encoding=source.encoding,
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        result = services.abstract(
            source.text,
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
    name = _display_name(args.file)
    if args.json:
        render.print_json(render.abstraction_json(name, result, args.seed))
    else:
        render.print_abstraction(name, result, args.seed)
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    from inputmend import services

    _check_encoding(args)
    if args.algorithm == "ddset":
        return cmd_ddset(args)
    source, settings, oracle = _load(args.file, args)
    warn(settings.warning, set())
    budget = _budget(args, settings)
    seconds = run_limit(budget.timeout_s, settings.spec.test_timeout_s)
    try:
        with cpu_limit(seconds):
            initial = oracle.check(source.text)
            diagnosis = None
            if not initial.valid:
                diagnosis = services.explain(
                    source.text, oracle, algorithm=args.algorithm, budget=budget, unit=args.unit
                )
    except Overrun as overrun:
        raise UsageError(f"{args.file}: {overrun_message(overrun)}") from None
    finally:
        oracle.close()
    name = _display_name(args.file)
    if args.json:
        render.print_json(render.explain_json(name, source, initial, diagnosis))
    else:
        render.print_explanation(name, source, initial, diagnosis)
    return EXIT_OK


# ------------------------------------------------------------------ other
def cmd_grammars(args: argparse.Namespace) -> int:
    del args
    for info in registry.bundled().values():
        names = f" and {' '.join(info.files)}" if info.files else ""
        print(f"{info.name:8} {info.title}  [{' '.join(info.extensions)}{names}]")
    return EXIT_OK


def cmd_lsp(args: argparse.Namespace) -> int:
    from inputmend.lsp.app import TokenError, serve

    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        raise UsageError("--tcp takes a port number from 0 (any free port) to 65535")
    try:
        return serve(tcp_port=args.tcp)
    except TokenError as error:
        raise UsageError(str(error)) from None
