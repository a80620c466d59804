"""Polishing a repair: the inserted comma goes where a person types it, and a
value a search made up is the grammar's filler.

The searches place an inserted delimiter wherever the parser first noticed it
was missing, and they may overwrite a blank with it, because every such
placement costs one edit: ``{ "a": 1 "b": 2 }`` becomes ``{ "a": 1,"b": 2 }``,
and a comma lost at a line end comes back at the start of the next line, after
its indentation (``  ,"b": 2``).  The data is the same, but the text is not
what its author would write, and an editor's quick fix should not leave it so.

:func:`polish_layout` moves each inserted delimiter across the blanks next to
it, and turns "replace these blanks by a delimiter" into "insert it beside
them", when that reads more naturally: by the file's own style (the
ranking's :class:`~inputmend.algorithms.ranking.StyleModel`, in whole nats,
when the file uses that delimiter elsewhere) and, where it does not, by
where such a delimiter attaches in nearly every format (closers and
separators to what precedes them, openers to what follows).  Each change
is kept only when the oracle accepts the result and its tokens are the
same, so polishing never makes a repair invalid and the data it keeps or
loses is the same: only blanks move.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from inputmend.algorithms.layout import indentation_width
from inputmend.algorithms.ranking import ORDER, StyleModel
from inputmend.core.model import Edit, Repair, apply_edits, edited_distance, edits_between
from inputmend.core.render import Lexer, plain_lexer, same_for_reader
from inputmend.core.text import leading_blanks

ATTACH_LEFT = frozenset(",;:)]}")
"""Delimiters written right after what precedes them: ``1, 2``, ``f(x);``."""
ATTACH_RIGHT = frozenset("([{")
"""Delimiters written right before what follows them: ``(x``, ``[1``."""
CLOSERS = frozenset(")]}")
"""Closers: among blank lines, one goes on an indented empty line left for it."""
OPENER_OF = {")": "(", "]": "[", "}": "{"}
"""The bracket each closer pairs with."""
CLOSER_OF = {opener: closer for closer, opener in OPENER_OF.items()}
"""The bracket each opener pairs with."""
_BRACKET = re.compile(r"[][(){}]")
_NEXT_LINE = re.compile(r"\n([ \t]*)\S")
"""The next line with content, its indentation grouped."""
SEPARATORS = frozenset(",;")
"""What a closer goes before when its line kept it (``  },``)."""

_BLANKS = " \t\r\n\f\v"

_PADDING_REACH = 1000
"""Characters before a closer within which its opener's padding is read."""

_CLOSER_REACH = 100_000
"""Characters after an inserted opener within which its closer is looked for."""

_EVIDENCE = 2
"""Uses of the delimiter in the input before its style decides where it goes
(the rest of the input says nothing about how a delimiter it lacks is written)."""


def polish_layout(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` with each inserted delimiter placed as a person would place
    it among the blanks around it (see the module documentation).  ``accepts``
    decides whether a polished text is still valid (one call per change
    tried); a change that gives other tokens than ``repair`` (``lexer``'s,
    default words: a blank moved into or out of a string) is not tried."""
    edits = list(repair.edits)
    text = repair.text
    model: StyleModel | None = None
    known: dict[tuple[str, tuple[Edit, ...]], float] = {}  # a stretch's cost, by its edits
    uses: dict[str, int] = {}  # how often the input writes each inserted delimiter
    for index, current in enumerate(repair.edits):
        places = _placements(original, edits, index)
        if not places:
            continue
        cost = dict.fromkeys((current, *places), 0)  # without evidence of style, no preference
        if current.insert not in uses:
            uses[current.insert] = original.count(current.insert)
        if uses[current.insert] >= _EVIDENCE:
            model = model or StyleModel.around(original, edits)
            cost = {
                place: math.floor(_local_cost(model, original, edits, index, place, known))
                for place in cost
            }
        usual = _usual(original, current)
        traced = [place for place in _traced(original, current) if place in cost]
        better = traced + [
            place
            for place in sorted(places, key=cost.__getitem__)
            if place not in traced
            and (cost[place] < cost[current] or (place in usual and cost[place] == cost[current]))
        ]
        for place in better:
            trial = [*edits[:index], place, *edits[index + 1 :]]
            trial_text = apply_edits(original, trial)
            moved = replace(repair, text=trial_text, edits=tuple(trial))
            if same_for_reader(original, repair, moved, lexer) and accepts(trial_text):
                edits, text = trial, trial_text
                break
    if text == repair.text:
        return repair
    return _remade(original, repair, edits, text)


def _local_cost(
    model: StyleModel,
    original: str,
    edits: list[Edit],
    index: int,
    place: Edit,
    known: dict[tuple[str, tuple[Edit, ...]], float],
) -> float:
    """The style cost of ``edits`` with ``edits[index]`` put at ``place``, read
    on the stretch around it only (with the edits that share it): the other
    edits cost the same wherever this one goes, so placements compare alike,
    and a repair of thousands of edits is not scored thousands of times over.
    ``known`` holds the cost of each stretch already scored with its edits
    (under ``model``): the commas a repair inserts at thousands of line ends
    mostly sit in a few shapes of stretch, each scored once."""
    reach = 2 * ORDER
    start, end = place.offset - reach, place.end + reach
    near = [place]
    before = index - 1  # (the edits are in order: look outwards from this one)
    while before >= 0 and edits[before].end >= start:
        near.append(edits[before])
        start = min(start, edits[before].offset - reach)
        before -= 1
    after = index + 1
    while after < len(edits) and edits[after].offset <= end:
        near.append(edits[after])
        end = max(end, edits[after].end + reach)
        after += 1
    start, end = max(0, start), min(len(original), end)
    local = tuple(
        sorted((Edit(e.offset - start, e.delete, e.insert) for e in near), key=lambda e: e.offset)
    )
    stretch = original[start:end]
    cost = known.get((stretch, local))
    if cost is None:
        cost = known[(stretch, local)] = model.cost(stretch, apply_edits(stretch, local), local)
    return cost


def without_doubled_blanks(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` with each deletion of a stray delimiter between two spaces
    taking the space after it too (``[1, 2, 3]`` for ``[1, 2, , 3]``, not
    ``[1, 2,  3]``), and each deletion that ends a line of content (a
    comment after the data) taking the blanks before it: no line is left
    ending in blanks.  Kept when the tokens are the same and ``accepts``
    the text."""
    edits = []
    for edit in repair.edits:
        deleted = original[edit.offset : edit.end]
        if not edit.insert and deleted.strip(_BLANKS):
            if (
                set(deleted) <= ATTACH_LEFT | ATTACH_RIGHT
                and original[edit.offset - 1 : edit.offset] == " "
                and original[edit.end : edit.end + 1] == " "
            ):
                edit = Edit(edit.offset, edit.delete + 1, "")
            elif original[edit.end : edit.end + 1] in ("\n", "\r", ""):
                start = _after_content(original, edit.offset)
                if start < edit.offset and original[start - 1 : start] not in ("\n", ""):
                    edit = Edit(start, edit.end - start, "")
        edits.append(edit)
    if any(first.end > second.offset for first, second in itertools.pairwise(edits)):
        return repair
    return _blanks_moved(original, repair, edits, accepts, lexer)


def final_break_kept(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` ending with the input's final line break again, where what
    it appends comes after that break (a text cut off inside a token that
    ran over its last line break, TOML's ``doc = '''`` ... ``hello`` + line
    break, is closed, and the file still ends with a line break).  Kept when
    the tokens are the same and ``accepts`` the text."""
    final = next((b for b in ("\r\n", "\n", "\r") if original.endswith(b)), None)
    edits = list(repair.edits)
    if final is None or not edits or repair.text.endswith(("\n", "\r")):
        return repair
    last = edits[-1]
    if last.end != len(original) or last.delete or not last.insert.strip(_BLANKS):
        return repair
    edits[-1] = Edit(last.offset, 0, last.insert + final)
    return _blanks_moved(original, repair, edits, accepts, lexer)


def _blanks_moved(
    original: str,
    repair: Repair,
    edits: list[Edit],
    accepts: Callable[[str], bool],
    lexer: Lexer | None,
) -> Repair:
    """``repair`` made of ``edits`` instead, which only move blanks: kept when
    the tokens are the same and ``accepts`` the text, else ``repair``."""
    if edits == list(repair.edits):
        return repair
    text = apply_edits(original, edits)
    moved = _remade(original, repair, edits, text)
    if not same_for_reader(original, repair, moved, lexer) or not accepts(text):
        return repair
    return moved


def _after_content(original: str, offset: int) -> int:
    """Where the spaces and tabs right before ``offset`` begin."""
    while offset > 0 and original[offset - 1] in " \t":
        offset -= 1
    return offset


def _blanks_around(original: str, edit: Edit) -> tuple[int, int]:
    """The run of blanks ``edit`` touches (or overwrites), as (start, end)."""
    start = edit.offset
    while start > 0 and original[start - 1] in _BLANKS:
        start -= 1
    end = edit.end
    while end < len(original) and original[end] in _BLANKS:
        end += 1
    return start, end


def _placements(original: str, edits: list[Edit], index: int) -> list[Edit]:
    """Other places for ``edits[index]``'s inserted delimiters at the edges of
    the blanks around it, keeping the blanks (none when it inserts anything
    but delimiters, deletes more than blanks, or a place would meet a
    neighbouring edit)."""
    edit = edits[index]
    inserted = edit.insert
    removed = original[edit.offset : edit.end]
    if not inserted or not set(inserted) <= ATTACH_LEFT | ATTACH_RIGHT or removed.strip(_BLANKS):
        return []
    start, end = _blanks_around(original, edit)
    floor = edits[index - 1].end if index > 0 else -1
    ceiling = edits[index + 1].offset if index + 1 < len(edits) else len(original) + 1
    ats = [start, end]
    if set(inserted) <= CLOSERS:
        ats += _left_open(original, start, end)
        padded = _padded(original, start, end, inserted)
        if padded is not None:
            ats.append(padded)
    if set(inserted) <= ATTACH_RIGHT:
        ats += _left_open_for_opener(original, start, end)
    places = [Edit(at, 0, inserted) for at in ats if floor < at < ceiling]
    return [place for place in places if place != edit] if start < end else []


def _remade(original: str, repair: Repair, edits: Sequence[Edit], text: str) -> Repair:
    """``repair`` as the ``edits`` that make ``text`` of ``original``."""
    return replace(
        repair, text=text, edits=tuple(edits), distance=edited_distance(original, edits, text)
    )


def _left_open(original: str, start: int, end: int) -> list[int]:
    """The ends of the indented empty lines among the blanks ``start:end`` that
    are indented at least as deep as the line after the blanks: a closer that
    was deleted from its own line leaves it so (``    }`` became ``    ``).
    Before the end of the text, an empty line that is not indented counts
    too: the last closer of a text, lost from its line, leaves it empty
    before the text's final line break (``]`` + line break + line break)."""
    _, following, inner = _blank_lines(original, start, end)
    at_end = end == len(original)
    return [at for indent, at in inner if (indent or at_end) and indent >= following]


def _left_open_for_opener(original: str, start: int, end: int) -> list[int]:
    """The ends of the empty lines among the blanks ``start:end`` left for an
    opener that was deleted from its own line: an indented one indented no
    deeper than the line after the blanks (what it opens is indented
    deeper), or the text's first line when the blanks start the text (the
    ``{`` of a document, lost from its first line)."""
    if "\n" not in original[start:end]:
        return []
    first_end, following, inner = _blank_lines(original, start, end)
    places = [first_end] if start == 0 else []
    return places + [at for indent, at in inner if indent and indent <= following]


def _blank_lines(original: str, start: int, end: int) -> tuple[int, int, list[tuple[int, int]]]:
    """The blanks ``start:end`` read as lines: where the first ends, the
    indentation of the line after them, and of each line between those two
    its indentation and where it ends (before a carriage return)."""
    lines = original[start:end].split("\n")
    following = len(lines[-1].expandtabs())
    inner: list[tuple[int, int]] = []
    at = start + len(lines[0]) + 1
    for line in lines[1:-1]:
        kept = line.rstrip("\r")
        inner.append((len(kept.expandtabs()), at + len(kept)))
        at += len(line) + 1
    return start + len(lines[0].rstrip("\r")), following, inner


def _padded(original: str, start: int, end: int, closers: str) -> int | None:
    """Where a closer goes among the blanks ``start:end`` to mirror its
    opener's padding: after the spaces on the line, when the bracket it
    closes, opened on the same line, is followed by a space
    (``{ key = "U" }``, ``[ 1, 2 ]``); None when it is not, or its opener is
    not within :data:`_PADDING_REACH` characters before.  Brackets are
    counted as characters (inside a string too)."""
    spaces = len(original[start:end]) - len(original[start:end].lstrip(" \t"))
    return start + spaces if spaces and _opener_padded(original, start, closers[0]) else None


def _opener_padded(original: str, offset: int, closer: str) -> bool:
    """Is the bracket ``closer`` closes at ``offset`` opened on the same line,
    within :data:`_PADDING_REACH` characters before, and followed by a space?"""
    line_start = original.rfind("\n", 0, offset) + 1
    reach = range(offset - 1, max(line_start, offset - _PADDING_REACH) - 1, -1)
    found = _open_before((at, original[at]) for at in reach)
    return (
        found is not None
        and found[1] == OPENER_OF[closer]
        and original[found[0] + 1 : found[0] + 2] in (" ", "\t")
    )


def _block_opener(original: str, start: int, closer: str) -> int | None:
    """Where the bracket ``closer`` closes opens, before ``start`` within
    :data:`_CLOSER_REACH` characters, when it ends its line (``digraph G {``,
    not ``(defun f (x)`` nor an object on one line); None when it does not.
    Brackets are counted as characters."""
    low = max(0, start - _CLOSER_REACH)
    brackets = [(found.start(), found.group()) for found in _BRACKET.finditer(original, low, start)]
    found = _open_before(reversed(brackets))
    if found is None or found[1] != OPENER_OF[closer]:
        return None
    line_end = original.find("\n", found[0])
    rest = original[found[0] + 1 : None if line_end < 0 else line_end]
    return None if rest.strip() else found[0]


def _open_before(brackets: Iterable[tuple[int, str]]) -> tuple[int, str] | None:
    """The first opener, walking back over ``brackets`` (offset and text, the
    nearest first), that no closer after it takes; None when there is none."""
    depth = 0
    for at, bracket in brackets:
        if bracket in CLOSERS:
            depth += 1
        elif bracket in ATTACH_RIGHT:
            if depth == 0:
                return at, bracket
            depth -= 1
    return None


def _traced(original: str, edit: Edit) -> list[Edit]:
    """Where the damage left a trace of ``edit``'s delimiter among the blanks
    around it, which the file's style does not outweigh (the line it was
    lost from, which a place elsewhere would leave as the damage left it
    and change a line the damage did not touch): a closer on an empty line
    left indented for it (:func:`_left_open`), an opener on one
    (:func:`_left_open_for_opener`), a closer before the separator that
    starts the line after the blanks (its line kept that: ``  ,`` was
    ``  },``); none when there is no trace."""
    start, end = _blanks_around(original, edit)
    if set(edit.insert) <= CLOSERS:
        left_open = _left_open(original, start, end)
        if left_open:
            return [Edit(left_open[-1], 0, edit.insert)]
        if "\n" in original[start:end] and original[end : end + 1] in SEPARATORS:
            return [Edit(end, 0, edit.insert)]
    if set(edit.insert) <= ATTACH_RIGHT:
        left_open = _left_open_for_opener(original, start, end)
        if left_open:
            return [Edit(left_open[-1], 0, edit.insert)]
    return []


def _usual(original: str, edit: Edit) -> list[Edit]:
    """Where ``edit``'s delimiter usually goes among the blanks around it: where
    the damage left a trace of it (:func:`_traced`), right
    after what precedes them (closers, separators), right before what follows
    them (openers), after the
    spaces when its opener is followed by one,
    or on a line of its own after the text's last line break when its
    opener ends its line (the block's last line was lost, not just its
    bracket); else where it is."""
    start, end = _blanks_around(original, edit)
    traced = _traced(original, edit)
    if traced:
        return traced
    padded = _padded(original, start, end, edit.insert) if set(edit.insert) <= CLOSERS else None
    if padded is not None:
        return [Edit(padded, 0, edit.insert)]
    if (
        set(edit.insert) <= CLOSERS
        and edit.offset == end == len(original)
        and "\n" in original[start:end]
        and _block_opener(original, start, edit.insert[0]) is not None
    ):
        return [edit]  # the last line of a block lost: `}` on a line of its own
    if edit.insert[0] in ATTACH_LEFT:
        return [Edit(start, 0, edit.insert)]
    if edit.insert[-1] in ATTACH_RIGHT:
        return [Edit(end, 0, edit.insert)]
    return [edit]


def closer_on_its_line(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` with a closer it inserts at the end of a line (``}`` or
    ``},``, the line ``  },`` lost whole) on a line of its own, at the
    indentation of the line that opened the bracket it closes, ending with
    it, where the next line is indented no deeper than that line and this
    line deeper, and the next line does not start with a separator (the
    closer's own line, which kept it: :func:`polish_layout` puts the closer
    back before it, ``  },``):

    .. code-block:: text

        "a": {                 "a": {
          "b": 1},     ->        "b": 1
        "c": 2                 },
                               "c": 2

    Only blanks are added: kept when the tokens are the same and
    ``accepts`` the text."""
    if len(repair.edits) != 1:
        return repair
    edit = repair.edits[0]
    inserted = edit.insert
    if edit.delete or not inserted or inserted[0] not in CLOSERS:
        return repair
    if set(inserted) - CLOSERS - SEPARATORS:
        return repair
    line_end = original.find("\n", edit.offset)
    if line_end < 0 or original[edit.offset : line_end].strip(_BLANKS):
        return repair
    if _left_open(original, *_blanks_around(original, edit)):
        return repair  # an empty line was left for it: polish_layout puts it there
    line_start = original.rfind("\n", 0, edit.offset) + 1
    line = original[line_start:line_end]
    if not line[: edit.offset - line_start].strip():
        return repair  # the line holds nothing before the closer
    following = _NEXT_LINE.search(original, line_end)
    depth = indentation_width(leading_blanks(line))
    if following is None or indentation_width(following.group(1)) >= depth:
        return repair
    if original[following.end() - 1] in SEPARATORS:
        return repair  # its line kept the separator after it: polish_layout puts it there
    opener = _block_opener(original, edit.offset, inserted[0])
    if opener is None:
        return repair
    indentation = leading_blanks(original[original.rfind("\n", 0, opener) + 1 : opener])
    if not indentation_width(following.group(1)) <= indentation_width(indentation) < depth:
        return repair  # the next line is inside the block, or this line is not
    newline = "\r\n" if original[line_end - 1 : line_end] == "\r" else "\n"
    moved = Edit(edit.offset, 0, newline + indentation + inserted)
    text = apply_edits(original, [moved])
    lex = lexer or plain_lexer
    before = _visible(repair.text[line_start : following.end() + len(inserted)], lex)
    after = _visible(text[line_start : following.end() + len(moved.insert)], lex)
    if before != after or not accepts(text):
        return repair
    return _remade(original, repair, [moved], text)


def spaced_as_the_input(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` with a space after each ``,``, ``:`` or ``=`` it inserts
    before more text, where the input writes that delimiter with a
    space after it at least as often as without (a completion's
    ``"b": null`` rather than ``"b":null`` in a file written ``"a": 1``),
    and a space before an ``=`` it inserts after other text where the input
    writes one there (``retr = 0``).  Kept when the tokens are the same and
    ``accepts`` the text."""
    styles: dict[tuple[str, bool], bool] = {}  # (each counts the whole input once)

    def writes_space(delimiter: str, after: bool = True) -> bool:
        if (delimiter, after) not in styles:
            styles[delimiter, after] = _spaced(original, delimiter, after=after)
        return styles[delimiter, after]

    edits = []
    for edit in repair.edits:
        inserted = _SPACED_AFTER.sub(
            lambda found: found.group() + " " if writes_space(found.group()) else found.group(),
            edit.insert,
        )
        last, following = inserted[-1:], original[edit.end : edit.end + 1]
        if last in _DELIMITERS and following.strip() and writes_space(last):
            inserted += " "  # before the input's own text
        before = original[edit.offset - 1 : edit.offset]  # (empty at offset 0)
        if before.strip() and inserted[:1] == "=" and writes_space("=", after=False):
            inserted = " " + inserted
        inserted = _SPACED_BEFORE.sub(
            lambda found: " =" if writes_space("=", after=False) else "=", inserted
        )
        edits.append(Edit(edit.offset, edit.delete, inserted))
    return _blanks_moved(original, repair, edits, accepts, lexer)


_DELIMITERS = frozenset(",:=")
_SPACED_AFTER = re.compile(r"[,:=](?=\S)")
"""A delimiter that inserted text goes on right after."""
_SPACED_BEFORE = re.compile(r"(?<=\S)=")
"""An ``=`` right after inserted text."""


def _spaced(original: str, delimiter: str, *, after: bool) -> bool:
    """Does ``original`` write a space after (else before) ``delimiter`` at
    least as often as not?"""
    if after:
        spaced = original.count(delimiter + " ") + original.count(delimiter + "\n")
    else:
        spaced = original.count(" " + delimiter)
    return spaced > 0 and 2 * spaced >= original.count(delimiter)


def opener_at_line_end(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` with an opener it inserts before the first word of a line
    moved to the end of the line above, after a space (the blanks it ends
    with, where it has some), where the bracket's
    closer stands on a line of its own (a block laid out on lines):
    ``digraph G {`` then the block, rather than ``digraph G`` and
    ``  {a -> b;``.  An opener whose closer ends a line of content (Lisp's
    ``(+ x 1)``) stays.  Kept when the tokens are the same and ``accepts``
    the text."""
    if len(repair.edits) != 1:
        return repair
    edit = repair.edits[0]
    if edit.delete or len(edit.insert) != 1 or edit.insert not in ATTACH_RIGHT:
        return repair
    line_start = original.rfind("\n", 0, edit.offset) + 1
    if not line_start or original[line_start : edit.offset].strip(" \t"):
        return repair
    line_end = line_start - 1 - (original[line_start - 2 : line_start - 1] == "\r")
    above_end = _after_content(original, line_end)
    if above_end == 0 or original[above_end - 1] == "\n":
        return repair  # no line of content right above
    closer = _closer_of(original, edit.offset, edit.insert)
    if closer is None:
        return repair
    closer_start = original.rfind("\n", 0, closer) + 1
    closer_end = original.find("\n", closer)
    closer_line = original[closer_start : len(original) if closer_end < 0 else closer_end]
    if closer_line.strip(" \t\r,;") != original[closer]:
        return repair  # the closer ends a line of content: the opener starts one
    if line_end > above_end:  # after the blanks the line above ends with (where it was)
        moved = Edit(line_end, 0, edit.insert)
    else:
        moved = Edit(above_end, 0, " " + edit.insert)
    text = apply_edits(original, [moved])
    lex = lexer or plain_lexer
    start = original.rfind("\n", 0, above_end) + 1
    before = _visible(repair.text[start : line_start + len(edit.insert) + 80], lex)
    after = _visible(text[start : line_start + len(moved.insert) + 80], lex)
    if before != after or not accepts(text):
        return repair
    return _remade(original, repair, [moved], text)


def _closer_of(original: str, position: int, opener: str) -> int | None:
    """Where the closer of an ``opener`` inserted at ``position`` stands: the
    first closer of its kind after it that no opener after it takes
    (brackets counted as characters, within :data:`_CLOSER_REACH`)."""
    closer = CLOSER_OF[opener]
    depth = 0
    for at in range(position, min(len(original), position + _CLOSER_REACH)):
        char = original[at]
        if char == opener:
            depth += 1
        elif char == closer:
            if depth == 0:
                return at
            depth -= 1
    return None


def closers_on_lines(
    original: str,
    repair: Repair,
    accepts: Callable[[str], bool],
    *,
    lexer: Lexer | None = None,
) -> Repair:
    """``repair`` with the closers it appends at the end of the text each on a
    line of its own, indented as the line that opened it, where that line
    ends with its opener (the text is laid out one item per line):

    .. code-block:: text

        {                          {
          "tags": [                  "tags": [
            "a"        ->              "a"
                                     ]
                                   }

    rather than ``"a"]}``.  A closer whose opener is on the last line stays
    there (``{"b": 1}``), and a text whose opening lines do not end with
    their openers keeps its closers together (Lisp's ``(+ x y)))``).  A
    text whose content is followed by a line that holds only blanks keeps
    its closers where the repair put them: such a line is one a lost
    closer emptied (or the text's own layout), and laying the closers out
    anew would delete it, changing what the text holds where blanks are
    data (XML's character data).  Which
    line opened a closer is read from the indentation: the lines before the
    end with less indentation than every line after them; the closer must
    pair with the end of that line (``{`` for ``}``, ``<item>`` for
    ``</item``).  Only blanks are added: kept when the tokens are the same
    and ``accepts`` the text."""
    if not repair.edits:
        return repair
    cut = min(edit.offset for edit in repair.edits)
    # everything from the first edit on: separators and blanks dropped or
    # kept (a cut after `1,`), and the ending put in their place
    if original[cut:].strip(_BLANKS + "".join(SEPARATORS)) or original[:cut] != repair.text[:cut]:
        return repair
    content_end = len(original[:cut].rstrip(_BLANKS))
    if original[content_end:].count("\n") >= 2:  # a line of blanks after the content
        return repair
    line_start = original.rfind("\n", 0, content_end) + 1
    opening_lines = _opening_lines(original, line_start)
    if not opening_lines:  # before lexing the last line: a minified text is one line
        return repair
    lex = lexer or plain_lexer
    inside = [
        (kind, line_start + first, line_start + last)
        for kind, first, last in lex(repair.text[line_start:])
        if line_start + first >= cut and repair.text[line_start + first : line_start + last].strip()
    ]
    if not inside:
        return repair
    opening_kind = inside[0][0]
    cuts = [
        first
        for kind, first, last in inside
        if repair.text[first:last] in CLOSERS or (kind is not None and kind == opening_kind)
    ]
    openers = opening_lines[: len(cuts)]
    if not openers:
        return repair
    own = cuts[len(cuts) - len(openers) :]
    bounds = [*own, inside[-1][2]]
    units = [repair.text[a:b].strip(_BLANKS) for a, b in itertools.pairwise(bounds)]
    if not all(_pairs(unit, line) for unit, (_, line) in zip(units, openers, strict=True)):
        return repair
    newline = "\r\n" if "\r\n" in original else "\n"
    written = repair.text[cut : own[0]].strip(_BLANKS)  # what closes on the last line
    for unit, (indentation, _) in zip(units, openers, strict=True):
        written += newline + indentation + unit
    ending = newline if "\n" in original[content_end:] else ""  # the final line break stays
    text = original[:content_end] + written + ending
    if text == repair.text or _visible(repair.text[line_start:], lex) != _visible(
        text[line_start:], lex
    ):
        return repair
    if not accepts(text):
        return repair
    edits = tuple(
        Edit(content_end + e.offset, e.delete, e.insert)
        for e in edits_between(original[content_end:], text[content_end:])
    )
    return _remade(original, repair, edits, text)


def _visible(text: str, lex: Lexer) -> list[str]:
    """The tokens of ``text``, each without the blanks at its edges, those
    that are all blanks left out: what a reader sees, line breaks and
    indentation aside (a lexer may give line breaks as tokens, or read
    blanks after a tag with it, and then as another kind of token)."""
    return [token for _, first, last in lex(text) if (token := text[first:last].strip())]


def _opening_lines(original: str, last_line: int) -> list[tuple[str, str]]:
    """The lines before the one starting at ``last_line`` (the last with
    content) with less indentation than every line after them, nearest
    first, as (indentation, content); those of a text laid out by its
    nesting are the lines that opened what is still open at its end."""
    found: list[tuple[str, str]] = []
    line_end = original.find("\n", last_line)
    last = original[last_line : len(original) if line_end < 0 else line_end]
    least = indentation_width(leading_blanks(last))
    end = last_line - 1
    while end > 0 and least > 0:
        begin = original.rfind("\n", 0, end) + 1
        line = original[begin:end].rstrip("\r")
        end = begin - 1
        indentation = leading_blanks(line)
        if len(indentation) == len(line):
            continue
        width = indentation_width(indentation)
        if width < least:
            found.append((indentation, line[len(indentation) :].rstrip()))
            least = width
    return found


def _pairs(unit: str, line: str) -> bool:
    """Does the closer that begins ``unit`` close what ``line`` ends by
    opening: ``}`` after a line ending with ``{``, ``</item`` after one with
    ``<item ...>`` (and no ``</item`` of its own)?"""
    first = unit[0]
    if first in OPENER_OF:
        return line.endswith(OPENER_OF[first])
    name = re.search(r"\w[\w.:-]*", unit)
    head = unit.split(None, 1)[0] if unit.split() else unit
    return (
        name is not None
        and head not in line
        and re.search(rf"(?<![\w/]){re.escape(name.group())}(?![\w.:-])", line) is not None
    )


_MADE_UP = re.compile(r"""[\w.+-]+|""|''""")
"""A value a search inserts: the shortest word or number, or an empty string."""


def with_filler(original: str, repair: Repair, filler: str) -> Repair | None:
    """``repair`` with each value it made up (a whole word, number or empty
    string inserted where the input had none: FSynth's ``0`` in ``"i": ,``)
    written as the grammar's ``filler`` instead (``null``), after the blanks
    before it; None when it made up none but the filler.  A made-up key (a
    name before ``:``) stays.  The ranking prefers the filler (see
    :mod:`~inputmend.algorithms.judgement`); the oracle decides whether it
    fits there."""
    edits = list(repair.edits)
    changed = False
    for index, edit in enumerate(edits):
        if original[edit.offset : edit.end].strip(_BLANKS):
            continue
        inserted = edit.insert
        for found in reversed(list(_MADE_UP.finditer(inserted))):
            value = found.group()
            # (at offset 0 the slice is empty)
            glued_before = found.start() == 0 and original[edit.offset - 1 : edit.offset].isalnum()
            glued_after = (
                found.end() == len(inserted) and original[edit.end : edit.end + 1].isalnum()
            )
            rest = (
                inserted[found.end() :]
                if found.end() < len(inserted)
                else original[edit.end : edit.end + 64]
            )
            key = rest.lstrip(" \t").startswith(":")  # a made-up name, not a value
            if (
                value == filler
                or key
                or glued_before
                or glued_after
                or not any(c.isalnum() or c in "\"'" for c in value)
            ):
                continue
            inserted = inserted[: found.start()] + filler + inserted[found.end() :]
            changed = True
        replacement = Edit(edit.offset, edit.delete, inserted)
        if _MADE_UP.fullmatch(inserted):
            # a value alone keeps the blanks it overwrote and goes after the
            # blanks before it: `"i": null,`
            offset = edit.end
            while original[offset : offset + 1] in (" ", "\t"):
                offset += 1
            following = edits[index + 1].offset if index + 1 < len(edits) else len(original)
            if offset <= following and not original[offset : offset + 1].isalnum():
                replacement = Edit(offset, 0, inserted)
        edits[index] = replacement
    if not changed:
        return None
    text = apply_edits(original, edits)
    return _remade(original, repair, edits, text)
