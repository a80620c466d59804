"""Shared fixtures: toy oracles and paths."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from inputmend.oracles.base import Feedback, Verdict
from inputmend.oracles.python import CallableOracle

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


class CountingOracle:
    """Wraps a predicate ``text -> bool``; counts and records every check."""

    def __init__(self, accepts: Callable[[str], bool]) -> None:
        self.accepts = accepts
        self.seen: list[str] = []

    def check(self, text: str) -> Feedback:
        self.seen.append(text)
        return Feedback(Verdict.COMPLETE if self.accepts(text) else Verdict.INCORRECT)

    def describe(self) -> str:
        return "toy"

    def close(self) -> None:
        pass


def _strict_json(text: str) -> object:
    def reject(constant: str) -> object:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=reject)


@pytest.fixture
def json_oracle() -> CallableOracle:
    """A black-box JSON oracle: Python's json module (RFC 8259, no NaN)."""
    return CallableOracle(_strict_json, name="json.loads")


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"FSynth corpus not found at {CORPUS}")
    return CORPUS
