"""Comments that lost a delimiter: a line of prose that lost its comment
marker (INI's ``;``, YAML's and TOML's ``#``) made a comment again, and a
block comment never closed (``/*`` without ``*/``) closed where its line or
its paragraph ends, not at the end of the text, which would comment out
everything after it.  A comment that lost its closer ends at the next closer
the lexer finds, which may be in a string further on (``"src/**/*.ts"``):
so the block comments are read as the grammar's lexer reads them, and those
that run on over lines before the error are closed on their first line too.

The comment syntax is the grammar's (:func:`~inputmend.grammar.syntax.comments_of`);
a grammar without comments gets nothing.  The oracle verifies every
candidate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.core.text import line_at
from inputmend.grammar.syntax import Comments
from inputmend.grammar.tolerant import Lexeme, Role
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed
from inputmend.repairs.generators.quoting import failing_lines

ALGORITHM = "comment"

RUN = 4
"""Lines after the failing one that one proposal may comment out with it."""

ABOVE = 16
"""Comment lines read over, going up from the error, to the line of prose
above them (a parser reads on over comments: its error is after them)."""

BEHIND = 1 << 14
"""How far before the error block comments are read as the lexer reads them
(from a token the grammar read there): the lexing costs the same on a text
of any length."""

_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")


def marked(text: str, line: tuple[int, int], marker: str) -> Edit:
    """``marker`` and a blank put before the content of ``line``."""
    start, end = line
    content = start + len(text[start:end]) - len(text[start:end].lstrip())
    return Edit(content, 0, marker + " ")


def prose_lines(text: str, error: int, comments: Comments) -> list[tuple[int, int]]:
    """The failing lines (:func:`~inputmend.repairs.generators.quoting.failing_lines`)
    with content, and the first line above the error that is neither blank
    nor a comment, over up to :data:`ABOVE` comment lines: prose that lost
    its marker above a comment (``set by the installer`` over ``# Required``)
    is read on over that comment, and the parser stops after it."""
    lines = [line for line in failing_lines(text, error) if text[line[0] : line[1]].strip()]
    start = line_at(text, min(error, len(text)))[0]
    skipped = 0
    while start > 0 and skipped < ABOVE:
        line = line_at(text, start - 1)
        start = line[0]
        content = text[line[0] : line[1]].strip()
        if not content:
            continue
        if not content.startswith(comments.line):
            if line not in lines:
                lines.append(line)
            break
        skipped += 1
    return lines


def line_proposals(text: str, error: int, comments: Comments) -> Iterator[tuple[Edit, ...]]:
    """The failing lines and the prose above comments before the error
    (:func:`prose_lines`) commented out, first each alone, then each with
    the next lines (up to :data:`RUN`, a run of prose that lost its markers)."""
    lines = prose_lines(text, error, comments)
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


def run_on(lexemes: Sequence[Lexeme], comments: Comments) -> list[tuple[int, str]]:
    """The block comments among ``lexemes`` (the lexer's reading of the text
    up to the error) that span lines, the last :data:`RUN` of them, nearest
    the error first: each its start and its closer.  One that lost its
    closer runs on to the next closer in the text and ends there, or at the
    end of the text, with the grammar's error after it."""
    found: list[tuple[int, str]] = []
    for lexeme in reversed(lexemes):
        if len(found) >= RUN:
            break
        if lexeme.role is not Role.LAYOUT or "\n" not in lexeme.value:
            continue
        for opener, closer in comments.block:
            if lexeme.value.startswith(opener):
                found.append((lexeme.start, closer))
                break
    return found


def block_proposals(
    text: str, comments: Comments, running_on: Sequence[tuple[int, str]] = ()
) -> Iterator[tuple[Edit, ...]]:
    """Each unclosed block comment, and each that runs on (``running_on``,
    see :func:`run_on`), closed at the end of its line, then at the end of
    its paragraph (before the first blank line after it)."""
    starts = [
        (start, closer)
        for opener, closer in comments.block
        for start in unclosed(text, opener, closer)
    ]
    starts += [found for found in running_on if found not in starts]
    for start, closer in starts:
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
        running_on = _lexed_run_on(context, error, comments)
        yield from block_proposals(context.text, comments, running_on)
        if error is not None:
            yield from line_proposals(context.text, error, comments)

    return verified(context.text, context.oracle, proposals(), algorithm=ALGORITHM, budget=budget)


def _lexed_run_on(
    context: RepairContext, error: int | None, comments: Comments
) -> list[tuple[int, str]]:
    """:func:`run_on` of the text lexed up to the end of the error's line
    (the end of the text without an error), from where the grammar's reading
    has a token that starts at most :data:`BEHIND` before that (the line's
    start when it cannot tell)."""
    if not comments.block:
        return []
    text = context.text
    end = len(text) if error is None else line_at(text, min(error, len(text)))[1]
    start = 0
    if end > BEHIND:
        token_start = context.judge.token_start
        found = None if token_start is None else token_start(end - BEHIND)
        start = line_at(text, end - BEHIND)[0] if found is None else found
    return run_on(context.guidance.lexer.lex(text, start, end), comments)


COMMENTS = Generator(ALGORITHM, 1, _run, not_completed)
