"""Shared fixtures: toy oracles and paths."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from inputmend.core.oracle import Feedback, Verdict
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


@pytest.fixture(scope="session")
def dask_cluster() -> Iterator[Any]:
    """A Dask cluster of two worker processes (record mode's Dask engine)."""
    distributed = pytest.importorskip(
        "distributed",
        reason="the Dask extra is not installed (pip install -e '.[dask]'; make test installs it)",
    )
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster
