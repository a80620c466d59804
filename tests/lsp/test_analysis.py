"""What the analyser decides by itself: the final ranking is the command
line's, and keeps the quick fix the search did not find when it is as good;
it is offered as soon as it is ranked, and at once when the quick search
was the command line's own and ran to its end."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inputmend import jobs, services
from inputmend.core.budget import RunStats
from inputmend.core.model import Edit, Repair, RepairResult, apply_edits
from inputmend.core.oracle import Oracle
from inputmend.lsp.analysis import (
    NO_QUICK,
    QUICK_REPAIR_ALGORITHM,
    Analyser,
    final_ranking,
    quick_is_final,
)
from inputmend.lsp.scheduler import Scheduler
from inputmend.lsp.session import Session, Snapshot
from inputmend.lsp.settings import ServerSettings
from inputmend.oracles.incremental import IncrementalGrammarOracle

TEXT = '{"a": 1 "b": 2}'
GAP = TEXT.index(' "b"')


def _repair(*edits: Edit, algorithm: str = "fsynth") -> Repair:
    repaired = apply_edits(TEXT, edits)
    return Repair(repaired, edits, algorithm, True, sum(e.delete + len(e.insert) for e in edits))


COMMA = _repair(Edit(GAP, 0, ","))
COMMA_LATER = _repair(Edit(GAP + 1, 0, ","))  # same key: distance 1, one edit, nothing lost
DELETE = _repair(Edit(1, 7), algorithm="ddmax-hybrid")


def test_the_quick_top_stays_first_among_equals() -> None:
    ranked = final_ranking(TEXT, (COMMA_LATER,), (COMMA, DELETE), 5, quick_verified=True)
    assert [r.text for r in ranked] == [COMMA_LATER.text, COMMA.text, DELETE.text]
    assert ranked[-1].lossy  # ranked as the command line ranks: losing 7 of 12 is lossy


def test_a_strictly_better_repair_replaces_the_quick_top() -> None:
    ranked = final_ranking(TEXT, (DELETE,), (COMMA,), 5, quick_verified=True)
    assert ranked[0].text == COMMA.text


def test_quick_repairs_are_final_only_when_verified() -> None:
    assert final_ranking(TEXT, (COMMA,), (), 5, quick_verified=True) == (COMMA,)
    assert final_ranking(TEXT, (COMMA,), (), 5, quick_verified=False) == ()
    # with a validator, the quick top counts once the background search has verified it
    assert final_ranking(TEXT, (COMMA_LATER,), (COMMA,), 5, quick_verified=False) == (COMMA,)


def test_the_search_ranks_what_it_found_as_the_command_line_does() -> None:
    """The preferred fix is the command line's top repair: a quick top that
    the search found too takes the search's place."""
    for verified in (True, False):
        ranked = final_ranking(
            TEXT, (COMMA_LATER,), (COMMA, COMMA_LATER), 5, quick_verified=verified
        )
        assert ranked == (COMMA, COMMA_LATER)


class _Progress:
    async def begin(self, key: str, title: str, message: str) -> None:
        del key, title, message

    def report(self, key: str, message: str) -> None:
        del key, message

    def end(self, key: str) -> None:
        del key


async def test_the_final_repairs_are_offered_before_the_spans_search_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spans' search may use its whole budget: the ranked repairs (and
    the preferred quick fix) do not wait for it."""
    monkeypatch.setattr(jobs, "_FLAGS", [0] * 4)
    published: list[Snapshot] = []
    analyser = Analyser(Session(root=tmp_path), Scheduler(), published.append, _Progress())
    path = tmp_path / "order.json"
    snapshot = analyser.opened(path.as_uri(), path, 1, '{"a": 1 "b": 2}')
    analyser.fast_check_now(snapshot)
    spans_may_end = asyncio.Event()

    class HeldSpans:
        slot = 0

        async def __call__(self, phase: Callable[[jobs.Job], Any], job: jobs.Job) -> Any:
            if phase is jobs.diagnose:
                await spans_may_end.wait()
            return phase(job)

        def fork(self) -> None:
            return None

    analysis = asyncio.ensure_future(analyser._analyse(snapshot.uri, HeldSpans()))  # type: ignore[arg-type]
    for _ in range(6000):  # a hang guard of at least 60 s: it ends with the event
        if any(s.final for s in published) or analysis.done():
            break
        await asyncio.sleep(0.01)
    final = [s for s in published if s.final]
    assert final and not final[-1].analysed and not final[-1].spans
    assert final[-1].repairs and final[-1].repairs[0].text == '{"a": 1, "b": 2}'
    spans_may_end.set()
    await analysis
    assert published[-1].analysed and published[-1].final and published[-1].spans


def test_quick_repairs_are_final_when_their_search_is_the_background_one_run_to_its_end() -> None:
    whole = RepairResult(False, (COMMA,), RunStats(20, 0.1))
    cut = RepairResult(False, (COMMA,), RunStats(20, 0.5, budget_exhausted=True))
    assert quick_is_final(whole, algorithm=QUICK_REPAIR_ALGORITHM, has_validator=False)
    assert not quick_is_final(cut, algorithm=QUICK_REPAIR_ALGORITHM, has_validator=False)
    assert not quick_is_final(whole, algorithm=QUICK_REPAIR_ALGORITHM, has_validator=True)
    assert not quick_is_final(whole, algorithm="fsynth", has_validator=False)


async def test_final_quick_repairs_spare_the_pool_the_same_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "_FLAGS", [0] * 4)
    published: list[Snapshot] = []
    analyser = Analyser(Session(root=tmp_path), Scheduler(), published.append, _Progress())
    path = tmp_path / "quick.json"
    snapshot = analyser.opened(path.as_uri(), path, 1, TEXT)
    analyser.fast_check_now(snapshot)
    phases: list[str] = []
    stopped: list[str] = []

    class Searching:
        """The pool's search on a flag of its own: it runs until it is stopped."""

        slot = 1

        async def __call__(self, phase: Callable[[jobs.Job], Any], job: jobs.Job) -> Any:
            phases.append(phase.__name__)
            await asyncio.Event().wait()

        def cancel(self) -> None:
            stopped.append("cancel")

        def release(self) -> None:
            stopped.append("release")

    class Recording:
        slot = 0

        async def __call__(self, phase: Callable[[jobs.Job], Any], job: jobs.Job) -> Any:
            phases.append(phase.__name__)
            return phase(job)

        def fork(self) -> Searching:
            return Searching()

    await analyser._analyse(snapshot.uri, Recording())  # type: ignore[arg-type]
    # the pool's search started beside the quick one, and stopped once it was final
    assert sorted(phases) == ["diagnose", "repair"] and stopped == ["cancel", "release"]
    final = [s for s in published if s.final]
    # offered final at once, before the spans; then recorded with them
    assert final[0].repairs and not final[0].spans and final[-1].spans
    expected = services.repair(TEXT, IncrementalGrammarOracle("json")).repairs[0].text
    assert final[-1].repairs[0].text == expected


def _debounced_forever(
    tmp_path: Path, publish: Callable[[Snapshot], None]
) -> tuple[Session, Scheduler, Analyser]:
    """A session, scheduler and analyser whose debounce never fires in a
    test: only what skips it runs."""
    session = Session(root=tmp_path, settings=ServerSettings(debounce_ms=3_600_000))
    scheduler = Scheduler()
    return session, scheduler, Analyser(session, scheduler, publish, _Progress())


def _opened_valid(session: Session, analyser: Analyser, path: Path) -> str:
    """The URI of ``path`` opened with a valid text and checked."""
    uri = path.as_uri()
    analyser.opened(uri, path, 1, COMMA.text)
    analyser.fast_check_now(session.snapshots[uri])
    return uri


async def _started(analyser: Analyser) -> None:
    """Wait for the fast checks the analyser started (and what they start)."""
    while analyser._starting:
        await asyncio.gather(*analyser._starting)


async def test_the_first_error_after_valid_text_is_repaired_before_the_debounce(
    tmp_path: Path,
) -> None:
    """An edit that breaks valid text gets its quick repairs at once (the
    preferred fix when they are final); an edit of a text that was broken
    already waits for the debounce, as the pool's work does."""
    published: list[Snapshot] = []
    session, scheduler, analyser = _debounced_forever(tmp_path, published.append)
    uri = _opened_valid(session, analyser, tmp_path / "typed.json")
    try:
        broken = analyser.changed(uri, 2, TEXT)
        assert broken is not None and broken.after_valid
        analyser.start(broken)
        await _started(analyser)
        revision, quick = analyser._quick[uri]
        assert revision == broken.revision
        done = await quick
        assert done.final and done.offered[0].text == done.repairs[0].text
        offered = [s for s in published if s.revision == broken.revision and s.final]
        assert offered and offered[-1].repairs == done.offered
        assert uri in scheduler._timers and uri not in scheduler._tasks  # the pool waits

        still = analyser.changed(uri, 3, TEXT + " ")
        assert still is not None and not still.after_valid
        analyser.start(still)
        await _started(analyser)
        assert uri not in analyser._quick
        assert not [s for s in published if s.revision == still.revision and s.repairs]
    finally:
        scheduler.shutdown()


async def test_the_next_edit_is_checked_while_a_stale_quick_search_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick repairs search on an oracle of their own: the next
    version's fast check does not wait for a search of the last one."""
    published: list[Snapshot] = []
    session, scheduler, analyser = _debounced_forever(tmp_path, published.append)
    uri = _opened_valid(session, analyser, tmp_path / "held.json")
    searching, may_end = threading.Event(), threading.Event()
    searched_with: list[Oracle] = []
    repair = services.repair

    def held(text: str, oracle: Oracle, **options: Any) -> RepairResult:
        searched_with.append(oracle)
        searching.set()
        may_end.wait(60)  # a hang guard: the test releases it
        return repair(text, oracle, **options)

    monkeypatch.setattr(services, "repair", held)
    try:
        broken = analyser.changed(uri, 2, TEXT)
        assert broken is not None
        analyser.start(broken)
        await _started(analyser)
        _, quick = analyser._quick[uri]
        assert await asyncio.get_running_loop().run_in_executor(None, searching.wait, 60)
        mended = analyser.changed(uri, 3, COMMA.text)
        assert mended is not None
        analyser.start(mended)
        await _started(analyser)
        checked = [s for s in published if s.revision == mended.revision and s.fast]
        assert checked and checked[-1].fast is not None and checked[-1].fast.valid
        assert not quick.done()  # the stale search still ran meanwhile
        assert searched_with[0] is not session.snapshots[uri].setup.fast_oracle
    finally:
        may_end.set()
        scheduler.shutdown()
    assert (await quick) == NO_QUICK or not quick.result().final


async def test_an_opened_document_has_its_repairs_oracle_prepared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first check of a document prepares the quick repairs' own oracle
    with its text (off the event loop), once per oracle setup."""
    prepared: list[tuple[str, Oracle]] = []
    prepare = services.prepare_repairs

    def recording(text: str, oracle: Oracle) -> None:
        prepared.append((text, oracle))
        prepare(text, oracle)

    monkeypatch.setattr(services, "prepare_repairs", recording)
    session, scheduler, analyser = _debounced_forever(tmp_path, lambda _: None)
    path = tmp_path / "prepared.json"
    uri = path.as_uri()
    try:
        analyser.start(analyser.opened(uri, path, 1, COMMA.text))
        await _started(analyser)
        changed = analyser.changed(uri, 2, COMMA.text + "\n")
        assert changed is not None
        analyser.start(changed)
        await _started(analyser)
    finally:
        scheduler.shutdown()
    fast = session.snapshots[uri].setup.fast_oracle
    assert [text for text, _ in prepared] == [COMMA.text]
    assert prepared[0][1] is analyser._repairing[uri].oracle() and prepared[0][1] is not fast
