"""A cancelled background job stops at once, in every phase (jobs run in-process).

"At once" is counted in work, not in seconds: the flag is raised from inside
a grammar scan's stop hook, and that very call must stop the job: no stop-hook
call returns after it and none follows it (no scan goes on or starts)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from inputmend import jobs
from inputmend.config.schema import OracleSpec


class _RaisingStop(jobs._JobStop):
    """The jobs' stop hook, which raises the job's flag in its ``raise_at``-th
    call (in the middle of a scan) and counts what the job does afterwards."""

    def __init__(self, flags: list[int], slot: int, raise_at: int) -> None:
        super().__init__()
        self.flags, self.slot, self.raise_at = flags, slot, raise_at
        self.calls = 0
        self.returned_after_raise = 0  # stop-hook calls that let the job go on

    def __call__(self) -> None:
        self.calls += 1
        if self.calls == self.raise_at:
            self.flags[self.slot] = 1
        super().__call__()
        if self.calls >= self.raise_at:
            self.returned_after_raise += 1


@pytest.mark.parametrize(
    ("phase", "raise_at"),
    [
        (jobs.repair, 3),  # early in the first scan
        (jobs.repair, 40),  # a later scan
        (jobs.diagnose, 3),
        (jobs.diagnose, 40),
    ],
)
def test_a_raised_flag_stops_the_job_within_milliseconds(
    phase: Callable[[jobs.Job], Any], raise_at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    flags = [0] * 4
    stop = _RaisingStop(flags, slot=2, raise_at=raise_at)
    monkeypatch.setattr(jobs, "_FLAGS", flags)
    monkeypatch.setattr(jobs, "_STOP", stop)
    monkeypatch.setattr(jobs, "_ORACLES", {})  # a fresh oracle, built with this stop hook
    items = [json.dumps({"k": i, "v": ["x" * 10, i * 1.5]}) for i in range(20000)]
    text = "[" + ",\n".join(items[:10000]) + "\n" + ",\n".join(items[10000:]) + "]"  # a comma lost
    job = jobs.Job(
        text=text,
        spec=OracleSpec(grammar="json"),
        suffix=".json",
        slot=2,
        timeout_s=600,  # a safety cap only: the verdict counts work
        max_tests=None,
    )
    try:
        outcome = phase(job).stats.stop_reason
    except jobs.JobError as error:
        outcome = str(error)
    assert stop.calls >= raise_at, "the flag was never raised: the scan has no stop hook"
    assert stop.returned_after_raise == 0, (
        f"the job went on past {stop.returned_after_raise} stop-hook calls after the flag"
    )
    assert stop.calls == raise_at, f"{stop.calls - raise_at} stop-hook calls after the flag"
    assert outcome and "cancelled" in outcome, outcome
