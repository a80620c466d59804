"""The library's entry point: repair records as they come, one result each."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator

from inputmend.config import defaults
from inputmend.core.budget import Budget
from inputmend.core.loss import LossLimit
from inputmend.core.oracle import Oracle
from inputmend.records.model import Format, RecordResult, Status
from inputmend.records.oracles import record_oracle
from inputmend.records.process import (
    RecordProcessor,
    RecordSettings,
    decode,
    encode,
    read_header,
)
from inputmend.records.split import Lines, Oversized, Partitioner

_ENDINGS = ("\r\n", "\n", "\r")
_STREAM_PARTITION_BYTES = 1 << 16  # small: results flow soon after their lines
RECORD_BUDGET = Budget(timeout_s=defaults.RECORD_TIMEOUT_S, max_tests=defaults.RECORD_MAX_TESTS)
"""The default budget of each record's repair."""
DEFAULT_LOSS = LossLimit()


def repair_stream(
    lines: Iterable[str],
    oracle: Oracle | None = None,
    *,
    records: Format = "lines",
    repair: bool = True,
    algorithm: str = "auto",
    budget: Budget = RECORD_BUDGET,
    max_loss: LossLimit = DEFAULT_LOSS,
    allow_loss: bool = False,
    max_record_bytes: int = defaults.MAX_RECORD_BYTES,
) -> Iterator[RecordResult]:
    """Judge each record of ``lines`` with ``oracle`` and repair the invalid
    ones; yields one :class:`~inputmend.records.model.RecordResult` per record,
    in order, as soon as it is known.

    ``records="lines"``: each item is one record (a line of JSON Lines, a
    value of a pandas column); a line ending at its end is kept apart.  The
    default oracle is the bundled JSON grammar (with a C-speed pre-check).
    ``records="csv"``: items are the physical lines of a CSV file; the first
    record is the header (status ``HEADER``), and each row must have as many
    fields as it (a quoted field may span lines).

    Each invalid record gets ``budget``; its best repair that loses at most
    ``max_loss`` of it becomes ``output``.  When there is none the record is
    ``REJECTED`` (``output`` is the original, ``reason`` says why); with
    ``repair=False`` invalid records are only reported (``INVALID``).  The
    given oracle is not closed.
    """
    settings = RecordSettings(
        repair=repair,
        algorithm=algorithm,
        timeout_s=budget.timeout_s,
        max_tests=budget.max_tests,
        loss=max_loss,
        allow_loss=allow_loss,
        max_record_bytes=max_record_bytes,
    )
    if records == "lines":
        yield from _lines(lines, oracle, settings)
    elif records == "csv":
        yield from _csv(lines, oracle, settings)
    else:
        raise ValueError(f"records must be 'lines' or 'csv', not {records!r}")


def _split_ending(item: str) -> tuple[str, str]:
    if not isinstance(item, str):
        raise TypeError(f"records must be strings, not {type(item).__name__}")
    for ending in _ENDINGS:
        if item.endswith(ending):
            return item[: -len(ending)], ending
    return item, ""


def _size(text: str) -> int:
    return len(text) if text.isascii() else len(encode(text))


def _lines(
    lines: Iterable[str], oracle: Oracle | None, settings: RecordSettings
) -> Iterator[RecordResult]:
    record, fast = record_oracle("lines", oracle)
    processor = RecordProcessor("lines", record, fast, settings)
    try:
        for number, item in enumerate(lines, 1):
            text, ending = _split_ending(item)
            if processor.blank(text):
                yield RecordResult(number, Status.BLANK, text, ending, text)
            else:
                yield processor.judge(text, line=number, ending=ending, size=_size(text))
    finally:
        if oracle is None:
            processor.oracle.close()


class _LineBytes(io.RawIOBase):
    """Lines as a byte stream (each ends with a line break)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._pending:
            item = next(self._lines, None)
            if item is None:
                return 0
            text, ending = _split_ending(item)
            self._pending = encode(text + (ending or "\n"))
        count = min(len(buffer), len(self._pending))
        buffer[:count] = self._pending[:count]
        self._pending = self._pending[count:]
        return count


def _csv(
    lines: Iterable[str], oracle: Oracle | None, settings: RecordSettings
) -> Iterator[RecordResult]:
    partitioner = Partitioner(
        io.BufferedReader(_LineBytes(lines)),
        "csv",
        partition_bytes=_STREAM_PARTITION_BYTES,
        max_record_bytes=settings.max_record_bytes,
        read_bytes=_STREAM_PARTITION_BYTES,
    )
    header = read_header(partitioner, settings)
    head = Lines.of(header.head, "csv")
    blank = header.line - 1 if header.text is not None else len(head.contents)
    for index in range(blank):
        yield RecordResult(index + 1, Status.BLANK, "", head.endings[index].decode(), "")
    if header.text is None:
        return
    ending = head.endings[-1].decode()
    yield RecordResult(header.line, Status.HEADER, header.text, ending, header.text)
    record, fast = record_oracle("csv", oracle, columns=header.columns)
    processor = RecordProcessor("csv", record, fast, settings)
    partitioner.joins, partitioner.columns = processor.joins, processor.columns
    try:
        for item in partitioner:
            if isinstance(item, Oversized):
                data = b"".join(item.pieces)
                content = data.rstrip(b"\n").removesuffix(b"\r")
                text, _ = decode(content)
                ending = data[len(content) :].decode()
                yield processor.too_large(text, line=item.line, ending=ending, size=len(content))
            else:
                yield from processor.partition(item, everything=True).results
    finally:
        if oracle is None:
            record.close()
