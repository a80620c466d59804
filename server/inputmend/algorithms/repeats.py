"""Definitions written twice, and repairs that remove one of the copies.

A key set twice in a TOML table, or an attribute written twice in an XML
start tag, is what a rule beyond the syntax refuses (the format's loader,
tomllib: "Cannot overwrite a value"; a name check of the grammar: an
attribute that appears twice) in a text the parser reads: a copy-paste
slip, or a setting added again further down.  A person
removes one copy (or comments it out).  The text the repair removes is
then no data lost: the repaired text keeps an identical copy of it.

A *definition* here is a stretch of one line that the grammar's tolerant
lexer, reading the line from its start, reads as whole tokens: data (a
name), then punctuation, then at least one more token (a value:
``line-length = 100``, ``scope="test"``, ``extras = []``).  A header
that opens a block (``[tool.ruff]``) begins with punctuation and is no
definition: removing it would move the entries below it into another block.

:func:`removed_copies` tells whether every edit of a repair removes one copy
of a definition the text repeats (the ranking's judgement, for inputs a
rule beyond the syntax refuses); :func:`repeated_definitions` finds
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
"""Tokens read before the refused token for a copy of the run of tokens it
begins (a bound on work on a long line)."""

REACH = 4096
"""Characters before a line that its lexing starts from, at a line start:
a line inside a construct begun above it (an XML start tag written over
lines, one attribute a line) is read in that construct's context."""

NEAR = 2048
"""How far before or after a stretch of a line its copy may stand (the
other attributes of a start tag written over lines)."""


@dataclass(frozen=True)
class Removal:
    """What a repair whose every edit removes a copy of a definition removes:
    ``deleted`` characters deleted of copies that a copy before them keeps
    in its place (the last of them: the one the rule refuses), and
    ``commented`` non-blank characters turned into a comment.  Deleting an
    earlier copy keeps the data too, but moves the definition to where the
    later one stood: its characters are not counted here, and stay an edit."""

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
    begin with data (a name), then punctuation, then at least one more token
    (a value: ``line-length = 100``, ``extras = []``)?  The punctuation after
    the name is not what stands before it: ``1.3,140`` inside a CSV record
    (``,1.3,140,``) is two of its fields, not a name and its value."""
    inside = [lexeme for lexeme in lexemes if start <= lexeme.start < end]
    if not inside or inside[0].start != start or inside[-1].end != end:
        return False
    if any(lexeme.end > end for lexeme in inside) or inside[0].role is not Role.DATA:
        return False
    punctuation = next(
        (index for index, lexeme in enumerate(inside) if lexeme.role is Role.STRUCTURE), None
    )
    if punctuation is None or punctuation + 1 >= len(inside):
        return False
    before = [lexeme for lexeme in lexemes if lexeme.end <= start]
    return not before or before[-1].value != inside[punctuation].value


def _lexed(text: str, start: int, end: int, lexer: TolerantLexer) -> list[Lexeme]:
    """The lexemes of ``text[start:end]``, read from a line start up to
    :data:`REACH` before ``start`` (in the context of what begins there)."""
    origin = line_at(text, max(0, start - REACH))[0]
    return [x for x in lexer.lex(text, origin, end, foreign=False) if x.start >= start]


def _later_line(text: str, offset: int, content: str) -> bool:
    """Does a line after ``offset`` hold ``content`` (between blanks)?"""
    return any(line.strip() == content for line in text[offset:].splitlines())


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
            last = not _later_line(text, end, copy)
        else:
            later = copy in text[end : end + NEAR]
            if not later and copy not in text[max(0, start - NEAR) : start]:
                return None
            last = not later
        if not _is_definition(_lexed(text, line_start, line_end, lexer), start, end):
            return None
        return Removal(len(removed) if last else 0, 0)
    if not is_marker(edit):
        return None
    # a marker put before a line's content: the line commented out
    line_start, line_end = line_at(text, edit.offset)
    start, end = _content(text, line_start, line_end)
    if start != edit.offset or start == end or not _repeated_line(text, start, end):
        return None
    if not _is_definition(_lexed(text, line_start, line_end, lexer), start, end):
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
    rule beyond the syntax refused the text), nearest ``offset`` first: the
    line itself and each other line with the same content, deleted whole;
    and of a run of tokens that begins with data at the refused token and
    that the text holds before it (near it: :data:`NEAR`), each copy deleted
    with the blanks before it on its line, the refused one first."""
    line_start, line_end = line_at(text, offset)
    start, end = _content(text, line_start, line_end)
    lexemes = _lexed(text, max(0, line_start - NEAR), line_end, lexer)
    on_line = [lexeme for lexeme in lexemes if lexeme.start >= line_start]
    if start < end and _repeated_line(text, start, end) and _is_definition(on_line, start, end):
        yield from _line_copies(text, line_start, text[start:end])
    refused = max((i for i, lexeme in enumerate(lexemes) if lexeme.start <= offset), default=None)
    if refused is None:
        return
    window = lexemes[max(0, refused - RUN_WINDOW) : refused + RUN_WINDOW]
    anchor = refused - max(0, refused - RUN_WINDOW)
    for first, second, size in _repeated_runs(window, anchor):
        for index in (second, first):
            run_start, run_end = window[index].start, window[index + size - 1].end
            blanks = run_start
            while blanks > 0 and text[blanks - 1] in " \t":
                blanks -= 1
            yield Edit(blanks, run_end - blanks)


def _line_copies(text: str, line_start: int, content: str) -> Iterator[Edit]:
    """Each line of ``text`` whose content is ``content`` deleted whole, the
    one that starts nearest ``line_start`` first."""
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


def _repeated_runs(lexemes: Sequence[Lexeme], anchor: int) -> Iterator[tuple[int, int, int]]:
    """Runs of at least :data:`MIN_TOKENS` equal tokens (kind and text), the
    second beginning at or just before ``anchor`` (the refused token: a name
    the rule saw twice, or the punctuation after it) and the first before
    it, each as long as the two agree and a definition: (first's index,
    second's index, length)."""
    key = [(lexeme.kind, lexeme.value) for lexeme in lexemes]
    for second in (anchor, anchor - 1):
        if second < 1 or lexemes[second].role is not Role.DATA:
            continue
        for first in range(second - 1, -1, -1):
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
                return
