"""bench/repair_corpus.py: which JSON peers it runs."""

from __future__ import annotations

import pytest

from bench import repair_corpus


def test_a_peer_whose_module_is_missing_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        repair_corpus,
        "BASELINES",
        {"json-repair": "json", "missing": "inputmend_no_such_module"},
    )
    assert repair_corpus.installed_baselines() == ["json-repair"]
