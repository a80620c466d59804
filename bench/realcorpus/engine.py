"""The one place where the benchmark calls inputmend.

Everything the evaluator needs from the engine goes through :func:`repair`:
the CLI's oracle for a bundled format (``build_oracle(OracleSpec(grammar=FMT))``,
grammar plus the format's loader) and ``services.repair`` with a budget in
oracle runs.  A candidate is read into a plain :class:`Candidate` with the
ranking's judgement fields that the engine's ``Repair`` has (those it lacks
are left out), the ranking's features of it (``Features``, computed again
for the candidates returned, as the request ranked them; the loader asked
about each) and its title as the command line writes it, so a change of the
engine's types is adapted here alone.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from inputmend import services
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.core.loss import DEFAULT_LIMIT
from inputmend.core.render import describe_repair
from inputmend.oracles.factory import build_oracle
from inputmend.repairs.rank import scored_for_oracle

# fields of a Repair that are the ranking's judgement, when the engine has them
JUDGEMENT_FIELDS = ("distance", "data_lost", "tokens_kept", "lossy", "summary", "note")


@dataclass(frozen=True)
class Candidate:
    """One ranked repair: its text, the algorithm that found it, its edits
    as (offset, deleted, inserted), the ranking's judgement fields and its
    features (name, value)."""

    text: str
    algorithm: str
    edits: tuple[tuple[int, int, str], ...]
    judgement: tuple[tuple[str, Any], ...]
    features: tuple[tuple[str, int], ...] = ()
    title: str = ""


@dataclass(frozen=True)
class Answer:
    candidates: tuple[Candidate, ...]
    input_valid: bool
    wall_time_capped: bool  # the wall-time safety cap stopped the search


def _judgement(repair: object) -> tuple[tuple[str, Any], ...]:
    return tuple(
        (name, getattr(repair, name)) for name in JUDGEMENT_FIELDS if hasattr(repair, name)
    )


def repair(text: str, fmt: str, *, max_tests: int, timeout_s: float, top: int) -> Answer:
    """The engine's ranked repairs of ``text`` as a file of the bundled format ``fmt``."""
    oracle = build_oracle(OracleSpec(grammar=fmt))
    try:
        result = services.repair(
            text, oracle, budget=Budget(timeout_s=timeout_s, max_tests=max_tests), top=top
        )
        found = scored_for_oracle(text, result.repairs, len(result.repairs), oracle, DEFAULT_LIMIT)
        lexer = services.lexer_of(oracle)
        titles = [
            describe_repair(text, ranked.edits, lexer=lexer, repaired=ranked.text)
            for ranked in result.repairs
        ]
    finally:
        oracle.close()
    features = {s.repair.text: tuple(asdict(s.features).items()) for s in found}
    candidates = tuple(
        Candidate(
            text=found.text,
            algorithm=found.algorithm,
            edits=tuple((edit.offset, edit.delete, edit.insert) for edit in found.edits),
            judgement=_judgement(found),
            features=features.get(found.text, ()),
            title=title,
        )
        for found, title in zip(result.repairs, titles, strict=True)
    )
    capped = result.stats.time_capped
    return Answer(candidates, result.input_valid, capped)
