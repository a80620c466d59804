"""Definitions written twice, and repairs that remove one of the copies.

A key set twice in a TOML table, or an attribute written twice in an XML
start tag, is what a format's loader refuses (tomllib: "Cannot overwrite a
value"; expat: a duplicate attribute) while its grammar reads the text
fine: a copy-paste slip, or a setting added again further down.  A person
removes one copy (or comments it out).  The text the repair removes is
then no data lost: the repaired text keeps an identical copy of it.

A *definition* here is a stretch of one line that the grammar's tolerant
lexer, reading the line from its start, reads as whole tokens beginning with
data and holding data, punctuation and data in that order (a name,
punctuation, a value: ``line-length = 100``, ``scope="test"``).  A header
that opens a block (``[tool.ruff]``) begins with punctuation and is no
definition: removing it would move the entries below it into another block.

:func:`removed_copies` tells whether every edit of a repair removes one copy
of a definition the text repeats (the ranking's judgement, for inputs the
loader refuses and the grammar accepts); :func:`repeated_definitions` finds
where a line repeats a definition (the places a generator proposes).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from inputmend.core.model import Edit
from inputmend.core.text import line_at
from inputmend.grammar.tolerant import Lexeme, Role, TolerantLexer

MIN_TOKENS = 3
"""A definition's fewest tokens: a name, punctuation, a value."""

RUN_WINDOW = 48
"""Tokens of the refused line read on either side of the loader's position
for runs it holds twice (a bound on work on a long line)."""


@dataclass(frozen=True)
class Removal:
    """What a repair whose every edit removes a copy of a definition removes:
    ``deleted`` characters deleted (copies gone from the text) and
    ``commented`` non-blank characters turned into a comment."""

    deleted: int
    commented: int


def _content(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` without the blanks at its ends, as offsets."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _is_definition(lexemes: Sequence[Lexeme], start: int, end: int) -> bool:
    """Do the ``lexemes`` of a line read ``[start, end)`` as whole tokens that
    begin with data and hold data, punctuation and data in that order?"""
    inside = [lexeme for lexeme in lexemes if start <= lexeme.start < end]
    if not inside or inside[0].start != start or inside[-1].end != end:
        return False
    if any(lexeme.end > end for lexeme in inside) or inside[0].role is not Role.DATA:
        return False
    wanted = (Role.DATA, Role.STRUCTURE, Role.DATA)
    step = 0
    for lexeme in inside:
        if lexeme.role is wanted[step]:
            step += 1
            if step == len(wanted):
                return True
    return False


@functools.lru_cache(maxsize=8)
def _line_counts(text: str) -> Counter[str]:
    """How many lines of ``text`` hold each content (between blanks)."""
    return Counter(line.strip() for line in text.splitlines())


def _repeated_line(text: str, start: int, end: int) -> bool:
    """Does another line of ``text`` hold what ``text[start:end]`` (one line's
    content) holds, between blanks?"""
    return _line_counts(text)[text[start:end]] > 1


def _removed_copy(text: str, edit: Edit, lexer: TolerantLexer) -> Removal | None:
    """What ``edit`` removes, when it removes one copy of a definition that
    ``text`` repeats: a line deleted whole (with one of its line breaks) or
    commented out whose content another line holds, or a stretch of a line
    deleted (with blanks beside it) that the same line holds again."""
    if edit.delete and not edit.insert:
        removed = text[edit.offset : edit.end]
        start, end = _content(text, edit.offset, edit.end)
        if start == end or text.count("\n", start, end):
            return None
        line_start, line_end = line_at(text, start)
        copy = text[start:end]
        if "\n" in removed:  # a whole line and one of its line breaks
            whole = text[line_start:line_end].strip() == copy
            if not whole or removed.count("\n") != 1 or not _repeated_line(text, start, end):
                return None
        elif text[line_start:line_end].count(copy) < 2:
            return None
        if not _is_definition(lexer.lex(text, line_start, line_end, foreign=False), start, end):
            return None
        return Removal(len(removed), 0)
    if not is_marker(edit):
        return None
    # a marker put before a line's content: the line commented out
    line_start, line_end = line_at(text, edit.offset)
    start, end = _content(text, line_start, line_end)
    if start != edit.offset or start == end or not _repeated_line(text, start, end):
        return None
    if not _is_definition(lexer.lex(text, line_start, line_end, foreign=False), start, end):
        return None
    return Removal(0, sum(not c.isspace() for c in text[start:end]))


def is_marker(edit: Edit) -> bool:
    """Does ``edit`` only insert punctuation on one line (a comment marker)?"""
    inserted = edit.insert
    return (
        not edit.delete
        and bool(inserted.strip())
        and not any(c.isalnum() or c in "\r\n" for c in inserted)
    )


def may_remove_copies(edits: Sequence[Edit]) -> bool:
    """Could ``edits`` remove copies (each deletes only, or inserts a
    marker)?  A cheap look before :func:`removed_copies`."""
    return bool(edits) and all((e.delete and not e.insert) or is_marker(e) for e in edits)


def removed_copies(text: str, edits: Sequence[Edit], lexer: TolerantLexer) -> Removal | None:
    """What the repair made of ``edits`` removes, when each edit removes one
    copy of a definition ``text`` repeats (see the module's docstring);
    None when some edit does anything else."""
    if not edits:
        return None
    deleted = commented = 0
    for edit in edits:
        removal = _removed_copy(text, edit, lexer)
        if removal is None:
            return None
        deleted += removal.deleted
        commented += removal.commented
    return Removal(deleted, commented)


def _line_removal(text: str, start: int, end: int) -> Edit:
    """The line ``[start, end)`` deleted with its line break (the one before
    it, for the last line of a text that does not end with one)."""
    if end < len(text):
        return Edit(start, end + 1 - start)
    return Edit(max(0, start - 1), end - max(0, start - 1))


def repeated_definitions(text: str, offset: int, lexer: TolerantLexer) -> Iterator[Edit]:
    """Removals of a definition that the line at ``offset`` repeats (where a
    loader refused the text), nearest ``offset`` first: the line itself and
    each other line with the same content, deleted whole; and of a run of
    tokens that begins with data and that the line holds twice, each copy
    deleted with the blanks before it."""
    line_start, line_end = line_at(text, offset)
    lexemes = lexer.lex(text, line_start, line_end, foreign=False)
    start, end = _content(text, line_start, line_end)
    if start < end and _is_definition(lexemes, start, end) and _repeated_line(text, start, end):
        content = text[start:end]
        copies = []
        position = 0
        while position < len(text):
            found_end = text.find("\n", position)
            found_end = len(text) if found_end < 0 else found_end
            if text[position:found_end].strip() == content:
                copies.append((position, found_end))
            position = found_end + 1
        if len(copies) > 1:  # not when a line break other than ``\n`` parts them
            for copy_start, copy_end in sorted(copies, key=lambda c: abs(c[0] - line_start)):
                yield _line_removal(text, copy_start, copy_end)
    near = min(
        range(len(lexemes)), key=lambda i: abs(lexemes[i].start - offset), default=0
    )
    window = lexemes[max(0, near - RUN_WINDOW) : near + RUN_WINDOW]
    for first, second, size in _repeated_runs(window):
        for index in (second, first):
            run_start, run_end = window[index].start, window[index + size - 1].end
            blanks = run_start
            while blanks > line_start and text[blanks - 1] in " \t":
                blanks -= 1
            yield Edit(blanks, run_end - blanks)


def _repeated_runs(lexemes: Sequence[Lexeme]) -> Iterator[tuple[int, int, int]]:
    """Pairs of runs of at least :data:`MIN_TOKENS` equal tokens (kind and
    text) on one line, the first beginning with data, each as long as the two
    agree: (first's index, second's index, length)."""
    key = [(lexeme.kind, lexeme.value) for lexeme in lexemes]
    for first in range(len(lexemes)):
        if lexemes[first].role is not Role.DATA:
            continue
        for second in range(first + 1, len(lexemes)):
            size = 0
            while (
                second + size < len(lexemes)
                and first + size < second
                and key[first + size] == key[second + size]
            ):
                size += 1
            if size >= MIN_TOKENS and _is_definition(
                lexemes, lexemes[first].start, lexemes[first + size - 1].end
            ):
                yield first, second, size
