"""One repair request, start to end: the generators propose on one shared
budget, the whole oracle verifies, one ordering ranks, the polish steps
finish; the result is a :class:`~inputmend.core.model.RepairResult`.

The generators run in order until one of them finds a repair that is
:func:`settled`: a budget is a ceiling, not a target, and once a repair is
known to be first by what it does to the data and by its size, a later
generator could only find its equals.  Only those whose repairs the
ranking's tie-breakers favour among equals
(:attr:`~inputmend.repairs.generators.base.Generator.breaks_ties`) still run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from inputmend.algorithms.conflicts import ALGORITHM as CONFLICT_ALGORITHM
from inputmend.algorithms.redecode import unreadable
from inputmend.core.budget import Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.loss import LossLimit
from inputmend.core.model import Repair, RepairResult
from inputmend.core.oracle import Oracle, Verdict
from inputmend.core.text import UTF8, Encoding
from inputmend.repairs.context import RepairContext, context_of, verify
from inputmend.repairs.generators.base import Generator
from inputmend.repairs.polish import polish
from inputmend.repairs.rank import rank_in


def gives_prefix_feedback(oracle: Oracle) -> bool:
    """Can the oracle tell incomplete from incorrect (what FSynth needs)?

    The empty input is a prefix of every input: an oracle that calls it
    incorrect cannot report incomplete prefixes."""
    return oracle.check("").verdict is not Verdict.INCORRECT


def settled(context: RepairContext, repair: Repair) -> bool:
    """Is ``repair`` (valid for the whole oracle) known to be first by the
    ranking's key (:func:`inputmend.algorithms.ranking.rank`) of any repair
    a later generator could find?

    It is when it does the data no harm (its judgement is
    :attr:`~inputmend.algorithms.judgement.Judgement.harmless`: no token
    changed, nothing lost, joined, invented or moved into a value, every
    record its shape), divides no value (``key: value`` from ``key value``
    is a lost delimiter put back, ``TODO: check`` from ``TODO check`` a
    line of prose that lost its comment marker read as a key: a later
    generator may find the repair that divides nothing), deletes no junk
    (so it is not lossy under any loss limit), and makes one edit of one
    character.  Undecodable bytes that have no reading as text are not
    counted lost (:func:`~inputmend.algorithms.redecode.unreadable`): every
    repair the oracle accepts removes them.  Every field the ranking
    orders before the size is then at its least, zero, and no repair is
    smaller: the input is invalid, so every repair edits at least one
    character.  A later candidate can at best equal it, and among equals the
    tie-breakers decide (brackets where the indentation says, a hint's
    repair first): the generators built for them still run
    (:attr:`~inputmend.repairs.generators.base.Generator.breaks_ties`), and
    the stop skips the others.  Two fields of the key have no such floor:
    words re-read as the text of a string whose lost quote a repair puts
    back, and characters deleted with foreign syntax (a comment, a wrapper),
    which the size does not count.  The hints propose such repairs, and
    they still run; a search could find one too, but the searches already
    give way to any harmless repair
    (:func:`~inputmend.repairs.generators.search.searching_may_help`)."""
    if len(repair.edits) != 1 or repair.distance != 1:
        return False
    judgement = context.judge(repair)
    # undecodable bytes with no reading as text: every repair loses them
    shared = unreadable(context.text, repair.edits)
    data_lost = max(0, judgement.data_lost - shared)
    junk_lost = max(0, judgement.junk_lost - max(0, shared - judgement.data_lost))
    if (data_lost, junk_lost) != (judgement.data_lost, judgement.junk_lost):
        judgement = replace(judgement, data_lost=data_lost, junk_lost=junk_lost)
    return judgement.harmless and not judgement.divided and not judgement.junk_lost


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
    say so), rather than run them in vain.  The generators run in order,
    each with its fair share of what the budget has left; after a
    :func:`settled` repair, only those that break ties."""
    started = time.monotonic() - spent_s
    feedback = oracle.check(text)
    if feedback.valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    # the judge reads on past a window only while the whole run's budget lasts
    meter = Meter(budget.after(RunStats(0, time.monotonic() - started)))
    context = context_of(
        text, oracle, feedback, encoding=encoding, stop=meter.poll, max_loss=max_loss
    )
    found: tuple[Repair, ...] = ()
    partial: Repair | None = None
    tests = 1
    capped: str | None = None  # a generator stopped by its share of the time cap
    notes: list[str] = []
    verdicts: dict[str, bool] = {}  # text -> accepted by the whole oracle

    def verified(repair: Repair) -> bool:
        if repair.text not in verdicts:
            verdicts[repair.text] = verify(oracle, repair.text)
        return verdicts[repair.text]

    chosen = list(generators)
    if fit_to_oracle and not gives_prefix_feedback(oracle):
        chosen = [g for g in chosen if not g.needs_prefix_feedback]
        notes.append("FSynth skipped: the oracle does not report incomplete inputs")
    best_known = False  # a settled repair was found: the later ones could only equal it
    cut_short = False  # a generator stopped for its share of the budget
    for index, generator in enumerate(chosen):
        if any(repair.algorithm == CONFLICT_ALGORITHM for repair in found):
            break  # a side of each merge conflict made it valid: what a person keeps
        if (best_known and not generator.breaks_ties) or not generator.wanted(context, found):
            continue
        spent = RunStats(tests, time.monotonic() - started)
        if budget.exhausted_by(spent) is not None:
            break
        weights = sum(later.weight for later in chosen[index:])
        left = budget.after(spent)
        share = left
        if not generator.takes_what_is_left:
            share = left.fair_share(generator.weight / weights)
        candidates = generator.run(context, found, share)
        tests += candidates.cost.tests
        cut_short = cut_short or candidates.cost.budget_exhausted
        if candidates.cost.time_capped:
            capped = candidates.cost.stop_reason
        found = (*found, *candidates.repairs)
        if candidates.verified:  # checked by the whole oracle: kept after the time cap too
            verdicts.update((repair.text, True) for repair in candidates.repairs)
        # verified now, so that a later generator that runs out the time cap
        # cannot leave them unverified
        _accepted(candidates.repairs, verified, verdicts, meter)
        partial = partial or candidates.partial
        best_known = best_known or any(
            r.valid and settled(context, r) and verified(r) for r in candidates.repairs
        )
        if candidates.settled:
            break  # the generator's repairs settle it: no generator after it runs
    accepted = _accepted(found, verified, verdicts, meter)
    spent = RunStats(tests, time.monotonic() - started)
    if not text:
        notes.append("the input is empty")
    if not accepted:
        notes.append("no repair that the oracle accepts was found")
        if partial is not None:
            notes.append(
                "partial repair (incomplete): the start of the input is repaired up to the "
                "first point where no repair was found; the rest is unchanged"
            )
    ranked = rank_in(context, accepted, top, max_loss, notes)
    ranked, polishing = polish(context, ranked, budget, spent)
    spent = RunStats(tests + polishing, time.monotonic() - started)
    stopped = budget.exhausted_by(spent) or meter.stop_reason or capped
    stats = replace(spent, budget_exhausted=stopped is not None, stop_reason=stopped)
    # the judge reads on, and the polish goes on, only while the budget lasts
    cut_short = cut_short or stopped is not None
    return RepairResult(False, ranked, stats, tuple(notes), partial=partial, cut_short=cut_short)


def _accepted(
    found: Sequence[Repair],
    verified: Callable[[Repair], bool],
    verdicts: Mapping[str, bool],
    meter: Meter,
) -> list[Repair]:
    """The repairs of ``found`` the whole oracle accepts (``verified``):
    those with a verdict already (``verdicts``, by text), and the others
    checked while the run's time cap lasts (each check is a whole-document
    scan)."""
    return [
        repair
        for repair in found
        if repair.valid and (repair.text in verdicts or _lasts(meter)) and verified(repair)
    ]


def _lasts(meter: Meter) -> bool:
    """Does the run's time cap (``meter``) leave time for one more check?"""
    try:
        meter.poll()
    except BudgetExhausted:
        return False
    return True
