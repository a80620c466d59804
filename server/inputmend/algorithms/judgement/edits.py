"""What a repair's edits do to positions: input offsets mapped into the
repaired text, the windows of input lexed around the edits, escapes and
wrappers the edits remove.

Edits are judged character by character where they replace one for one,
and apart where they keep characters between (``('a'`` rewritten as
``["a"`` is a bracket and then the string ``'a'``, kept).  An insertion
of more than one character that lies among equal characters inside an
input token is judged at the token's edge when the repair keeps the token
whole there (``"": "b"`` from ``"b"``: the string kept, the key invented,
whether the edit script inserts ``": "`` or ``"": ``).
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from inputmend.algorithms.judgement.text import QUOTES, runs_of
from inputmend.core import levenshtein
from inputmend.core.model import Edit
from inputmend.grammar.tolerant import Lexeme, Role

LOOKAROUND = 512
"""Characters before and after an edit that its window of lexing reaches at
most (on long lines; otherwise the window is the edit's lines)."""

_ALIGNED = 1_000_000
"""An edit that replaces ``a`` characters by ``b`` is aligned character by
character when ``a * b`` is at most this; larger replacements count as
deleted and inserted in full (aligning them would cost more than judging)."""


def _ascending(values: Sequence[int]) -> bool:
    """Are ``values`` in ascending order (equal neighbours allowed)?"""
    return all(map(operator.le, values, itertools.islice(values, 1, None)))


class EditMap:
    """Input offsets -> offsets in the repaired text, for sorted, disjoint edits."""

    def __init__(self, edits: Sequence[Edit]) -> None:
        self.edits = edits
        self.ends = [edit.end for edit in edits]
        self.shift = [0]
        for edit in edits:
            self.shift.append(self.shift[-1] + len(edit.insert) - edit.delete)
        self.out = [edit.offset + self.shift[index] for index, edit in enumerate(edits)]
        # edits in order, none inside another: :meth:`starts` and
        # :meth:`ends_of` map a stretch between two of them at a time
        self.ordered = _ascending(self.ends) and _ascending([e.offset for e in edits])
        self._after: tuple[list[int], list[int]] | None = None  # see :meth:`ends_of`
        # input offsets overwritten one for one by punctuation, with it: junk
        # re-read as a delimiter of its kind (Python's `(` of a tuple as
        # `[`), not deleted (see :func:`alike`); one map for all the
        # windows of a repair, not one per window
        self.repunctuated = {
            edit.offset: edit.insert
            for edit in edits
            if edit.delete == len(edit.insert) == 1
            and not (edit.insert.isalnum() or edit.insert.isspace())
        }

    def _before(self, position: int, with_insertions: bool) -> int:
        """How many edits lie wholly before ``position`` (an insertion at
        ``position`` counts when ``with_insertions``)."""
        count = bisect.bisect_right(self.ends, position)
        if not with_insertions:
            while (
                count
                and self.edits[count - 1].delete == 0
                and self.edits[count - 1].offset == position
            ):
                count -= 1
        return count

    def starts(self, positions: Sequence[int]) -> list[int]:
        """:meth:`start` of each of ``positions`` (the tokens of a window:
        ascending, mapped a stretch between two edits at a time)."""
        if not self.ordered or not _ascending(positions):
            return [self.start(position) for position in positions]
        return self._mapped(positions, self.ends, self.out)

    def ends_of(self, positions: Sequence[int]) -> list[int]:
        """:meth:`end` of each of ``positions`` (as :meth:`starts`)."""
        if not self.ordered or not _ascending(positions):
            return [self.end(position) for position in positions]
        if self._after is None:
            # an edit lies before an end at ``p`` from ``p = edit.end`` on,
            # an insertion only from ``p = edit.end + 1``: one at ``p``
            # follows a token that ends there
            self._after = (
                [edit.end + (edit.delete == 0) for edit in self.edits],
                [out + len(edit.insert) for out, edit in zip(self.out, self.edits, strict=True)],
            )
        return self._mapped(positions, *self._after)

    def _mapped(self, positions: Sequence[int], bounds: list[int], inside: list[int]) -> list[int]:
        """``positions`` (ascending) mapped: those from ``bounds[k - 1]`` up to
        ``bounds[k]`` lie after ``k`` edits, and are shifted by them up to
        the offset of edit ``k``, and past it inside what edit ``k``
        replaces, which maps them all to ``inside[k]``.  Two bisections and
        two list extensions for each stretch between edits that holds
        positions, not a bisection and a branch for each position (the
        tokens of a large document that a repair edits on every line)."""
        edits, shift = self.edits, self.shift
        size, total = len(edits), len(positions)
        found: list[int] = []
        low = count = 0
        while low < total:
            count = bisect.bisect_right(bounds, positions[low], count)
            if count == size:
                moved = shift[size]
                found += [position + moved for position in positions[low:]]
                break
            high = bisect.bisect_left(positions, bounds[count], low)
            middle = bisect.bisect_right(positions, edits[count].offset, low, high)
            moved = shift[count]
            found += [position + moved for position in positions[low:middle]]
            found += [inside[count]] * (high - middle)
            low = high
        return found

    def start(self, position: int, *, inclusive: bool = False) -> int:
        """Where a token starting at ``position`` starts in the repaired text:
        after what is inserted there, or before it when ``inclusive``."""
        count = self._before(position, with_insertions=not inclusive)
        if count < len(self.edits) and self.edits[count].offset < position:
            return self.out[count]  # inside a replaced stretch: from its replacement
        return position + self.shift[count]

    def end(self, position: int, *, inclusive: bool = False) -> int:
        """Where a token ending at ``position`` ends in the repaired text:
        before what is inserted there, or after it when ``inclusive``."""
        count = self._before(position, with_insertions=inclusive)
        if count < len(self.edits) and self.edits[count].offset < position:
            return self.out[count] + len(self.edits[count].insert)
        return position + self.shift[count]

    def behind(self, position: int) -> int:
        """The input offset of a position of the repaired text after every edit
        that starts before it."""
        index = bisect.bisect_right(self.out, position) - 1
        while index >= 0 and self.out[index] + len(self.edits[index].insert) > position:
            index -= 1
        return position - self.shift[index + 1]


def changes(
    original: str, edits: Sequence[Edit], mapping: EditMap
) -> tuple[list[int], list[int]]:
    """Input offsets deleted or overwritten, and offsets of the repaired text
    inserted, each edit's deleted text aligned with its insertion."""
    deleted: list[int] = []
    inserted: list[int] = []
    for index, edit in enumerate(edits):
        out = mapping.out[index]
        removed = original[edit.offset : edit.end]
        if not removed or not edit.insert or len(removed) * len(edit.insert) > _ALIGNED:
            deleted.extend(range(edit.offset, edit.end))
            inserted.extend(range(out, out + len(edit.insert)))
            continue
        for operation, source, target in levenshtein.editops(removed, edit.insert):
            if operation != "insert":
                deleted.append(edit.offset + source)
            if operation != "delete":
                inserted.append(out + target)
    return deleted, inserted


RUN_ENDS = 64
"""Characters at each end of a long run of inserted punctuation that are
judged (the closers of a completion meet the input's tokens at its start)."""

_LONG_PUNCTUATION = re.compile(rf"[^\w\"'`]{{{4 * RUN_ENDS},}}")
"""A long run of punctuation and blanks (no letter, digit or quote): the
closers a completion appends, which hold no data."""


def long_runs_shortened(edit: Edit) -> Edit:
    """``edit`` with the middle of each long run of punctuation it inserts
    left out: the run's ends are judged with their neighbours, its middle
    meets none."""
    inserted = _LONG_PUNCTUATION.sub(
        lambda run: run.group()[:RUN_ENDS] + run.group()[-RUN_ENDS:], edit.insert
    )
    return edit if inserted == edit.insert else Edit(edit.offset, edit.delete, inserted)


def substitutions_apart(original: str, edits: Sequence[Edit]) -> list[Edit]:
    """``edits`` split where they keep characters, and each run of characters
    replaced one for one split into one edit per character, so that a token
    whose first character a longer edit overwrites is found where it starts
    (``('a',)`` rewritten as ``["a"]`` is a bracket, the quotes of ``'a'``,
    a comma and a bracket, not one stretch)."""
    apart: list[Edit] = []
    for edit in edits:
        removed = original[edit.offset : edit.end]
        if not removed or not edit.insert or len(removed) * len(edit.insert) > _ALIGNED:
            apart.append(edit)
            continue
        for tag, low, high, start, end in levenshtein.opcodes(removed, edit.insert):
            if tag == "equal":
                continue
            if tag == "replace" and high - low == end - start:
                apart.extend(
                    Edit(edit.offset + low + index, 1, edit.insert[start + index])
                    for index in range(high - low)
                )
            else:
                apart.append(Edit(edit.offset + low, high - low, edit.insert[start:end]))
    return apart


@dataclass
class Window:
    start: int  # input offsets of the stretch lexed
    end: int
    before: list[Lexeme]  # the input's lexemes there
    after: list[Lexeme]  # the repaired text's lexemes there


def slid_out_of_tokens(
    original: str, edits: list[Edit], windows: Sequence[Window], mapping: EditMap
) -> list[Edit]:
    """``edits`` with each insertion that lies inside a token of the input
    moved to that token's edge where the repaired text is the same and the
    token is in it whole, with its kind; ``edits`` itself when none moves.

    Where among equal characters an edit script puts an insertion says
    nothing: ``"": "b"`` from ``"b"`` inserts ``": "`` after the first quote
    as well as ``"": `` before it.  Read the first way, the input's string
    is split and the empty key holds a quote of the input, so nothing looks
    made up; read the second, the string is kept and the key is invented.
    The token the repair leaves whole is the input's, so the second reading
    is judged, whichever the edit script gave.

    Only an insertion of more than one character moves: it brings structure
    of its own (a separator and a quote), so the token it leaves whole is one
    the input has.  One character among equal ones is most often a lost
    quote put back, and after a lost quote the error-tolerant lexer reads
    strings and non-strings the wrong way round up to the next quote: there
    the token the slide would keep whole is a misread one."""
    slid: list[Edit] | None = None
    starts = [window.start for window in windows]
    for index, edit in enumerate(edits):
        text, offset = edit.insert, edit.offset
        if edit.delete or len(text) < 2:
            continue
        if not (
            (offset > 0 and original[offset - 1] == text[-1])
            or (offset < len(original) and original[offset] == text[0])
        ):
            continue  # (most insertions: no other place gives the same text)
        at = bisect.bisect_right(starts, offset) - 1
        if at < 0 or windows[at].end < offset:
            continue
        before = windows[at].before
        found = bisect.bisect_left(before, offset, key=lambda t: t.start) - 1
        if found < 0 or not offset < before[found].end or before[found].role is Role.JUNK:
            continue
        token = before[found]
        # never onto or past a neighbouring edit
        low = edits[index - 1].end + 1 if index else 0
        high = edits[index + 1].offset - 1 if index + 1 < len(edits) else len(original)
        places: list[tuple[int, str]] = []
        left, moved = offset, text
        while left > max(token.start, low) and original[left - 1] == moved[-1]:
            left, moved = left - 1, original[left - 1] + moved[:-1]
        if left == token.start:
            places.append((left, moved))
        right, moved = offset, text
        while right < min(token.end, high) and original[right] == moved[0]:
            right, moved = right + 1, moved[1:] + original[right]
        if right == token.end:
            places.append((right, moved))
        size, after = token.end - token.start, windows[at].after
        for place, moved in sorted(places, key=lambda p: abs(p[0] - offset)):
            # where the token starts in the repaired text, the edit moved there
            start = token.start + mapping.shift[index] + (len(moved) if place == token.start else 0)
            there = bisect.bisect_left(after, start, key=lambda t: t.start)
            while (
                there < len(after)
                and after[there].start == start
                and not (after[there].end == start + size and after[there].kind == token.kind)
            ):
                there += 1
            if there < len(after) and after[there].start == start:
                if slid is None:
                    slid = list(edits)
                slid[index] = Edit(place, 0, moved)
                break
    return edits if slid is None else slid


ESCAPE_SEQUENCE = re.compile(r"\\.", re.DOTALL)
"""A backslash and the character it escapes, read from the left (``\\\\``
is one sequence)."""

_WRAPPER_NAME = re.compile(r"[A-Za-z_$][\w.$]*[ \t]*\(\Z")
"""A name and the opening bracket of a call: the end of a deleted stretch
that removes a wrapper (``ObjectId(``)."""


def removed_wrappers(original: str, deleted: list[int]) -> list[tuple[int, ...]]:
    """The wrappers a repair removes: a name and the bracket after it
    (``ObjectId(``) deleted, the closing bracket that matches it deleted
    too, and everything between kept (``ObjectId("5f1d")`` as ``"5f1d"``).
    The name says how to read the value, which stays: the repair unwraps it
    rather than losing data.  Each is the input offsets it deletes (the
    name, the blanks after it, both brackets)."""
    found: list[tuple[int, ...]] = []
    deleted_set = set(deleted)
    for low, high in runs_of(deleted):
        name = _WRAPPER_NAME.search(original, low, high)
        if name is None:
            continue
        start = name.start()
        if start == low and low > 0 and (original[low - 1].isalnum() or original[low - 1] in "_$."):
            continue  # the end of a longer word: part of a name deleted
        close = _closing_bracket(original, high)
        if close is None or close not in deleted_set or close == high:
            continue
        if any(offset in deleted_set for offset in range(high, close)):
            continue
        if not original[high:close].strip():
            continue
        found.append((*range(start, high), close))
    return found


def _closing_bracket(text: str, start: int) -> int | None:
    """The offset of the ``)`` that closes a ``(`` just before ``start``,
    skipping brackets inside quotes, within :data:`LOOKAROUND` characters."""
    depth = 1
    quote = ""
    for offset in range(start, min(len(text), start + LOOKAROUND)):
        char = text[offset]
        if quote:
            if char == "\\":
                continue
            if char == quote and text[offset - 1] != "\\":
                quote = ""
        elif char in QUOTES:
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if not depth:
                return offset
    return None


_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "/": "/"}
"""What the common escape sequences stand for (the letter after the backslash)."""

_CODE_POINT = re.compile(r"\\u([0-9A-Fa-f]{4})(?:\\u([0-9A-Fa-f]{4}))?")
"""A character written as its code point, ``\\u00e9`` (two for a surrogate pair)."""

_ESCAPE_LENGTHS = (2, 6, 12)
"""How long an escape sequence :func:`_decoded` reads is."""


def escapes_written_out(original: str, edits: Sequence[Edit]) -> dict[int, bool]:
    """The input offsets of escape sequences that ``edits`` write as the
    character they stand for (``\\n`` as a line break, ``\\u00e9`` as
    ``é``): the backslash (true: counted) and the characters after it
    (false: not counted again)."""
    found: dict[int, bool] = {}
    for edit in edits:
        if (
            edit.delete in _ESCAPE_LENGTHS
            and _decoded(original[edit.offset : edit.end]) == edit.insert
        ):
            found[edit.offset] = True
            found.update(dict.fromkeys(range(edit.offset + 1, edit.end), False))
    return found


def decoded_characters(
    original: str, edits: Sequence[Edit], unescaped: Mapping[int, bool]
) -> set[int]:
    """The offsets in the repaired text (``edits``, sorted, applied to
    ``original``) of the characters they write for an escape sequence of
    the input (``é`` for ``\\u00e9``; see :func:`escapes_written_out`)."""
    found: set[int] = set()
    shift = 0
    for edit in edits:
        if (
            edit.insert
            and unescaped.get(edit.offset)
            and _decoded(original[edit.offset : edit.end]) == edit.insert
        ):
            out = edit.offset + shift
            found.update(range(out, out + len(edit.insert)))
        shift += len(edit.insert) - edit.delete
    return found


def _decoded(text: str) -> str | None:
    """The character the escape sequence ``text`` (a backslash and one
    character, or a code point written ``\\uXXXX``, a surrogate pair as
    two) stands for, or ``None``."""
    if len(text) == 2 and text[0] == "\\":
        return _ESCAPED.get(text[1])
    code = _CODE_POINT.fullmatch(text)
    if code is None:
        return None
    units = [int(unit, 16) for unit in code.groups() if unit is not None]
    try:
        return (
            "".join(chr(unit) for unit in units).encode("utf-16", "surrogatepass").decode("utf-16")
        )
    except UnicodeError:
        return None


def escape_removed(original: str, offset: int, deleted: set[int]) -> bool:
    """Is the deleted character at ``offset`` the backslash of an escape
    whose escaped character the repair keeps (``\\"`` as ``"``: an escaped
    document unescaped)?  The character it escaped stays; the backslash
    was quoting, not data."""
    after = offset + 1
    return (
        original[offset] == "\\"
        and after < len(original)
        and after not in deleted
        and not original[after].isalnum()
        and not original[after].isspace()
    )
