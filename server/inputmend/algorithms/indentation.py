"""Re-indenting a line: the repair of a format where indentation is syntax.

In YAML (any grammar with an indentation layout) the commonest mistake is a
line indented a space or two wrong: ``name: demo`` at two spaces and
``   labels:`` at three.  The parser notices it as an unexpected token, and
the searches then insert punctuation that changes the data (``:labels``,
``-labels``, ``#labels``).  A person moves the line to a column the lines
around it use.  :func:`reindent_repairs` tries exactly that on the error's
line, the :data:`LINES_BEFORE` lines before it and the lines whose blocks
end at the error's line: each line, alone or with
the lines nested under it, moved to the columns of the lines it may belong
to (the previous line's, those of the enclosing lines, one step deeper) and
a space or two either way; the oracle checks every candidate.  Only blanks
change, so such a repair keeps every character of the data.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, RunStats
from inputmend.core.loss import prose
from inputmend.core.model import Edit, Repair, apply_edits, distance
from inputmend.core.oracle import Oracle
from inputmend.oracles.wrappers import metered

ALGORITHM = "layout"
LINES_BEFORE = 2
"""Lines before the error's line that may be the one indented wrong (an
indentation mistake often shows on the line after it)."""
NUDGES = (-2, -1, 1, 2)
_ITEM = re.compile(r"-[ \t]+")
"""A list item's dash and the blanks after it (YAML's ``- name: web``)."""
_BLOCK_HEADER = re.compile(r"(?:^|[ \t:])[|>][-+1-9]*[ \t]*(?:#.*)?$")
"""A line that ends with a block scalar's indicator (``run: |``, ``- >-``)."""
_KEYED = re.compile(r"[^#\r\n]*?:(?:[ \t]|\r?$)")
"""An item that is a mapping: its first key and colon (more keys may follow it)."""
"""Shifts tried besides the columns of other lines."""


@dataclass(frozen=True)
class _Line:
    start: int  # offset of the line
    indent: int  # spaces it starts with
    blank: bool  # empty, blanks only, or a comment
    inner: int | None = None  # a list item's: where the content after its dash starts
    block_header: bool = False  # ends with a block scalar's `|` or `>`
    item: bool = False  # starts with a list item's dash
    opens: bool = False  # ends with a key's `:` (its value, if any, is on the lines under it)
    text: bool = False  # a line of a block scalar's text (deeper than the line of its `|`)


@dataclass(frozen=True)
class IndentationResult:
    """Verified re-indentations, and what finding them cost."""

    repairs: tuple[Repair, ...]
    stats: RunStats


def _lines(text: str) -> list[_Line]:
    lines = []
    start = 0
    scalar: int | None = None  # the indentation of the line of the block scalar read
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        content = body.lstrip(" ")
        indent = len(body) - len(content)
        item = _ITEM.match(content)
        keyed = item is not None and _KEYED.match(content, item.end()) is not None
        inner = indent + item.end() if item is not None and keyed else None
        header = _BLOCK_HEADER.search(content) is not None
        blank = not content.strip() or content[0] == "#"
        opens = not blank and content.split(" #")[0].rstrip().endswith(":")
        within = scalar is not None and (not content.strip() or indent > scalar)
        scalar = scalar if within else indent if header else None
        flags = (item is not None, opens, within)
        lines.append(_Line(start, indent, blank, inner, header, *flags))
        start += len(raw)
    return lines


def _columns(lines: list[_Line], index: int) -> list[int]:
    """Columns line ``index`` may belong at: the previous line's (and, for a
    list item, that of the content after its dash: the item's next key),
    those of the lines enclosing it (each less indented than the ones after
    it, going back), the previous line's plus the file's step, and a nudge
    either way; nearest first, and of equally near ones the previous line's
    first (a sibling), then the enclosing lines' (nearest first).  Below a
    list item whose content is a mapping, a line that is no item itself
    goes under the item's key first (it is that mapping's next key; at the
    dash's column it would end the list), an item at the dash's column."""
    own = lines[index].indent
    found: list[int] = []
    floor: int | None = None
    for line in reversed(lines[:index]):
        if line.blank:
            continue
        if not found:
            sibling = [line.indent] if line.inner is None else [line.indent, line.inner]
            found += sibling if lines[index].item else sibling[::-1]
        if floor is None or line.indent < floor:
            floor = line.indent
            found.append(line.indent)
        if floor == 0:
            break
    steps = [b.indent - a.indent for a, b in itertools.pairwise(lines) if b.indent > a.indent]
    step = min(steps, default=2)
    if found:
        found.append(found[0] + step)
    found += [own + nudge for nudge in NUDGES]
    distinct = dict.fromkeys(c for c in found if c >= 0 and c != own)
    ordered = sorted(distinct, key=lambda c: abs(c - own))  # of equally near ones, the first found
    text_column = _block_text_column(lines, index)
    if text_column is not None and text_column != own:
        ordered = [text_column, *(c for c in ordered if c != text_column)]
    return ordered


def _block_text_column(lines: list[_Line], index: int) -> int | None:
    """The column of the lines after line ``index`` when it is the first line
    of a block scalar's text (the line before ends with ``|`` or ``>``) and
    they are indented deeper than that line: a block's text lines share
    its first line's indentation, so that column comes first."""
    before = next((lines[i] for i in range(index - 1, -1, -1) if not lines[i].blank), None)
    after = next((lines[i] for i in range(index + 1, len(lines)) if not lines[i].blank), None)
    if before is None or after is None or not before.block_header:
        return None
    return after.indent if after.indent > before.indent else None


def _preferred(lines: list[_Line], index: int, moved: list[int], columns: list[int]) -> list[int]:
    """``columns`` with those that would leave a key's block outside it last:
    a line that ends with ``:`` (a key whose value is the lines under it)
    goes left of the next line it does not move (`` env:`` over
    ``  COLOR: x`` is ``env:``, not ``  env:``), or to its column when that
    line is a list item (YAML's list may sit at its key's column:
    ``steps:`` over ``- run: x``)."""
    following = next(
        (lines[i] for i in range(moved[-1] + 1, len(lines)) if not lines[i].blank), None
    )
    if not lines[index].opens or following is None:
        return columns
    deepest = following.indent if following.item else following.indent - 1
    return sorted(columns, key=lambda column: column > deepest)


def _content(text: str, line: _Line) -> str:
    """The text of ``line`` without its indentation, line break and comment."""
    end = text.find("\n", line.start)
    return text[line.start : len(text) if end < 0 else end].split(" #")[0].strip()


def _valued(text: str, lines: list[_Line], moved: list[int], by: int) -> bool:
    """Would moving the lines ``moved`` by ``by`` columns put a line of prose
    (:func:`~inputmend.core.loss.prose`) deeper than the line of data above
    it, a key whose ``:`` ends its line (no value, not a block scalar's
    header), where it was not deeper before?  The prose would become that
    key's value: ``liberapay: # your name`` and ``see issue 42`` below it is
    a key without a value and a comment that lost its ``#``; indented, the
    comment's words are the key's value."""
    shifted = set(moved)
    for index in {*moved, moved[-1] + 1}:
        if index >= len(lines) or lines[index].blank or not prose(_content(text, lines[index])):
            continue
        above = next((i for i in range(index - 1, -1, -1) if not lines[i].blank), None)
        if above is None or lines[above].block_header:
            continue
        if not _content(text, lines[above]).endswith(":"):
            continue
        before = lines[index].indent - lines[above].indent
        after = before + (by if index in shifted else 0) - (by if above in shifted else 0)
        if before <= 0 < after:
            return True
    return False


def _heads(lines: list[_Line], index: int) -> list[int]:
    """The indented lines whose blocks end at line ``index``: going back from
    the line before it, each line less indented than the lines after it, or
    as indented and ending with a key's ``:`` (its list at its column, or no
    value: the lines after it may have been its block).  A line indented
    wrong with the lines it nests is often noticed only where its block
    ends: `` merge_group:`` a space short over its ``branches:`` shows at
    the ``push:`` after them."""
    heads: list[int] = []
    floor: int | None = None
    after: int | None = None  # the indentation of the line after the one read
    for earlier in range(index - 1, 0, -1):
        line = lines[earlier]
        if line.blank:
            continue
        shallow = line.opens and after is not None and after <= line.indent
        if floor is not None and (line.indent < floor or (line.indent == floor and shallow)):
            heads.append(earlier)
        floor = line.indent if floor is None else min(floor, line.indent)
        after = line.indent
        if floor == 0:
            break
    return [head for head in heads if lines[head].indent > 0]


def _block(lines: list[_Line], index: int) -> list[int]:
    """Line ``index`` and the lines nested under it (more indented, up to the
    next that is not; blank lines within go along)."""
    own = lines[index].indent
    block = [index]
    for later in range(index + 1, len(lines)):
        if lines[later].blank:
            continue
        if lines[later].indent <= own:
            break
        block.append(later)
    return block


def _shift(lines: list[_Line], block: list[int], by: int) -> tuple[Edit, ...] | None:
    """Edits that move the lines of ``block`` by ``by`` columns (None when a
    line has fewer spaces than it would lose)."""
    edits = []
    for index in block:
        line = lines[index]
        if by < 0:
            if line.indent < -by:
                return None
            edits.append(Edit(line.start, -by))
        else:
            edits.append(Edit(line.start, 0, " " * by))
    return tuple(edits)


def _off_step(lines: list[_Line]) -> int:
    """Lines nested under another (the nearest line before them that is less
    indented) by a step other than the one the text nests by most often:
    where a line moved to a column its neighbours do not nest at."""
    steps: list[int] = []
    enclosing: list[int] = []  # indentations of the lines a line may nest under
    for line in lines:
        if line.blank:
            continue
        while enclosing and enclosing[-1] >= line.indent:
            enclosing.pop()
        if enclosing:
            steps.append(line.indent - enclosing[-1])
        enclosing.append(line.indent)
    if not steps:
        return 0
    counted = Counter(steps)
    usual = max(counted, key=lambda step: (counted[step], -step))
    return len(steps) - counted[usual]


def _empty_keys(lines: list[_Line]) -> int:
    """Keys without a value: a ``:`` ends their line and the next line of
    data is not nested under them (a list at the key's column is).  Of two
    moves alike, the one that gives a key its block is the author's:
    ``inputs:`` over ``first:`` at its column and ``second:`` two spaces
    deeper lost ``first``'s indentation, rather than ``second``'s."""
    data = [line for line in lines if not line.blank]
    return sum(
        1
        for line, after in itertools.zip_longest(data, data[1:])
        if line.opens
        and not line.text
        and (after is None or after.indent < line.indent + (not after.item))
    )


def reindent_repairs(
    text: str, oracle: Oracle, *, error: int, budget: Budget = UNLIMITED
) -> IndentationResult:
    """Repairs of ``text`` that move one line (alone or with what it nests)
    near ``error`` to another column, each checked by the oracle: the
    preferred column that makes the text valid (nearest, a sibling's, not
    leaving a key's block out), for the line alone and for the line with
    what it nests; on the error's line, the :data:`LINES_BEFORE` lines
    before it and the lines whose blocks end at it (:func:`_heads`),
    keeping the moves that leave the fewest lines off the step the file
    nests by (:func:`_off_step`) and, of those, the moves that leave the
    fewest keys without a value (:func:`_empty_keys`).
    A mistake often shows on the line after it: ``runs-on:`` two spaces
    short between ``name:`` and ``steps:`` is noticed at ``steps:``, and
    moving ``steps:`` alone left leaves its items nested four spaces deep
    in a file that nests by two (moving it with its items is kept, and
    changes more lines)."""
    checked, meter = metered(oracle, budget)
    lines = _lines(text)
    line_of_error = max(0, sum(1 for line in lines if line.start <= error) - 1)
    candidates = [
        index
        for index in range(line_of_error, max(-1, line_of_error - LINES_BEFORE - 1), -1)
        if index < len(lines) and not lines[index].blank and index > 0
    ]
    if line_of_error < len(lines):
        candidates += [head for head in _heads(lines, line_of_error) if head not in candidates]
    repairs: dict[str, Repair] = {}
    off: dict[str, tuple[int, int]] = {}  # lines off the step; keys without a value
    try:
        for index in candidates:
            block = _block(lines, index)
            ways = [[index], block] if len(block) > 1 else [[index]]
            for moved in ways:
                for column in _preferred(lines, index, moved, _columns(lines, index)):
                    by = column - lines[index].indent
                    edits = _shift(lines, moved, by)
                    if edits is None or _valued(text, lines, moved, by):
                        continue
                    candidate = apply_edits(text, edits)
                    if candidate not in repairs and checked.check(candidate).valid:
                        repairs[candidate] = Repair(
                            candidate, edits, ALGORITHM, True, distance(text, candidate)
                        )
                        read = _lines(candidate)
                        off[candidate] = (_off_step(read), _empty_keys(read))
                        break  # the preferred column that works, for this way of moving
    except BudgetExhausted:
        pass
    fewest = min(off.values(), default=(0, 0))
    kept = tuple(repair for repair in repairs.values() if off[repair.text] == fewest)
    return IndentationResult(kept, RunStats.of(meter))
