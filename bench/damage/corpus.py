"""Seeded damage cases from the format table, and writing them to files."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from .formats import FORMATS, FormatSpec
from .lexing import is_valid
from .seeds import Seed


@dataclass(frozen=True)
class Case:
    """One damaged document, the valid original it came from, and how."""

    id: str  # "FORMAT/OPERATOR/NNN"
    format: str
    operator: str
    seed: str  # the seed document's name
    original: str
    damaged: str


@dataclass(frozen=True)
class Generated:
    """The cases of one (format, operator), and how many damages were tried for them."""

    format: str
    operator: str
    cases: tuple[Case, ...]
    tries: int


def valid_seeds(spec: FormatSpec) -> tuple[list[Seed], list[str]]:
    """The format's seed documents that its grammar accepts, and the names of the others."""
    seeds: list[Seed] = []
    rejected: list[str] = []
    for document in spec.seeds():
        if is_valid(spec.name, document.text):
            seeds.append(document)
        else:
            rejected.append(document.name)
    return seeds, rejected


def generate(
    spec: FormatSpec, operator: str, seeds: Sequence[Seed], *, count: int, seed: int, tries: int
) -> Generated:
    """Up to ``count`` distinct cases: a random seed document, damaged, kept if invalid.

    One random stream per (seed, format, operator), so a case does not depend
    on which other formats or operators run, and the first N cases of a larger
    run are the cases of a run with N.  ``tries`` damages per wanted case at
    most (an operator that rarely breaks a format gives fewer cases, and the
    report says so).
    """
    damage = spec.operators[operator]
    rng = random.Random(f"{seed}/{spec.name}/{operator}")
    cases: list[Case] = []
    seen: set[str] = set()
    attempts = 0
    while len(cases) < count and attempts < count * tries and seeds:
        attempts += 1
        document = rng.choice(seeds)
        damaged = damage(document.text, rng)
        if damaged is None or damaged in seen or is_valid(spec.name, damaged):
            continue
        seen.add(damaged)
        number = f"{len(cases):03d}"
        cases.append(
            Case(
                f"{spec.name}/{operator}/{number}",
                spec.name,
                operator,
                document.name,
                document.text,
                damaged,
            )
        )
    return Generated(spec.name, operator, tuple(cases), attempts)


def generate_all(
    formats: Sequence[str], operators: Sequence[str], *, count: int, seed: int, tries: int
) -> list[Generated]:
    """Every applicable (format, operator) of the selection, in table order."""
    generated = []
    for name in formats:
        spec = FORMATS[name]
        seeds, _ = valid_seeds(spec)
        for operator in operators:
            if operator in spec.operators:
                generated.append(
                    generate(spec, operator, seeds, count=count, seed=seed, tries=tries)
                )
    return generated


def dump(cases: Sequence[Case], folder: Path) -> None:
    """``FOLDER/FORMAT/OPERATOR/NNN.EXT`` (damaged), ``NNN.EXT.orig`` and ``NNN.meta``.

    ``inputmend repair FOLDER`` repairs the damaged files only: it skips
    ``.orig`` files, and ``.meta`` has no oracle."""
    for case in cases:
        target = folder / case.format / case.operator
        target.mkdir(parents=True, exist_ok=True)
        stem = case.id.rsplit("/", 1)[1]
        extension = FORMATS[case.format].extension
        (target / f"{stem}{extension}").write_text(case.damaged, encoding="utf-8", newline="")
        (target / f"{stem}{extension}.orig").write_text(case.original, encoding="utf-8", newline="")
        meta = {key: value for key, value in asdict(case).items() if key not in ("original",)}
        (target / f"{stem}.meta").write_text(
            json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
