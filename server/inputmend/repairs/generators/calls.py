"""Calls written by other tools' conventions: a value wrapped in a call of
any identifier, ``ObjectId("5f1d...")``, ``NumberLong(42)``,
``ISODate("2024-01-05")`` (the Mongo shell), or a whole document wrapped as
``callback({...});`` (JSONP), replaced by its one argument.

The calls tried are those nearest to where the oracle stopped reading (and
all of them at once); the argument ends at the parenthesis that closes the
call, read past brackets and the grammar's strings, and holds no comma
outside them.  A ``;`` right after the call goes with it, in a second
proposal.  The oracle verifies every candidate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed

ALGORITHM = "unwrap-call"

CALLS = 8
"""Calls tried one at a time, nearest to where the oracle stopped first."""

_CALL = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[ \t]*\(")
_SEMICOLON = re.compile(r"[ \t]*;")
_OPENERS, _CLOSERS = "([{", ")]}"


def closing(text: str, start: int, quotes: str) -> tuple[int, bool] | None:
    """Where the parenthesis opened just before ``start`` closes, and whether
    a comma stands between them outside brackets and strings (None when it
    never closes)."""
    depth = 0
    comma = False
    position = start
    size = len(text)
    while position < size:
        char = text[position]
        if char in quotes:
            position += 1
            while position < size and text[position] != char:
                position += 2 if text[position] == "\\" else 1
        elif char in _OPENERS:
            depth += 1
        elif char in _CLOSERS:
            if depth == 0:
                return (position, comma) if char == ")" else None
            depth -= 1
        elif char == "," and depth == 0:
            comma = True
        position += 1
    return None


def call_at(text: str, match: re.Match[str], quotes: str) -> tuple[int, int, str] | None:
    """The call whose name ``match`` found, when it closes and has one
    argument: start, end (after the closing parenthesis) and the argument,
    its blanks trimmed."""
    closed = closing(text, match.end(), quotes)
    if closed is None or closed[1]:
        return None
    argument = text[match.end() : closed[0]].strip()
    return (match.start(), closed[0] + 1, argument) if argument else None


def calls(text: str, quotes: str) -> list[tuple[int, int, str]]:
    """The outermost calls of one argument in ``text`` (see :func:`call_at`),
    read from left to right: a call inside one found is not read again, and
    the reading stops at a call that never closes (all that follows is
    inside it), so that each character is read once per level of calls."""
    found: list[tuple[int, int, str]] = []
    for match in _CALL.finditer(text):
        if found and match.start() < found[-1][1]:
            continue
        if closing(text, match.end(), quotes) is None:
            break
        call = call_at(text, match, quotes)
        if call is not None:
            found.append(call)
    return found


def proposals(text: str, error: int, quotes: str) -> Iterator[tuple[Edit, ...]]:
    """Each of the :data:`CALLS` calls nearest to ``error`` replaced by its
    argument (and with a ``;`` after it), then every outermost call at once."""

    def away(match: re.Match[str]) -> int:
        return abs(match.start() - error)

    nearest = sorted(_CALL.finditer(text), key=away)[:CALLS]
    for call in (call_at(text, match, quotes) for match in nearest):
        if call is None:
            continue
        start, end, argument = call
        yield (Edit(start, end - start, argument),)
        after = _SEMICOLON.match(text, end)
        if after is not None:
            yield (Edit(start, after.end() - start, argument),)
    outermost = [Edit(start, end - start, argument) for start, end, argument in calls(text, quotes)]
    if len(outermost) > 1:
        yield tuple(outermost)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    error = context.feedback.error_offset
    if error is None or "(" not in context.text:
        return NOTHING
    quotes = "".join(quote.quote for quote in context.syntax.strings)
    return verified(
        context.text,
        context.oracle,
        proposals(context.text, error, quotes),
        algorithm=ALGORITHM,
        budget=budget,
    )


UNWRAP_CALLS = Generator(ALGORITHM, 1, _run, not_completed)
