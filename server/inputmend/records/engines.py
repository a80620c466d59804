"""Where partitions are judged: in this process, in a process pool, or on a
Dask cluster (:mod:`inputmend.records.cluster`), and in which order their
results come back (always the input's).

Every engine runs the same method,
:meth:`RecordProcessor.partition <inputmend.records.process.RecordProcessor.partition>`,
on the same partitions (in a worker, through :func:`process_partition`), so
every engine gives the same output.  A worker builds the oracle of a
:class:`RecordJob` once (per thread of a worker process) and reuses it for
every partition of the job; the local engine's own process is one of its
workers, with the oracle it built already.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Protocol

from inputmend.config.schema import OracleSpec
from inputmend.oracles.children import die_with_parent
from inputmend.oracles.factory import build_oracle
from inputmend.records.model import Format, Partition, PartitionResult
from inputmend.records.oracles import record_oracle
from inputmend.records.process import RecordProcessor, RecordSettings
from inputmend.records.split import Oversized, Partitioner


class EngineError(Exception):
    """An engine cannot start or lost its workers; the message is one line."""


@dataclass(frozen=True)
class RecordJob:
    """Everything a worker needs to judge partitions: picklable and hashable.

    ``spec`` is the configured oracle (``None``: the format's default);
    ``columns`` the CSV header's field count."""

    fmt: Format
    spec: OracleSpec | None
    settings: RecordSettings
    suffix: str = ""
    columns: int | None = None

    def processor(self) -> RecordProcessor:
        base = build_oracle(self.spec, suffix=self.suffix) if self.spec is not None else None
        oracle, fast = record_oracle(self.fmt, base, columns=self.columns)
        return RecordProcessor(self.fmt, oracle, fast, self.settings)


_WORKER = threading.local()  # this worker thread's (job, processor)


def process_partition(partition: Partition, job: RecordJob) -> PartitionResult:
    """The workers' entry point: judge one partition with this thread's
    processor for ``job``, built on first use (and counted in the result)."""
    current: tuple[RecordJob, RecordProcessor] | None = getattr(_WORKER, "current", None)
    built = 0
    if current is None or current[0] != job:
        if current is not None:
            current[1].oracle.close()
        current = _WORKER.current = (job, job.processor())
        built = 1
    result = current[1].partition(partition)
    return replace(result, oracle_builds=built) if built else result


class Pending(Protocol):
    """A partition on its way: its result when it is done (a future)."""

    def result(self) -> PartitionResult: ...


class Engine(Protocol):
    """Runs :func:`process_partition` on partitions."""

    workers: int

    def submit(self, partition: Partition) -> Pending: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class _Done:
    value: PartitionResult

    def result(self) -> PartitionResult:
        return self.value


class InProcess:
    """One worker: this process, with the processor the caller built."""

    workers = 1

    def __init__(self, processor: RecordProcessor) -> None:
        self.processor = processor

    def submit(self, partition: Partition) -> Pending:
        return _Done(self.processor.partition(partition))

    def close(self) -> None:
        pass


class _Here:
    """A partition this process judges, when its result is first asked for
    (results are asked for in input order, while the pool judges the
    partitions after it)."""

    def __init__(self, processor: RecordProcessor, partition: Partition) -> None:
        self.processor = processor
        self.partition: Partition | None = partition
        self.value: PartitionResult | None = None

    def result(self) -> PartitionResult:
        if self.value is None:
            assert self.partition is not None
            self.value, self.partition = self.processor.partition(self.partition), None
        return self.value


class ProcessPool:
    """``workers`` processes on this machine.  Given this process's
    ``processor``, this process is one of them: it judges every
    ``workers``-th partition itself, and ``workers - 1`` spawned processes
    judge the others.  Each spawned process imports the package and builds
    its oracle before its first partition (a few tenths of a second of a
    core), while this process has its oracle built and between partitions
    only reads and writes.  Every partition is judged by the same function
    (:meth:`RecordProcessor.partition <inputmend.records.process.RecordProcessor.partition>`),
    so the output does not depend on which process judged it.  Spawned
    processes die with this one."""

    def __init__(
        self, job: RecordJob, workers: int, processor: RecordProcessor | None = None
    ) -> None:
        # here: one worker (this process, the usual --jobs 1) needs no pool
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.job = job
        self.workers = workers
        self.here = processor if workers > 1 else None
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(
            max_workers=workers - 1 if self.here is not None else workers,
            mp_context=context,
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )

    def submit(self, partition: Partition) -> Pending:
        if self.here is not None and partition.index % self.workers == 0:
            return _Here(self.here, partition)
        return self.pool.submit(process_partition, partition, self.job)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def start(
    kind: str,
    job: RecordJob,
    processor: RecordProcessor,
    *,
    workers: int,
    scheduler: str | None = None,
) -> Engine:
    """The engine ``kind`` (``local`` or ``dask``) for ``job``; ``processor``
    is the caller's own, the one local worker when one is enough, else one
    of the local workers (see :class:`ProcessPool`)."""
    if kind == "dask":
        try:
            from inputmend.records.cluster import DaskEngine
        except ImportError:
            raise EngineError(
                "the dask engine needs the optional extra: pip install 'inputmend[dask]'"
            ) from None
        return DaskEngine(job, scheduler=scheduler, workers=workers)
    if workers <= 1:
        return InProcess(processor)
    return ProcessPool(job, workers, processor)


def run(partitioner: Partitioner, engine: Engine) -> Iterator[PartitionResult | Oversized]:
    """Results in input order, with at most two partitions per worker in
    flight (memory stays bounded however large the input).  An
    :class:`Oversized` line comes out in its place, after every partition
    before it: copy its pieces through before asking for the next item."""
    window = 2 * engine.workers
    pending: deque[Pending] = deque()
    for item in partitioner:
        if isinstance(item, Oversized):
            while pending:
                yield _result(pending.popleft())
            yield item
            continue
        pending.append(engine.submit(item))
        while len(pending) > window:
            yield _result(pending.popleft())
    while pending:
        yield _result(pending.popleft())


def _result(pending: Pending) -> PartitionResult:
    try:
        result = pending.result()
        release = getattr(pending, "release", None)  # a Dask future: free it on the worker now
        if release is not None:
            release()
        return result
    except Exception as error:  # whatever killed a worker, said in one line
        message = " ".join(str(error).split()) or "no message"
        raise EngineError(f"a record worker failed: {type(error).__name__}: {message}") from error
