"""What the elements of a text are for delta debugging: characters, lines or tokens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from inputmend.algorithms.configurations import Ranges, assemble_text, to_offsets
from inputmend.core.budget import Budget, Meter
from inputmend.core.oracle import Oracle, Outcome
from inputmend.oracles.wrappers import metered

Unit = Literal["char", "line"]


@dataclass(frozen=True)
class Segmentation:
    """A text cut into elements at ``bounds`` (``None``: every character)."""

    text: str
    bounds: Sequence[int] | None = None

    @property
    def size(self) -> int:
        return len(self.text) if self.bounds is None else len(self.bounds) - 1

    def assemble(self, ranges: Ranges) -> str:
        return assemble_text(self.text, ranges, self.bounds)

    def offsets(self, ranges: Ranges) -> Ranges:
        """Element ranges as character ranges of the text."""
        return to_offsets(ranges, self.bounds)


def segment(text: str, unit: Unit = "char") -> Segmentation:
    if unit == "char":
        return Segmentation(text)
    bounds = [0]
    for line in text.splitlines(keepends=True):
        bounds.append(bounds[-1] + len(line))
    return Segmentation(text, bounds)


def text_test(
    text: str, oracle: Oracle, unit: Unit, budget: Budget
) -> tuple[Segmentation, Callable[[Ranges], Outcome], Meter]:
    """The elements of ``text``, a metered and cached test of a configuration
    of them (the text it keeps, judged by ``oracle``), and the meter."""
    checked, meter = metered(oracle, budget)
    segments = segment(text, unit)

    def test(ranges: Ranges) -> Outcome:
        return checked.check(segments.assemble(ranges)).outcome

    return segments, test, meter
