"""A record with one field too few or one too many, given the header's number.

For a format whose records all have as many fields as the first (a hints
file's ``fields``, CSV's ``,``), the loader refuses a record with another
number.  One field too few: a value was lost, and a repair cannot know it,
but it can keep the values after it in their columns: an empty field is
proposed at each place in the record (its start, each separator, its end).
One field too many with an empty one among them (a separator written
twice): each empty field is proposed deleted with a separator beside it,
which loses no value.  One field too many holding values only (a junk
value put into the record, ``1,x,C,5``), or whose empty fields stand
where the table leaves fields empty in other records, so that each may
be its column's (:meth:`Judge.gap_columns
<inputmend.algorithms.judgement.Judge.gap_columns>`): the fields whose deletion leaves
the fewest values out of their columns' shapes (:meth:`Judge.misfits
<inputmend.algorithms.judgement.Judge.misfits>`) are proposed deleted with
a separator beside them (``dropped``), unless some separators of the
record but not all are followed by a blank where the table writes none
(:meth:`Judge.led_columns <inputmend.algorithms.judgement.Judge.led_columns>`):
then the field too many is the rest of a value that held the separator
(``Smith, John``), which dropping would lose.  (A value that holds the separator
and lost its quotes is the hints' to quote.)  The ranking chooses by what
it reads in the columns (``misplaced``); the oracle checks every proposal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.core.oracle import Verdict
from inputmend.core.text import line_at
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified

ALGORITHM = "columns"


def proposals(
    text: str,
    start: int,
    end: int,
    separators: list[int],
    separator: str,
    fields: int,
    *,
    misfits: Callable[[Sequence[str]], int] | None = None,
    gaps: frozenset[int] = frozenset(),
    led: frozenset[int] = frozenset(),
) -> Iterator[tuple[Edit, ...]]:
    """Edits that give the record ``text[start:end]`` (its separators at
    ``separators``) ``fields`` fields: an empty field put in where it has one
    too few, an empty field deleted where it has one too many; then, given
    ``misfits`` (how many of a record's values are out of their columns'
    shapes), the fields holding a value whose deletion leaves the fewest
    misfits, each deleted with the separator after it (the last one with
    the separator before it); in a record with an empty field, only where
    each may be its column's (``gaps``: the columns the table leaves empty
    in other records; ``led``: those whose values it writes after a
    blank)."""
    found = len(separators) + 1
    width = len(separator)
    if found == fields - 1:
        for place in (start, *separators, end):
            yield (Edit(place, 0, separator),)
    elif found == fields + 1:
        for index, place in enumerate(separators):
            before = separators[index - 1] + width if index else start
            after = separators[index + 1] if index + 1 < len(separators) else end
            empty_before = place == before
            empty_last = index + 1 == len(separators) and place + width == after
            if empty_before or empty_last:
                yield (Edit(place, width, ""),)
        if misfits is not None:
            yield from _dropped(text, start, end, separators, width, misfits, gaps, led)


def _dropped(
    text: str,
    start: int,
    end: int,
    separators: list[int],
    width: int,
    misfits: Callable[[Sequence[str]], int],
    gaps: frozenset[int],
    led: frozenset[int],
) -> Iterator[tuple[Edit, ...]]:
    """Deletions of one field holding a value (and a separator beside it)
    that leave the fewest values of the record out of their columns' shapes,
    in a record whose fields all hold values (an empty one is the one too
    many, deleted at no loss), or whose empty fields each stand in a column
    of ``gaps`` (or the one before, should the field too many come first:
    each may be its column's).  None where some separators but not
    all are followed by a blank (the record's own style has none), one of
    them before a field that stands where the table writes no value after
    a blank (not in a column of ``led``, nor the one before, should the
    field too many come first): a field that begins with one is the rest of
    a value that held the separator (``Smith, John``), the hints' to quote,
    and dropping any field would lose a value."""
    bounds = list(zip((start, *(s + width for s in separators)), (*separators, end), strict=True))
    values = [text[low:high] for low, high in bounds]
    empty = [index for index, value in enumerate(values) if not value.strip()]
    if any(not gaps.intersection((index - 1, index)) for index in empty):
        return  # an empty field is the one too many: dropping it loses no value
    blank = [index for index, value in enumerate(values) if index and value[:1].isspace()]
    unwritten = [index for index in blank if not led.intersection((index - 1, index))]
    if unwritten and len(blank) < len(separators):
        return  # the field too many is the rest of a value that held the separator
    scored = [
        (misfits([*values[:index], *values[index + 1 :]]), index) for index in range(len(values))
    ]
    fewest = min(score for score, _ in scored)
    for score, index in scored:
        if score == fewest:
            low, high = bounds[index]
            if index + 1 < len(bounds):
                yield (Edit(low, high + width - low, ""),)
            else:
                yield (Edit(low - width, high - low + width, ""),)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    text = context.text
    separator = context.guidance.hints.fields
    header = context.judge.header_fields()
    error = context.feedback.error_offset
    if (
        separator is None
        or header is None
        or error is None
        or context.feedback.verdict is not Verdict.INCORRECT
    ):
        return NOTHING
    start, end = line_at(text, error)
    lexemes = context.guidance.lexer.lex(text, start, end)
    separators = [t.start for t in lexemes if t.value == separator and t.start < end]
    places = proposals(
        text,
        start,
        end,
        separators,
        separator,
        header + 1,
        misfits=context.judge.misfits,
        gaps=context.judge.gap_columns(),
        led=context.judge.led_columns(),
    )
    return verified(text, context.oracle, places, algorithm=ALGORITHM, budget=budget)


def has_fields(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth running for a format whose records have the header's number of fields."""
    del found
    return context.guidance.hints.fields is not None


COLUMNS = Generator(ALGORITHM, 1, _run, has_fields)
