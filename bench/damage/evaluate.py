"""Judging one tool's repairs of the cases, and the per-(format, operator) rows."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .corpus import Case
from .judges import data_lost, keeps_prefix, same_data


@dataclass(frozen=True)
class Outcome:
    """What a tool gave for one case: its repairs, best first, and its time."""

    repairs: tuple[str, ...]
    seconds: float | None
    error: str | None = None


@dataclass(frozen=True)
class Verdict:
    """Whether a tool's repairs of a case carry the original data."""

    case: Case
    repaired: bool
    top1: bool
    top5: bool
    appended: bool  # the top repair is the damaged text plus something (truncation)
    lost: int | None  # non-whitespace damaged characters the top repair deletes or overwrites
    seconds: float | None
    top: str | None


def carries_data(case: Case, repaired: str) -> bool:
    """The judgement: the original data, or for a truncation, all that is left of it."""
    if case.operator == "truncation":
        return keeps_prefix(case.format, case.damaged, repaired)
    return same_data(case.format, case.original, repaired)


def judge(case: Case, outcome: Outcome) -> Verdict:
    repairs = outcome.repairs
    if not repairs:
        return Verdict(case, False, False, False, False, None, outcome.seconds, None)
    top = repairs[0]
    return Verdict(
        case,
        repaired=True,
        top1=carries_data(case, top),
        top5=any(carries_data(case, repair) for repair in repairs[:5]),
        appended=top.startswith(case.damaged),
        lost=data_lost(case.damaged, top),
        seconds=outcome.seconds,
        top=top,
    )


@dataclass(frozen=True)
class Row:
    """One tool on the cases of one (format, operator) or of a whole operator."""

    cases: int
    repaired: int
    top1: int
    top5: int
    appended: int
    median_s: float | None
    mean_lost: float | None

    @staticmethod
    def of(verdicts: Sequence[Verdict]) -> Row:
        times = [v.seconds for v in verdicts if v.seconds is not None]
        lost = [v.lost for v in verdicts if v.lost is not None]
        return Row(
            cases=len(verdicts),
            repaired=sum(v.repaired for v in verdicts),
            top1=sum(v.top1 for v in verdicts),
            top5=sum(v.top5 for v in verdicts),
            appended=sum(v.appended for v in verdicts),
            median_s=statistics.median(times) if times else None,
            mean_lost=statistics.mean(lost) if lost else None,
        )


def share(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "–"
