"""The Dask engine: partitions judged on a Dask cluster (``inputmend[dask]``).

This process reads the input, cuts it into partitions at record boundaries
and sends them to the workers as tasks (named ``inputmend-partition-...``);
the workers need inputmend installed, not the input file.  Results come back
in input order (:func:`inputmend.records.engines.run`).  Without a scheduler
address, a local cluster of single-threaded worker processes is started for
the run and stopped after it.

Whoever can submit a task to a cluster runs code in its workers.  The local
cluster therefore listens on 127.0.0.1 only, speaks TLS, and accepts only
peers that present the certificate made for this run
(:meth:`distributed.Security.temporary`, kept in memory): another user of the
machine who finds its port can connect to nothing.  A cluster named with
``--scheduler`` is secured by its operator; the client uses Dask's
configuration (``distributed.comm.tls.*``, ``distributed.comm.require-encryption``)
to reach it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import uuid

import dask
from distributed import Client, LocalCluster, Security

from inputmend.records.engines import EngineError, Pending, RecordJob, process_partition
from inputmend.records.model import Partition

LOOPBACK = "127.0.0.1"


def private_cluster(workers: int) -> LocalCluster:
    """A local cluster of ``workers`` single-threaded processes that only this
    run can reach: TLS on the loopback interface, with a per-run certificate
    that every peer (client, scheduler, worker) must present, and no
    dashboard: its HTTP server (which the scheduler always starts) listens on
    the loopback interface and serves no page, as its pages have no login."""
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host=LOOPBACK,
        protocol="tls://",
        security=Security.temporary(),
        dashboard_address=f"{LOOPBACK}:0",  # any free port: never a warning
        scheduler_kwargs={"dashboard": False},
        silence_logs=logging.ERROR,
    )


class DaskEngine:
    """Partitions as tasks on a Dask cluster: the one at ``scheduler``
    (``tcp://host:8786``), else a private local cluster of ``workers``
    processes (:func:`private_cluster`)."""

    def __init__(
        self,
        job: RecordJob,
        *,
        scheduler: str | None,
        workers: int,
        connect_timeout_s: float = 10.0,
    ) -> None:
        self.job = job
        self.run_id = uuid.uuid4().hex[:8]
        self.cluster: LocalCluster | None = None
        try:
            if scheduler is None:
                # Python validators run in child processes of the workers:
                # worker processes must not be daemons.  The workers' sampling
                # profiler keeps a call tree per second of work for the last
                # 1,000 seconds: off, so that their memory does not grow.
                local = {
                    "distributed.worker.daemon": False,
                    "distributed.worker.profile.enabled": False,
                    "distributed.scheduler.http.routes": [],
                }
                with dask.config.set(local):
                    self.cluster = private_cluster(workers)
                self.client = Client(self.cluster, security=self.cluster.security)
            else:
                self.client = Client(scheduler, timeout=f"{connect_timeout_s}s")
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            where = scheduler or "a local cluster"
            raise EngineError(f"cannot start the dask engine on {where}: {error}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    @property
    def dashboard(self) -> str | None:
        """The address of the dashboard of a cluster named with ``scheduler``
        (when bokeh is installed); the private local cluster has none."""
        if self.cluster is not None or not _has_dashboard():
            return None
        return str(self.client.dashboard_link)

    def submit(self, partition: Partition) -> Pending:
        key = f"inputmend-partition-{self.run_id}-{partition.index}"
        future: Pending = self.client.submit(
            process_partition, partition, self.job, key=key, pure=False
        )
        return future

    def close(self) -> None:
        with contextlib.suppress(Exception):
            client = getattr(self, "client", None)
            if client is not None:
                client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()


def _has_dashboard() -> bool:
    """The dashboard needs bokeh (not part of the extra)."""
    return importlib.util.find_spec("bokeh") is not None
