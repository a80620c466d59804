"""Record mode on the command line: ``check``/``repair FILE|- --records lines|csv``.

The input is read as a stream and cut into partitions
(:mod:`inputmend.records.split`), judged by an engine (this process, a pool
of ``--jobs`` processes, or Dask) and written in input order: one line per
input line, repaired records in place of damaged ones.  What is reported:
one line per damaged record (text, or JSON with ``--json``) unless the
records are being written, the rejected records in ``--reject``, and a
summary on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from inputmend.cli.commands import _flags, _jobs, command_line_trust, warn
from inputmend.cli.errors import EXIT_INVALID, EXIT_OK, InputError, UsageError
from inputmend.cli.files import StreamedInput, same_file
from inputmend.cli.record_output import ListFile, Output, open_list, open_output
from inputmend.config import defaults
from inputmend.config.discovery import settings_for
from inputmend.config.schema import NoOracleError, OracleSpec
from inputmend.config.trust import Trust
from inputmend.core.loss import LossLimit
from inputmend.core.render import describe_repair
from inputmend.core.text import LineIndex
from inputmend.records import engines
from inputmend.records.model import (
    Counts,
    Format,
    PartitionResult,
    RecordResult,
    Rejection,
    Status,
)
from inputmend.records.process import HeaderError, RecordProcessor, RecordSettings, read_header
from inputmend.records.split import ByteStream, Oversized, Partitioner, StreamError


# ------------------------------------------------------------------- options
@dataclass(frozen=True)
class RecordRun:
    """One invocation's choices, checked."""

    fmt: Format
    check: bool
    settings: RecordSettings
    flags: OracleSpec
    trust: Trust
    jobs: int
    partition_bytes: int
    engine: str
    scheduler: str | None
    output: str | None
    in_place: bool
    force: bool
    reject: str | None
    json: bool


def _positive(value: int | None, flag: str) -> None:
    if value is not None and value <= 0:
        raise UsageError(f"{flag} must be positive")


def _run_options(args: argparse.Namespace, fmt: Format) -> RecordRun:
    check = args.subcommand == "check"
    timeout = getattr(args, "timeout", None)
    max_tests = getattr(args, "max_tests", None)
    _positive(max_tests, "--max-tests")
    _positive(args.max_record_bytes, "--max-record-bytes")
    _positive(args.partition_bytes, "--partition-bytes")
    if args.encoding.lower().replace("_", "-") not in ("auto", "utf-8", "utf8"):
        raise UsageError("record mode reads UTF-8; --encoding is for whole files")
    if args.scheduler is not None and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    output = getattr(args, "output", None)
    in_place = getattr(args, "in_place", False)
    reject = getattr(args, "reject", None)
    drop = getattr(args, "drop_rejected", False)
    if drop and reject is None:
        raise UsageError("--drop-rejected needs --reject FILE: rejected records must go somewhere")
    if reject is not None and output not in (None, "-") and same_file(Path(output), Path(reject)):
        raise UsageError("-o and --reject name the same file")
    if len(args.files) > 1 and (output is not None or reject is not None):
        raise UsageError("-o and --reject take one input file in record mode")
    if in_place and "-" in args.files:
        raise UsageError("--in-place needs a file, not standard input")
    try:
        loss = LossLimit.parse(args.max_loss) if getattr(args, "max_loss", None) else LossLimit()
    except ValueError as error:
        raise UsageError(f"--max-loss: {error}") from None
    settings = RecordSettings(
        repair=not check,
        algorithm=getattr(args, "algorithm", "auto"),
        timeout_s=timeout if timeout is not None else defaults.RECORD_TIMEOUT_S,
        max_tests=max_tests if max_tests is not None else defaults.RECORD_MAX_TESTS,
        loss=loss,
        allow_loss=getattr(args, "allow_loss", False),
        drop_rejected=drop,
        max_record_bytes=args.max_record_bytes or defaults.MAX_RECORD_BYTES,
    )
    return RecordRun(
        fmt=fmt,
        check=check,
        settings=settings,
        flags=_flags(args),
        trust=command_line_trust(args),
        jobs=_jobs(args),
        partition_bytes=args.partition_bytes or defaults.PARTITION_BYTES,
        engine=args.engine,
        scheduler=args.scheduler,
        output=output,
        in_place=in_place,
        force=getattr(args, "force", False),
        reject=reject,
        json=args.json,
    )


def _spec(path: Path | None, run: RecordRun, warned: set[str]) -> OracleSpec | None:
    """The configured oracle for a record of ``path`` (``None``: the format's
    default, JSON for lines and CSV rows for csv), decided by the same trust
    rule as whole files; an ignored configuration file is warned about once."""
    if path is None:
        return None if run.flags.empty else run.flags
    try:
        found = settings_for(path, run.flags, trust=run.trust)
    except NoOracleError as error:
        warn(error.warning, warned)
        return None
    warn(found.warning, warned)
    return found.spec


# ------------------------------------------------------------------- running
def run(args: argparse.Namespace, fmt: Format) -> int:
    """Check or repair each named file (or standard input) record by record."""
    options = _run_options(args, fmt)
    status = EXIT_OK
    warned: set[str] = set()
    for name in args.files:
        status = max(status, _run_file(name, options, warned))
    return status


@contextlib.contextmanager
def _open(name: str) -> Iterator[tuple[ByteStream, StreamedInput | None]]:
    """The input as a binary stream, and the file when it is one."""
    if name == "-":
        yield sys.stdin.buffer, None
        return
    if Path(name).is_dir():
        raise InputError(f"{name}: is a directory; record mode reads files")
    source = StreamedInput(Path(name))
    try:
        yield source, source
    finally:
        source.close()


def _refuse_overwriting_input(source: StreamedInput | None, reject: str | None) -> None:
    """``--reject`` names a new list: never the input."""
    if source is None or reject is None:
        return
    if same_file(Path(reject), source.path):
        raise InputError("--reject names the input file; choose another file")


def _run_file(name: str, run: RecordRun, warned: set[str]) -> int:
    path = None if name == "-" else Path(name)
    job = engines.RecordJob(
        run.fmt, _spec(path, run, warned), run.settings, suffix=path.suffix if path else ""
    )
    started = time.monotonic()
    with _open(name) as (stream, source):
        _refuse_overwriting_input(source, run.reject)
        size = source.size if source is not None else None
        try:
            partitioner = Partitioner(
                stream,
                run.fmt,
                partition_bytes=run.partition_bytes,
                max_record_bytes=run.settings.max_record_bytes,
            )
            head = b"\xef\xbb\xbf" if partitioner.bom else b""
            if run.fmt == "csv":
                header = read_header(partitioner, run.settings)
                head += header.head
                job = replace(job, columns=header.columns)
        except (StreamError, HeaderError) as error:
            raise InputError(f"{name}: {error}") from None
        processor = job.processor()
        if run.fmt == "csv":
            partitioner.joins, partitioner.columns = processor.joins, processor.columns
        report = Report(name, run, started)
        suffix = path.suffix if path else (".csv" if run.fmt == "csv" else ".jsonl")
        try:
            engine = _start(job, processor, run, size)
            with contextlib.ExitStack() as cleanup:
                cleanup.callback(engine.close)
                output = open_output(
                    run.output,
                    source=source,
                    in_place=run.in_place,
                    force=run.force,
                    suffix=suffix,
                    prefix=head,
                )
                cleanup.push(_discard_on_error(output.discard))
                rejects = open_list(run.reject, force=run.force) if run.reject else None
                if rejects is not None:
                    cleanup.push(_discard_on_error(rejects.discard))
                _stream(partitioner, engine, output, report, rejects, size)
                if rejects is not None:
                    rejects.commit()  # first: a dropped record is never lost
                written = output.commit(report.changed)
        finally:
            processor.oracle.close()
    report.summary(written, run.reject)
    return report.status


def _discard_on_error(discard: Callable[[], None]) -> Callable[..., bool]:
    """An exit callback that discards an unfinished output when the run fails."""

    def on_exit(kind: type[BaseException] | None, *rest: object) -> bool:
        if kind is not None:
            discard()
        return False

    return on_exit


def _start(
    job: engines.RecordJob, processor: RecordProcessor, run: RecordRun, size: int | None
) -> engines.Engine:
    """The engine asked for (no worker processes for a single partition)."""
    workers = run.jobs
    if run.engine == "local" and size is not None and size <= run.partition_bytes:
        workers = 1
    try:
        engine = engines.start(run.engine, job, processor, workers=workers, scheduler=run.scheduler)
    except engines.EngineError as error:
        raise UsageError(str(error)) from None
    dashboard = getattr(engine, "dashboard", None)
    if dashboard:
        print(f"inputmend: dask dashboard: {dashboard}", file=sys.stderr)
    return engine


def _stream(
    partitioner: Partitioner,
    engine: engines.Engine,
    output: Output,
    report: Report,
    rejects: ListFile | None,
    size: int | None,
) -> None:
    progress = RecordProgress(size)
    try:
        for item in engines.run(partitioner, engine):
            if isinstance(item, Oversized):
                result = _copy_oversized(item, output, report.run.settings)
                report.add_record(result)
                if rejects is not None:
                    rejects.write(_reject_line(result))
            else:
                output.write(item.output, item.index)
                if item.results and report.each:
                    progress.clear()
                report.add(item)
                if rejects is not None:
                    for result in item.results:
                        if result.status is Status.REJECTED:
                            rejects.write(_reject_line(result))
            progress.show(report.counts.records, partitioner.bytes_read)
    except engines.EngineError as error:
        raise UsageError(str(error)) from None
    finally:
        progress.clear()


def _copy_oversized(item: Oversized, output: Output, settings: RecordSettings) -> RecordResult:
    """Copy a line too long to hold through (unless rejected records are
    left out) and say so."""
    size = 0
    ending = ""
    for piece in item.pieces:
        if not settings.drop_rejected:
            output.write(piece, item.index)
        size += len(piece)
        if piece.endswith(b"\n"):
            ending = "\r\n" if piece.endswith(b"\r\n") else "\n"
    size -= len(ending)
    limit = settings.max_record_bytes
    return RecordResult(
        item.line,
        Status.REJECTED,
        "",
        ending,
        None if settings.drop_rejected else "",
        rejection=Rejection.TOO_LARGE,
        reason=f"{size} bytes, more than the record size limit of {limit}",
    )


def _reject_line(result: RecordResult) -> bytes:
    entry = {
        "line": result.line,
        "kind": result.rejection.value if result.rejection else None,
        "reason": result.reason,
        "text": None if result.rejection is Rejection.TOO_LARGE else result.text,
    }
    return (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------ reporting
class _Where(LineIndex):
    """Positions in a record as ``line:column`` of the whole input."""

    def __init__(self, text: str, first_line: int) -> None:
        super().__init__(text)
        self.first_line = first_line

    def human(self, offset: int) -> str:
        line, column = self.position(offset)
        return f"{self.first_line + line}:{column + 1}"


class Report:
    """Counts, one line per damaged record, and the summary."""

    def __init__(self, name: str, run: RecordRun, started: float) -> None:
        self.name = name
        self.run = run
        self.counts = Counts()
        self.rejections: Counter[str] = Counter()
        self.started = started
        writing = run.output is not None or run.in_place
        self.each = run.check or run.json or not writing
        self.stream: TextIO = sys.stderr if run.output == "-" else sys.stdout

    @property
    def changed(self) -> bool:
        dropped = self.run.settings.drop_rejected and self.counts.rejected > 0
        return self.counts.repaired > 0 or dropped

    @property
    def status(self) -> int:
        failed = self.counts.invalid + self.counts.rejected
        return EXIT_INVALID if failed else EXIT_OK

    def add(self, result: PartitionResult) -> None:
        self.counts += result.counts
        for record in result.results:
            self._each(record)

    def add_record(self, record: RecordResult) -> None:
        self.counts += Counts(records=1, rejected=1)
        self._each(record)

    def _each(self, record: RecordResult) -> None:
        if record.rejection is not None:
            self.rejections[record.rejection.value] += 1
        if not self.each:
            return
        if self.run.json:
            print(json.dumps(self._json(record), ensure_ascii=True), file=self.stream)
        else:
            print(self._line(record), file=self.stream)

    def _position(self, record: RecordResult) -> tuple[int, int]:
        offset = record.error.error_offset if record.error is not None else None
        if offset is None:
            return record.line, 1
        line, column = LineIndex(record.text).position(offset)
        return record.line + line, column + 1

    def _line(self, record: RecordResult) -> str:
        line, column = self._position(record)
        where = f"{self.name}:{line}:{column}:"
        message = record.error.message if record.error is not None else ""
        if record.status is Status.INVALID:
            return f"{where} error: {message or 'invalid record'}"
        if record.status is Status.REPAIRED and record.repair is not None:
            edits = describe_repair(
                record.text,
                record.repair.edits,
                where=_Where(record.text, record.line).human,
                repaired=record.repair.text,
            )
            return f"{where} repaired ({record.repair.algorithm}): {edits}"
        return f"{where} not repaired: {record.reason}"

    def _json(self, record: RecordResult) -> dict[str, Any]:
        error = None
        if record.error is not None:
            line, column = self._position(record)
            error = {
                "verdict": record.error.verdict.value,
                "message": record.error.message,
                "line": line,
                "column": column,
            }
        repair = record.repair
        return {
            "file": self.name,
            "line": record.line,
            "status": record.status.value,
            "error": error,
            "text": record.text,
            "output": record.output,
            "edits": [edit.to_json() for edit in repair.edits] if repair else [],
            "data_lost": record.lost,
            "algorithm": repair.algorithm if repair else None,
            "reason": record.reason or None,
            "time_capped": record.capped,
        }

    def summary(self, written: str | None, rejects: str | None) -> None:
        counts, seconds = self.counts, time.monotonic() - self.started
        rate = counts.records / seconds if seconds > 0 else 0.0
        parts = [f"{counts.valid:,} valid"]
        if self.run.check:
            parts.append(f"{counts.invalid:,} invalid")
        else:
            parts.append(f"{counts.repaired:,} repaired")
        if counts.rejected:
            why = ", ".join(f"{n:,} {kind}" for kind, n in sorted(self.rejections.items()))
            verb = "not checked" if self.run.check else "rejected"
            parts.append(f"{counts.rejected:,} {verb} ({why})")
        if counts.blank:
            parts.append(f"{counts.blank:,} blank line(s) kept")
        if counts.time_capped:
            parts.append(
                f"{counts.time_capped:,} reached the time cap of "
                f"{self.run.settings.timeout_s:g}s (their answers may differ from run to run)"
            )
        print(
            f"{self.name}: {counts.records:,} records in {seconds:.1f}s "
            f"({rate:,.0f} records/s): " + ", ".join(parts),
            file=sys.stderr,
        )
        if written:
            print(written, file=sys.stderr)
        if rejects and counts.rejected:
            print(f"records not repaired are listed in {rejects}", file=sys.stderr)


class RecordProgress:
    """A one-line progress display on a terminal's stderr: records, records/s
    and, for a file, how much of it was read.  Redrawn at most 5 times a second."""

    def __init__(self, size: int | None, stream: TextIO | None = None) -> None:
        self.size = size
        self.stream = sys.stderr if stream is None else stream  # the one of now, not of import
        self.enabled = self.stream.isatty()
        self.started = time.monotonic()
        self.drawn = 0.0

    def show(self, records: int, bytes_read: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - max(self.drawn, self.started) < 0.2:
            return
        self.drawn = now
        rate = records / max(now - self.started, 1e-9)
        line = f"{records:,} records, {rate:,.0f} records/s"
        if self.size:
            done = min(bytes_read / self.size, 1.0)
            filled = int(24 * done)
            line = f"[{'#' * filled}{'-' * (24 - filled)}] {100 * done:3.0f}% {line}"
        self.stream.write("\r" + line.ljust(79)[:79])
        self.stream.flush()

    def clear(self) -> None:
        if self.enabled and self.drawn:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()
            self.drawn = 0.0
