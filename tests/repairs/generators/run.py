"""Running one generator on a text as a request for a bundled format does."""

from __future__ import annotations

from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair, apply_edits, distance
from inputmend.oracles.factory import build_oracle
from inputmend.repairs.context import RepairContext, context_of
from inputmend.repairs.generators.base import Candidates, Generator


def context(text: str, fmt: str) -> RepairContext:
    """The repair context of ``text`` as a file of the bundled format ``fmt``."""
    oracle = build_oracle(OracleSpec(grammar=fmt))
    return context_of(text, oracle, oracle.check(text))


def proposed(generator: Generator, text: str, fmt: str, *, max_tests: int = 500) -> Candidates:
    """What ``generator`` finds for ``text`` (a file of ``fmt``) in ``max_tests`` oracle runs."""
    return generator.run(context(text, fmt), (), Budget(max_tests=max_tests))


def texts(found: Candidates) -> list[str]:
    """The candidate texts, in the order found."""
    return [repair.text for repair in found.repairs]


def repair_of(text: str, *edits: Edit) -> Repair:
    """A valid repair of ``text`` by ``edits``, as a generator would propose it."""
    repaired = apply_edits(text, edits)
    return Repair(repaired, edits, "test", True, distance(text, repaired))
