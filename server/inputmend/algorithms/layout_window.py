"""How well repairs of a long text agree with its layout, read near their edits.

:func:`~inputmend.algorithms.layout.layout_agreement` reads a whole text: on
a 1 MB document each call takes a second, and the ranking calls it for every
repair that ties with another.  Repairs of one input differ only where they
edit it, and every verified repair is balanced, so its brackets open before
and after the stretch they edit are the same as the input's: lines far from
the edits agree or disagree with the layout alike in every repair.
:func:`windowed_agreement` therefore scores each repair on a window of
lines around the edits of all the repairs compared, led by *context lines*:
the input's lines that opened the brackets still open where the window
starts, with every other bracket on them blanked, so that the window's
depths and columns read as in the whole text.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable

from inputmend.algorithms.layout import layout_agreement
from inputmend.core.model import Repair
from inputmend.grammar.syntax import Brackets

MARGIN_LINES = 100
"""Lines read before the first edit and after the last one (at least; twice
as many as the edits span)."""


MINIFIED = 1 << 12
"""Characters of a one-line text above which it is not read for its layout:
such a text is data a program wrote (minified), with no layout to follow,
and its one line is all the window there is: reading its words' places
would cost about 2 ms per 4 KB, for every repair compared."""


def windowed_agreement(
    original: str, repairs: Iterable[Repair], brackets: Brackets
) -> Callable[[str], int]:
    """A layout score for the texts of ``repairs`` (repairs of ``original``)
    that orders them as :func:`~inputmend.algorithms.layout.layout_agreement`
    does, reading only the lines around their edits (higher is better).  A
    repair whose edits lie more than ``2 * MARGIN_LINES`` lines apart (a
    whole tail deleted, brackets put around the whole text), and any other
    text, is read whole; the ranking compares only repairs equal in what
    they do to the data and in edit distance, which such a repair hardly
    ever is with a local one.  A long text on one line scores 0 throughout
    (see :data:`MINIFIED`)."""
    if len(original) > MINIFIED and "\n" not in original.rstrip():
        return lambda text: 0
    local: dict[str, Repair] = {}
    for repair in repairs:
        if repair.edits:
            first = min(edit.offset for edit in repair.edits)
            last = max(edit.end for edit in repair.edits)
            if original.count("\n", first, last) <= 2 * MARGIN_LINES:
                local[repair.text] = repair
    if not local:
        return lambda text: layout_agreement(text, brackets)
    edits = [edit for repair in local.values() for edit in repair.edits]
    first = min(edit.offset for edit in edits)
    last = max(edit.end for edit in edits)
    # Lines of a repair far from its bracket may disagree with the layout;
    # the window holds many more agreeing ones, so that the depth each
    # indentation usually has is the same as in the whole text.
    margin = max(MARGIN_LINES, 2 * original.count("\n", first, last))
    end = _lines_on(original, last, margin)
    tail = len(original) - end
    window: list[tuple[int, str]] = []  # where the window starts, its context lines

    def agreement(text: str) -> int:
        if text not in local:
            return layout_agreement(text, brackets)
        if not window:  # read once, when a tie first needs it: the text before the window
            window.append(_context(original, _lines_back(original, first, margin), brackets))
        start, context = window[0]
        if start == 0 and tail == 0:
            return layout_agreement(text, brackets)
        return layout_agreement(context + text[start : len(text) - tail], brackets)

    return agreement


def _lines_back(text: str, offset: int, lines: int) -> int:
    """The start of the line ``lines`` lines before the one of ``offset``."""
    start = text.rfind("\n", 0, offset) + 1
    for _ in range(lines):
        if start == 0:
            break
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def _lines_on(text: str, offset: int, lines: int) -> int:
    """The end of the line ``lines`` lines after the one of ``offset`` (after
    its line break)."""
    end = offset
    for _ in range(lines + 1):
        found = text.find("\n", end)
        if found < 0:
            return len(text)
        end = found + 1
    return end


def _context(text: str, start: int, brackets: Brackets) -> tuple[int, str]:
    """Where the window starts (``start``, or earlier when a string or
    comment runs over it) and its context lines: the lines of the brackets
    open there, every bracket on them that is not open there blanked."""
    while True:
        opened: list[tuple[int, int]] = []  # the openers still open: (start, end)
        closed: list[tuple[int, int]] = []  # the brackets closed before ``start``
        runs_over = -1
        for match in brackets.finditer(text):
            if match.start() >= start:
                break
            kind = match.lastgroup
            if kind == "s":
                if match.end() > start:
                    runs_over = match.start()
                    break
            elif kind == "o":
                opened.append(match.span())
            else:
                if opened:
                    closed.append(opened.pop())
                closed.append(match.span())
        if runs_over < 0:
            break
        start = text.rfind("\n", 0, runs_over) + 1  # the window reads the token whole
    closed.sort()
    context = []
    for line in dict.fromkeys(text.rfind("\n", 0, offset) + 1 for offset, _ in opened):
        line_end = text.find("\n", line, start)
        line_end = start if line_end < 0 else line_end
        chars = list(text[line:line_end])
        for offset, end in closed[bisect.bisect_left(closed, (line, 0)) :]:
            if offset >= line_end:
                break
            chars[offset - line : end - line] = " " * (end - offset)
        context.append("".join(chars).rstrip("\r") + "\n")
    return start, "".join(context)
