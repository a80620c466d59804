"""A cancelled background job stops quickly, in every phase (jobs run in-process)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from inputmend.config.schema import OracleSpec
from inputmend.lsp import jobs


@pytest.mark.parametrize("phase", [jobs.repair, jobs.diagnose])
def test_a_raised_flag_stops_the_job_within_milliseconds(
    phase: Callable[[jobs.Job], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    flags = [0] * 4
    monkeypatch.setattr(jobs, "_FLAGS", flags)
    items = [json.dumps({"k": i, "v": ["x" * 10, i * 1.5]}) for i in range(20000)]
    text = "[" + ",\n".join(items[:10000]) + "\n" + ",\n".join(items[10000:]) + "]"  # a comma lost
    job = jobs.Job(
        text=text,
        spec=OracleSpec(grammar="json"),
        suffix=".json",
        slot=2,
        timeout_s=60,
        max_tests=None,
    )
    outcomes: list[str | None] = []

    def run() -> None:
        try:
            outcomes.append(phase(job).stats.stop_reason)
        except jobs.JobError as error:
            outcomes.append(str(error))

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.3)  # in the middle of the first scan or the search
    flags[2] = 1
    raised = time.monotonic()
    thread.join(timeout=10)
    stopped = time.monotonic() - raised
    assert not thread.is_alive()
    assert stopped < 0.25, f"the job went on for {stopped:.3f}s after the flag was raised"
    assert outcomes and outcomes[0]
