"""bench/repair_corpus.py: which JSON peers it runs; its CPU-time clock."""

from __future__ import annotations

import time

import pytest

from bench import repair_corpus
from inputmend.core import budget
from inputmend.repairs import pipeline, polish


def test_a_peer_whose_module_is_missing_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        repair_corpus,
        "BASELINES",
        {"json-repair": "json", "missing": "inputmend_no_such_module"},
    )
    assert repair_corpus.installed_baselines() == ["json-repair"]


def test_the_cpu_clock_counts_the_time_cap_in_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (budget, pipeline, polish):
        monkeypatch.setattr(module, "time", module.time)  # put back after the test
    monkeypatch.setattr(repair_corpus, "CLOCK", [time.perf_counter])
    repair_corpus.use_cpu_clock()
    for module in (budget, pipeline, polish):
        assert module.time.monotonic is time.process_time
    assert repair_corpus.CLOCK[0] is time.process_time
