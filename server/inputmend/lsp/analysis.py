"""What the server computes for a document, and in which order.

For every change:

1. *fast path*, at once, in this process: the incremental grammar oracle
   re-checks the text (work proportional to the edit) and the boundary
   diagnostic is published with the document version;
2. *background*, debounced per document, in the process pool: the external
   validator (when configured and allowed), then the ranked repairs and the
   failure-inducing spans (ddmax) side by side, each published as it
   arrives.  Results go into the session only while their snapshot is
   current (:meth:`~inputmend.lsp.session.Session.update`); a new edit
   cancels the running jobs (:mod:`~inputmend.lsp.scheduler`).

DDSET runs on demand (:meth:`Analyser.explain`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from inputmend.config import defaults
from inputmend.config.schema import OracleSpec
from inputmend.core.model import Abstraction
from inputmend.lsp import jobs
from inputmend.lsp.scheduler import Runner, Scheduler
from inputmend.lsp.session import Session, Snapshot
from inputmend.oracles.base import Feedback, Verdict
from inputmend.oracles.watchdog import GuardedGrammar

log = logging.getLogger(__name__)

FAST_IN_LOOP_CHARS = 1_000_000
"""Above this, even the fast check leaves the event loop (for a thread)."""


class ProgressReporter(Protocol):
    """Work-done progress of one document's background work."""

    async def begin(self, key: str, title: str, message: str) -> None: ...

    def report(self, key: str, message: str) -> None: ...

    def end(self, key: str) -> None: ...


def label(path: Path, root: Path | None) -> str:
    """A document's path relative to the workspace (unique in a window)."""
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.name


class Analyser:
    """Runs the fast check and the background analysis of the session's documents."""

    def __init__(
        self,
        session: Session,
        scheduler: Scheduler,
        publish: Callable[[Snapshot], None],
        progress: ProgressReporter,
    ) -> None:
        self.session = session
        self.scheduler = scheduler
        self.publish = publish
        self.progress = progress
        self._checking: dict[str, asyncio.Lock] = {}

    def _apply(self, snapshot: Snapshot, **results: Any) -> Snapshot | None:
        """Record results of ``snapshot`` and publish; None when it is stale."""
        current = self.session.update(snapshot, **results)
        if current is not None:
            self.publish(current)
        return current

    # ------------------------------------------------------------ fast path
    def _fast_feedback(self, snapshot: Snapshot) -> Feedback | None:
        oracle = snapshot.setup.fast_oracle
        if oracle is None:
            return None
        try:
            return oracle.check(snapshot.text)
        except Exception as error:
            log.exception("fast check failed")
            return Feedback(Verdict.INCORRECT, None, f"internal error while checking: {error}")

    def fast_check_now(self, snapshot: Snapshot) -> None:
        self._apply(snapshot, fast=self._fast_feedback(snapshot))

    async def fast_check(self, snapshot: Snapshot) -> None:
        """The fast path: in the loop for normal documents, in a thread for huge
        ones; one check at a time per document, and never for a stale version."""
        lock = self._checking.setdefault(snapshot.uri, asyncio.Lock())
        async with lock:
            if not self.session.is_current(snapshot):
                return
            # a user grammar's time limit only works in the main thread (a
            # thread stuck in a regex could not be stopped and would hold the GIL)
            guarded = isinstance(snapshot.setup.fast_oracle, GuardedGrammar)
            if len(snapshot.text) <= FAST_IN_LOOP_CHARS or guarded:
                feedback = self._fast_feedback(snapshot)
            else:
                feedback = await self.scheduler.in_thread(lambda: self._fast_feedback(snapshot))
        self._apply(snapshot, fast=feedback)

    # ------------------------------------------------------------ lifecycle
    def opened(self, uri: str, path: Path, version: int, text: str) -> Snapshot:
        self.scheduler.cancel(uri)
        return self.session.open(uri, path, version, text)

    def changed(self, uri: str, version: int, text: str) -> Snapshot | None:
        self.scheduler.cancel(uri)
        return self.session.change(uri, version, text)

    def closed(self, uri: str) -> None:
        self.scheduler.cancel(uri)
        self._checking.pop(uri, None)
        self.session.close(uri)

    def reconfigure_all(self) -> None:
        """Settings or a configuration file changed: decide every oracle again."""
        for uri in list(self.session.snapshots):
            self.scheduler.cancel(uri)
            snapshot = self.session.reconfigure(uri)
            if snapshot is not None:
                self.fast_check_now(snapshot)
                self.schedule(snapshot)

    # ----------------------------------------------------------- background
    def schedule(self, snapshot: Snapshot, *, delay: float | None = None) -> None:
        """Start the background analysis after the debounce delay."""
        if snapshot.spec is None:
            return
        wait = self.session.settings.debounce_ms / 1000 if delay is None else delay
        uri = snapshot.uri
        self.scheduler.later(uri, wait, lambda runner: self._analyse(uri, runner))

    def _job(self, snapshot: Snapshot, spec: OracleSpec, timeout_s: float) -> jobs.Job:
        settings = self.session.settings
        return jobs.Job(
            text=snapshot.text,
            spec=spec,
            suffix=snapshot.document.path.suffix,
            timeout_s=timeout_s,
            max_tests=settings.max_tests,
            repair_algorithm=settings.repair_algorithm,
            top=settings.top,
        )

    async def _begin(self, snapshot: Snapshot, key: str, message: str, begun: bool) -> bool:
        """Begin (or go on with) the progress ``key`` of one background task:
        one per task, so that a task that ends late never ends another's."""
        if begun:
            self.progress.report(key, message)
        else:
            title = f"inputmend: {label(snapshot.document.path, self.session.root)}"
            await self.progress.begin(key, title, message)
        return True

    async def _analyse(self, uri: str, runner: Runner) -> None:
        """Validator, then failure-inducing spans and repairs (in parallel) for
        the document's current snapshot; each result is published as soon as
        it is there, and the snapshot is marked analysed at the end."""
        snapshot = self.session.get(uri)
        if snapshot is None or snapshot.spec is None:
            return
        spec, settings = snapshot.spec, self.session.settings
        if len(snapshot.text) > settings.max_background_chars:
            note = (
                f"the document has {len(snapshot.text):,} characters; failure-inducing spans "
                f"and repairs are computed for documents up to "
                f"{settings.max_background_chars:,} (setting inputmend.maxBackgroundChars)"
            )
            self._apply(snapshot, background_note=note, analysed=True)
            return
        begun, key = False, f"{uri}#{runner.slot}"
        try:
            if snapshot.has_validator:
                begun = await self._begin(snapshot, key, "running the validator", begun)
                job = self._job(snapshot, spec, settings.timeout_s)
                try:
                    verdict = await runner(jobs.validate, job)
                    current = self._apply(snapshot, validator=verdict)
                except jobs.JobError as error:
                    current = self._apply(snapshot, validator_error=str(error))
                if current is None:
                    return
                snapshot = current
            if snapshot.invalid:
                phases = []
                if settings.repairs:
                    phases.append(self._repairs(snapshot, spec, runner))
                if settings.diagnose:
                    phases.append(self._diagnosis(snapshot, spec, runner))
                if phases:
                    begun = await self._begin(snapshot, key, "computing repairs", begun)
                    await asyncio.gather(*phases)
            self._apply(snapshot, analysed=True)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("background analysis failed")
            self._apply(snapshot, background_note=f"analysis failed: {error}", analysed=True)
        finally:
            if begun:
                self.progress.end(key)

    async def _repairs(self, snapshot: Snapshot, spec: OracleSpec, runner: Runner) -> None:
        job = self._job(snapshot, spec, self.session.settings.timeout_s)
        try:
            result = await runner(jobs.repair, job)
        except jobs.JobError as error:
            self._apply(snapshot, background_note=f"repair failed: {error}")
            return
        stopped = result.stats.stop_reason
        if stopped and not result.repairs:
            self._apply(
                snapshot, repairs=result.repairs, background_note=f"no repair found ({stopped})"
            )
        else:
            self._apply(snapshot, repairs=result.repairs)

    async def _diagnosis(self, snapshot: Snapshot, spec: OracleSpec, runner: Runner) -> None:
        # failure-inducing spans are a complement to the repairs: a shorter budget
        timeout = min(self.session.settings.timeout_s, defaults.SERVER_DIAGNOSIS_TIMEOUT_S)
        try:
            diagnosis = await runner(jobs.diagnose, self._job(snapshot, spec, timeout))
        except jobs.JobError as error:
            self._apply(snapshot, background_note=f"diagnosis failed: {error}")
            return
        self._apply(snapshot, spans=diagnosis.spans)

    # ----------------------------------------------------------------- DDSET
    async def explain(self, snapshot: Snapshot) -> Abstraction:
        """DDSET for a document the grammar accepts and the validator rejects
        (raises :class:`~inputmend.lsp.jobs.JobError`)."""
        spec = snapshot.spec
        if spec is None or spec.grammar is None or not spec.has_validator:
            raise jobs.JobError("DDSET needs a grammar and a validator")
        job = self._job(snapshot, spec, self.session.settings.timeout_s)

        async def work(runner: Runner) -> Abstraction:
            key = f"{snapshot.uri}#{runner.slot}"
            await self._begin(snapshot, key, "explaining the failure (DDSET)", False)
            try:
                return await runner(jobs.explain, job)
            finally:
                self.progress.end(key)

        return await self.scheduler.run(work)

    async def wait_for_analysis(self, uri: str, timeout: float) -> Snapshot | None:
        """The document's snapshot once its background analysis is over (it may
        be a later version than now); None when nothing will analyse it or the
        wait times out."""
        snapshot = await self.session.wait_for(uri, lambda s: s.analysed or s.spec is None, timeout)
        return snapshot if snapshot is not None and snapshot.analysed else None
