"""The worker side of the language server: CPU-heavy analyses in a process
pool, each with its oracle, CPU-time limit and cancel flag (no LSP types).

Workers are spawned processes.  Their initializer sends stdout to stderr (a
stray ``print`` would corrupt the LSP stream) and keeps the shared array of
cancel flags.  Each job's :class:`~inputmend.core.budget.Budget` asks its
flag, and the job's stop hook (the budget's meter) reaches into grammar scans
too, so a new edit stops the job for the old version within milliseconds.

A job is a small picklable :class:`Job`; each phase has its own entry point
returning a model value (:class:`~inputmend.core.oracle.Feedback`,
:class:`~inputmend.core.model.Diagnosis`, ...).  A job that cannot run raises
:class:`JobError` with a one-line message, never anything else.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from inputmend import services
from inputmend.config import defaults
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget, Meter
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.model import Abstraction, Diagnosis, RepairResult
from inputmend.core.oracle import Feedback, Oracle
from inputmend.oracles.children import die_with_parent
from inputmend.oracles.factory import build_oracle, build_predicate, load_grammar
from inputmend.oracles.watchdog import Overrun, cpu_limit, overrun_message, run_limit

_FLAGS: Any = None  # the shared cancel flags, set by the pool initializer


class JobError(Exception):
    """A job could not run; the message is one line for the user."""


class _JobStop:
    """The stop hook of this process's cached oracles: it polls the running
    job's meter (cached oracles outlive jobs, the hook follows them)."""

    def __init__(self) -> None:
        self.meter: Meter | None = None

    def __call__(self) -> None:
        if self.meter is not None:
            self.meter.poll()


_STOP = _JobStop()
_ORACLES: dict[tuple[OracleSpec, str], Oracle] = {}  # this process's oracles, by spec


def initialize(flags: Any, server: int) -> None:
    """Pool initializer: die with the server (a killed server must not leave
    workers behind, even one killed while this worker was starting),
    protect the LSP channel, remember the cancel flags."""
    die_with_parent(server)
    with contextlib.suppress(OSError):
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    global _FLAGS
    _FLAGS = flags


@dataclass(frozen=True)
class Job:
    """One version of one document to analyse, and the budget for it."""

    text: str
    spec: OracleSpec
    suffix: str
    timeout_s: float
    max_tests: int | None
    repair_algorithm: str = "auto"
    top: int = defaults.TOP_REPAIRS
    max_loss: LossLimit = DEFAULT_LIMIT
    slot: int = -1  # the cancel flag, set by the scheduler's runner

    @property
    def budget(self) -> Budget:
        """The job's budget; it is cancelled once the job's flag is raised."""
        slot = self.slot

        def cancelled() -> bool:
            return bool(_FLAGS is not None and slot >= 0 and _FLAGS[slot])

        return Budget(timeout_s=self.timeout_s, max_tests=self.max_tests, cancelled=cancelled)


@contextlib.contextmanager
def _running(job: Job) -> Iterator[Oracle]:
    """The job's oracle, with the stop hook on the job's budget; any failure
    becomes a :class:`JobError`."""
    key = (job.spec, job.suffix)
    seconds = run_limit(job.timeout_s, job.spec.test_timeout_s)
    try:
        oracle = _ORACLES.get(key)
        if oracle is None:
            oracle = _ORACLES[key] = build_oracle(job.spec, suffix=job.suffix, stop=_STOP)
        _STOP.meter = Meter(job.budget)
        with cpu_limit(seconds):
            yield oracle
    except Overrun as overrun:
        stuck = _ORACLES.pop(key, None)  # abandoned mid-scan: not to be reused
        if stuck is not None:
            stuck.close()
        raise JobError(overrun_message(overrun)) from None
    except JobError:
        raise
    except ValueError as error:  # bad configuration, or the input does not fail (DDSET)
        raise JobError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - reported to the client, never a dead worker
        raise JobError(f"{type(error).__name__}: {error}") from None
    finally:
        _STOP.meter = None


def validate(job: Job) -> Feedback:
    """The whole oracle's verdict (grammar and validator)."""
    with _running(job) as oracle:
        return oracle.check(job.text)


def diagnose(job: Job) -> Diagnosis:
    """The failure-inducing spans (ddmax; hybrid with a grammar)."""
    with _running(job) as oracle:
        return services.explain(job.text, oracle, algorithm="auto", budget=job.budget)


def repair(job: Job) -> RepairResult:
    """The ranked repairs."""
    with _running(job) as oracle:
        return services.repair(
            job.text,
            oracle,
            algorithm=job.repair_algorithm,
            budget=job.budget,
            top=job.top,
            max_loss=job.max_loss,
        )


def explain(job: Job) -> Abstraction:
    """DDSET with the document's validator as the predicate."""
    with _running(job):
        if not job.spec.has_validator:
            raise JobError("DDSET needs a validator (command or python)")
        grammar = load_grammar(job.spec)
        predicate = build_predicate(job.spec, original=job.text, suffix=job.suffix)
        try:
            return services.abstract(job.text, grammar, predicate, budget=job.budget, instances=3)
        finally:
            predicate.close()
