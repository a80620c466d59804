"""The same record file gives the same output with every engine, however slow
its oracle: record repairs are bounded by work (oracle runs), and the time
cap, which a slow oracle could reach, is far off with the default settings.

The Dask workers run a job whose oracle sleeps before every check; the local
engine runs the same records with the oracle at full speed.  Nothing here is
timed: the verdict is the bytes of the output."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

from inputmend.core.oracle import Feedback, Oracle
from inputmend.records import engines
from inputmend.records.model import Counts, RecordResult
from inputmend.records.process import RecordProcessor, RecordSettings
from tests.records.driving import partitions

DEFAULTS = RecordSettings()  # the default work bound and time cap
SLEEP_S = 0.002  # per check: a loaded machine, or a slow validator


class SlowOracle:
    """An oracle that sleeps before each check of the one it wraps (``inner``:
    the algorithms still reach the grammar behind it)."""

    def __init__(self, inner: Oracle) -> None:
        self.inner = inner
        self.checks = 0

    def check(self, text: str) -> Feedback:
        self.checks += 1
        time.sleep(SLEEP_S)
        return self.inner.check(text)

    def describe(self) -> str:
        return f"{self.inner.describe()}, slowed"

    def close(self) -> None:
        self.inner.close()


@dataclass(frozen=True)
class SlowJob(engines.RecordJob):
    """A record job whose workers judge with a :class:`SlowOracle`."""

    def processor(self) -> RecordProcessor:
        fast = super().processor()
        return RecordProcessor(self.fmt, SlowOracle(fast.oracle), fast.fast, self.settings)


def _damaged_jsonl(count: int, seed: int = 11) -> bytes:
    """JSON Lines, about one record in four damaged by an everyday slip."""
    rng = random.Random(seed)
    lines = []
    for number in range(count):
        record = json.dumps({"id": number, "name": f"item {number}", "tags": ["a", "b"], "v": 1.5})
        roll = rng.random()
        if roll < 0.08:
            record = record[: rng.randint(5, len(record) - 1)]  # truncated
        elif roll < 0.16:
            record = record.replace(", ", " ", 1)  # a lost comma
        elif roll < 0.22:
            record = record.replace('"', "'")  # single quotes
        elif roll < 0.25:
            record = record.replace("]", "", 1)  # a lost bracket
        lines.append(record + "\n")
    return "".join(lines).encode()


def _run(engine: engines.Engine, data: bytes) -> tuple[bytes, list[RecordResult], Counts]:
    found = partitions(engine, data, 2048)
    counts = Counts()
    for item in found:
        counts += item.counts
    return b"".join(i.output for i in found), [r for i in found for r in i.results], counts


def _view(results: list[RecordResult]) -> list[tuple[Any, ...]]:
    return [(r.line, r.status, r.output, r.reason, r.capped) for r in results]


def test_a_slowed_oracle_gives_the_same_records_locally(monkeypatch: Any) -> None:
    data = _damaged_jsonl(120)
    job = engines.RecordJob("lines", None, DEFAULTS)
    output, results, counts = _run(engines.InProcess(job.processor()), data)
    slow = SlowJob("lines", None, DEFAULTS).processor()
    slowed, slowed_results, slowed_counts = _run(engines.InProcess(slow), data)
    assert isinstance(slow.oracle, SlowOracle) and slow.oracle.checks > 100  # it was slowed
    assert counts.repaired >= 20 and counts.time_capped == 0
    assert slowed == output
    assert _view(slowed_results) == _view(results)
    assert slowed_counts == counts


def test_the_dask_engine_with_a_slowed_oracle_gives_the_local_output(dask_cluster: Any) -> None:
    from inputmend.records.cluster import DaskEngine

    data = _damaged_jsonl(120)
    job = engines.RecordJob("lines", None, DEFAULTS)
    output, results, counts = _run(engines.InProcess(job.processor()), data)
    slow = SlowJob("lines", None, DEFAULTS)
    engine = DaskEngine(slow, scheduler=dask_cluster.scheduler_address, workers=2)
    slowed, slowed_results, slowed_counts = _run(engine, data)
    assert counts.repaired >= 20 and slowed_counts.time_capped == 0
    assert slowed == output
    assert _view(slowed_results) == _view(results)
