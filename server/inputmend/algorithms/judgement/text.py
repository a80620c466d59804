"""Text helpers the judgement shares: words, indentation, brackets, quotes,
separators, and sorted offsets gathered into runs.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from inputmend.core.text import line_at, line_start
from inputmend.grammar.tolerant import Lexeme, Role

_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")
"""A line of blanks only, with the line break before it."""

LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
"""A line with its line break (the last one may have none)."""

BLOCK_HEADER = re.compile(r"[|>][-+1-9]*(?:[ \t]+(?:#[^\n]*)?)?\Z")
"""A block scalar's header (YAML's ``|``, ``>-``): its text is the lines
below, which no indentation makes more of the value on its line."""

_ITEM = re.compile(r"-(?:[ \t]|\r?$)")
"""The dash that begins an item of a list written one a line (YAML's)."""

WORD = re.compile(r"\S+")
"""A word: what blanks separate."""

BRACKETS = frozenset("([{}])")
"""Brackets: the punctuation that marks code among words a string ran on over."""

QUOTES = "\"'`"

OPENERS = {"(": ")", "[": "]", "{": "}"}
"""Opening brackets and the closing bracket of each."""

CLOSERS = frozenset(OPENERS.values())


def punctuation_added(text: str, lexeme: Lexeme, added: list[int]) -> int:
    """Of the characters at ``added`` (offsets in ``text``, inserted into
    ``lexeme``), those that are punctuation made part of the value: not
    letters, digits or blanks; not a quote that pairs with the others of
    its character on its line (an even number of them: the repair opens or
    closes a quoted stretch, which an error-tolerant lexer may read as part
    of a longer token or cut at a bracket inside, YAML's ``- '{{ a }}'``),
    nor the quote that closes a quoted token (the same quote character first
    and last), nor what escapes within it (a backslash, the quote doubled),
    nor a closer at the token's end or an opener at its start that its line
    closes: structure put back, which a lexer may read with the token (YAML's
    ``1, 2]`` read as one plain scalar in a flow sequence, INI's
    ``[section]``)."""
    first, last = lexeme.start, lexeme.end - 1
    quote = text[first]
    delimited = last > first and text[last] == quote and quote in QUOTES
    count = 0
    for offset in added:
        char = text[offset]
        if char.isalnum() or char.isspace():
            continue
        if delimited and (offset in (first, last) or char in ("\\", quote)):
            continue
        if offset == last and char in CLOSERS:
            continue  # a closer put back
        if offset == first and char in OPENERS and _balanced(text, offset, char):
            continue  # an opener that its line closes
        if char in QUOTES:
            start = text.rfind("\n", 0, offset) + 1
            end = text.find("\n", offset)
            if text.count(char, start, len(text) if end < 0 else end) % 2 == 0:
                continue
        count += 1
    return count


def text_brackets(value: str) -> bool:
    """Are the brackets of ``value`` pairs inside a longer text: each closed
    in order within it, none opening it, and no quote or escape in it (a
    template's ``*{{ a }}.{{ b }}``, not the collection ``{name: demo}`` nor
    an escaped document, ``\\n  {\\"a\\": 1}``)?"""
    if not value or value[0] in OPENERS or any(c in value for c in QUOTES + "\\"):
        return False
    expected: list[str] = []
    for char in value:
        if char in OPENERS:
            expected.append(OPENERS[char])
        elif char in CLOSERS and (not expected or expected.pop() != char):
            return False
    return not expected


def _balanced(text: str, offset: int, opener: str) -> bool:
    """Does the line of the opening bracket at ``offset`` hold as many of its
    closing bracket as of it?"""
    closer = OPENERS[opener]
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    return text.count(opener, start, end) == text.count(closer, start, end)


def word_end(text: str, offset: int) -> bool:
    """Does the character at ``offset`` end a word: after a non-blank, before a
    blank, punctuation or the end of the text?"""
    after = offset + 1
    return (
        offset > 0
        and not text[offset - 1].isspace()
        and (after >= len(text) or not text[after].isalnum())
    )


def word_start(text: str, offset: int) -> bool:
    """Does the character at ``offset`` start a word: before a non-blank, after
    a blank, punctuation or the start of the text?"""
    after = offset + 1
    return (
        after < len(text)
        and not text[after].isspace()
        and (offset == 0 or not text[offset - 1].isalnum())
    )


def inside_word(word: str, punctuation: list[bool], *, between: bool) -> bool:
    """Is the punctuation of ``word`` (marked) part of the word: one
    balanced bracket group that follows a letter or digit and ends the word
    (``fib(1)``), or when ``between``, also marks only between other
    characters of it (``~,11f``, ``0,0``)?"""
    if between and not (punctuation[0] or punctuation[-1]):
        return True
    first = punctuation.index(True)
    if first == 0 or not word[first - 1].isalnum() or word[first] not in "([{":
        return False
    depth = 0
    for index in range(first, len(word)):
        depth += (word[index] in "([{") - (word[index] in ")]}")
        if depth <= 0:
            return depth == 0 and index == len(word) - 1
    return False


def glued_to_junk(lexemes: list[Lexeme], text: str) -> list[bool]:
    """Which native tokens touch junk, directly or through tokens they touch
    (``t-3.12`` of ``sample-dep-eslint-3.12.2`` when its opening quote was
    lost), and a string run on over a line break to a quote glued to the
    word after it (the opening quote of the next line's string, when a
    closing quote was lost) with the rest of that line: text misread as
    tokens, whose reading a repair may change."""
    marks = [False] * len(lexemes)
    end = 0  # the end of the last run of touching tokens marked
    junk = Role.JUNK
    for index in [i for i, t in enumerate(lexemes) if t.role is junk]:
        if index < end:
            continue  # in the run of a junk token before it
        start, end = index, index + 1
        while start and lexemes[start].start == lexemes[start - 1].end:
            start -= 1
        while end < len(lexemes) and lexemes[end].start == lexemes[end - 1].end:
            end += 1
        for inner in range(start, end):
            marks[inner] = lexemes[inner].foreign is None
    # the rest of the line where a string ran on to is read inside out
    for index in [i for i, t in enumerate(lexemes) if "\n" in t.value]:
        lexeme = lexemes[index]
        if lexeme.foreign is None and _ran_on(lexeme, text):
            line_end = text.find("\n", lexeme.end)
            line_end = len(text) if line_end < 0 else line_end
            later = index
            while later < len(lexemes) and lexemes[later].start < line_end:
                marks[later] = lexemes[later].foreign is None
                later += 1
    return marks


def _ran_on(lexeme: Lexeme, text: str) -> bool:
    """Is ``lexeme`` a string over a line break that ends in a quote glued to
    a word (``"a: b\n- "c``: no closing quote is typed so)?"""
    value = lexeme.value
    return (
        lexeme.role is Role.DATA
        and len(value) > 1
        and value[0] in QUOTES
        and value[-1] == value[0]
        and "\n" in value
        and text[lexeme.end : lexeme.end + 1].isalnum()
    )


SEPARATORS = ",;:=|"
"""Punctuation that separates: between items, or a name and its value."""

_OPENER = re.compile(r"[^\w\s]{2}")


def runs_on(comment: str) -> bool:
    """Is ``comment`` a block comment (its first two characters and its
    last one punctuation, ``/* ... */``) that holds its opener again after
    its first line break: a comment that lost its closer, read on to the
    closer of a later one?"""
    opener = _OPENER.match(comment)
    line_break = comment.find("\n")
    return (
        opener is not None
        and line_break >= 0
        and not comment.rstrip()[-1:].isalnum()
        and opener.group() in comment[line_break:]
    )


_KINDS = ("([{<", ")]}>", "\"'`\u2018\u2019\u201c\u201d", SEPARATORS)
"""Punctuation by kind: openers, closers, quotes, separators."""


def alike(char: str, written: str) -> bool:
    """Is ``written`` punctuation of the same kind as ``char`` (an opener
    for an opener, a quote for a quote), so that it re-reads it?  An ``&``
    overwritten by a quote is lost: it is no quote of another writing."""
    return any(char in kind and written in kind for kind in _KINDS)


def set_apart(text: str, end: int, start: int) -> bool:
    """Is the token at ``start``, first on its line, set apart from the
    token that ends at ``end`` (the last token before it other than layout):
    by a blank line, or by a line of layout right above it that begins at
    its own column (a comment it reads as more of: ``# see the docs`` above
    ``default``, where ``    # see the docs`` above an unindented ``E126,``
    is a comment among a value's lines)?"""
    if _BLANK_LINE.search(text, end, start) is not None:
        return True
    line = line_start(text, start)
    if not line:
        return False
    above = line_start(text, line - 1)
    return (
        above >= end
        and bool(text[above:line].strip())
        and indent_width(text[above:line]) == indent_width(text[line:start])
    )


def data_before(lexemes: list[Lexeme], index: int, end: int) -> bool:
    """Is there a lexeme other than layout from ``index`` on that starts
    before ``end`` (the rest of a line)?"""
    while index < len(lexemes) and lexemes[index].start < end:
        if lexemes[index].role is not Role.LAYOUT:
            return True
        index += 1
    return False


def line_lead(line: str) -> str:
    """How a line's text begins: a mark of punctuation a blank follows
    (``-`` of a list's item), or else a word (``$ref``, ``name``)."""
    content = line.lstrip(" \t")
    mark = content.split(None, 1)[0] if content.strip() else ""
    return mark if mark and not any(c.isalnum() for c in mark) else "w"


def indent_width(line: str) -> int:
    """The blanks a line begins with."""
    return len(line) - len(line.lstrip(" \t"))


def deeper_after(
    text: str, line: int, end: int, *, items: bool = True, apart: bool = True
) -> bool:
    """Is the next line of ``text`` with text after the line ``[line, end)``
    indented deeper than it (a block that is its value), or, with ``items``,
    as deep and an item of a list (YAML's sequence written without
    indentation under its key)?  Without ``apart``, a line below a blank
    line is not that block: it begins one of its own."""
    indent = len(text[line:end]) - len(text[line:end].lstrip(" \t"))
    position = end
    while position < len(text):
        start = position + 1
        position = text.find("\n", start)
        position = len(text) if position < 0 else position
        following = text[start:position]
        if not following.strip() and not apart:
            return False
        if following.strip():
            content = following.lstrip(" \t")
            deeper = len(following) - len(content)
            return deeper > indent or (
                items and deeper == indent and _ITEM.match(content) is not None
            )
    return False


def item_above(text: str, line: int) -> bool:
    """Is the nearest line with text above the line at ``line`` an item of a
    list (see :data:`_ITEM`) at its column?"""
    indent = indent_width(text[line : line_at(text, line)[1]])
    position = line
    while position > 0:
        start = line_start(text, position - 1)
        above = text[start : position - 1]
        if above.strip():
            return indent_width(above) == indent and _ITEM.match(above.lstrip(" \t")) is not None
        position = start
    return False


def runs_of(offsets: list[int]) -> list[tuple[int, int]]:
    """Sorted offsets as runs of consecutive ones, each ``[start, end)``."""
    runs: list[tuple[int, int]] = []
    for offset in offsets:
        if runs and runs[-1][1] == offset:
            runs[-1] = (runs[-1][0], offset + 1)
        else:
            runs.append((offset, offset + 1))
    return runs


@dataclass(frozen=True)
class Runs:
    """Runs of consecutive offsets (:func:`runs_of`), found by where they lie:
    a repair's inserted runs, read by each of its windows for its own
    stretch only (a sweep's thousands of windows each reading every run
    was quadratic)."""

    runs: list[tuple[int, int]]
    starts: list[int]
    ends: list[int]

    @classmethod
    def of(cls, offsets: list[int]) -> Runs:
        runs = runs_of(offsets)
        return cls(runs, [start for start, _ in runs], [end for _, end in runs])

    def overlapping(self, low: int, high: int) -> list[tuple[int, int]]:
        """The runs, in order, that end after ``low`` and start at or before ``high``."""
        first = bisect.bisect_right(self.ends, low)
        return self.runs[first : max(first, bisect.bisect_right(self.starts, high))]


def within(sorted_offsets: list[int], start: int, end: int) -> list[int]:
    return sorted_offsets[
        bisect.bisect_left(sorted_offsets, start) : bisect.bisect_left(sorted_offsets, end)
    ]
