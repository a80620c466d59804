"""The one ordering of a request's repairs: by what they do to the data
(:func:`inputmend.algorithms.ranking.rank`: the judgement of their tokens,
edits, layout agreement, the file's own style), read with the guide grammar
and its hints; then those the format's own loader accepts before those it
rejects."""

from __future__ import annotations

from collections.abc import Iterable

from inputmend.algorithms.hints import Guidance, guidance
from inputmend.algorithms.judgement import Judge
from inputmend.algorithms.layout_window import windowed_agreement
from inputmend.algorithms.ranking import rank
from inputmend.core.loss import LossLimit
from inputmend.core.model import Repair
from inputmend.core.oracle import Oracle
from inputmend.grammar.syntax import Brackets, syntax_of
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repairs.context import RepairContext, guide_of, locator_of, token_starts


def rank_for_oracle(
    text: str, repairs: Iterable[Repair], top: int, oracle: Oracle | None, max_loss: LossLimit
) -> tuple[Repair, ...]:
    """Repairs of ``text`` ranked as a request for ``oracle`` ranks them,
    without a context (no verdict, no judge made before)."""
    grammar = None if oracle is None else guide_of(oracle)
    brackets = None if grammar is None else syntax_of(grammar).brackets
    locator = None if oracle is None or grammar is None else locator_of(oracle, grammar)
    return ordered(text, repairs, top, locator, guidance(grammar), brackets, max_loss, [])


def rank_in(
    context: RepairContext,
    repairs: Iterable[Repair],
    top: int,
    max_loss: LossLimit,
    notes: list[str],
) -> tuple[Repair, ...]:
    """The ``top`` best ``repairs`` of the context's text (notes what keeps
    the hints from being read)."""
    return ordered(
        context.text,
        repairs,
        top,
        context.locator,
        context.guidance,
        context.syntax.brackets,
        max_loss,
        notes,
        context.judge,
    )


def ordered(
    text: str,
    repairs: Iterable[Repair],
    top: int,
    locator: IncrementalGrammarOracle | None,
    guide: Guidance,
    brackets: Brackets | None,
    max_loss: LossLimit,
    notes: list[str],
    judge: Judge | None = None,
) -> tuple[Repair, ...]:
    """The repairs ranked by what they do to the data, read with the guide
    grammar (``locator``'s) and its hints (``guide``) when there is one, and
    by how well their brackets follow the indentation (``judge``: one made
    for the text before, see :func:`~inputmend.repairs.context.context_of`)."""
    if guide.problem is not None:
        notes.append(guide.problem)
    repairs = list(repairs)
    layout = None if brackets is None else windowed_agreement(text, repairs, brackets)
    ranked = rank(
        text,
        repairs,
        len(repairs),
        lexer=guide.lexer,
        token_start=token_starts(text, locator),
        layout=layout,
        limit=max_loss,
        judge=judge,
    )
    return loader_accepted_first(ranked, top, locator)


def loader_accepted_first(
    ranked: tuple[Repair, ...], top: int, locator: IncrementalGrammarOracle | None
) -> tuple[Repair, ...]:
    """The ``top`` first of ``ranked``, those that the format's rules beyond
    its syntax reject (a TOML table declared twice, by ``tomllib``) after
    the others: ``[[servers]`` after a ``[[servers]]`` is closed, not made a
    table of the same name."""
    if locator is None or locator.grammar.info.semantics is None:
        return ranked[:top]
    accepted: list[Repair] = []
    rejected: list[Repair] = []
    for repair in ranked:
        if len(accepted) == top:
            break
        feedback = locator.check_semantics(repair.text)
        (accepted if feedback is None or feedback.valid else rejected).append(repair)
    return (*accepted, *rejected)[:top]
