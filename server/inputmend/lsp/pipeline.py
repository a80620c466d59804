"""Per-document work of the language server.

For every change:
1. *fast path*, at once, in this process: the incremental grammar oracle
   re-checks the text (work proportional to the edit) and the boundary
   diagnostic is published with the document version;
2. *background*, debounced per document, in a process pool: the external
   validator (when configured and allowed), then the ranked repairs and the
   failure-inducing spans (ddmax) side by side, each published as it
   arrives.  Results carry the version they were computed for and are
   dropped when stale; a new edit raises the cancel flag of the running jobs,
   which stop within milliseconds.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from inputmend.config import CONFIG_NAME, OracleSpec, settings_for
from inputmend.lsp import workers
from inputmend.lsp.settings import ServerSettings
from inputmend.oracles import build_oracle
from inputmend.oracles.base import Feedback, Oracle, OracleConfigError, Verdict
from inputmend.text import LineIndex

log = logging.getLogger(__name__)

SLOTS = 256
DIAGNOSIS_TIMEOUT_S = 5.0
FAST_IN_LOOP_CHARS = 1_000_000  # above this, even the fast check leaves the event loop


class Progress(Protocol):
    """Work-done progress of one document's background analysis."""

    async def begin(self, document: DocumentState, message: str) -> None: ...

    def report(self, document: DocumentState, message: str) -> None: ...

    def end(self, document: DocumentState) -> None: ...


@dataclass
class DocumentState:
    """What the server knows about one open document."""

    uri: str
    path: Path
    version: int
    text: str
    spec: OracleSpec | None = None  # the whole oracle (grammar and validators)
    fast_oracle: Oracle | None = None  # the in-process grammar oracle
    notes: list[tuple[str, str]] = field(default_factory=list)  # (code, message)
    fast: Feedback | None = None
    validator: workers.Outcome | None = None
    spans: tuple[tuple[int, int], ...] = ()
    repairs: tuple[workers.RepairInfo, ...] | None = None
    analysed_version: int | None = None
    background_note: str | None = None
    slot: int | None = None
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    explanation: str | None = None
    _index: LineIndex | None = None

    @property
    def index(self) -> LineIndex:
        """Line starts of the current text, computed once per version."""
        if self._index is None or self._index.text is not self.text:
            self._index = LineIndex(self.text)
        return self._index

    @property
    def has_validator(self) -> bool:
        return self.spec is not None and (
            self.spec.command is not None or self.spec.python is not None
        )

    @property
    def invalid(self) -> bool:
        if self.fast is not None and not self.fast.valid:
            return True
        return self.validator is not None and self.validator.valid is False


class Pipeline:
    """Documents, their oracles, and the background jobs that analyse them."""

    def __init__(self, publish: Callable[[DocumentState], None], progress: Progress) -> None:
        self.publish = publish
        self.progress = progress
        self.settings = ServerSettings()
        self.root: Path | None = None
        self.documents: dict[str, DocumentState] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._threads: Executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="check")
        self._context = multiprocessing.get_context("spawn")
        self._flags: Any = self._context.Array("b", SLOTS, lock=False)
        self._free = list(range(SLOTS))

    # ------------------------------------------------------------ lifecycle
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            workers_count = max(1, min(2, (os.cpu_count() or 2)))
            self._pool = ProcessPoolExecutor(
                max_workers=workers_count,
                mp_context=self._context,
                initializer=workers.initialize,
                initargs=(self._flags,),
            )
        return self._pool

    def shutdown(self) -> None:
        for document in self.documents.values():
            self.cancel(document)
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # running jobs would delay exit by seconds
                process.kill()
            self._pool = None
        self._threads.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------- oracles
    def configure(self, document: DocumentState) -> None:
        """Decide the document's oracle from settings, trust and config files."""
        document.notes = []
        document.fast_oracle = None
        document.spec = None
        path = document.path
        try:
            spec = self.settings.oracle_for(path, self.root)
            if spec is None:
                spec = settings_for(path).spec
                external = spec.command is not None or spec.python is not None
                if external and not self.settings.trust_workspace_commands:
                    document.notes.append(
                        (
                            "untrusted-validator",
                            f"the validator from {spec.source} was not run: external commands "
                            f"from {CONFIG_NAME} run only when the user setting "
                            "inputmend.trustWorkspaceCommands is true",
                        )
                    )
                    spec = replace(spec, command=None, python=None)
                    if spec.grammar is None:
                        return
            spec = replace(
                spec, test_timeout_s=min(spec.test_timeout_s, self.settings.test_timeout_s)
            )
            document.spec = spec
            if spec.grammar is not None:
                grammar_only = replace(spec, command=None, python=None)
                document.fast_oracle = build_oracle(grammar_only)
        except OracleConfigError as error:
            message = str(error)
            if "no oracle for this file" not in message:
                document.notes.append(("configuration", message))

    def reconfigure_all(self) -> None:
        for document in self.documents.values():
            self.cancel(document)
            self.configure(document)
            self._invalidate(document)
            self.fast_check_now(document)
            self.schedule(document)

    # ------------------------------------------------------------- events
    def open(self, uri: str, path: Path, version: int, text: str) -> DocumentState:
        document = DocumentState(uri, path, version, text)
        self.documents[uri] = document
        self.configure(document)
        return document

    def change(self, document: DocumentState, version: int, text: str) -> None:
        self.cancel(document)
        document.version = version
        document.text = text
        self._invalidate(document)

    def close(self, uri: str) -> None:
        document = self.documents.pop(uri, None)
        if document is not None:
            self.cancel(document)

    def _invalidate(self, document: DocumentState) -> None:
        document.fast = None
        document.validator = None
        document.spans = ()
        document.repairs = None
        document.analysed_version = None
        document.background_note = None
        document.explanation = None

    # ------------------------------------------------------------ fast path
    def _fast_feedback(self, document: DocumentState, text: str) -> Feedback | None:
        oracle = document.fast_oracle
        if oracle is None:
            return None
        try:
            return oracle.check(text)
        except Exception as error:
            log.exception("fast check failed")
            return Feedback(Verdict.INCORRECT, None, f"internal error while checking: {error}")

    def fast_check_now(self, document: DocumentState) -> None:
        document.fast = self._fast_feedback(document, document.text)
        self.publish(document)

    async def fast_check(self, document: DocumentState) -> None:
        """The fast path: in the loop for normal documents, in a thread for huge
        ones; one check at a time per document, and never for a stale version."""
        version, text = document.version, document.text
        async with document.lock:
            if document.version != version:
                return
            if len(text) <= FAST_IN_LOOP_CHARS:
                feedback = self._fast_feedback(document, text)
            else:
                loop = asyncio.get_running_loop()
                feedback = await loop.run_in_executor(
                    self._threads, self._fast_feedback, document, text
                )
        if document.version == version:
            document.fast = feedback
            self.publish(document)

    # ----------------------------------------------------------- background
    def cancel(self, document: DocumentState) -> None:
        if document.timer is not None:
            document.timer.cancel()
            document.timer = None
        if document.slot is not None:
            self._flags[document.slot] = 1
        if document.task is not None and not document.task.done():
            document.task.cancel()
        document.task = None

    def schedule(self, document: DocumentState, *, delay: float | None = None) -> None:
        """Start the background analysis after the debounce delay."""
        if document.spec is None:
            return
        loop = asyncio.get_running_loop()
        if document.timer is not None:
            document.timer.cancel()
        wait = self.settings.debounce_ms / 1000 if delay is None else delay
        version = document.version
        document.timer = loop.call_later(wait, self._start, document, version)

    def _start(self, document: DocumentState, version: int) -> None:
        document.timer = None
        if document.version != version or self.documents.get(document.uri) is not document:
            return
        document.task = asyncio.ensure_future(self.analyse(document, version))

    def _job(self, document: DocumentState, phase: str, slot: int, spec: OracleSpec) -> workers.Job:
        return workers.Job(
            text=document.text,
            spec=spec,
            suffix=document.path.suffix,
            slot=slot,
            timeout_s=self.settings.timeout_s,
            max_tests=self.settings.max_tests,
            phase=phase,
            repair_algorithm=self.settings.repair_algorithm,
            top=self.settings.top,
        )

    def _take_slot(self) -> int | None:
        """A cancel flag for a new job (cleared), or None when all are in use."""
        if not self._free:
            return None
        slot = self._free.pop()
        self._flags[slot] = 0
        return slot

    def _release(self, slot: int, jobs: list[Future[workers.Outcome]]) -> None:
        """Give a slot back once every job that polls its flag has really ended:
        a cancelled task leaves its worker running until it sees the flag, and a
        new job must not clear the flag under it."""
        running = [job for job in jobs if not job.done()]
        if not running:
            self._free.append(slot)
            return
        loop = asyncio.get_running_loop()
        remaining = len(running)

        def finished(_: Future[workers.Outcome]) -> None:
            nonlocal remaining
            remaining -= 1
            if remaining == 0:
                loop.call_soon_threadsafe(self._free.append, slot)

        for job in running:
            job.add_done_callback(finished)

    def _submit(
        self, job: workers.Job, jobs: list[Future[workers.Outcome]]
    ) -> asyncio.Future[workers.Outcome]:
        future = self.pool().submit(workers.run, job)
        jobs.append(future)
        return asyncio.wrap_future(future)

    async def analyse(self, document: DocumentState, version: int) -> None:
        """Validator, then failure-inducing spans and repairs (in parallel) for
        one version; each result is published as soon as it is there."""
        spec = document.spec
        if spec is None:
            return
        if len(document.text) > self.settings.max_background_chars:
            document.background_note = (
                f"the document has {len(document.text):,} characters; failure-inducing spans "
                f"and repairs are computed for documents up to "
                f"{self.settings.max_background_chars:,} (setting inputmend.maxBackgroundChars)"
            )
            self.publish(document)
            return
        if not (document.has_validator or document.invalid):
            return
        slot = self._take_slot()
        if slot is None:
            return
        document.slot = slot
        jobs: list[Future[workers.Outcome]] = []
        begun = False
        try:
            if document.has_validator:
                begun = await self._begin(document, "running the validator", begun)
                outcome = await self._submit(self._job(document, "validate", slot, spec), jobs)
                if document.version != version:
                    return
                document.validator = outcome
                self.publish(document)
            if not document.invalid:
                return
            phases = []
            if self.settings.repairs:
                phases.append(self._repairs(document, version, slot, spec, jobs))
            if self.settings.diagnose:
                phases.append(self._diagnosis(document, version, slot, spec, jobs))
            if phases:
                begun = await self._begin(document, "computing repairs", begun)
                await asyncio.gather(*phases)
            if document.version == version:
                document.analysed_version = version
                self.publish(document)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background analysis failed")
        finally:
            if begun:
                self.progress.end(document)
            if document.slot == slot:
                document.slot = None
            self._release(slot, jobs)

    async def _repairs(
        self,
        document: DocumentState,
        version: int,
        slot: int,
        spec: OracleSpec,
        jobs: list[Future[workers.Outcome]],
    ) -> None:
        job = self._job(document, "repair", slot, spec)
        outcome = await self._phase(document, version, job, jobs, "repair")
        if outcome is not None:
            document.repairs = outcome.repairs
            if outcome.stopped and not outcome.repairs:
                document.background_note = f"no repair found ({outcome.stopped})"
            self.publish(document)

    async def _diagnosis(
        self,
        document: DocumentState,
        version: int,
        slot: int,
        spec: OracleSpec,
        jobs: list[Future[workers.Outcome]],
    ) -> None:
        job = self._job(document, "diagnose", slot, spec)
        # failure-inducing spans are a complement to the repairs: a shorter budget
        job = replace(job, timeout_s=min(job.timeout_s, DIAGNOSIS_TIMEOUT_S))
        outcome = await self._phase(document, version, job, jobs, "diagnosis")
        if outcome is not None:
            document.spans = outcome.spans
            self.publish(document)

    async def _phase(
        self,
        document: DocumentState,
        version: int,
        job: workers.Job,
        jobs: list[Future[workers.Outcome]],
        name: str,
    ) -> workers.Outcome | None:
        """Run one job; its outcome if it is still wanted and did not fail (a
        failure is noted on the document and published)."""
        outcome = await self._submit(job, jobs)
        if document.version != version:
            return None
        if outcome.error is not None:
            document.background_note = f"{name} failed: {outcome.error}"
            self.publish(document)
            return None
        return outcome

    async def _begin(self, document: DocumentState, message: str, begun: bool) -> bool:
        if begun:
            self.progress.report(document, message)
        else:
            await self.progress.begin(document, message)
        return True

    async def explain(self, document: DocumentState) -> workers.Outcome:
        """DDSET for a document the grammar accepts and the validator rejects."""
        spec = document.spec
        if spec is None or spec.grammar is None or not document.has_validator:
            return workers.Outcome("explain", error="DDSET needs a grammar and a validator")
        slot = self._take_slot()
        if slot is None:
            return workers.Outcome("explain", error="too many jobs running")
        jobs: list[Future[workers.Outcome]] = []
        try:
            await self.progress.begin(document, "explaining the failure (DDSET)")
            return await self._submit(self._job(document, "explain", slot, spec), jobs)
        finally:
            self.progress.end(document)
            self._release(slot, jobs)

    async def wait_for_analysis(self, document: DocumentState, timeout: float) -> bool:
        """Wait (bounded) until the current version has been analysed."""
        deadline = asyncio.get_running_loop().time() + timeout
        while document.analysed_version != document.version:
            if asyncio.get_running_loop().time() > deadline:
                return False
            if document.task is None and document.timer is None:
                if document.spec is None or not document.invalid:
                    return False
                self._start(document, document.version)
            await asyncio.sleep(0.02)
        return True
