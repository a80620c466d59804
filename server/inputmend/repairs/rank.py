"""The one ordering of a request's repairs: by the score of their features
(:func:`inputmend.algorithms.ranking.scored`: the judgement of their tokens,
edits, layout agreement, the file's own style, the format's own loader's
verdict on the best of them), read with the guide grammar and its hints and
weighed by the weights of the guide grammar's format
(``grammars/ranking.toml``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from inputmend.algorithms.features import bundled_weights
from inputmend.algorithms.hints import Guidance, guidance
from inputmend.algorithms.judgement import Judge
from inputmend.algorithms.layout_window import windowed_agreement
from inputmend.algorithms.ranking import Scored, scored
from inputmend.core.loss import LossLimit
from inputmend.core.model import Repair
from inputmend.core.oracle import Oracle
from inputmend.grammar.syntax import Brackets, syntax_of
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repairs.context import RepairContext, grammar_reading, guide_of, locator_of


def rank_for_oracle(
    text: str, repairs: Iterable[Repair], top: int, oracle: Oracle | None, max_loss: LossLimit
) -> tuple[Repair, ...]:
    """Repairs of ``text`` ranked as a request for ``oracle`` ranks them,
    without a context (no verdict, no judge made before)."""
    return tuple(s.repair for s in scored_for_oracle(text, repairs, top, oracle, max_loss)[:top])


def scored_for_oracle(
    text: str, repairs: Iterable[Repair], top: int, oracle: Oracle | None, max_loss: LossLimit
) -> tuple[Scored, ...]:
    """Every repair of ``text``, best first, with its features and score, as
    a request for ``oracle`` ranks them (the loader asked about the best
    ``top``)."""
    grammar = None if oracle is None else guide_of(oracle)
    brackets = None if grammar is None else syntax_of(grammar).brackets
    locator = None if oracle is None or grammar is None else locator_of(oracle, grammar)
    beyond_syntax = None if oracle is None else lambda: oracle.check(text).beyond_syntax
    return scored_in(
        text,
        repairs,
        top,
        locator,
        guidance(grammar),
        brackets,
        max_loss,
        [],
        beyond_syntax=beyond_syntax,
    )


def rank_in(
    context: RepairContext,
    repairs: Iterable[Repair],
    top: int,
    max_loss: LossLimit,
    notes: list[str],
) -> tuple[Repair, ...]:
    """The ``top`` best ``repairs`` of the context's text (notes what keeps
    the hints from being read)."""
    found = scored_in(
        context.text,
        repairs,
        top,
        context.locator,
        context.guidance,
        context.syntax.brackets,
        max_loss,
        notes,
        context.judge,
        beyond_syntax=lambda: context.feedback.beyond_syntax,
        only_top=True,
    )
    return tuple(s.repair for s in found)


def scored_in(
    text: str,
    repairs: Iterable[Repair],
    top: int,
    locator: IncrementalGrammarOracle | None,
    guide: Guidance,
    brackets: Brackets | None,
    max_loss: LossLimit,
    notes: list[str],
    judge: Judge | None = None,
    *,
    beyond_syntax: Callable[[], bool] | None = None,
    only_top: bool = False,
) -> tuple[Scored, ...]:
    """Every repair, best first, with its features and score: read with the
    guide grammar (``locator``'s) and its hints (``guide``) when there is
    one, by how well their brackets follow the indentation, and by whether
    the format's rules beyond its syntax accept the best ``top`` (a TOML
    table declared twice, by ``tomllib``: ``[[servers]`` after a
    ``[[servers]]`` is closed, not made a table of the same name); weighed
    by the weights for the guide grammar (``judge``: one made for the text
    before, see :func:`~inputmend.repairs.context.context_of`).
    ``beyond_syntax``: did the request's oracle refuse the text by a rule
    beyond its syntax (its verdict's ``beyond_syntax``; asked only when a
    repair may remove a copy of a definition)?  With ``only_top``, only the
    best ``top`` (see :func:`~inputmend.algorithms.ranking.scored`)."""
    if guide.problem is not None:
        notes.append(guide.problem)
    repairs = list(repairs)
    token_start, refused = grammar_reading(text, locator)
    if judge is None:
        judge = Judge(text, guide.lexer, token_start=token_start, refused=refused)
    layout = None if brackets is None else windowed_agreement(text, repairs, brackets)
    fmt = None if locator is None else locator.grammar.info.name
    return scored(
        text,
        repairs,
        top,
        lexer=guide.lexer,
        token_start=token_start,
        layout=layout,
        limit=max_loss,
        judge=judge,
        weights=bundled_weights().of(fmt),
        rejects=loader_rejects(locator),
        beyond_syntax=beyond_syntax,
        only_top=only_top,
    )


def loader_rejects(locator: IncrementalGrammarOracle | None) -> Callable[[str], bool] | None:
    """Does the format's loader (its rules beyond the syntax) reject a text?
    None when the format has no loader."""
    if locator is None or locator.grammar.info.semantics is None:
        return None

    def rejects(text: str) -> bool:
        feedback = locator.check_semantics(text)
        return feedback is not None and not feedback.valid

    return rejects
