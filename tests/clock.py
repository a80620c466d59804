"""A clock that moves by work, for tests of time budgets.

The budget (:mod:`inputmend.core.budget`) and the repair pipeline
(:mod:`inputmend.repairs.pipeline`, :mod:`inputmend.repairs.polish`) read
``time.monotonic``; with :func:`work_clock` they read a clock that moves only
when the test says (e.g. by a fixed step per oracle run), so a time budget
runs out after the same work on any machine under any load."""

from __future__ import annotations

import types

import pytest

from inputmend.core import budget
from inputmend.repairs import pipeline, polish


class WorkClock:
    """A monotonic clock advanced by :meth:`advance`, never by itself."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def work_clock(monkeypatch: pytest.MonkeyPatch) -> WorkClock:
    """Make budgets and the repair pipeline read a fresh :class:`WorkClock`."""
    clock = WorkClock()
    fake_time = types.SimpleNamespace(monotonic=clock.monotonic)
    for module in (budget, pipeline, polish):
        monkeypatch.setattr(module, "time", fake_time)
    return clock
