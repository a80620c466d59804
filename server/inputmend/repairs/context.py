"""The context of one repair request, built once: the text, the oracle and
its verdict, the grammar that reads the text and what it offers.

This is the only module that looks inside an oracle (for the grammar behind
it, see :func:`grammar_of` and :func:`guide_of`); generators and the ranking
read the context instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inputmend.algorithms.hints import Guidance, guidance
from inputmend.algorithms.judgement import Judge
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.oracle import Feedback, Oracle
from inputmend.core.text import UTF8, Encoding
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lexer import lex_typed
from inputmend.grammar.scan import Scan
from inputmend.grammar.syntax import NO_SYNTAX, SyntaxRoles, syntax_of
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.watchdog import GuardedGrammar
from inputmend.oracles.wrappers import GuidedOracle, find_part


def grammar_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar behind an oracle, when there is one (for token-level work)."""
    found = find_part(oracle, IncrementalGrammarOracle) or find_part(oracle, ReferenceGrammarOracle)
    return found.grammar if found is not None else None


def grammar_check(oracle: Oracle | None) -> IncrementalGrammarOracle | None:
    """The incremental grammar oracle inside ``oracle`` (the fast check of a
    document and of the format's rules beyond its syntax), when there is one."""
    return None if oracle is None else find_part(oracle, IncrementalGrammarOracle)


def runs_user_grammar(oracle: Oracle | None) -> bool:
    """Is ``oracle`` a user grammar's, whose checks are stopped by a CPU-time
    limit (which only works in the main thread)?"""
    return isinstance(oracle, GuardedGrammar)


def guide_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar that reads the oracle's inputs: its own, or the bundled one
    its files are named for (hints and ranking; a program still decides)."""
    guided = find_part(oracle, GuidedOracle)
    return grammar_of(oracle) or (guided.grammar if guided is not None else None)


def locator_of(oracle: Oracle, grammar: CompiledGrammar) -> IncrementalGrammarOracle:
    """The incremental scans of ``grammar``: the oracle's own when it has them."""
    found = find_part(oracle, IncrementalGrammarOracle)
    return found if found is not None else IncrementalGrammarOracle(grammar)


def lexer_of(oracle: Oracle) -> Callable[[str], Sequence[tuple[str | None, int, int]]] | None:
    """The grammar's error-tolerant lexer (for describing repairs in tokens);
    None when the oracle has no grammar."""
    grammar = grammar_of(oracle)
    return None if grammar is None else functools.partial(lex_typed, grammar)


def grammar_reading(
    text: str, locator: IncrementalGrammarOracle | None
) -> tuple[Callable[[int], int | None] | None, Callable[[], int | None] | None]:
    """What a judge of ``text`` asks of the grammar of ``locator``: where the
    token before an offset starts, and where the grammar refuses the text
    (its first error; see :class:`~inputmend.algorithms.judgement.Judge`).
    Both read one scan of ``text``, made at the first question."""
    if locator is None:
        return None, None
    scanned: list[Scan] = []

    def scan() -> Scan:
        if not scanned:
            scanned.append(locator.scan(text))
        return scanned[0]

    def token_start(offset: int) -> int | None:
        return locator.last_token_start_in(scan(), offset)

    def refused() -> int | None:
        return scan().feedback.error_offset

    return token_start, refused


@dataclass(frozen=True)
class RepairContext:
    """What every generator, the ranking and the polish of one request read:
    made once per request by :func:`context_of`."""

    text: str
    oracle: Oracle
    feedback: Feedback
    """The oracle's verdict on ``text``."""
    grammar: CompiledGrammar | None
    """The grammar that reads the text (the guide, :func:`guide_of`)."""
    own_grammar: CompiledGrammar | None
    """The oracle's own grammar (:func:`grammar_of`): None for a program,
    even one with a guide."""
    incremental: IncrementalGrammarOracle | None
    """The oracle's own incremental grammar oracle, when it is one or has one."""
    syntax: SyntaxRoles
    """The guide's syntax roles."""
    guidance: Guidance
    """The guide's hints and tolerant lexer."""
    locator: IncrementalGrammarOracle | None
    """The guide's incremental scans, made once (with a program as the
    oracle the guide reads the input once, not once per generator)."""
    judge: Judge
    """The judge of repairs of ``text``."""
    encoding: Encoding = UTF8
    """How the input's bytes became ``text``."""
    max_loss: LossLimit = DEFAULT_LIMIT
    """The most a repair may lose before it is lossy (:mod:`inputmend.core.loss`)."""


def context_of(
    text: str,
    oracle: Oracle,
    feedback: Feedback,
    *,
    encoding: Encoding = UTF8,
    stop: Callable[[], None] | None = None,
    max_loss: LossLimit = DEFAULT_LIMIT,
) -> RepairContext:
    """The context of repairing ``text``, which ``oracle`` gave ``feedback``,
    decoded from ``encoding``, under the loss limit ``max_loss``; the judge
    asks ``stop`` before it reads on past a repair's window (the whole run's
    budget)."""
    guide = guide_of(oracle)
    syntax = NO_SYNTAX if guide is None else syntax_of(guide)
    locator = None if guide is None else locator_of(oracle, guide)
    guided = guidance(guide)
    token_start, refused = grammar_reading(text, locator)
    judge = Judge(text, guided.lexer, token_start=token_start, refused=refused, stop=stop)
    return RepairContext(
        text,
        oracle,
        feedback,
        guide,
        grammar_of(oracle),
        find_part(oracle, IncrementalGrammarOracle),
        syntax,
        guided,
        locator,
        judge,
        encoding,
        max_loss,
    )


def verify(oracle: Oracle, text: str) -> bool:
    """Is ``text`` accepted by the whole configured oracle (every offered
    repair is checked by it)?"""
    try:
        return oracle.check(text).valid
    except Exception:  # noqa: BLE001 - an oracle failure means "not verified"
        return False


def cut_off(text: str, locator: IncrementalGrammarOracle) -> str | None:
    """The token the end of ``text`` cuts off (empty at a token boundary;
    None when the scan cannot say)."""
    end = locator.scan(text).end
    return None if end is None else text[end.position :]


def runs_on(text: str, locator: IncrementalGrammarOracle) -> bool:
    """Does ``text`` end inside a token that runs over a line break (a
    string or comment that a lost quote or delimiter let run on)?"""
    unfinished = cut_off(text, locator)
    unfinished = text if unfinished is None else unfinished
    return "\n" in unfinished or "\r" in unfinished
