"""Running a record engine over JSON Lines in memory, for the record tests."""

from __future__ import annotations

import io

from inputmend.records import engines
from inputmend.records.model import PartitionResult
from inputmend.records.split import Partitioner


def partitions(engine: engines.Engine, data: bytes, partition_bytes: int) -> list[PartitionResult]:
    """Every partition's result of ``engine`` on the JSON Lines ``data``, in
    order; the engine is closed afterwards, whatever happens."""
    partitioner = Partitioner(
        io.BytesIO(data), "lines", partition_bytes=partition_bytes, max_record_bytes=1 << 20
    )
    found = []
    try:
        for item in engines.run(partitioner, engine):
            assert isinstance(item, PartitionResult)
            found.append(item)
    finally:
        engine.close()
    return found
