"""What the server computes for a document, and in which order.

For every change:

1. *fast path*, at once, in this process: the incremental grammar oracle
   re-checks the text (work proportional to the edit) and the boundary
   diagnostic is published with the document version;
2. *background*, debounced per document:

   * *quick repairs*, in a thread of this process with the document's
     grammar, on an oracle of their own (:class:`RepairOracle`, prepared
     with the text when the document is first checked), so the fast path
     never waits for them (:data:`QUICK_REPAIR_ALGORITHM`, at most
     :data:`~inputmend.config.defaults.SERVER_QUICK_REPAIR_TESTS` oracle
     runs, capped at :data:`~inputmend.config.defaults.SERVER_QUICK_REPAIR_S`,
     which is logged when reached): offered as quick fixes at once, none of
     them preferred unless they are final; they start without the debounce
     when the edit broke a text the grammar accepted;
   * in the process pool: the external validator (when configured and
     allowed), then the ranked repairs and the failure-inducing spans (ddmax)
     side by side.

   Their results are recorded once the whole analysis is over, as one
   *final* snapshot, published once.  The final ranked list keeps the quick
   stage's top repair first unless the ranking puts another strictly before
   it (:func:`final_ranking`), so the fix a user saw offered first stays
   first, and only the final list marks a fix preferred.  The quick repairs
   are the final list themselves when their search is the command line's
   and ran to its end (:func:`quick_is_final`): the pool's search for the
   same repairs, started beside them, is then stopped, and the preferred
   fix is offered at once.  Quick repairs cut short by their time cap do
   not join the final list (they depend on the machine's speed, the final
   list must not).  Results go into the
   session only while their snapshot is current
   (:meth:`~inputmend.lsp.session.Session.update`); a new edit cancels the
   running jobs (:mod:`~inputmend.lsp.scheduler`).

DDSET runs on demand (:meth:`Analyser.explain`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from inputmend import jobs, services
from inputmend.config import defaults
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.model import Abstraction, Repair, RepairResult, Span
from inputmend.core.oracle import Feedback, Oracle, Verdict
from inputmend.core.render import distinct
from inputmend.core.text import LineIndex
from inputmend.lsp import convert
from inputmend.lsp.scheduler import Runner, Scheduler
from inputmend.lsp.session import Session, Snapshot

log = logging.getLogger(__name__)

FAST_IN_LOOP_CHARS = 1_000_000
"""Above this, even the fast check leaves the event loop (for a thread)."""
QUICK_REPAIR_ALGORITHM = "auto"
"""The repairs offered before the final ranked list: the command line's
search with the grammar alone (no validator runs) and a short budget, so
that its top repair is the final one whenever the search is quick."""


def final_ranking(
    text: str,
    quick: Sequence[Repair],
    found: Sequence[Repair],
    top: int,
    *,
    quick_verified: bool,
    oracle: Oracle | None = None,
    max_loss: LossLimit = DEFAULT_LIMIT,
) -> Sequence[Repair]:
    """The final ranked list: the background search's repairs, ranked as the
    command line ranks them (the same :func:`services.repair`); the quick
    stage's top repair joins them when the search did not find it, first
    unless the ranking's own key puts another strictly before it.

    ``quick_verified``: the quick repairs are valid for the whole oracle
    (there is no validator besides the grammar); otherwise the quick top
    counts only when the background search verified it too."""
    if not quick or any(r.text == quick[0].text for r in found):
        return found[:top]
    if not quick_verified:
        return found[:top]
    if not found:
        return quick[:top]
    return services.rank_repairs(text, (quick[0], *found), top, oracle=oracle, max_loss=max_loss)


def quick_is_final(result: RepairResult, *, algorithm: str, has_validator: bool) -> bool:
    """Are the quick repairs what the background search would find?  They
    are when the background search is the same (``algorithm`` is
    :data:`QUICK_REPAIR_ALGORITHM`), its oracle too (the grammar: no
    validator), and no part of the quick search was cut short by its budget
    (nor by a generator's share of it): the same search on the same text
    with the same oracle finds the same repairs and ranks them alike,
    whatever the time it took."""
    return (
        algorithm == QUICK_REPAIR_ALGORITHM
        and not has_validator
        and not result.stats.budget_exhausted
        and not result.cut_short
    )


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


@dataclass(frozen=True)
class Quick:
    """The quick repairs, those offered of them, and whether they are the final list."""

    repairs: tuple[Repair, ...]
    offered: tuple[Repair, ...]
    final: bool


NO_QUICK = Quick((), (), final=False)
"""No quick repairs (none wanted, or their search failed)."""


class RepairOracle:
    """The quick repairs' own grammar oracle for one document, built from
    the fast oracle's spec on first use (in the repairs' thread).

    A grammar oracle serves one caller at a time: sharing the fast check's,
    the next edit's check waited until a stale search noticed it was stale
    (its ranking is not interruptible), which added up to 200 ms to a
    keystroke's diagnostic on a busy machine.  With an oracle of their own,
    the repairs wait only for each other."""

    def __init__(self, spec: OracleSpec, fast: Oracle) -> None:
        self.spec = spec
        self.fast = fast
        self.lock = asyncio.Lock()
        self.prepared = False
        self._oracle: Oracle | None = None

    def oracle(self) -> Oracle:
        if self._oracle is None:
            self._oracle = services.build_oracle(self.spec.grammar_only(), loader=False)
        return self._oracle


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
        self._starting: set[asyncio.Task[None]] = set()
        self._repairing: dict[str, RepairOracle] = {}
        self._quick: dict[str, tuple[int, asyncio.Future[Quick]]] = {}
        """Quick repairs started before the debounce, by document and revision."""

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

    @staticmethod
    def _semantic_feedback(snapshot: Snapshot, fast: Feedback | None) -> Feedback | None:
        """The grammar's check of the rules that are not syntax (standard
        library code, safe to run here) on a text the grammar accepts."""
        oracle = snapshot.setup.fast_oracle
        grammar = services.grammar_check(oracle)
        if grammar is None or fast is None or not fast.valid:
            return None
        return grammar.check_semantics(snapshot.text)

    def _fast_results(self, snapshot: Snapshot) -> dict[str, Feedback | None]:
        fast = self._fast_feedback(snapshot)
        return {"fast": fast, "semantic": self._semantic_feedback(snapshot, fast)}

    def _huge_results(self, snapshot: Snapshot) -> dict[str, Feedback | None]:
        """The fast path's results of a huge document, and its line index,
        which the diagnostics need next: found here in the thread, the index
        does not hold up the requests the loop answers meanwhile."""
        results = self._fast_results(snapshot)
        _ = snapshot.index
        return results

    def fast_check_now(self, snapshot: Snapshot) -> None:
        self._apply(snapshot, **self._fast_results(snapshot))

    async def fast_check(self, snapshot: Snapshot) -> None:
        """The fast path: in the loop for normal documents, in a thread for huge
        ones; one check at a time per document, and never for a stale version."""
        lock = self._checking.setdefault(snapshot.uri, asyncio.Lock())
        async with lock:
            if not self.session.is_current(snapshot):
                return
            # a user grammar's time limit only works in the main thread (a
            # thread stuck in a regex could not be stopped and would hold the GIL)
            guarded = services.runs_user_grammar(snapshot.setup.fast_oracle)
            if len(snapshot.text) <= FAST_IN_LOOP_CHARS or guarded:
                results = self._fast_results(snapshot)
            else:
                results = await self.scheduler.in_thread(lambda: self._huge_results(snapshot))
        self._apply(snapshot, **results)

    def start(self, snapshot: Snapshot, *, delay: float | None = None) -> None:
        """The fast check of a new snapshot, then its background analysis
        (after ``delay``, default the debounce), in a task: the caller, a
        handler, returns at once with the snapshot already current.  The
        first error after valid text gets its quick repairs at once
        (:meth:`_quick_at_once`)."""

        async def check_then_schedule() -> None:
            await self.fast_check(snapshot)
            self._prepare(snapshot)
            self._quick_at_once(snapshot)
            self.schedule(snapshot, delay=delay)

        task = asyncio.ensure_future(check_then_schedule())
        self._starting.add(task)
        task.add_done_callback(self._started)

    def _quick_at_once(self, snapshot: Snapshot) -> None:
        """Start the quick repairs of ``snapshot`` now, before the debounce,
        when an edit just broke a text the grammar accepted.

        The debounce keeps work from starting on every keystroke of a burst;
        the first error after valid text is where a burst ends as often as
        not (a deleted comma, a stray character), and its repairs are wanted
        at once.  Later edits of the broken text wait for the debounce as
        before.  The search is the same one, on the same budget (bounded by
        oracle runs), whenever it starts: it only starts earlier, and a
        newer version stops it by its budget's cancellation."""
        current = self.session.get(snapshot.uri)
        if current is None or current.revision != snapshot.revision:
            return
        fast = current.fast
        if not current.after_valid or fast is None or fast.valid or current.spec is None:
            return
        if len(current.text) > self.session.settings.max_background_chars:
            return
        quick = asyncio.ensure_future(self._quick_repairs(current))
        self._quick[current.uri] = (current.revision, quick)

    def _prepare(self, snapshot: Snapshot) -> None:
        """When a document is first checked, prepare its repairs' oracle in
        a thread (:func:`services.prepare_repairs`): the document's first
        quick repairs, which have a short budget, then spend it on the
        search, not on building tables and scanning the text afresh."""
        current = self.session.get(snapshot.uri)
        if current is None or current.revision != snapshot.revision:
            return
        if len(current.text) > self.session.settings.max_background_chars:
            return
        own = self._repair_oracle(current)
        if own is None or own.prepared:
            return
        own.prepared = True

        async def prepare() -> None:
            async with own.lock:
                if not self.session.is_current(current):
                    return  # the repairs of a newer version will scan it
                try:
                    await self.scheduler.in_thread(
                        lambda: services.prepare_repairs(current.text, own.oracle())
                    )
                except Exception:
                    log.exception("preparing the repairs failed")

        task = asyncio.ensure_future(prepare())
        self._starting.add(task)
        task.add_done_callback(self._started)

    def _repair_oracle(self, snapshot: Snapshot) -> RepairOracle | None:
        """The quick repairs' oracle of ``snapshot``'s document; None when
        they have none (no grammar, repairs off, or a user grammar: a thread
        stuck in one of its regexes could not be stopped, and would hold the
        GIL; the pool's repairs come soon after)."""
        oracle, spec = snapshot.setup.fast_oracle, snapshot.spec
        if oracle is None or spec is None or not self.session.settings.repairs:
            return None
        if services.runs_user_grammar(oracle):
            return None
        own = self._repairing.get(snapshot.uri)
        if own is None or own.fast is not oracle:
            own = self._repairing[snapshot.uri] = RepairOracle(spec, oracle)
        return own

    def _quick_for(self, snapshot: Snapshot) -> asyncio.Future[Quick]:
        """The quick repairs of ``snapshot``: those started at once for it,
        else a search started now."""
        started = self._quick.pop(snapshot.uri, None)
        if started is not None and started[0] == snapshot.revision:
            return started[1]
        return asyncio.ensure_future(self._quick_repairs(snapshot))

    def _started(self, task: asyncio.Task[None]) -> None:
        self._starting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("checking a document failed", exc_info=task.exception())

    # ------------------------------------------------------------ lifecycle
    def opened(self, uri: str, path: Path, version: int, text: str) -> Snapshot:
        self.scheduler.cancel(uri)
        self._quick.pop(uri, None)
        return self.session.open(uri, path, version, text)

    def changed(
        self, uri: str, version: int, text: str, *, index: LineIndex | None = None
    ) -> Snapshot | None:
        self.scheduler.cancel(uri)
        self._quick.pop(uri, None)  # it stops by its budget: its snapshot is stale
        return self.session.change(uri, version, text, index=index)

    def closed(self, uri: str) -> None:
        self.scheduler.cancel(uri)
        self._checking.pop(uri, None)
        self._repairing.pop(uri, None)
        self._quick.pop(uri, None)
        self.session.close(uri)

    def reconfigure_all(self) -> None:
        """Settings or a configuration file changed: decide every oracle
        again, and analyse again the documents whose results would change."""
        for uri in list(self.session.snapshots):
            snapshot = self.session.reconfigure(uri)
            if snapshot is not None:
                self.scheduler.cancel(uri)
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
            top=defaults.CANDIDATES_PER_REPAIR * settings.top,
            max_loss=settings.max_loss,
        )

    async def _begin(self, snapshot: Snapshot, key: str, message: str) -> None:
        """Begin the progress ``key`` of one background task: one per task,
        so that a task that ends late never ends another's."""
        title = f"inputmend: {label(snapshot.document.path, self.session.root)}"
        await self.progress.begin(key, title, message)

    async def _analyse(self, uri: str, runner: Runner) -> None:
        """Quick repairs (offered at once), then the validator, then the
        failure-inducing spans and the final repairs (in parallel) of the
        document's current snapshot: the final repairs are offered as soon as
        they are ranked (the spans' search may take its whole budget), and
        everything is recorded together at the end."""
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
        if not (snapshot.invalid or snapshot.has_validator):
            self._apply(snapshot, analysed=True)
            return
        # At once (before the progress round trip) unless started already, and
        # not cancelled with this task: it stops by its budget once the
        # snapshot is stale, and holds the repairs' oracle until then.
        quick = self._quick_for(snapshot)
        begun, key = False, f"{uri}#{runner.slot}"
        try:
            await self._begin(snapshot, key, "computing repairs")
            begun = True
            results = await self._background(snapshot, spec, runner, key, quick)
            await quick
            if results is not None:
                self._apply(snapshot, analysed=True, **results)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("background analysis failed")
            self._apply(snapshot, background_note=f"analysis failed: {error}", analysed=True)
        finally:
            if begun:
                self.progress.end(key)

    async def _background(
        self,
        snapshot: Snapshot,
        spec: OracleSpec,
        runner: Runner,
        key: str,
        quick: asyncio.Future[Quick],
    ) -> dict[str, Any] | None:
        """The pool's results for ``snapshot`` (progress ``key``), the final
        repairs ranked with the ``quick`` ones; None when it went stale."""
        settings = self.session.settings
        results: dict[str, Any] = {}
        if snapshot.has_validator:
            self.progress.report(key, "running the validator")
            try:
                results["validator"] = await runner(
                    jobs.validate, self._job(snapshot, spec, settings.timeout_s)
                )
            except jobs.JobError as error:
                results["validator_error"] = str(error)
            # shown at once: repairs and spans with a validator can take long
            current = self._apply(snapshot, **results)
            if current is None:
                return None
            snapshot = current
        if not snapshot.invalid:
            return results
        self.progress.report(key, "computing repairs")
        phases = []
        if settings.repairs:
            phases.append(self._final_repairs(snapshot, spec, runner, quick))
        if settings.diagnose:
            phases.append(self._diagnosis(snapshot, spec, runner))
        notes = []
        for found in await asyncio.gather(*phases):
            note = found.pop("background_note", None)
            if note:
                notes.append(note)
            results.update(found)
        if notes:
            results["background_note"] = "; ".join(notes)
        return results

    async def _quick_repairs(self, snapshot: Snapshot) -> Quick:
        """Repairs with the grammar alone and a short budget, in a thread; they
        are offered at once, not preferred until the final list replaces
        them, or as the final list when they are (:func:`quick_is_final`)."""
        fast, settings = snapshot.fast, self.session.settings
        own = self._repair_oracle(snapshot)
        if own is None or fast is None or fast.valid:
            return NO_QUICK
        tests = defaults.SERVER_QUICK_REPAIR_TESTS
        budget = Budget(
            timeout_s=min(settings.timeout_s, defaults.SERVER_QUICK_REPAIR_S),
            max_tests=tests if settings.max_tests is None else min(tests, settings.max_tests),
            cancelled=lambda: not self.session.is_current(snapshot),
        )

        def repair() -> RepairResult:
            repairing = own.oracle()
            grammar = services.grammar_check(repairing)
            if grammar is not None:
                # built once per grammar on first use (about half a second),
                # which the short budget is not for: a truncated document's
                # completion is found at once after it
                _ = grammar.grammar.completer
            return services.repair(
                snapshot.text,
                repairing,
                algorithm=QUICK_REPAIR_ALGORITHM,
                budget=budget,
                top=defaults.CANDIDATES_PER_REPAIR * settings.top,
                max_loss=settings.max_loss,
            )

        async with own.lock:  # one search at a time on the repairs' oracle
            if not self.session.is_current(snapshot):
                return NO_QUICK
            try:
                result = await self.scheduler.in_thread(repair)
            except Exception:
                log.exception("quick repairs failed")
                return NO_QUICK
        final = quick_is_final(
            result, algorithm=settings.repair_algorithm, has_validator=snapshot.has_validator
        )
        offered = self._offered(snapshot, result.repairs) if result.repairs else ()
        if result.repairs or final:
            self._apply(snapshot, repairs=offered, final=final)
        if result.stats.time_capped:
            # what it found by then depends on the machine's speed: offered,
            # but the final list is the background search's alone
            log.info("quick repairs of %s: %s", snapshot.uri, result.stats.stop_reason)
            return Quick((), offered, final=False)
        return Quick(result.repairs, offered, final)

    def _offered(self, snapshot: Snapshot, repairs: Sequence[Repair]) -> tuple[Repair, ...]:
        """The first ``top`` repairs a user can tell apart (equivalent ones,
        with the same tokens after the repair, are one quick fix)."""
        offered = distinct(snapshot.text, repairs, convert.text_lexer(snapshot))
        return tuple(offered[: self.session.settings.top])

    async def _final_repairs(
        self,
        snapshot: Snapshot,
        spec: OracleSpec,
        runner: Runner,
        quick: asyncio.Future[Quick],
    ) -> dict[str, Any]:
        """The pool's repairs ranked with the quick ones (:func:`final_ranking`),
        offered at once, before the other background results; or the quick
        ones alone, when they are final: the pool's search for the same
        repairs, started beside them, is then stopped.  It runs on a cancel
        flag of its own (when one is free), so that stopping it leaves the
        spans' search alone."""
        if quick.done() and not quick.cancelled() and quick.exception() is None:
            early = quick.result()
            if early.final:  # found before the debounce ended: no search to stop
                return {"repairs": early.offered, "final": True}
        own = runner.fork()
        searching = asyncio.ensure_future(self._repairs(snapshot, spec, own or runner))
        try:
            done = await asyncio.shield(quick)
            if done.final:
                if own is not None:
                    own.cancel()
                searching.cancel()
                return {"repairs": done.offered, "final": True}
            results = await searching
        except asyncio.CancelledError:
            if own is not None:
                own.cancel()
            searching.cancel()
            raise
        finally:
            if own is not None:
                own.release()
        quick_repairs = done.repairs
        found = results.pop("repairs", None)
        if found is None and not quick_repairs:
            return results
        verified = not snapshot.has_validator
        results["repairs"] = await self.scheduler.in_thread(
            lambda: self._offered(
                snapshot,
                final_ranking(
                    snapshot.text,
                    quick_repairs,
                    found or (),
                    len(found or ()) + 1,
                    quick_verified=verified,
                    oracle=snapshot.setup.fast_oracle,
                    max_loss=self.session.settings.max_loss,
                ),
            )
        )
        results["final"] = True
        self._apply(snapshot, repairs=results["repairs"], final=True)
        return results

    async def _repairs(
        self, snapshot: Snapshot, spec: OracleSpec, runner: Runner
    ) -> dict[str, Any]:
        job = self._job(snapshot, spec, self.session.settings.timeout_s)
        try:
            result = await runner(jobs.repair, job)
        except jobs.JobError as error:
            return {"background_note": f"repair failed: {error}"}
        stopped = result.stats.stop_reason
        if stopped and not result.repairs:
            return {"repairs": result.repairs, "background_note": f"no repair found ({stopped})"}
        if result.stats.time_capped:
            return {"repairs": result.repairs, "background_note": f"repairs: {stopped}"}
        return {"repairs": result.repairs}

    async def _diagnosis(
        self, snapshot: Snapshot, spec: OracleSpec, runner: Runner
    ) -> dict[str, tuple[Span, ...] | str]:
        # failure-inducing spans are a complement to the repairs: a shorter budget
        timeout = min(self.session.settings.timeout_s, defaults.SERVER_DIAGNOSIS_TIMEOUT_S)
        try:
            diagnosis = await runner(jobs.diagnose, self._job(snapshot, spec, timeout))
        except jobs.JobError as error:
            return {"background_note": f"diagnosis failed: {error}"}
        if diagnosis.stats.time_capped:
            note = f"failure-inducing spans: {diagnosis.stats.stop_reason}"
            return {"spans": diagnosis.spans, "background_note": note}
        return {"spans": diagnosis.spans}

    # ----------------------------------------------------------------- DDSET
    async def explain(self, snapshot: Snapshot) -> Abstraction:
        """DDSET for a document the grammar accepts and the validator rejects
        (raises :class:`~inputmend.jobs.JobError`)."""
        spec = snapshot.spec
        if spec is None or spec.grammar is None or not spec.has_validator:
            raise jobs.JobError("DDSET needs a grammar and a validator")
        job = self._job(snapshot, spec, self.session.settings.timeout_s)

        async def work(runner: Runner) -> Abstraction:
            key = f"{snapshot.uri}#{runner.slot}"
            await self._begin(snapshot, key, "explaining the failure (DDSET)")
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
