"""Record mode: judge and repair a stream of records (JSON Lines, CSV rows)
one record at a time, with memory that does not grow with the input.

Library use::

    from inputmend.records import Status, repair_stream

    for result in repair_stream(open("events.jsonl", encoding="utf-8")):
        if result.status is Status.REPAIRED:
            print(result.line, result.output)

:func:`repair_stream` yields a :class:`RecordResult` per record.  The command
line (``inputmend repair --records lines``) cuts files into partitions
(:mod:`~inputmend.records.split`) and judges them in this process, a process
pool or on a Dask cluster (:mod:`~inputmend.records.engines`).
"""

from inputmend.records.model import Counts, Format, RecordResult, Rejection, Status
from inputmend.records.stream import repair_stream

__all__ = ["Counts", "Format", "RecordResult", "Rejection", "Status", "repair_stream"]
