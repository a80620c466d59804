"""What record mode produces: one result per record, counts, partition results.

Frozen values, picklable (they travel back from worker processes and Dask
workers).  Line numbers are 1-based physical lines of the whole input.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import Literal

from inputmend.core.model import Repair
from inputmend.core.oracle import Feedback

Format = Literal["lines", "csv"]
"""``lines``: one record per line (JSON Lines); ``csv``: a header, then rows."""


class Status(enum.Enum):
    """What became of one record."""

    VALID = "valid"
    BLANK = "blank"  # an empty or blank line: not a record, passed through
    HEADER = "header"  # the CSV header, passed through
    INVALID = "invalid"  # check mode: the oracle rejects it
    REPAIRED = "repaired"
    REJECTED = "rejected"  # not repaired: left as it was, or left out


class Rejection(enum.Enum):
    """Why a record was not repaired."""

    NO_REPAIR = "no repair"  # none found within the record's budget
    LOSSY = "lossy"  # only repairs that lose too much of the record
    TOO_LARGE = "too large"  # larger than the record size limit: not judged


@dataclass(frozen=True, slots=True)
class RecordResult:
    """One record: what it was, what the output holds for it, and why.

    ``text`` is the record without its line ending; ``output`` is what the
    output holds in its place (the original for valid and rejected records,
    the repair for repaired ones; ``None`` when it is left out)."""

    line: int
    status: Status
    text: str
    ending: str
    output: str | None
    error: Feedback | None = None
    repair: Repair | None = None
    lost: int = 0
    rejection: Rejection | None = None
    reason: str = ""
    capped: bool = False
    """Its repair reached the time cap: the answer may differ from run to run."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How many records ended how (blank lines and the header are not records)."""

    records: int = 0
    valid: int = 0
    invalid: int = 0
    repaired: int = 0
    rejected: int = 0
    blank: int = 0
    time_capped: int = 0
    """Records whose repair reached the time cap (their answers may differ
    from run to run; with the default work bound, none on an ordinary machine)."""

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


@dataclass(frozen=True)
class Partition:
    """A run of whole records cut from the input: its bytes and the number of
    its first line.  ``final``: nothing follows (its last line may lack a
    line ending).  ``stops``: the index after each record's last line, as
    the partitioner grouped the lines to cut the partition (CSV), so that
    the worker need not group them again; ``None``: not known."""

    index: int
    data: bytes
    first_line: int
    final: bool = False
    stops: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PartitionResult:
    """A partition judged: its output bytes, its counts, and the result of
    every record that was not valid (valid records are only counted, unless
    all results were asked for)."""

    index: int
    output: bytes
    counts: Counts
    results: tuple[RecordResult, ...] = field(default=())
    oracle_builds: int = 0  # oracles the worker had to build for it (0 once warm)
