"""Fit and held-out parts of the corpus: sources by a stable hash, families by name.

``splits.toml`` says which share of document sources and which damage
families are used for fitting a ranking; everything else is held out, so that
a ranking is measured on packages and kinds of damage it never saw.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

SPLITS = Path(__file__).with_name("splits.toml")


def source_bucket(source: str, package: str) -> int:
    """0..99, the same on every machine (not Python's salted ``hash``)."""
    digest = hashlib.sha256(f"{source}:{package}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 100


@dataclass(frozen=True)
class Splits:
    """Which sources and families fitting may use."""

    fit_percent: int
    held_out_families: frozenset[str]

    def is_fit_source(self, source: str, package: str) -> bool:
        return source_bucket(source, package) < self.fit_percent

    def is_fit_family(self, family: str) -> bool:
        return family not in self.held_out_families


def load_splits(path: Path = SPLITS) -> Splits:
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    percent = int(table["fit_percent"])
    if not 0 <= percent <= 100:
        raise ValueError(f"{path}: fit_percent must be within 0..100, not {percent}")
    return Splits(percent, frozenset(table.get("held_out_families", [])))
