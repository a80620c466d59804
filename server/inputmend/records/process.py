"""Judging and repairing records: one at a time, or a partition at once.

A valid record costs one pre-check (C speed) when the oracle has one, else
one oracle check.  An invalid record gets its own budget; its best repair
that does not lose too much of it (:mod:`inputmend.core.loss`) replaces it,
and when there is none the record stays as it was (or is left out) and is
reported as rejected, with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from inputmend.config import defaults
from inputmend.core.budget import Budget
from inputmend.core.loss import LossLimit, significant
from inputmend.core.model import Repair, RepairResult, distance, edits_between
from inputmend.core.oracle import Feedback, Oracle
from inputmend.records.model import (
    Counts,
    Format,
    Partition,
    PartitionResult,
    RecordResult,
    Rejection,
    Status,
)
from inputmend.records.oracles import CsvRowOracle, FastCheck, csv_fields, record_oracle
from inputmend.records.split import Lines, Partitioner, record_stops

SPLIT_ALGORITHM = "one value per line"
"""The repair of a line that holds several values: a line for each."""


@dataclass(frozen=True)
class RecordSettings:
    """What to do with each record: check only, or repair within a budget."""

    repair: bool = True
    algorithm: str = "auto"
    timeout_s: float | None = defaults.RECORD_TIMEOUT_S
    max_tests: int | None = defaults.RECORD_MAX_TESTS
    loss: LossLimit = field(default_factory=LossLimit)
    allow_loss: bool = False
    drop_rejected: bool = False
    max_record_bytes: int = defaults.MAX_RECORD_BYTES


def decode(content: bytes) -> tuple[str, bool]:
    """A record's text, and whether its bytes were all valid UTF-8 (bytes
    that are not become lone surrogates, which every oracle rejects)."""
    try:
        return content.decode("utf-8"), True
    except UnicodeDecodeError:
        return content.decode("utf-8", "surrogateescape"), False


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


class RecordProcessor:
    """Judges the records of one format with one oracle (built once, reused
    for every record) and repairs the invalid ones."""

    def __init__(
        self,
        fmt: Format,
        oracle: Oracle,
        fast: FastCheck | None,
        settings: RecordSettings,
    ) -> None:
        self.fmt = fmt
        self.oracle = oracle
        self.fast = fast
        self.settings = settings
        self.budget = Budget(timeout_s=settings.timeout_s, max_tests=settings.max_tests)
        self.columns = oracle.columns if isinstance(oracle, CsvRowOracle) else None
        """The CSV header's number of fields (for the partitioner too)."""

    # ------------------------------------------------------------ one record
    def blank(self, content: bytes | str) -> bool:
        """Not a record: an empty line (for JSON Lines, also only blanks)."""
        if self.fmt == "csv":
            return not content
        if isinstance(content, bytes):
            return not content.strip(b" \t")
        return not content.strip(" \t")

    def valid(self, text: str) -> bool:
        """Is this row valid (the CSV join test)?"""
        return (self.fast is not None and self.fast(text)) or self.oracle.check(text).valid

    def judge(self, text: str, *, line: int, ending: str, size: int) -> RecordResult:
        """The result for one record of ``size`` bytes (not blank)."""
        settings = self.settings
        if size > settings.max_record_bytes:
            return self.too_large(text, line=line, ending=ending, size=size)
        if self.fast is not None and self.fast(text):
            return RecordResult(line, Status.VALID, text, ending, text)
        feedback = self.oracle.check(text)
        if feedback.valid:
            return RecordResult(line, Status.VALID, text, ending, text)
        if not settings.repair:
            return RecordResult(line, Status.INVALID, text, ending, text, error=feedback)
        spans = self._values(text, feedback) if self.fmt == "lines" else None
        if spans is not None:
            return self._split(text, spans, line, ending, feedback)
        return self._repair(text, line, ending, feedback)

    def _values(self, text: str, feedback: Feedback) -> list[tuple[int, int]] | None:
        """Where the values of a line that holds several one after another
        begin and end (``{"a": 1} {"b": 2}``): each but the last is valid on
        its own up to where the oracle rejects the line, and the last
        begins as one (the oracle reads more than nothing of it).  None for
        a line that is one value, however broken."""
        spans: list[tuple[int, int]] = []
        start = 0
        while not feedback.valid:
            error = feedback.error_offset
            if not error:  # no position, or nothing of the value read
                break
            end = start + error
            if not self.oracle.check(text[start:end]).valid:
                break
            spans.append((start, end))
            start = end + len(text[end:]) - len(text[end:].lstrip(" \t"))
            feedback = self.oracle.check(text[start:])
        if not spans or start >= len(text) or feedback.error_offset == 0:
            return None
        return [*spans, (start, len(text))]

    def _split(
        self,
        text: str,
        spans: list[tuple[int, int]],
        line: int,
        ending: str,
        feedback: Feedback,
    ) -> RecordResult:
        """A line of several values: each value a record of its own, on a
        line of its own (repaired alone where it needs it), never merged into
        one; the line is rejected when one of them cannot be repaired."""
        outputs: list[str] = []
        lost = 0
        for number, (start, end) in enumerate(spans, 1):
            value = text[start:end].rstrip()
            alone = self.oracle.check(value)
            if alone.valid:
                outputs.append(value)
                continue
            result = self._repair(value, line, ending, alone)
            if result.status is not Status.REPAIRED or result.output is None:
                reason = f"{len(spans)} values on one line, value {number}: {result.reason}"
                rejection = result.rejection or Rejection.NO_REPAIR
                return self._rejected(text, line, ending, rejection, reason, feedback)
            outputs.append(result.output)
            lost += result.lost
        split = (ending or "\n").join(outputs)
        repair = Repair(
            split, edits_between(text, split), SPLIT_ALGORITHM, True, distance(text, split)
        )
        return RecordResult(line, Status.REPAIRED, text, ending, split, feedback, repair, lost)

    def too_large(self, text: str, *, line: int, ending: str, size: int) -> RecordResult:
        """A record over the size limit: not judged, rejected."""
        limit = self.settings.max_record_bytes
        reason = f"{size} bytes, more than the record size limit of {limit}"
        return self._rejected(text, line, ending, Rejection.TOO_LARGE, reason)

    def _repair(self, text: str, line: int, ending: str, feedback: Feedback) -> RecordResult:
        """The record repaired within its budget; one whose search reached the
        time cap says so (its answer may differ from run to run).  A record
        takes the best repair that loses no more than allowed (see
        :meth:`_repaired`): the best alone is ranked, and only when it loses
        more are the next ones too (one that loses less may rank below it,
        where it does more harm otherwise: the format's loader rejects it),
        so the ranking reads the others only as far as they may be best
        (see :func:`~inputmend.algorithms.ranking.scored`)."""
        # the repair pipeline is imported at the first invalid record: a run
        # over valid records (``check --records``) needs none of it
        from inputmend import services

        settings = self.settings

        def repaired(top: int) -> RepairResult:
            return services.repair(
                text,
                self.oracle,
                algorithm=settings.algorithm,
                budget=self.budget,
                max_loss=settings.loss,
                top=top,
            )

        result = repaired(1)
        if result.repairs and result.repairs[0].lossy and not settings.allow_loss:
            result = repaired(defaults.TOP_REPAIRS)
        found = self._repaired(text, line, ending, feedback, result)
        return replace(found, capped=True) if result.stats.time_capped else found

    def _repaired(
        self, text: str, line: int, ending: str, feedback: Feedback, result: RepairResult
    ) -> RecordResult:
        size = significant(text)
        first_lost: int | None = None
        for repair in result.repairs:
            lost = repair.data_lost
            if self.settings.allow_loss or not repair.lossy:
                return RecordResult(
                    line, Status.REPAIRED, text, ending, repair.text, feedback, repair, lost
                )
            if first_lost is None:
                first_lost = lost
        if first_lost is not None:
            reason = (
                f"only lossy repairs: the best loses {first_lost} of {size} characters "
                f"(limit {self.settings.loss.describe()})"
            )
            return self._rejected(text, line, ending, Rejection.LOSSY, reason, feedback)
        stop = result.stats.stop_reason
        reason = f"no repair found ({stop})" if stop else "no repair found"
        return self._rejected(text, line, ending, Rejection.NO_REPAIR, reason, feedback)

    def _rejected(
        self,
        text: str,
        line: int,
        ending: str,
        why: Rejection,
        reason: str,
        feedback: Feedback | None = None,
    ) -> RecordResult:
        output = None if self.settings.drop_rejected else text
        return RecordResult(
            line, Status.REJECTED, text, ending, output, feedback, rejection=why, reason=reason
        )

    # ------------------------------------------------------------ partitions
    def joins(self, data: bytes) -> bool:
        """The CSV join test on a candidate record's bytes."""
        text, clean = decode(data)
        return clean and self.valid(text)

    def partition(self, partition: Partition, *, everything: bool = False) -> PartitionResult:
        """Judge (and repair) every record of a partition.  Valid records are
        only counted unless ``everything``; the output keeps their bytes.
        A partition of lines that the pre-check reads at once (from its
        bytes, :meth:`FastCheck.unsure_lines
        <inputmend.records.oracles.FastCheck.unsure_lines>`) and accepts
        whole is only counted."""
        unsure = None
        if not everything and self.fmt == "lines" and self.fast is not None:
            unsure = self.fast.unsure_lines(partition.data, self.settings.max_record_bytes)
            if unsure == []:
                count = _line_count(partition.data)
                counts = Counts(records=count, valid=count)
                return PartitionResult(partition.index, partition.data, counts)
        lines = Lines.of(partition.data, self.fmt)
        if partition.stops is not None:  # as the partitioner grouped the lines
            stops = list(partition.stops)
        else:
            joins = self.joins if self.fmt == "csv" else None
            stops, _ = record_stops(
                lines,
                self.fmt,
                final=True,
                max_bytes=self.settings.max_record_bytes,
                joins=joins,
                columns=self.columns,
            )
        contents, endings, fast = lines.contents, lines.endings, self.fast
        limit = self.settings.max_record_bytes
        replaced: dict[int, bytes | None] = {}
        results: list[RecordResult] = []
        separate: set[int] = set()  # where a line of a broken pair starts a record of its own
        judged: Sequence[int]
        if everything:
            judged = range(len(stops))
        else:
            judged = unsure if unsure is not None else self._unsure(lines, stops)
        valid, blank = len(stops) - len(judged), 0
        for record in judged:
            start = stops[record - 1] if record else 0
            stop = stops[record]
            content = contents[start] if stop == start + 1 else lines.joined(start, stop)
            text, clean = decode(content)
            quick = clean and not everything and len(content) <= limit
            if quick and fast is not None and fast(text):
                valid += 1
                continue
            ending = endings[stop - 1].decode("ascii")
            line = partition.first_line + start
            if self.blank(content):
                blank += 1
                if everything:
                    results.append(RecordResult(line, Status.BLANK, text, ending, text))
                continue
            result = self.judge(text, line=line, ending=ending, size=len(content))
            if result.status is Status.REJECTED and stop > start + 1:
                # lines joined as one broken row (no valid row joins them, see
                # split.group_rows) that are not one after all: each alone
                separate.update(range(start + 1, stop))
                for index in range(start, stop):
                    alone = self._line(lines, index, partition.first_line, everything)
                    valid += alone is not None and alone.status is Status.VALID
                    if alone is not None:
                        self._note(alone, index, replaced, results, everything)
                continue
            valid += result.status is Status.VALID
            self._note(result, start, replaced, results, everything)
        if separate:
            stops = sorted({*stops, *separate})
        counts = _count(results, valid=valid, blank=blank)
        output = partition.data if not replaced else _rebuild(lines, stops, replaced)
        return PartitionResult(partition.index, output, counts, tuple(results))

    def _line(
        self, lines: Lines, index: int, first_line: int, everything: bool
    ) -> RecordResult | None:
        """The result for physical line ``index`` judged alone (None: blank)."""
        content = lines.contents[index]
        text, _ = decode(content)
        if self.blank(content):
            return None
        ending = lines.endings[index].decode("ascii")
        return self.judge(text, line=first_line + index, ending=ending, size=len(content))

    @staticmethod
    def _note(
        result: RecordResult,
        start: int,
        replaced: dict[int, bytes | None],
        results: list[RecordResult],
        everything: bool,
    ) -> None:
        """Keep ``result`` (of the record starting at line ``start``): its
        output replaces the record's bytes where it differs."""
        if result.output is None:
            replaced[start] = None
        elif result.output is not result.text:
            replaced[start] = encode(result.output)
        if everything or result.status is not Status.VALID:
            results.append(result)

    def _unsure(self, lines: Lines, stops: list[int]) -> Sequence[int]:
        """The records (by index) that the pre-check does not accept, all of
        a partition's at once: those of every partition that holds a
        record too large or undecodable bytes (see :meth:`partition`)."""
        every = range(len(stops))
        if self.fast is None:
            return every
        contents, limit = lines.contents, self.settings.max_record_bytes
        if len(stops) != len(contents):  # some records span lines
            contents = [
                lines.joined(first, stop) for first, stop in zip([0, *stops], stops, strict=False)
            ]
        if max(map(len, contents), default=0) > limit:
            return every
        try:
            texts = [content.decode("utf-8") for content in contents]
        except UnicodeDecodeError:
            return every
        return self.fast.unsure(texts)


def _line_count(data: bytes) -> int:
    """The lines of ``data`` without a lone carriage return: one per line
    feed, and the text after the last one (as :class:`Lines` cuts them)."""
    return data.count(b"\n") + (not data.endswith(b"\n") and bool(data))


def _count(results: list[RecordResult], *, valid: int, blank: int) -> Counts:
    statuses = [result.status for result in results]
    judged = [s for s in statuses if s is not Status.BLANK and s is not Status.VALID]
    return Counts(
        records=valid + len(judged),
        valid=valid,
        invalid=statuses.count(Status.INVALID),
        repaired=statuses.count(Status.REPAIRED),
        rejected=statuses.count(Status.REJECTED),
        blank=blank,
        time_capped=sum(result.capped for result in results),
    )


def _rebuild(lines: Lines, stops: list[int], replaced: dict[int, bytes | None]) -> bytes:
    """The partition's bytes with some records replaced (or left out)."""
    parts: list[bytes] = []
    first = 0
    for stop in stops:
        if first in replaced:
            content = replaced[first]
            if content is not None:
                parts += (content, lines.endings[stop - 1])
        else:
            for index in range(first, stop):
                parts += (lines.contents[index], lines.endings[index])
        first = stop
    return b"".join(parts)


class HeaderError(ValueError):
    """The CSV header is not a valid row; the message is one line."""


@dataclass(frozen=True)
class Header:
    """What precedes the rows of a CSV stream: its bytes (empty lines and
    the header), the header's text and line, and its number of fields."""

    head: bytes
    text: str | None
    line: int
    columns: int | None


def read_header(partitioner: Partitioner, settings: RecordSettings) -> Header:
    """Take the header off a CSV stream; it must be a valid row of the
    bundled CSV grammar (the configured oracle judges data rows only)."""
    oracle, fast = record_oracle("csv", None)
    checker = RecordProcessor("csv", oracle, fast, settings)
    try:
        head, header, line = partitioner.take_header(checker.joins)
        if header is None:
            return Header(head, None, line, None)
        text, _ = decode(header)
        feedback = oracle.check(text)
    finally:
        oracle.close()
    if not feedback.valid:
        raise HeaderError(f"line {line}: the CSV header is not a valid row ({feedback.message})")
    return Header(head, text, line, csv_fields(text))
