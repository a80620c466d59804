"""A document escaped as a string: the whole text written as the body of a
string (``{\\"name\\": \\"demo\\",\\n \\"size\\": 1}``, what a program that
stored it in a string printed), read back by the backslash escapes that C,
JSON, JavaScript and Python share.

Only a text that holds an escaped double quote is read back, whole (also
without the quotes around it, when it has them), one edit per escape (what
changes is the escapes, not the data between them); the oracle decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed

ALGORITHM = "unescape"

_ESCAPE = re.compile(
    r"\\u([Dd][89ABab][0-9A-Fa-f]{2})\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})"  # a surrogate pair
    r"|\\u([0-9A-Fa-f]{4})|\\(.)",
    re.DOTALL,
)
_NAMED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _read(match: re.Match[str]) -> str | None:
    high, low, code, char = match.groups()
    if high is not None:
        return (
            (chr(int(high, 16)) + chr(int(low, 16)))
            .encode("utf-16", "surrogatepass")
            .decode("utf-16")
        )
    if code is not None:
        return chr(int(code, 16))
    if char in _NAMED:
        return _NAMED[char]
    return char if char in "\"'\\/" else None


def unescaping(text: str, start: int = 0, end: int | None = None) -> list[Edit] | None:
    """The edits that read the backslash escapes of ``text[start:end]``, one
    per escape (None when one is not an escape of that common set, or reads
    as half a character)."""
    edits = []
    for match in _ESCAPE.finditer(text, start, len(text) if end is None else end):
        try:
            read = _read(match)
        except UnicodeError:
            return None
        if read is None:
            return None
        edits.append(Edit(match.start(), match.end() - match.start(), read))
    return edits


def unescaped(text: str) -> str | None:
    """``text`` with its backslash escapes read (see :func:`unescaping`)."""
    edits = unescaping(text)
    return None if edits is None else apply_edits(text, edits)


def proposals(text: str) -> Iterator[tuple[Edit, ...]]:
    """The whole text read back, and read back without its quotes."""
    whole = unescaping(text)
    if whole is not None:
        yield tuple(whole)
    inner = text.strip()
    if len(inner) >= 2 and inner[0] == inner[-1] == '"':
        start = text.index('"')
        end = start + len(inner) - 1
        body = unescaping(text, start + 1, end)
        if body is not None:
            yield (Edit(start, 1, ""), *body, Edit(end, 1, ""))


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    if '\\"' not in context.text:
        return NOTHING
    return verified(
        context.text, context.oracle, proposals(context.text), algorithm=ALGORITHM, budget=budget
    )


UNESCAPE = Generator(ALGORITHM, 1, _run, not_completed)
