"""Process-pool side of the language server: CPU-heavy analyses.

Workers are spawned processes.  Their initializer sends stdout to stderr (a
stray ``print`` would corrupt the LSP stream) and keeps the shared array of
cancel flags; every job polls its flag through the algorithms' budget, so a
new edit stops the job for the old version within milliseconds.

Everything crossing the process boundary is a small picklable dataclass.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from inputmend import api
from inputmend.config import OracleSpec
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles import AllOf, build_oracle
from inputmend.oracles.base import Oracle, OracleConfigError
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.predicates import CommandPredicate, PythonPredicate
from inputmend.oracles.wrappers import Budget, Cancelled

_FLAGS: Any = None  # the shared cancel flags, set by the pool initializer
_ORACLES: dict[OracleSpec, Oracle] = {}  # per-process cache of built oracles


def initialize(flags: Any) -> None:
    """Pool initializer: protect the LSP channel, remember the cancel flags,
    and exit when the server is gone (killed servers must not leave workers)."""
    with contextlib.suppress(OSError):
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    global _FLAGS
    _FLAGS = flags
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _cancelled(slot: int) -> bool:
    return bool(_FLAGS is not None and _FLAGS[slot])


def _oracle(spec: OracleSpec, suffix: str) -> Oracle:
    oracle = _ORACLES.get(spec)
    if oracle is None:
        oracle = _ORACLES[spec] = build_oracle(spec, suffix=suffix)
    return oracle


def _stoppable(oracle: Oracle, slot: int) -> Oracle:
    """The oracle with its long grammar scans stopping as soon as the job is cancelled."""

    def stop() -> None:
        if _cancelled(slot):
            raise Cancelled("cancelled")

    if isinstance(oracle, IncrementalGrammarOracle):
        return oracle.with_stop(stop)
    if isinstance(oracle, AllOf):
        return AllOf([_stoppable(part, slot) for part in oracle.parts])
    return oracle


@dataclass(frozen=True)
class Job:
    """What to analyse: one version of one document."""

    text: str
    spec: OracleSpec
    suffix: str
    slot: int
    timeout_s: float
    max_tests: int | None
    phase: str  # "validate", "diagnose" or "repair"
    repair_algorithm: str = "auto"
    top: int = 5


@dataclass(frozen=True)
class RepairInfo:
    edits: tuple[tuple[int, int, str], ...]
    algorithm: str
    distance: int


@dataclass(frozen=True)
class Outcome:
    """What a job found; offsets are characters of the job's text."""

    phase: str
    valid: bool | None = None
    message: str = ""
    offset: int | None = None
    spans: tuple[tuple[int, int], ...] = ()
    repairs: tuple[RepairInfo, ...] = ()
    tests: int = 0
    elapsed_s: float = 0.0
    stopped: str | None = None
    error: str | None = None
    pattern: str | None = None
    reduced: str | None = None
    instances: tuple[str, ...] = ()


def run(job: Job) -> Outcome:
    """Pool entry point; never raises (problems are reported in ``error``)."""
    try:
        oracle = _stoppable(_oracle(job.spec, job.suffix), job.slot)
    except OracleConfigError as error:
        return Outcome(job.phase, error=str(error))
    budget = Budget(
        timeout_s=job.timeout_s,
        max_tests=job.max_tests,
        cancelled=lambda: _cancelled(job.slot),
    )
    try:
        if job.phase == "validate":
            feedback = oracle.check(job.text)
            return Outcome(
                job.phase,
                valid=feedback.valid,
                message=feedback.message,
                offset=feedback.error_offset,
            )
        if job.phase == "explain":
            return _explain(job, budget)
        if job.phase == "diagnose":
            diagnosis = api.explain(job.text, oracle, algorithm="auto", budget=budget)
            return Outcome(
                job.phase,
                spans=tuple((span.start, span.end) for span in diagnosis.spans),
                tests=diagnosis.stats.tests,
                elapsed_s=diagnosis.stats.elapsed_s,
                stopped=diagnosis.stats.stop_reason,
            )
        result = api.repair(
            job.text, oracle, algorithm=job.repair_algorithm, budget=budget, top=job.top
        )
        repairs = tuple(
            RepairInfo(
                tuple((e.offset, e.delete, e.insert) for e in repair.edits),
                repair.algorithm,
                repair.distance,
            )
            for repair in result.repairs
        )
        return Outcome(
            job.phase,
            valid=result.input_valid,
            repairs=repairs,
            tests=result.stats.tests,
            elapsed_s=result.stats.elapsed_s,
            stopped=result.stats.stop_reason,
        )
    except Exception as error:  # noqa: BLE001 - reported to the client, never a dead worker
        return Outcome(job.phase, error=f"{type(error).__name__}: {error}")


def _explain(job: Job, budget: Budget) -> Outcome:
    """DDSET with the document's validator as the predicate."""
    spec = job.spec
    if spec.grammar is None:
        return Outcome(job.phase, error="DDSET needs a grammar")
    grammar = CompiledGrammar.load(spec.grammar, base_dir=spec.base_dir)
    predicate: CommandPredicate | PythonPredicate
    try:
        if spec.command is not None:
            predicate = CommandPredicate(
                spec.command,
                original=job.text,
                timeout_s=spec.test_timeout_s,
                suffix=job.suffix,
                cwd=spec.base_dir,
            )
        elif spec.python is not None:
            base = str(spec.base_dir) if spec.base_dir is not None else None
            predicate = PythonPredicate(
                spec.python, original=job.text, timeout_s=spec.test_timeout_s, base_dir=base
            )
        else:
            return Outcome(job.phase, error="DDSET needs a validator (command or python)")
        try:
            result = api.abstract(job.text, grammar, predicate, budget=budget, instances=3)
        finally:
            predicate.close()
    except (ValueError, OracleConfigError) as error:
        return Outcome(job.phase, error=str(error))
    return Outcome(
        job.phase,
        pattern=result.pattern,
        reduced=result.reduced,
        instances=result.instances,
        tests=result.stats.tests,
        elapsed_s=result.stats.elapsed_s,
        stopped=result.stats.stop_reason,
    )
