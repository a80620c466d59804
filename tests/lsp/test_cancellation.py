"""A cancelled background job stops quickly, in every phase (workers.run in-process)."""

from __future__ import annotations

import json
import threading
import time

import pytest

from inputmend.config import OracleSpec
from inputmend.lsp import workers


@pytest.mark.parametrize("phase", ["repair", "diagnose"])
def test_a_raised_flag_stops_the_job_within_milliseconds(
    phase: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    flags = [0] * 4
    monkeypatch.setattr(workers, "_FLAGS", flags)
    items = [json.dumps({"k": i, "v": ["x" * 10, i * 1.5]}) for i in range(20000)]
    text = "[" + ",\n".join(items[:10000]) + "\n" + ",\n".join(items[10000:]) + "]"  # a comma lost
    job = workers.Job(
        text=text,
        spec=OracleSpec(grammar="json"),
        suffix=".json",
        slot=2,
        timeout_s=60,
        max_tests=None,
        phase=phase,
    )
    outcomes: list[workers.Outcome] = []
    thread = threading.Thread(target=lambda: outcomes.append(workers.run(job)))
    thread.start()
    time.sleep(0.3)  # in the middle of the first scan or the search
    flags[2] = 1
    raised = time.monotonic()
    thread.join(timeout=10)
    stopped = time.monotonic() - raised
    assert not thread.is_alive()
    assert stopped < 0.25, f"the job went on for {stopped:.3f}s after the flag was raised"
    assert outcomes and (outcomes[0].error or outcomes[0].stopped)
