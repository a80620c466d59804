"""Completion as a repair: append what a valid prefix lacks.

A text the oracle calls *incomplete* is a valid prefix: nothing in it is
wrong, it stops too early (a download or a copy cut off).  The repair that
keeps all of it appends the shortest text that makes it complete, which the
grammar computes from the parser's stack at the end without any search
(:mod:`inputmend.grammar.completion`).  One oracle run checks it.

A text cut off after a delimiter is also completed without it: the list or
object it was to continue is closed rather than given an invented element
(``{"a": 1,`` -> ``{"a": 1}``); the ranking decides, and the grammar's hints
say which delimiters are not lost data when dropped at the end.

For an *incorrect* text the same applies to the part before the error: the
prefix up to the parse boundary, and the prefix before the last token before
it (a fault inside a token often shows only after it), each completed, with
the rest dropped (a truncated text with a garbled tail).  Dropping a large
tail loses data; the ranking and the loss rule judge that, and the caller
may say which rests are not to be dropped at all (``droppable``).  The rest is
also kept, after the shortest head of the completion (up to a punctuation
character, short of the whole) that lets it parse: an inner construct
closed where the refused token needs it closed (``</dependency>`` lost before ``</dependencies>``,
``]`` before ``}``), so that nothing after it changes.  The layout that
ended the text (its last line break) is kept where the grammar allows it:
dropping the garbled tail is no reason to drop the file's final newline.
A text that ends in a line comment gets a line break before its completion
when the completion alone would be read as part of the comment.

The grammar completes what it can count; a format whose records all have as
many fields as the first (CSV, the hints' ``fields``) also needs the fields
a last record cut off lacks, which the format's loader counts: a completion
the oracle still calls incomplete at its end gets empty fields (the field
separator) appended until it is whole, the number found by doubling, then
halving (a few oracle runs, not one per field).  Not where the token cut
off holds a separator (``4,"Dee,x``): its string may have lost its closing
quote before the separator instead, which the hints put back, unless the
record would lack more fields than that token holds separators
(``4,"Dee,x`` cut off in the second of nine fields); a record the grammar
calls whole (``4,"Dee, x"``, a string closed before the cut) gets them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, RunStats
from inputmend.core.model import Edit, Repair, distance, edits_between
from inputmend.core.oracle import Feedback, Oracle, Verdict
from inputmend.oracles.wrappers import metered

ALGORITHM = "completion"

LINE_BREAK = "\n"
"""Put before a completion that the text's last token would take in."""

MAX_CLOSING_HEADS = 8
"""The most heads of a completion tried in front of the rest of the text, per
cut (each an oracle run or two): enough for a few closers of a few tokens each."""

MAX_FIELDS = 4096
"""The most empty fields appended to a record cut off (a bound on the search
for their number: 13 oracle runs at most for the doubling)."""

Complete = Callable[[str], str | None]
"""A valid prefix -> the text to append so that it is complete (None: none)."""
TokenStart = Callable[[str], int | None]
"""A valid prefix -> where its last token starts (None: not known)."""


@dataclass(frozen=True)
class CompletionOptions:
    """The grammar's side of completion: ``complete`` a valid prefix, find
    the start of a prefix's last token (to also try it without), and
    ``locate`` where a text stops parsing (the grammar's verdict, when the
    oracle is a program that cannot say; default: the oracle's), and the
    separator of ``fields`` when every record has as many as the first
    (a record cut off gets the empty fields it lacks)."""

    complete: Complete
    token_start: TokenStart | None = None
    locate: Callable[[str], Feedback] | None = None
    fields: str | None = None
    droppable: Callable[[str, int, str], bool] | None = None
    """May an incorrect text's rest from an offset be dropped, the prefix
    completed by the given text (None: any rest may)?  A prefix whose rest
    may not is only closed in place."""


@dataclass(frozen=True)
class CompletionResult:
    """The completions the oracle accepted (input order: the longest kept
    prefix first) and what checking them cost."""

    repairs: tuple[Repair, ...]
    stats: RunStats


def complete_text(
    text: str, oracle: Oracle, *, options: CompletionOptions, budget: Budget = UNLIMITED
) -> CompletionResult:
    """Repairs of ``text`` that keep a prefix of it and append to it: the
    whole text when it is incomplete, else the part before its parse
    boundary and the part before the last token before it."""
    checked, meter = metered(oracle, budget)
    repairs: list[Repair] = []
    try:
        feedback = (options.locate or checked.check)(text)
        if feedback.verdict is Verdict.COMPLETE:
            return CompletionResult((), RunStats.of(meter))
        cut = len(text) if feedback.verdict is Verdict.INCOMPLETE else feedback.error_offset
        cuts = [] if cut is None else [cut]
        if cut is not None and options.token_start:
            start = options.token_start(text[:cut])
            if (
                start is not None
                and start < cut
                and (feedback.verdict is Verdict.INCORRECT or _punctuation(text[start:cut]))
            ):
                cuts.append(start)
        ending = text[len(text.rstrip()) :]
        for cut in cuts:
            meter.poll()
            prefix = text[:cut]
            suffix = options.complete(prefix)
            if suffix is None or not _written_back(text, cut, suffix, feedback.verdict):
                continue
            drops = options.droppable
            if feedback.verdict is Verdict.INCORRECT and drops and not drops(text, cut, suffix):
                # a rest too large to lose: only kept, after a construct closed
                closed = _closed_in_place(text, cut, suffix, checked)
                if closed is not None:
                    repairs.append(_repair(text, cut, closed))
                continue
            # the blanks that ended the text stay after the completion (the
            # rest of them, where the cut is among them)
            rest = text[cut:] if cut >= len(text) - len(ending) else ending
            endings = (rest, "") if rest else ("",)
            # a line break first, where the last token would read on into
            # the completion (a `//` comment at the end takes in the `}`)
            tries = [suffix + end for end in endings] + [LINE_BREAK + suffix]
            for appended in tries:
                candidate = prefix + appended
                verdict: Verdict
                if candidate == text and options.locate is None:
                    verdict = feedback.verdict  # (the oracle's, already asked)
                else:
                    verdict = checked.check(candidate).verdict
                least = _least_fields(prefix, suffix, options)
                if verdict is Verdict.INCOMPLETE and least is not None:
                    # complete by the grammar, cut short by the loader's count of fields
                    filled = _filled(candidate, options.fields or "", checked, least)
                    candidate, verdict = (filled, Verdict.COMPLETE) if filled else (text, verdict)
                if candidate != text and verdict is Verdict.COMPLETE:
                    repairs.append(_repair(text, cut, candidate))
                    break
            if feedback.verdict is Verdict.INCORRECT and text[cut:].strip():
                closed = _closed_in_place(text, cut, suffix, checked)
                if closed is not None:
                    repairs.append(_repair(text, cut, closed))
    except BudgetExhausted:
        pass
    return CompletionResult(tuple(repairs), RunStats.of(meter))


def _repair(text: str, cut: int, candidate: str) -> Repair:
    """``candidate``, which keeps ``text`` up to ``cut``, as a completion."""
    edits = tuple(
        Edit(cut + edit.offset, edit.delete, edit.insert)
        for edit in edits_between(text[cut:], candidate[cut:])
    )
    return Repair(candidate, edits, ALGORITHM, True, distance(text, candidate))


def _closed_in_place(text: str, cut: int, suffix: str, oracle: Oracle) -> str | None:
    """``text`` with the shortest head of ``suffix`` (the completion of the
    text up to ``cut``) inserted at ``cut`` that the oracle accepts, the rest
    kept; None when none of the first :data:`MAX_CLOSING_HEADS` heads is
    accepted.  A head ends after a punctuation character: where a closer (a
    bracket, an end tag's ``>``) ends.  It is shorter than the completion:
    it closes inner constructs, and the rest goes on in the outer ones (the
    whole completion in front of the rest would end the text there: a
    delimiter after a line of prose, ``keep in sync:``, which the hints and
    searches weigh against the others)."""
    closing = suffix.rstrip()
    ends = [end + 1 for end, char in enumerate(closing[:-1]) if _punctuation(char)]
    # a head is first tried on the rest of its line and the next (a wrong
    # one fails there), so that a long rest is read once, for the head kept
    line_end = text.find("\n", text.find("\n", cut) + 1)
    near = text[cut:] if line_end < 0 else text[cut:line_end]
    for end in ends[:MAX_CLOSING_HEADS]:
        head = text[:cut] + suffix[:end]
        if len(near) < len(text) - cut and oracle.check(head + near).verdict is Verdict.INCORRECT:
            continue
        candidate = head + text[cut:]
        if oracle.check(candidate).verdict is Verdict.COMPLETE:
            return candidate
    return None


def _least_fields(prefix: str, suffix: str, options: CompletionOptions) -> int | None:
    """How many empty fields the last record of ``prefix`` (completed by the
    grammar with ``suffix``) must lack at least to get them after its
    completion; None: none, the format has no ``fields``.  Any number where
    the grammar appends nothing (the record is whole, only short of fields:
    ``4,"Dee, x"``) or the token cut off at its end holds no field
    separator.  Where it holds some (``4,"Dee,x``), its string may have lost
    its closing quote before one of them rather than been cut off, which the
    hints put back (``4,"Dee",x``): padding is for a record that would still
    lack fields then, more than the separators in the token."""
    if not options.fields or options.token_start is None:
        return None
    if not suffix.strip():
        return 1
    start = options.token_start(prefix)
    if start is None:
        return None
    # (past its first character: a field cut off as it opens, `,"tw`, may be
    # read from the separator before it)
    return prefix[start + 1 :].count(options.fields) + 1


def _filled(text: str, separator: str, oracle: Oracle, least: int = 1) -> str | None:
    """``text`` with the fewest separators appended that the oracle accepts,
    when it calls ``text`` with fewer incomplete (a last record short of
    fields) and that fewest is ``least`` or more; None when no number up to
    :data:`MAX_FIELDS` makes it valid.  The number is found by doubling
    until the oracle no longer calls the text incomplete, then halving
    between the last two."""
    low, high = 0, 1  # low: still incomplete; high: to try
    while True:
        verdict = oracle.check(text + separator * high).verdict
        if verdict is not Verdict.INCOMPLETE:
            break
        if high >= MAX_FIELDS:
            return None
        low, high = high, min(2 * high, MAX_FIELDS)
    while high - low > 1:
        middle = (low + high) // 2
        verdict_middle = oracle.check(text + separator * middle).verdict
        if verdict_middle is Verdict.INCOMPLETE:
            low = middle
        else:
            high, verdict = middle, verdict_middle
    if verdict is not Verdict.COMPLETE or high < least:
        return None
    return text + separator * high


def _punctuation(token: str) -> bool:
    """Is ``token`` punctuation (no letter, digit, quote or opening bracket):
    where a head of a completion may end?"""
    return bool(token.strip()) and not any(c.isalnum() or c in "\"'`([{<" for c in token)


def _written_back(text: str, cut: int, suffix: str, verdict: Verdict) -> bool:
    """May an incomplete ``text``, cut at ``cut`` before the punctuation it
    ends in, be completed by ``suffix`` there?  A separator, yes: the text
    goes without it (``[1, 2,`` -> ``[1, 2]``, not ``[1, 2, null]``).  A
    closer only when the suffix writes it back as it was (``(k y))`` ->
    ``(k y)))``, before the final line break): the form it ended stays
    ended as written, not re-read (an XML start tag's ``>`` at the end as
    ``/>``, which rewrites the input where appending to it is enough)."""
    dropped = text[cut:].strip()
    if verdict is not Verdict.INCOMPLETE or not dropped:
        return True
    closer = any(c in ")]}>" for c in dropped)
    return not closer or suffix.startswith(dropped)
