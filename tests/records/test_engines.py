"""Engines: in this process, a process pool and Dask give the same output."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from inputmend.config.schema import OracleSpec
from inputmend.records import engines
from inputmend.records.model import RecordResult
from inputmend.records.process import RecordSettings
from tests.processes import new_mark, running, survivors
from tests.records.driving import partitions

SETTINGS = RecordSettings(timeout_s=None, max_tests=2000)  # deterministic budgets


def _jsonl(count: int, seed: int = 3) -> bytes:
    rng = random.Random(seed)
    lines = []
    for number in range(count):
        record = json.dumps({"id": number, "tags": ["a", "b"][: rng.randint(0, 2)], "ok": True})
        roll = rng.random()
        if roll < 0.05:
            record = record[: rng.randint(2, len(record) - 1)]  # truncated
        elif roll < 0.08:
            record = record.replace(",", "", 1)  # a lost comma
        elif roll < 0.09:
            record = record + "@" * 40  # lossy to repair
        lines.append(record + rng.choice(("\n", "\n", "\r\n")))
    return "".join(lines).encode()


def _run(engine: engines.Engine, data: bytes) -> tuple[bytes, list[RecordResult], int]:
    found = partitions(engine, data, 4096)
    output = b"".join(item.output for item in found)
    return output, [r for item in found for r in item.results], sum(i.oracle_builds for i in found)


def _view(results: list[RecordResult]) -> list[tuple[Any, ...]]:
    return [(r.line, r.status, r.output, r.reason) for r in results]


@pytest.fixture(scope="module")
def data() -> bytes:
    return _jsonl(3000)


@pytest.fixture(scope="module")
def local(data: bytes) -> tuple[bytes, list[RecordResult], int]:
    job = engines.RecordJob("lines", None, SETTINGS)
    return _run(engines.InProcess(job.processor()), data)


def test_the_local_engine_repairs_what_it_can(local: tuple[bytes, list[RecordResult], int]) -> None:
    output, results, _ = local
    statuses = {r.status.value for r in results}
    assert statuses == {"repaired", "rejected"}
    assert len(output.splitlines()) == 3000


def test_a_process_pool_gives_the_same_output(
    data: bytes, local: tuple[bytes, list[RecordResult], int]
) -> None:
    job = engines.RecordJob("lines", None, SETTINGS)
    output, results, builds = _run(engines.ProcessPool(job, 2), data)
    assert output == local[0]
    assert _view(results) == _view(local[1])
    assert 1 <= builds <= 2  # one oracle per worker process, not per partition


def test_a_pool_that_this_process_is_part_of_gives_the_same_output(
    data: bytes, local: tuple[bytes, list[RecordResult], int]
) -> None:
    job = engines.RecordJob("lines", None, SETTINGS)
    pool = engines.ProcessPool(job, 2, job.processor())
    try:
        output, results, builds = _run(pool, data)
    finally:
        pool.close()
    assert output == local[0]
    assert _view(results) == _view(local[1])
    # this process judged every second partition with its own processor:
    # only the one spawned worker built an oracle
    assert builds == 1


def test_a_dask_cluster_gives_the_same_output(
    dask_cluster: Any, data: bytes, local: tuple[bytes, list[RecordResult], int]
) -> None:
    from inputmend.records.cluster import DaskEngine

    job = engines.RecordJob("lines", None, SETTINGS)
    engine = DaskEngine(job, scheduler=dask_cluster.scheduler_address, workers=2)
    assert engine.workers == 2
    output, results, builds = _run(engine, data)
    assert output == local[0]
    assert _view(results) == _view(local[1])
    assert 1 <= builds <= 2  # the cluster's two workers build their oracle once each


def test_a_failing_worker_is_one_line_not_a_traceback(data: bytes) -> None:
    job = engines.RecordJob("lines", OracleSpec(grammar="no-such-grammar"), SETTINGS)
    pool = engines.ProcessPool(job, 2)
    with pytest.raises(engines.EngineError, match="a record worker failed: OracleConfigError: "):
        _run(pool, data)


def test_an_unreachable_scheduler_is_a_clear_error(dask_cluster: Any) -> None:
    from inputmend.records.cluster import DaskEngine

    job = engines.RecordJob("lines", None, SETTINGS)
    with pytest.raises(engines.EngineError, match="cannot start the dask engine on tcp://127"):
        DaskEngine(job, scheduler="tcp://127.0.0.1:9", workers=1, connect_timeout_s=1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("engine", ["local", "dask"])
def test_kill_9_of_the_command_leaves_no_worker(tmp_path: Path, engine: str) -> None:
    if engine == "dask":
        pytest.importorskip("distributed", reason="the Dask extra is not installed")
    source = tmp_path / "slow.jsonl"
    source.write_bytes(b"".join(line[:-3] + b"\n" for line in _jsonl(400).splitlines()))
    mark = new_mark()
    command = [sys.executable, "-m", "inputmend", "repair", str(source), "--jobs", "2"]
    process = subprocess.Popen(
        [*command, "--engine", engine, "--partition-bytes", "2000", "-o", str(tmp_path / "out")],
        env={**os.environ, **mark},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # local: the command, multiprocessing's resource tracker and the one
        # worker it spawns (it judges every second partition itself)
        running(mark, 3 if engine == "local" else 4)
        assert process.poll() is None, "the run ended before it could be killed"
    finally:
        process.kill()
        process.wait(10)
    assert survivors(mark) == []
    visible = [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")]
    assert visible == ["slow.jsonl"]  # no output (a SIGKILL may leave a hidden temporary file)


def test_the_local_dask_cluster_admits_only_its_own_run() -> None:
    """Whoever submits a task runs code in the workers: another local user
    who finds the port must not get in, with no credentials or with others."""
    distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
    from inputmend.records.cluster import DaskEngine

    job = engines.RecordJob("lines", None, SETTINGS)
    engine = DaskEngine(job, scheduler=None, workers=1)
    try:
        assert engine.cluster is not None
        address = engine.cluster.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        # nor through the scheduler's web pages, which have no login
        assert engine.dashboard is None
        port = engine.client.scheduler_info()["services"]["dashboard"]
        for page in ("status", "json/identity.json", "info/main/workers.html", "metrics"):
            with pytest.raises(urllib.error.HTTPError, match="404"):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{page}", timeout=10)
        output, _, _ = _run(engine, _jsonl(50))
        assert len(output.splitlines()) == 50, "the run itself gets in"
        tcp = address.replace("tls://", "tcp://")
        strangers = [
            (address, None),  # no TLS settings at all
            (tcp, None),  # plain TCP
            (address, distributed.Security.temporary()),  # a certificate of its own
        ]
        for where, security in strangers:
            with pytest.raises((OSError, TimeoutError, TypeError)):
                distributed.Client(where, security=security, timeout="3s").close()
    finally:
        engine.close()
