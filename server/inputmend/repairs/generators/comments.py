"""Comments that lost a delimiter: a line of prose that lost its comment
marker (INI's ``;``, YAML's and TOML's ``#``) made a comment again, and a
block comment never closed (``/*`` without ``*/``) closed where its line or
its paragraph ends, not at the end of the text, which would comment out
everything after it.

The comment syntax is the grammar's (:func:`~inputmend.grammar.syntax.comments_of`);
a grammar without comments gets nothing.  The oracle verifies every
candidate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.grammar.syntax import Comments
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed
from inputmend.repairs.generators.quoting import failing_lines, line_at

ALGORITHM = "comment"

RUN = 4
"""Lines after the failing one that one proposal may comment out with it."""

_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")


def marked(text: str, line: tuple[int, int], marker: str) -> Edit:
    """``marker`` and a blank put before the content of ``line``."""
    start, end = line
    content = start + len(text[start:end]) - len(text[start:end].lstrip())
    return Edit(content, 0, marker + " ")


def line_proposals(text: str, error: int, comments: Comments) -> Iterator[tuple[Edit, ...]]:
    """The failing lines commented out, first each alone, then each with the
    next lines (up to :data:`RUN`, a run of prose that lost its markers)."""
    lines = [line for line in failing_lines(text, error) if text[line[0] : line[1]].strip()]
    for line in lines:
        for marker in comments.line:
            yield (marked(text, line, marker),)
    for line in lines:
        for marker in comments.line:
            edits = [marked(text, line, marker)]
            end = line[1]
            for _ in range(RUN):
                if end >= len(text):
                    break
                following = line_at(text, text.find("\n", end) + 1)
                end = following[1]
                if text[following[0] : following[1]].strip():
                    edits.append(marked(text, following, marker))
                    yield tuple(edits)


def unclosed(text: str, opener: str, closer: str) -> list[int]:
    """Where block comments open that are never closed: openers after the
    last closer (outside a closed comment)."""
    found: list[int] = []
    position = 0
    while (start := text.find(opener, position)) >= 0:
        close = text.find(closer, start + len(opener))
        if close < 0:
            found.append(start)
            position = start + len(opener)
        else:
            position = close + len(closer)
    return found


def block_proposals(text: str, comments: Comments) -> Iterator[tuple[Edit, ...]]:
    """Each unclosed block comment closed at the end of its line, then at the
    end of its paragraph (before the first blank line after it)."""
    for opener, closer in comments.block:
        for start in unclosed(text, opener, closer):
            line_end = line_at(text, start)[1]
            yield (Edit(line_end, 0, " " + closer),)
            blank = _BLANK_LINE.search(text, line_end)
            if blank is not None:
                paragraph_end = line_at(text, blank.start())[1]
                if paragraph_end > line_end:
                    yield (Edit(paragraph_end, 0, " " + closer),)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    comments = context.syntax.comments
    error = context.feedback.error_offset
    if not comments.line and not comments.block:
        return NOTHING

    def proposals() -> Iterator[tuple[Edit, ...]]:
        yield from block_proposals(context.text, comments)
        if error is not None:
            yield from line_proposals(context.text, error, comments)

    return verified(context.text, context.oracle, proposals(), algorithm=ALGORITHM, budget=budget)


COMMENTS = Generator(ALGORITHM, 1, _run, not_completed)
