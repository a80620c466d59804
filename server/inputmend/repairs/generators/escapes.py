"""A quote inside a string that lost its backslash: ``"echo \\"Error\\" && exit"``
written ``"echo "Error\\" && exit"``, a pattern's ``\\"`` written ``"``.  The
quote then ends the string early and the rest of its text reads as junk;
deleting the quote, which a search finds first, loses a character of the
data, while the backslash put back keeps every one.

For each of the grammar's one-line string quotes that a backslash escapes
(:func:`~inputmend.grammar.syntax.string_quotes_of`), each such quote on the
line where the oracle stopped reading and the line before it that no
backslash escapes gets one, one quote a proposal, those nearest the error
first (at most :data:`QUOTES`, on lines of at most
:data:`~inputmend.repairs.generators.quoting.LINE` characters around the
error), on a line that escapes that quote elsewhere: whoever wrote it
escapes quotes inside its strings, and the one without a backslash is the
odd one out.  On a line that escapes none, a quote without one is far more
often a string's own (``["a, "b"]`` lost the quote after ``a``), and a
backslash before it would join two strings into one; so is one after a
separator or an opener (``"all , "Meta tag"``): it begins a string.  The
oracle verifies every candidate and the ranking weighs them with the others.  A grammar
without such strings gets nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed
from inputmend.repairs.generators.quoting import LINE, failing_lines

ALGORITHM = "escape"

QUOTES = 16
"""Quotes tried per request, nearest to where the oracle stopped first."""


def unescaped_quotes(text: str, start: int, end: int, quote: str) -> list[int]:
    """The offsets of ``quote`` in ``text[start:end]`` that no backslash
    escapes (an even run of backslashes before it, read from the line's
    start: ``\\\\"`` is an escaped backslash and a quote)."""
    found: list[int] = []
    position = start
    while position < end:
        char = text[position]
        if char == "\\":
            position += 2
            continue
        if char == quote:
            found.append(position)
        position += 1
    return found


STARTS = frozenset(",:;=([{")
"""Punctuation after which a quote (blanks between) begins a string: a
separator or an opener (``, "b"``, ``: "x"``, ``["a"``)."""


def _inside_words(text: str, start: int, offset: int) -> bool:
    """Is the quote at ``offset`` not one that begins a string: its previous
    character other than a blank, from ``start``, is no :data:`STARTS`?  A
    quote inside a string's text follows a word or other text
    (``"say "hi\\" now"``, a pattern's ``+"``); one after ``, `` begins a
    string, and a backslash before it would join two strings into one."""
    before = text[start:offset].rstrip(" \t")
    return bool(before) and before[-1] not in STARTS


def proposals(text: str, error: int, quotes: tuple[str, ...]) -> Iterator[tuple[Edit, ...]]:
    """A backslash before each unescaped quote of ``quotes`` on the failing
    lines that escape that quote elsewhere, the :data:`QUOTES` nearest
    ``error`` first."""
    found: list[int] = []
    for start, end in failing_lines(text, error):
        # a long line (a document on one line) is read around the error
        low, high = max(start, error - LINE // 2), min(end, error + LINE // 2)
        for quote in quotes:
            if "\\" + quote in text[low:high]:
                found.extend(
                    offset
                    for offset in unescaped_quotes(text, low, high, quote)
                    if _inside_words(text, low, offset)
                )
    for offset in sorted(set(found), key=lambda offset: (abs(offset - error), offset))[:QUOTES]:
        yield (Edit(offset, 0, "\\"),)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    error = context.feedback.error_offset
    quotes = tuple(
        string.quote for string in context.syntax.strings if string.escape == "backslash"
    )
    if error is None or not quotes:
        return NOTHING
    return verified(
        context.text,
        context.oracle,
        proposals(context.text, error, quotes),
        algorithm=ALGORITHM,
        budget=budget,
    )


ESCAPES = Generator(ALGORITHM, 1, _run, not_completed)
