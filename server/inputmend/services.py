"""Repair, explain and abstract a text: the operations the CLI, the language
server and library users call, and the registry of their algorithms.

Each operation takes a text and an oracle (or a grammar and a predicate) and
returns a model value (:mod:`inputmend.core.model`); nothing here prints,
reads files or knows about editors.  :data:`REPAIR_ALGORITHMS` and
:data:`EXPLAIN_ALGORITHMS` name every algorithm once: the CLI offers their
names, the language server's settings accept them, and docs/cli.md's tables
are tested against them.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from inputmend.algorithms.completion import ALGORITHM as COMPLETION_ALGORITHM
from inputmend.algorithms.completion import CompletionOptions, complete_text
from inputmend.algorithms.configurations import Ranges
from inputmend.algorithms.conflicts import ALGORITHM as CONFLICT_ALGORITHM
from inputmend.algorithms.conflicts import conflict_repairs
from inputmend.algorithms.dd import dd_text
from inputmend.algorithms.ddmax import ddmax_text
from inputmend.algorithms.ddmin import ddmin_text
from inputmend.algorithms.ddset import ddset, produce
from inputmend.algorithms.ddset import verify as ddset_verify
from inputmend.algorithms.fsynth import (
    DEFAULT_ALPHABET,
    DELIMITERS,
    PUNCTUATION,
    FSynthOptions,
    fsynth,
)
from inputmend.algorithms.hints import ALGORITHM as HINTS_ALGORITHM
from inputmend.algorithms.hints import NO_GUIDANCE, Guidance, guidance, hint_repairs
from inputmend.algorithms.indentation import reindent_repairs
from inputmend.algorithms.judgement import Judge
from inputmend.algorithms.layout import ALGORITHM as LAYOUT_ALGORITHM
from inputmend.algorithms.layout import (
    Brackets,
    brackets_of,
    layout_repairs,
)
from inputmend.algorithms.layout_window import windowed_agreement
from inputmend.algorithms.polish import (
    closer_before_separator,
    closer_on_its_line,
    closers_on_lines,
    final_break_kept,
    opener_at_line_end,
    polish_layout,
    spaced_as_the_input,
    with_filler,
    without_doubled_blanks,
    without_emptied_lines,
)
from inputmend.algorithms.ranking import rank
from inputmend.algorithms.redecode import ALGORITHM as REDECODE_ALGORITHM
from inputmend.algorithms.redecode import redecode
from inputmend.algorithms.segmentation import Unit
from inputmend.algorithms.syntactic import (
    TokenMaximized,
    hybrid_ddmax,
    syntactic_ddmax,
)
from inputmend.config import defaults
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.conflicts import find_conflicts
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.model import (
    Abstraction,
    Diagnosis,
    Repair,
    RepairResult,
    Span,
    distance,
    spans_to_edits,
)
from inputmend.core.text import UTF8, Encoding
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import NO_HINTS
from inputmend.grammar.lexer import lex_typed
from inputmend.grammar.recovery import recovery_units
from inputmend.oracles.base import Feedback, Oracle, Predicate, Verdict
from inputmend.oracles.grammar import GrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.wrappers import GuidedOracle, find_part


def _spans(ranges: Ranges) -> tuple[Span, ...]:
    return tuple(Span(start, end) for start, end in ranges)


def grammar_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar behind an oracle, when there is one (for token-level work)."""
    found = find_part(oracle, IncrementalGrammarOracle) or find_part(oracle, GrammarOracle)
    return found.grammar if found is not None else None


def guide_of(oracle: Oracle) -> CompiledGrammar | None:
    """The grammar that reads the oracle's inputs: its own, or the bundled one
    its files are named for (hints and ranking; a program still decides)."""
    guided = find_part(oracle, GuidedOracle)
    return grammar_of(oracle) or (guided.grammar if guided is not None else None)


def _locator(oracle: Oracle, grammar: CompiledGrammar) -> IncrementalGrammarOracle:
    found = find_part(oracle, IncrementalGrammarOracle)
    return found if found is not None else IncrementalGrammarOracle(grammar)


def lexer_of(oracle: Oracle) -> Callable[[str], Sequence[tuple[str | None, int, int]]] | None:
    """The grammar's error-tolerant lexer (for describing repairs in tokens);
    None when the oracle has no grammar."""
    grammar = grammar_of(oracle)
    return None if grammar is None else functools.partial(lex_typed, grammar)


def rank_repairs(
    text: str,
    repairs: Iterable[Repair],
    top: int,
    *,
    oracle: Oracle | None = None,
    max_loss: LossLimit = DEFAULT_LIMIT,
) -> tuple[Repair, ...]:
    """Repairs of ``text`` ranked together as :func:`repair` ranks them for
    ``oracle`` (of equal ones, the one given first stays first), each with
    what it does to the data and marked lossy when it loses more than
    ``max_loss`` allows."""
    grammar = None if oracle is None else guide_of(oracle)
    brackets = None if grammar is None else brackets_of(grammar)
    locator = None if oracle is None or grammar is None else _locator(oracle, grammar)
    return _rank(text, repairs, top, locator, guidance(grammar), brackets, max_loss, [])


def _rank(
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
    """The repairs ranked by what they do to the data, read with ``grammar``
    (the one that guides the oracle) and its hints (``guide``) when there is
    one, and by how well their brackets follow the indentation (``judge``:
    one made for the text before, see :func:`_judge`)."""
    if guide.problem is not None:
        notes.append(guide.problem)
    repairs = list(repairs)
    layout = None if brackets is None else windowed_agreement(text, repairs, brackets)
    ranked = rank(
        text,
        repairs,
        len(repairs),
        lexer=guide.lexer,
        token_start=_token_starts(text, locator),
        layout=layout,
        limit=max_loss,
        judge=judge,
    )
    return _semantics_first(ranked, top, locator)


def _semantics_first(
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


def _token_starts(
    text: str, locator: IncrementalGrammarOracle | None
) -> Callable[[int], int | None] | None:
    """Where the token of ``text`` before an offset starts, by the grammar of
    ``locator`` (see :func:`_locator`)."""
    if locator is None:
        return None

    def token_start(offset: int) -> int | None:
        return locator.last_token_start(text[:offset])

    return token_start


def gives_prefix_feedback(oracle: Oracle) -> bool:
    """Can the oracle tell incomplete from incorrect (what FSynth needs)?

    The empty input is a prefix of every input: an oracle that calls it
    incorrect cannot report incomplete prefixes."""
    return oracle.check("").verdict is not Verdict.INCORRECT


# ------------------------------------------------------------- token ddmax
def _token_ddmax(
    text: str, oracle: Oracle, grammar: CompiledGrammar, budget: Budget, *, hybrid: bool
) -> TokenMaximized | RunStats:
    """Syntactic (or hybrid) ddmax over the units error recovery sees; what
    finding the units cost when the budget ran out first."""
    meter = Meter(budget)
    try:
        units = recovery_units(grammar, text, stop=meter.poll)
    except BudgetExhausted:
        return RunStats.of(meter)
    maximize = hybrid_ddmax if hybrid else syntactic_ddmax
    return maximize(text, oracle, tokens=units, budget=budget)


# ---------------------------------------------------------------- repairs
@dataclass(frozen=True)
class RepairTask:
    """What a repair strategy is given: the input, the oracle, the oracle's
    verdict on the input, and the repairs the strategies before it found."""

    text: str
    oracle: Oracle
    feedback: Feedback
    guide: CompiledGrammar | None = None  # the grammar that reads the input (guide_of)
    guidance: Guidance = NO_GUIDANCE  # its hints and tolerant lexer
    brackets: Brackets | None = None  # the guide's nesting brackets
    locator: IncrementalGrammarOracle | None = None  # the guide's scans (_locator), made once
    found: tuple[Repair, ...] = ()
    judge: Judge | None = None  # judges repairs of the input (made once, see _judge)
    encoding: Encoding = UTF8  # how the input's bytes became its text


Attempt = tuple[list[Repair], Repair | None, RunStats]
"""What one strategy found: repairs, a partial repair, its cost."""
StrategyRun = Callable[[RepairTask, Budget], Attempt]


def _scans(task: RepairTask, grammar: CompiledGrammar) -> IncrementalGrammarOracle:
    """The task's scans by its guide ``grammar`` (see :func:`_locator`): made
    once per request, so that with a program as the oracle the guide reads
    the input once, not once per strategy."""
    return task.locator if task.locator is not None else _locator(task.oracle, grammar)


def _always(task: RepairTask) -> bool:
    del task
    return True


def _judge(task: RepairTask, stop: Callable[[], None] | None = None) -> Judge:
    """The judge of repairs of the task's input (see :func:`_rank`), that
    asks ``stop`` before it reads on past a repair's window."""
    if task.judge is not None:
        return task.judge
    starts = _token_starts(task.text, None if task.guide is None else _scans(task, task.guide))
    return Judge(task.text, task.guidance.lexer, token_start=starts, stop=stop)


def _not_completed(task: RepairTask) -> bool:
    """An input that is only incomplete and was completed, every token read as
    before, needs nothing else: at its end (its parse boundary) edits can only
    insert, and completion already inserted the least that makes it valid.
    (A completion that changes how tokens read, or closes a string that ran
    on past its line after a lost quote, is not enough.)"""
    if task.feedback.verdict is not Verdict.INCOMPLETE:
        return True
    completed = [r for r in task.found if r.algorithm == COMPLETION_ALGORITHM]
    if not completed:
        return True
    judge = _judge(task)
    return not any(
        judgement.changed == 0 and judgement.absorbed == 0 for judgement in map(judge, completed)
    )


@dataclass(frozen=True)
class Strategy:
    """One way to find repairs: its weight in the sharing of the budget
    (see :func:`repair`), and whether it is worth running on a task."""

    name: str
    weight: float
    run: StrategyRun
    wanted: Callable[[RepairTask], bool] = _always
    needs_prefix_feedback: bool = False


def _lexical(unit: Unit) -> StrategyRun:
    def run(task: RepairTask, budget: Budget) -> Attempt:
        text = task.text
        result = ddmax_text(text, task.oracle, unit=unit, budget=budget)
        repair = Repair(
            text=result.text,
            edits=spans_to_edits(_spans(result.removed)),
            algorithm="ddmax" if unit == "char" else "ddmax-lines",
            valid=result.valid,
            distance=distance(text, result.text),
        )
        return [repair], None, result.stats

    return run


def _tokens(*, hybrid: bool) -> StrategyRun:
    def run(task: RepairTask, budget: Budget) -> Attempt:
        grammar = grammar_of(task.oracle)
        if grammar is None:  # no grammar: fall back to characters
            return _lexical("char")(task, budget)
        result = _token_ddmax(task.text, task.oracle, grammar, budget, hybrid=hybrid)
        if isinstance(result, RunStats):
            return [], None, result
        return [result.to_repair()], None, result.stats

    return run


def _fsynth(task: RepairTask, budget: Budget) -> Attempt:
    options = FSynthOptions()
    incremental = find_part(task.oracle, IncrementalGrammarOracle)
    if incremental is not None:
        # Only characters the grammar can accept at the boundary, one per class
        # of characters it treats alike: far fewer oracle runs for the same
        # repairs (up to which equivalent character is inserted).
        def alphabet(prefix: str) -> str:
            return incremental.continuations(prefix, DEFAULT_ALPHABET, distinct=True)

        def reach_alphabet(prefix: str) -> str:
            return incremental.continuations(prefix, PUNCTUATION, distinct=True)

        def reach(text: str, boundary: int) -> int | None:
            return incremental.last_token_start(text[:boundary])

        options = replace(options, alphabet=alphabet, reach=reach, reach_alphabet=reach_alphabet)
    else:
        # No tokens to go by: reach back the most FSynth allows, for the best
        # thread of each level, with the common delimiters only (each try is
        # a program run).
        options = replace(
            options, reach=lambda text, boundary: 0, reach_alphabet=DELIMITERS, reach_threads=1
        )
    result = fsynth(task.text, task.oracle, budget=budget, options=options)
    repairs, stats = list(result.repairs), result.stats
    filler = task.guidance.hints.filler
    if filler is not None:
        # FSynth makes up the shortest value (`0`); the grammar's filler (`null`)
        # is offered beside it, for the ranking to prefer
        for repair in result.repairs:
            filled = with_filler(task.text, repair, filler)
            if filled is not None and budget.exhausted_by(stats) is None:
                stats = stats + RunStats(1, 0.0)
                if _verify(task.oracle, filled.text):
                    repairs.append(filled)
    return repairs, result.partial, stats


def _hints(task: RepairTask, budget: Budget) -> Attempt:
    """The grammar's hints propose, the oracle decides; what the hints cannot
    fix is finished by completion (a cut-off end), else by FSynth."""
    grammar = task.guide
    hints = task.guidance.hints
    if grammar is None or hints is NO_HINTS:
        return [], None, RunStats(0, 0.0)
    locator = _scans(task, grammar)

    def finish(rest: str, left: Budget) -> tuple[list[Repair], RunStats]:
        finishing = replace(task, text=rest, found=())
        if locator.check(rest).verdict is Verdict.INCOMPLETE:
            repairs, _, cost = _completion(finishing, left)
            if repairs:
                return repairs, cost
        repairs, _, cost = _fsynth(finishing, left)
        return repairs, cost

    # after a completion that keeps every token, the input parses up to its
    # end: what went wrong is there (a word read as another), or where the
    # string or comment it ends in, run on over lines, began (a lost quote)
    anywhere = _not_completed(task) or _runs_on(task.text, locator)
    found = hint_repairs(
        task.text,
        task.oracle,
        hints=hints,
        locator=locator,
        budget=budget,
        finish=finish,
        anywhere=anywhere,
    )
    return list(found.repairs), None, found.stats


def _cut_off(text: str, locator: IncrementalGrammarOracle) -> str | None:
    """The token the end of ``text`` cuts off (empty at a token boundary;
    None when the scan cannot say)."""
    end = locator.scan(text).end
    return None if end is None else text[end.position :]


def _runs_on(text: str, locator: IncrementalGrammarOracle) -> bool:
    """Does ``text`` end inside a token that runs over a line break (a
    string or comment that a lost quote or delimiter let run on)?"""
    unfinished = _cut_off(text, locator)
    unfinished = text if unfinished is None else unfinished
    return "\n" in unfinished or "\r" in unfinished


def _completion(task: RepairTask, budget: Budget) -> Attempt:
    if task.guide is None:  # no grammar to complete with
        return [], None, RunStats(0, 0.0)
    incremental = _scans(task, task.guide)
    # the oracle's own grammar locates the error (through its guards); the
    # guide's only where the oracle is a program that cannot say
    own = grammar_of(task.oracle) is not None
    options = CompletionOptions(
        incremental.completion,
        incremental.last_token_start,
        locate=None if own else incremental.check,
    )
    result = complete_text(task.text, task.oracle, options=options, budget=budget)
    return list(result.repairs), None, result.stats


def _layout(task: RepairTask, budget: Budget) -> Attempt:
    """Brackets where the indentation says; and in a grammar whose layout is
    indentation (YAML), the line near the error moved to another column."""
    repairs: list[Repair] = []
    stats = RunStats(0, 0.0)
    incomplete = task.feedback.verdict is Verdict.INCOMPLETE
    error = task.feedback.error_offset
    if (
        task.guide is not None
        and task.guide.layout is not None
        and error is not None
        and not incomplete
    ):
        moved = reindent_repairs(task.text, task.oracle, error=error, budget=budget)
        repairs, stats = list(moved.repairs), moved.stats
    if task.brackets is not None:
        unfinished = None  # where a token cut off on the last line starts
        if incomplete and task.guide is not None:
            tail = _cut_off(task.text, _scans(task, task.guide))
            if tail and "\n" not in tail and "\r" not in tail:
                unfinished = len(task.text) - len(tail)
        placed = layout_repairs(
            task.text,
            task.oracle,
            brackets=task.brackets,
            incomplete=incomplete,
            unfinished=unfinished,
            budget=budget.after(stats),
        )
        repairs, stats = repairs + list(placed.repairs), stats + placed.stats
    return repairs, None, stats


def _redecode(task: RepairTask, budget: Budget) -> Attempt:
    if not task.encoding.escapes_bytes:  # UTF-16/32: a surrogate is the file's own code unit
        return [], None, RunStats(0, 0.0)
    result = redecode(task.text, task.oracle, budget=budget)
    return list(result.repairs), None, result.stats


def _conflicts(task: RepairTask, budget: Budget) -> Attempt:
    result = conflict_repairs(task.text, task.oracle, budget=budget)
    return list(result.repairs), None, result.stats


def _searching_may_help(task: RepairTask) -> bool:
    """A search (FSynth, ddmax) edits at the parse boundary or deletes: once a
    repair found before it does the data no harm, it can only find a shorter
    one, never one that keeps more; and an incomplete input that completion
    finished needs none (see :func:`_not_completed`)."""
    if not _not_completed(task):
        return False
    judge = _judge(task)
    return not any(judge(repair).harmless for repair in task.found)


def _layout_may_help(task: RepairTask) -> bool:
    """Layout can move the closer completion appended to an incomplete
    input (where there are lines to follow) or remove the opener it closed
    when that is written twice (on any line), and only when completion
    closed one bracket: layout edits one bracket, and brackets pair up in a
    valid text, so an input that needs two more closers stays invalid.  Or
    when the input ends in a string run on over lines: layout puts a lost
    quote back on its line (for grammars whose strings may span lines)."""
    if _not_completed(task):
        return True
    if task.brackets is None:
        return False
    brackets, guide, size = task.brackets, task.guide, len(task.text)
    if guide is not None and brackets.quotes and _runs_on(task.text, _scans(task, guide)):
        return True
    return any(
        not _closes_two(brackets, r.text[size:])
        for r in task.found
        if r.algorithm == COMPLETION_ALGORITHM
    )


def _closes_two(brackets: Brackets, text: str) -> bool:
    """Does ``text`` close two brackets more than it opens?  Read up to where
    it has and opens none after (a completion's long run of closers)."""
    balance = 0
    upcoming = dict.fromkeys(brackets.openers, 0)  # where each is next written (-1: never)
    for found in brackets.pattern.finditer(text):
        kind = found.lastgroup
        balance += (kind == "c") - (kind == "o")
        if balance >= 2:
            end = found.end()
            for opener, place in upcoming.items():
                if 0 <= place < end:
                    upcoming[opener] = text.find(opener, end)
            if max(upcoming.values(), default=-1) < 0:
                return True
    return balance >= 2


CONFLICTS = Strategy(
    CONFLICT_ALGORITHM, 1, _conflicts, lambda task: bool(find_conflicts(task.text))
)
REDECODE = Strategy(REDECODE_ALGORITHM, 1, _redecode)
COMPLETION = Strategy(COMPLETION_ALGORITHM, 1, _completion)
HINTS = Strategy(HINTS_ALGORITHM, 2, _hints)
LAYOUT = Strategy(LAYOUT_ALGORITHM, 1, _layout, _layout_may_help)
FSYNTH = Strategy("fsynth", 4, _fsynth, _searching_may_help, needs_prefix_feedback=True)
HYBRID = Strategy("ddmax-hybrid", 3, _tokens(hybrid=True), _searching_may_help)


@dataclass(frozen=True)
class RepairAlgorithm:
    """A repair algorithm: its strategies, run one after another, their
    repairs merged and ranked together."""

    name: str
    summary: str
    strategies: tuple[Strategy, ...]


REPAIR_ALGORITHMS: dict[str, RepairAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        RepairAlgorithm(
            "auto",
            "a side of each merge conflict, re-reading undecodable bytes, completion, the "
            "grammar's hints, layout, FSynth, then hybrid ddmax; their repairs ranked together",
            (CONFLICTS, REDECODE, COMPLETION, HINTS, LAYOUT, FSYNTH, HYBRID),
        ),
        RepairAlgorithm(
            "completion",
            "append what a valid prefix lacks (for an incorrect input: complete the part "
            "before the error, drop the rest)",
            (COMPLETION,),
        ),
        RepairAlgorithm(
            "fsynth", "FSynth: edits at the parse boundary", (replace(FSYNTH, wanted=_always),)
        ),
        RepairAlgorithm(
            "ddmax", "lexical ddmax: delete characters", (Strategy("ddmax", 1, _lexical("char")),)
        ),
        RepairAlgorithm(
            "ddmax-syntactic",
            "ddmax over the grammar's tokens",
            (Strategy("ddmax-syntactic", 1, _tokens(hybrid=False)),),
        ),
        RepairAlgorithm(
            "ddmax-hybrid",
            "syntactic ddmax, then lexical ddmax inside the removed tokens",
            (replace(HYBRID, wanted=_always),),
        ),
        RepairAlgorithm(
            "ddmax-lines", "ddmax over whole lines", (Strategy("ddmax-lines", 1, _lexical("line")),)
        ),
    )
}


def repair(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "auto",
    budget: Budget = UNLIMITED,
    top: int = defaults.TOP_REPAIRS,
    max_loss: LossLimit = DEFAULT_LIMIT,
    spent_s: float = 0.0,
    encoding: Encoding = UTF8,
) -> RepairResult:
    """Ranked, verified repairs of ``text`` (none when it is already valid),
    each marked lossy when it loses more of ``text`` than ``max_loss`` allows.
    ``spent_s``: seconds the caller already spent on this input under the
    same budget (checking it first), counted against its time limit.
    ``encoding``: how the text was decoded; undecodable bytes are re-read as
    text only where its surrogates stand for bytes (not in UTF-16/32, whose
    lone surrogates are the file's own code units).

    The strategies of the algorithm run one after another on one budget:
    each gets its weight's part of what is left when it starts (its weight
    over the sum of its own and the later strategies' weights), so what one
    leaves unused goes to the next, and the last gets all that is left.
    ``auto`` runs the re-reading of undecodable bytes, completion, the
    grammar's hints (with a program's oracle: those of the bundled grammar
    its files are named for), the layout-guided bracket edits, FSynth
    (skipped when the oracle cannot tell incomplete inputs from incorrect
    ones), then hybrid ddmax (syntactic ddmax with a grammar, lexical inside
    the faulty tokens; lexical ddmax without one), and merges their repairs;
    an incomplete input that completion finishes gets no search (FSynth,
    ddmax) after it, and the hints only near its end (anywhere before it
    when the input ends in a string run on over lines).  When no complete
    repair is found, ``partial`` holds
    FSynth's best partial result.  The result is
    marked as stopped early only when the whole budget ran out.
    """
    chosen = REPAIR_ALGORITHMS.get(algorithm)
    if chosen is None:
        raise ValueError(f"unknown repair algorithm {algorithm!r}")
    started = time.monotonic() - spent_s
    feedback = oracle.check(text)
    if feedback.valid:
        return RepairResult(True, (), RunStats(1, time.monotonic() - started))
    guide = guide_of(oracle)
    brackets = None if guide is None else brackets_of(guide)
    locator = None if guide is None else _locator(oracle, guide)
    task = RepairTask(
        text, oracle, feedback, guide, guidance(guide), brackets, locator=locator, encoding=encoding
    )
    # the judge reads on past a window only while the whole run's budget lasts
    meter = Meter(budget.after(RunStats(0, time.monotonic() - started)))
    task = replace(task, judge=_judge(task, meter.poll))
    partial: Repair | None = None
    tests = 1
    notes: list[str] = []
    strategies = list(chosen.strategies)
    if algorithm == "auto" and not gives_prefix_feedback(oracle):
        strategies = [s for s in strategies if not s.needs_prefix_feedback]
        notes.append("FSynth skipped: the oracle does not report incomplete inputs")
    for index, strategy in enumerate(strategies):
        if any(repair.algorithm == CONFLICT_ALGORITHM for repair in task.found):
            break  # a side of each merge conflict made it valid: what a person keeps
        if not strategy.wanted(task):
            continue
        spent = RunStats(tests, time.monotonic() - started)
        if budget.exhausted_by(spent) is not None:
            break
        weights = sum(later.weight for later in strategies[index:])
        share = budget.after(spent).fair_share(strategy.weight / weights)
        candidates, partial_candidate, cost = strategy.run(task, share)
        tests += cost.tests
        task = replace(task, found=(*task.found, *candidates))
        partial = partial or partial_candidate
    verified = [r for r in task.found if r.valid and _verify(oracle, r.text)]
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
    ranked = _rank(
        text,
        verified,
        top,
        task.locator,
        task.guidance,
        task.brackets,
        max_loss,
        notes,
        task.judge,
    )
    ranked, polishing = _polish(text, ranked, oracle, budget, spent)
    stats = replace(stats, tests=stats.tests + polishing, elapsed_s=time.monotonic() - started)
    return RepairResult(False, ranked, stats, tuple(notes), partial=partial)


def _polish(
    text: str, ranked: tuple[Repair, ...], oracle: Oracle, budget: Budget, spent: RunStats
) -> tuple[tuple[Repair, ...], int]:
    """The ranked repairs with their inserted delimiters where a person puts
    them (:func:`~inputmend.algorithms.polish.polish_layout`), while the
    budget lasts, and the oracle runs that took."""
    started = time.monotonic()
    runs = 0

    def accepts(candidate: str) -> bool:
        nonlocal runs
        runs += 1
        return _verify(oracle, candidate)

    def left() -> bool:
        used = RunStats(spent.tests + runs, spent.elapsed_s + time.monotonic() - started)
        return budget.exhausted_by(used) is None

    lexer = lexer_of(oracle)
    polished: dict[str, Repair] = {}
    for repair in ranked:
        better = repair
        if left():
            better = closer_on_its_line(text, repair, accepts, lexer=lexer)
            better = polish_layout(text, better, accepts, lexer=lexer)
            better = without_emptied_lines(text, better, accepts, lexer=lexer)
            better = without_doubled_blanks(text, better, accepts, lexer=lexer)
            better = closer_before_separator(text, better, accepts, lexer=lexer)
            better = opener_at_line_end(text, better, accepts, lexer=lexer)
            better = spaced_as_the_input(text, better, accepts, lexer=lexer)
            better = closers_on_lines(text, better, accepts, lexer=lexer)
            better = final_break_kept(text, better, accepts, lexer=lexer)
        polished.setdefault(better.text, better)
    return tuple(polished.values()), runs


def _verify(oracle: Oracle, text: str) -> bool:
    """Every offered repair is checked by the whole configured oracle."""
    try:
        return oracle.check(text).valid
    except Exception:  # noqa: BLE001 - an oracle failure means "not verified"
        return False


# -------------------------------------------------------------- diagnoses
Explainer = Callable[[str, Oracle, Budget, Unit], Diagnosis]


def _explain_ddmax(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    maximized = ddmax_text(text, oracle, unit=unit, budget=budget)
    return Diagnosis("ddmax", _spans(maximized.removed), maximized.stats, passing=maximized.text)


def _explain_tokens(*, hybrid: bool) -> Explainer:
    name = "ddmax-hybrid" if hybrid else "ddmax-syntactic"

    def run(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
        grammar = grammar_of(oracle)
        if grammar is None:
            raise ValueError(f"{name} needs a grammar oracle")
        result = _token_ddmax(text, oracle, grammar, budget, hybrid=hybrid)
        if isinstance(result, RunStats):
            return Diagnosis(name, (), result)
        return Diagnosis(name, _spans(result.removed), result.stats, passing=result.text)

    return run


def _explain_auto(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    chosen = "ddmax-hybrid" if grammar_of(oracle) is not None else "ddmax"
    return EXPLAIN_ALGORITHMS[chosen].run(text, oracle, budget, unit)


def _explain_ddmin(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    minimized = ddmin_text(text, oracle, unit=unit, budget=budget)
    return Diagnosis("ddmin", _spans(minimized.kept), minimized.stats, failing=minimized.text)


def _explain_dd(text: str, oracle: Oracle, budget: Budget, unit: Unit) -> Diagnosis:
    isolated = dd_text(text, oracle, unit=unit, budget=budget)
    notes = []
    if isolated.started_from_ddmax:
        notes.append("the empty input is rejected, so dd started from ddmax's passing subset")
    if not isolated.found_passing:
        notes.append("no passing variant was found")
    return Diagnosis(
        "dd",
        _spans(isolated.difference),
        isolated.stats,
        passing=isolated.passing,
        failing=isolated.failing,
        notes=tuple(notes),
    )


@dataclass(frozen=True)
class ExplainAlgorithm:
    """An algorithm that finds the failure-inducing parts of a rejected text."""

    name: str
    summary: str
    run: Explainer


EXPLAIN_ALGORITHMS: dict[str, ExplainAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        ExplainAlgorithm("ddmax", "the spans whose removal makes the input valid", _explain_ddmax),
        ExplainAlgorithm(
            "ddmax-syntactic", "ddmax over the grammar's tokens", _explain_tokens(hybrid=False)
        ),
        ExplainAlgorithm(
            "ddmax-hybrid",
            "token ddmax, then character ddmax inside the removed tokens",
            _explain_tokens(hybrid=True),
        ),
        ExplainAlgorithm("auto", "ddmax-hybrid with a grammar, ddmax otherwise", _explain_auto),
        ExplainAlgorithm("ddmin", "a 1-minimal subset that is still rejected", _explain_ddmin),
        ExplainAlgorithm(
            "dd", "a 1-minimal difference between a passing and a failing variant", _explain_dd
        ),
    )
}


def explain(
    text: str,
    oracle: Oracle,
    *,
    algorithm: str = "ddmax",
    budget: Budget = UNLIMITED,
    unit: Unit = "char",
) -> Diagnosis:
    """Failure-inducing spans of a rejected text."""
    chosen = EXPLAIN_ALGORITHMS.get(algorithm)
    if chosen is None:
        raise ValueError(f"unknown explain algorithm {algorithm!r}")
    return chosen.run(text, oracle, budget, unit)


# ------------------------------------------------------------ abstraction
def abstract(
    text: str,
    grammar: CompiledGrammar,
    predicate: Predicate,
    *,
    seed: int = 0,
    budget: Budget = UNLIMITED,
    instances: int = 5,
    verify: int = 0,
) -> Abstraction:
    """Explain why ``predicate`` fails on ``text`` as an abstract pattern (DDSET).

    Raises ``ValueError`` when the input does not fail or the grammar cannot
    parse it.
    """
    result = ddset(text, grammar, predicate, seed=seed, budget=budget)
    produced = tuple(produce(result, instances, seed)) if instances else ()
    checked = None
    if verify:
        outcome = ddset_verify(result, grammar, predicate, verify, seed)
        checked = (outcome.failing, outcome.total, outcome.unresolved)
    return Abstraction(
        pattern=result.pattern,
        reduced=result.reduced,
        tree=str(result.tree),
        instances=produced,
        verification=checked,
        stats=result.stats,
        notes=result.notes,
    )
