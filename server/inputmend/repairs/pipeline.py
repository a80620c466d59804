"""One repair request, start to end: the generators propose on one shared
budget, the whole oracle verifies, one ordering ranks, the polish steps
finish; the result is a :class:`~inputmend.core.model.RepairResult`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from inputmend.algorithms.conflicts import ALGORITHM as CONFLICT_ALGORITHM
from inputmend.core.budget import Budget, Meter, RunStats
from inputmend.core.loss import LossLimit
from inputmend.core.model import Repair, RepairResult
from inputmend.core.oracle import Oracle, Verdict
from inputmend.core.text import UTF8, Encoding
from inputmend.repairs.context import context_of, verify
from inputmend.repairs.generators.base import Generator
from inputmend.repairs.polish import polish
from inputmend.repairs.rank import rank_in


def gives_prefix_feedback(oracle: Oracle) -> bool:
    """Can the oracle tell incomplete from incorrect (what FSynth needs)?

    The empty input is a prefix of every input: an oracle that calls it
    incorrect cannot report incomplete prefixes."""
    return oracle.check("").verdict is not Verdict.INCORRECT


def run(
    text: str,
    oracle: Oracle,
    generators: Sequence[Generator],
    *,
    budget: Budget,
    top: int,
    max_loss: LossLimit,
    spent_s: float = 0.0,
    fit_to_oracle: bool = False,
    encoding: Encoding = UTF8,
) -> RepairResult:
    """Ranked, verified repairs of ``text`` by ``generators`` (see
    :func:`inputmend.services.repair`).  ``fit_to_oracle``: leave out the
    generators that need prefix feedback when the oracle gives none (and
    say so), rather than run them in vain."""
    started = time.monotonic() - spent_s
    feedback = oracle.check(text)
    if feedback.valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    # the judge reads on past a window only while the whole run's budget lasts
    meter = Meter(budget.after(RunStats(0, time.monotonic() - started)))
    context = context_of(text, oracle, feedback, encoding=encoding, stop=meter.poll)
    found: tuple[Repair, ...] = ()
    partial: Repair | None = None
    tests = 1
    notes: list[str] = []
    chosen = list(generators)
    if fit_to_oracle and not gives_prefix_feedback(oracle):
        chosen = [g for g in chosen if not g.needs_prefix_feedback]
        notes.append("FSynth skipped: the oracle does not report incomplete inputs")
    for index, generator in enumerate(chosen):
        if any(repair.algorithm == CONFLICT_ALGORITHM for repair in found):
            break  # a side of each merge conflict made it valid: what a person keeps
        if not generator.wanted(context, found):
            continue
        spent = RunStats(tests, time.monotonic() - started)
        if budget.exhausted_by(spent) is not None:
            break
        weights = sum(later.weight for later in chosen[index:])
        share = budget.after(spent).fair_share(generator.weight / weights)
        candidates = generator.run(context, found, share)
        tests += candidates.cost.tests
        found = (*found, *candidates.repairs)
        partial = partial or candidates.partial
    verified = [r for r in found if r.valid and verify(oracle, r.text)]
    spent = RunStats(tests, time.monotonic() - started)
    stopped = budget.exhausted_by(spent)
    stats = replace(spent, budget_exhausted=stopped is not None, stop_reason=stopped)
    if not text:
        notes.append("the input is empty")
    if not verified:
        notes.append("no repair that the oracle accepts was found")
        if partial is not None:
            notes.append(
                "partial repair (incomplete): the start of the input is repaired up to the "
                "first point where no repair was found; the rest is unchanged"
            )
    ranked = rank_in(context, verified, top, max_loss, notes)
    ranked, polishing = polish(context, ranked, budget, spent)
    stats = replace(stats, tests=stats.tests + polishing, elapsed_s=time.monotonic() - started)
    return RepairResult(False, ranked, stats, tuple(notes), partial=partial)
