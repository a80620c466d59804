"""Words for repairs, shared by the command line and the language server.

A repair is described by what it changes in the reader's terms, from the
tokens around each edit: ``Insert missing `,` after `"0.1.0"```, ``Remove
trailing `,` ``, ``Close the string and the 2 open brackets``.  Tokens come
from a *lexer* the caller passes: the grammar's error-tolerant lexer when the
document has a grammar, else :func:`plain_lexer` (words, quoted strings,
punctuation).  Only a few lines around each edit are lexed, so describing a
repair of a 5 MB file costs no more than of a small one.  Positions, where a
description needs one, are written by the caller's ``where`` (the editor's
columns in the language server, 1-based characters on the command line).

:func:`distinct` groups repairs a reader cannot tell apart (the same tokens
after the repair: ``"a": 3.45`` and ``"a":  3.45``) so each is offered once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from inputmend.core.conflicts import resolution_of
from inputmend.core.model import Edit, Repair, apply_edits, inserts_lines
from inputmend.core.text import LineIndex, common_prefix, common_suffix, snippet

Lexeme = tuple[str | None, int, int]
"""A token of a text: its kind (``None``: a character no token matches), start, end."""
Lexer = Callable[[str], Sequence[Lexeme]]
"""Tokens of a text, layout (whitespace, comments) left out."""
Where = Callable[[int], str]
"""An offset of the original text as ``line:column`` for the reader."""

CONTEXT_CHARS = 400
"""How far from an edit (at most) the lexer starts and stops reading."""
SHOWN_EDITS = 2
"""Edits named in a description; the others are counted."""
CONTEXT_SHOWN = 24
"""Characters of a neighbouring token shown in a description."""

_CLOSERS = frozenset(")]}")
_QUOTES = frozenset("\"'`")
_SEPARATORS = frozenset(",;")
_PLAIN = re.compile(r"""[\w.+-]+|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\S""")


def plain_lexer(text: str) -> list[Lexeme]:
    """Tokens without a grammar: words and numbers, quoted strings on one line,
    and every other visible character on its own."""
    return [("plain", match.start(), match.end()) for match in _PLAIN.finditer(text)]


def human_where(text: str) -> Where:
    """Positions as 1-based ``line:column`` in characters (the command line's);
    the lines are found only when a position is asked for."""
    found: list[LineIndex] = []

    def where(offset: int) -> str:
        if not found:
            found.append(LineIndex(text))
        return found[0].human(offset)

    return where


# ------------------------------------------------------------------ tokens
@dataclass(frozen=True)
class _Tokens:
    """The tokens of one stretch of a text (offsets of the whole text)."""

    text: str
    tokens: tuple[Lexeme, ...]

    @classmethod
    def around(cls, text: str, start: int, end: int, lexer: Lexer) -> _Tokens:
        """Lex from the start of the line before ``start`` to the end of the
        line after ``end`` (at most :data:`CONTEXT_CHARS` away): a line start
        is where most formats start a token."""
        low = max(0, start - CONTEXT_CHARS)
        high = min(len(text), end + CONTEXT_CHARS)
        first = text.rfind("\n", low, max(low, text.rfind("\n", low, start)))
        window_start = first + 1 if first >= 0 else low
        after = text.find("\n", end, high)
        last = text.find("\n", after + 1, high) if after >= 0 else -1
        window_end = last if last >= 0 else high
        if window_start and text[window_start - 1] != "\n":
            window_start = _in_phase(text, window_start, window_end, lexer)
        found = lexer(text[window_start:window_end])
        shifted = tuple((kind, s + window_start, e + window_start) for kind, s, e in found)
        return cls(text, shifted)

    @classmethod
    def at_edges(cls, text: str, start: int, end: int, lexer: Lexer) -> _Tokens:
        """As :meth:`around`, but a long stretch is lexed near its two ends
        only: a title names what is next to an edit, and a deleted tail of a
        megabyte must not be read whole for it."""
        if end - start <= 4 * CONTEXT_CHARS:
            return cls.around(text, start, end, lexer)
        head = cls.around(text, start, start, lexer).tokens
        tail = cls.around(text, end, end, lexer).tokens
        resumed = tail[0][1] if tail else len(text)
        return cls(text, tuple(t for t in head if t[2] <= resumed) + tail)

    @staticmethod
    def of(text: str, lexer: Lexer) -> list[tuple[str | None, str]]:
        """The kind and text of each token of ``text`` a reader sees."""
        return _Tokens(text, tuple(lexer(text))).words()

    def word(self, token: Lexeme) -> str:
        return self.text[token[1] : token[2]]

    def words(self) -> list[tuple[str | None, str]]:
        """The kind and text of each token a reader sees (a line break that a
        grammar reads as a token is layout to a reader)."""
        return [(token[0], word) for token in self.tokens if (word := self.word(token)).strip()]

    def before(self, offset: int) -> Lexeme | None:
        """The last token that ends at or before ``offset`` (of those a reader
        sees: a line break that a grammar reads as a token names nothing)."""
        found = [t for t in self.tokens if t[2] <= offset and self.word(t).strip()]
        return found[-1] if found else None

    def after(self, offset: int) -> Lexeme | None:
        """The first token that starts at or after ``offset`` (a visible one)."""
        return next((t for t in self.tokens if t[1] >= offset and self.word(t).strip()), None)

    def across(self, offset: int) -> Lexeme | None:
        """The token that starts before ``offset`` and ends after it."""
        return next((t for t in self.tokens if t[1] < offset < t[2]), None)


PHASES = 3
"""Quotes after which a lexer that starts inside a line may also start."""
_PHASE_QUOTES = re.compile("[\"']")


def _in_phase(text: str, start: int, end: int, lexer: Lexer) -> int:
    """Where to start lexing ``text[start:end]``, a stretch that starts inside
    a line (a minified document's one long line): ``start`` may be inside a
    string, and a lexer started there reads strings as what lies between them
    (``","mode":420,"`` and the letters of ``size`` one by one).  Of ``start``
    and the places just after its first :data:`PHASES` quotes, the one whose
    tokens leave the fewest characters unread (kind ``None``) past the last
    of them; the earliest of equals."""
    quotes = _PHASE_QUOTES.finditer(text, start, end)
    starts = [start] + [match.end() for _, match in zip(range(PHASES), quotes, strict=False)]
    common = starts[-1]

    def unread(at: int) -> int:
        return sum(e - s for kind, s, e in lexer(text[at:end]) if kind is None and s + at >= common)

    return min(starts, key=lambda at: (unread(at), at))


def _quoted(text: str, *, last_line: bool = False) -> str:
    """``text`` (shortened, the blanks around it left out) in backticks;
    text that holds backticks in a run
    of one more, padded with a blank, as Markdown reads it (``` `` ```json `` ```).

    Text cut short ends after a word when a blank is near the limit
    (``Here is the fixed…``).  Text of several lines shows one of them, as a
    reader names it rather than as an escaped line break: its first, cut
    short (``Here is the JSON…``), or its last when ``last_line`` (a
    neighbour an edit comes after: the line next to the edit)."""
    shown = text.strip() or text
    lines = shown.splitlines() if shown.strip() else [shown]
    if len(lines) > 1:
        shown = lines[-1].strip() if last_line else lines[0].rstrip() + "…"
    if len(shown) > CONTEXT_SHOWN:  # cut short after a word where one ends near the limit
        blank = shown.rfind(" ", 0, CONTEXT_SHOWN)
        if blank > CONTEXT_SHOWN // 3:
            shown = shown[:blank] + "…"
    shown = snippet(shown, CONTEXT_SHOWN)
    if "`" not in shown:
        return f"`{shown}`"
    fence = "`" * (max(len(run) for run in re.findall("`+", shown)) + 1)
    return f"{fence} {shown} {fence}"


def _is_word(word: str) -> bool:
    """A value or name rather than punctuation."""
    return any(char.isalnum() or char in _QUOTES for char in word)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _in_word(char: str) -> bool:
    """A character of a word as a reader cuts text into words (``UTF-8``,
    ``1.5e+3``, ``snake_case``)."""
    return char.isalnum() or char in "_.+-"


def _is_string(word: str) -> bool:
    return len(word) >= 2 and word[0] in _QUOTES and word[-1] == word[0]


def _layout(text: str) -> str:
    """Blanks as a reader names them (``a line break``, ``2 spaces``): a
    line break's indentation is not named, and blanks are never quoted as
    escapes."""
    breaks = text.count("\n")
    if breaks and not text.strip():
        return "a line break" if breaks == 1 else f"{breaks} line breaks"
    for blank, name in ((" ", "space"), ("\t", "tab")):
        if text and text == blank * len(text):
            return f"a {name}" if len(text) == 1 else f"{len(text)} {name}s"
    return _quoted(text)


def _open_brackets(count: int) -> str:
    return "the open bracket" if count == 1 else f"the {count} open brackets"


# ------------------------------------------------------------ descriptions
@dataclass(frozen=True)
class _Edit:
    """One edit with where it lands in the repaired text."""

    edit: Edit
    at: int  # offset of the inserted text in the repaired text


def _placed(edits: Sequence[Edit]) -> list[_Edit]:
    placed, shift = [], 0
    for edit in sorted(edits, key=lambda e: (e.offset, e.delete)):
        placed.append(_Edit(edit, edit.offset + shift))
        shift += len(edit.insert) - edit.delete
    return placed


class _Describer:
    """Describes the edits of one repair, with the tokens of the text before
    and after it."""

    def __init__(self, original: str, repaired: str, lexer: Lexer, where: Where) -> None:
        self.original, self.repaired = original, repaired
        self.lexer, self.where = lexer, where

    def near(self, tokens: _Tokens, start: int, end: int) -> str:
        """Where an edit of the original is, by its neighbours: ``before `y` ``
        when it is glued to the next word only (``**`` in ``**3.45``), else
        ``after `x` ``."""
        previous, following = tokens.before(start), tokens.after(end)
        glued = (
            following is not None
            and following[1] == end
            and _is_word(tokens.word(following))
            and (previous is None or previous[2] < start)
        )
        if following is not None and (previous is None or glued):
            return f"before {_quoted(tokens.word(following))}"
        if previous is not None:
            return f"after {_quoted(tokens.word(previous), last_line=True)}"
        return f"at {self.where(start)}"

    def closing(self, placed: _Edit) -> str | None:
        """``close the string and the 2 open brackets``: an insertion at the end
        of the text (up to layout) that only ends a string and closes brackets."""
        edit = placed.edit
        end = placed.at + len(edit.insert)
        tokens = _Tokens.at_edges(self.repaired, placed.at, end, self.lexer)
        parts, rest = [], placed.at
        crossing = tokens.across(placed.at)  # a token that began before the insertion
        if crossing is not None:
            if not _is_string(tokens.word(crossing)):
                return None
            parts.append("the string")
            rest = crossing[2]
        closers = "".join(self.repaired[rest:end].split())
        if closers:
            if not set(closers) <= _CLOSERS:
                return None
            parts.append(_open_brackets(len(closers)))
        return "close " + " and ".join(parts) if parts else None

    def completing(self, placed: _Edit) -> str | None:
        """``complete `tr` as `true` and close the 2 open brackets``: an
        insertion at the end of the text that goes on with the word the text
        was cut in, named by that word before and after, then what follows it."""
        edit = placed.edit
        offset = edit.offset
        if edit.delete or not offset or not edit.insert[:1].isalnum():
            return None
        if not self.original[offset - 1].isalnum():  # a letter or digit goes on with one
            return None
        glued = next((n for n, char in enumerate(edit.insert) if not _in_word(char)), None)
        glued = len(edit.insert) if glued is None else glued
        start = offset
        while start > 0 and _in_word(self.original[start - 1]):
            start -= 1
        head = self.original[start:offset]
        phrase = f"complete {_quoted(head)} as {_quoted(head + edit.insert[:glued])}"
        rest = "".join(edit.insert[glued:].split())
        if not rest:
            return phrase
        if set(rest) <= _CLOSERS:
            return f"{phrase} and close {_open_brackets(len(rest))}"
        return f"{phrase} and append {_quoted(' '.join(edit.insert[glued:].split()))}"

    def own_lines(self, edit: Edit) -> str | None:
        """``insert `</b>` on a line of its own before `</a>` ``: an edit that
        only inserts lines, named by the line after them."""
        if not inserts_lines(self.original, edit):
            return None
        inserted = " ".join(edit.insert.split())
        plural = (
            "lines of their own"
            if len(edit.insert.strip().splitlines()) > 1
            else "a line of its own"
        )
        following = self.original[edit.offset :].lstrip().split("\n", 1)[0].strip()
        return f"insert {_quoted(inserted)} on {plural} before {_quoted(following)}"

    def insertion(self, placed: _Edit) -> str:
        edit = placed.edit
        inserted = edit.insert.strip()
        if not inserted:  # layout only
            tokens = _Tokens.around(self.repaired, placed.at, placed.at, self.lexer)
            return f"insert {_layout(edit.insert)} {self.near(tokens, placed.at, placed.at)}"
        at_end = not self.original[edit.offset :].strip()
        if at_end:
            # closers laid out on lines of their own read as one line: `</a> </b>`
            return (
                self.closing(placed)
                or self.completing(placed)
                or f"append {_quoted(' '.join(inserted.split()))}"
            )
        own = self.own_lines(edit)
        if own is not None:
            return own
        end = placed.at + len(edit.insert)
        tokens = _Tokens.at_edges(self.repaired, placed.at, end, self.lexer)
        missing = "missing " if len(inserted) <= 2 and not inserted.isalnum() else ""
        crossing = tokens.across(placed.at)
        if crossing is not None:  # it completes a token that starts before it (a quote)
            started = self.repaired[crossing[1] : placed.at]
            return f"insert {missing}{_quoted(inserted)} after {_quoted(started, last_line=True)}"
        previous = tokens.before(placed.at)
        if previous is not None:
            anchor = _quoted(tokens.word(previous), last_line=True)
            return f"insert {missing}{_quoted(inserted)} after {anchor}"
        return f"insert {missing}{_quoted(inserted)} {self.near(tokens, placed.at, end)}"

    def _removed(self, edit: Edit) -> tuple[_Tokens, str]:
        """The tokens of the original around an edit, and what it removes."""
        tokens = _Tokens.at_edges(self.original, edit.offset, edit.end, self.lexer)
        return tokens, self.original[edit.offset : edit.end]

    def deletion(self, placed: _Edit) -> str:
        edit = placed.edit
        tokens, removed = self._removed(edit)
        if not removed.strip():
            return f"remove {_layout(removed)} {self.near(tokens, edit.offset, edit.end)}"
        shown = removed.strip()
        if shown in _SEPARATORS:
            following = tokens.after(edit.end)
            if following is not None and tokens.word(following) in _CLOSERS:
                return f"remove trailing {_quoted(shown)}"
        if not _is_word(shown):  # a separator or other punctuation written twice
            following = tokens.after(edit.end)
            neighbours = (following, tokens.before(edit.offset))
            if any(t is not None and tokens.word(t) == shown for t in neighbours):
                kept = [
                    token
                    for token in tokens.tokens
                    if token[2] <= edit.offset and tokens.word(token).strip() not in ("", shown)
                ]
                where = (
                    f"after {_quoted(tokens.word(kept[-1]), last_line=True)}"
                    if kept
                    else self.near(tokens, edit.offset, edit.end)
                )
                return f"remove extra {_quoted(shown)} {where}"
        return f"remove {_quoted(shown)} {self.near(tokens, edit.offset, edit.end)}"

    def replacement(self, placed: _Edit) -> str:
        edit = placed.edit
        tokens, removed = self._removed(edit)
        where = self.near(tokens, edit.offset, edit.end)
        inserted = " ".join(edit.insert.split())  # closers on lines of their own: `} }`
        return f"replace {_quoted(removed)} with {_quoted(inserted)} {where}"

    def quoting(self, first: _Edit, second: _Edit) -> str | None:
        """Two inserted quotes that make one string: ``put `a` in quotes``;
        two quotes replaced by the grammar's: ``replace `'a'` with `"a"` ``."""
        a, b = first.edit, second.edit
        if a.delete != b.delete or a.delete > 1 or a.insert != b.insert or a.insert not in _QUOTES:
            return None
        tokens = _Tokens.around(self.repaired, first.at, second.at + 1, self.lexer)
        crossing = tokens.across(first.at + 1)
        if crossing is None or (crossing[1], crossing[2]) != (first.at, second.at + 1):
            return None
        if a.delete:  # other quotes replaced: `'name'` or `“name”` with `"name"`
            before, after = self.original[a.offset : b.end], self.repaired[first.at : second.at + 1]
            return f"replace {_quoted(before)} with {_quoted(after)}"
        return f"put {_quoted(self.original[a.offset : b.offset])} in quotes"

    def indenting(self, placed: _Edit) -> str | None:
        """``indent `value: 2` by 1 more space``: an edit of blanks only, within
        a line's indentation, that leaves the line's content as it is."""
        edit = placed.edit
        original = self.original
        removed = original[edit.offset : edit.end]
        if edit.insert.strip(" \t") or removed.strip(" \t") or not (edit.insert or removed):
            return None
        line_start = original.rfind("\n", 0, edit.offset) + 1
        line_end = original.find("\n", edit.end)
        content = original[edit.end : len(original) if line_end < 0 else line_end].strip()
        if original[line_start : edit.offset].strip(" \t") or not content:
            return None
        words = content.split()
        shown = " ".join(words[:3]) + (" ..." if len(words) > 3 else "")
        change = len(edit.insert.expandtabs()) - len(removed.expandtabs())
        if not change:
            return None
        amount = f"{abs(change)} {'space' if abs(change) == 1 else 'spaces'}"
        if change > 0:
            return f"indent {_quoted(shown)} by {amount} more"
        return f"indent {_quoted(shown)} by {amount} less"

    def describe(self, placed: _Edit) -> str:
        """One edit; replacing layout by something, or something by layout,
        reads as inserting or removing that something."""
        indenting = self.indenting(placed)
        if indenting is not None:
            return indenting
        edit = placed.edit
        if edit.delete and edit.insert.strip():
            if self.original[edit.offset : edit.end].strip():
                return self.replacement(placed)
            return self.insertion(placed)
        if edit.delete:
            return self.deletion(placed)
        return self.insertion(placed)

    def word_span(self, placed: _Edit) -> tuple[int, int] | None:
        """The word of the original an edit changes letters or digits inside
        (``T`` of ``True``, ``y`` of ``yes``), as its start and end; None for
        an edit of punctuation or one between words."""
        edit = placed.edit
        changed = self.original[edit.offset : edit.end] + edit.insert
        if not changed or not all(_is_word_char(char) for char in changed):
            return None
        start, end = edit.offset, edit.end
        while start > 0 and _is_word_char(self.original[start - 1]):
            start -= 1
        while end < len(self.original) and _is_word_char(self.original[end]):
            end += 1
        return (start, end) if (start, end) != (edit.offset, edit.end) else None

    def word_change(self, group: Sequence[_Edit], start: int, end: int) -> str:
        """``replace `True` with `true` ``: edits inside one word, named by
        the whole word before and after."""
        first, last = group[0], group[-1]
        shift_before = first.at - first.edit.offset
        shift_after = last.at + len(last.edit.insert) - last.edit.end
        before = self.original[start:end]
        after = self.repaired[start + shift_before : end + shift_after]
        return f"replace {_quoted(before)} with {_quoted(after)}"

    def phrases(self, edits: Sequence[Edit]) -> list[str]:
        placed = _placed(edits)
        phrases: list[str] = []
        index = 0
        while index < len(placed):
            pair = self.quoting(*placed[index : index + 2]) if index + 1 < len(placed) else None
            word = self.word_span(placed[index])
            if pair is not None:
                phrases.append(pair)
                index += 2
            elif word is not None:
                group = [placed[index]]
                while index + len(group) < len(placed):
                    following = self.word_span(placed[index + len(group)])
                    if following != word:
                        break
                    group.append(placed[index + len(group)])
                phrases.append(self.word_change(group, *word))
                index += len(group)
            else:
                phrases.append(self.describe(placed[index]))
                index += 1
        return phrases


def describe_repair(
    original: str,
    edits: Sequence[Edit],
    *,
    lexer: Lexer | None = None,
    where: Where | None = None,
    repaired: str | None = None,
) -> str:
    """What a repair changes, as a title: ``Insert missing `,` after `2` ``
    (or the side of a merge conflict it keeps).

    ``lexer`` gives the tokens (default :func:`plain_lexer`), ``where`` writes
    positions (default 1-based characters), ``repaired`` is the repaired text
    when the caller has it."""
    if not edits:
        return "No change"
    text = repaired if repaired is not None else apply_edits(original, edits)
    resolution = resolution_of(original, text)
    if resolution is not None:
        return resolution.title
    unescaped = _unescaping(original, edits)
    if unescaped is not None:
        return unescaped
    describer = _Describer(original, text, lexer or plain_lexer, where or human_where(original))
    phrases = describer.phrases(edits)
    shown = phrases[:SHOWN_EDITS]
    if len(phrases) > SHOWN_EDITS:
        more = len(phrases) - SHOWN_EDITS
        shown.append(f"{more} more edit{'s' if more > 1 else ''}")
    sentence = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]
    return sentence[0].upper() + sentence[1:]


_ESCAPE = re.compile(r"\\(?:u[0-9A-Fa-f]{4}|.)", re.DOTALL)


def _unescaping(original: str, edits: Sequence[Edit]) -> str | None:
    """``Unescape 40 backslash escapes``: a repair whose edits each read one
    backslash escape as the character it stands for (a text written as the
    body of a string), and at most remove the quotes around the whole text;
    None for any other repair."""
    escapes = 0
    for edit in edits:
        removed = original[edit.offset : edit.end]
        if _ESCAPE.fullmatch(removed) and len(edit.insert) == 1:
            escapes += 1
        elif not (removed in _QUOTES and not edit.insert and edit.offset in (0, len(original) - 1)):
            return None
    if escapes < 2:
        return None
    around = " and remove the quotes around the text" if len(edits) > escapes else ""
    return f"Unescape {escapes} backslash escapes{around}"


# -------------------------------------------------------------- equivalence
def same_for_reader(original: str, first: Repair, second: Repair, lexer: Lexer | None) -> bool:
    """Do two repairs of ``original`` leave the same tokens (so their texts
    differ at most in layout)?

    Only the stretch where the two texts differ is lexed, from the line
    before it to the line after it: two ways to place one delimiter after a
    megabyte of appended closers differ in a few characters."""
    if first.text == second.text:
        return True
    start = common_prefix(first.text, second.text)
    shorter = min(len(first.text), len(second.text))
    unchanged_tail = common_suffix(first.text, second.text, shorter - start)
    lex = lexer or plain_lexer
    ends = [len(repair.text) - unchanged_tail for repair in (first, second)]
    if max(ends) - start > 4 * CONTEXT_CHARS:
        # a long stretch (a completion's closers placed a blank earlier):
        # the same but for blanks, and the same tokens where blanks differ
        moved = _blank_differences(first.text[start : ends[0]], second.text[start : ends[1]])
        if moved is None:
            return False
        text = first.text
        for offset, blanks, other in moved:
            # the same context on both sides, but for these blanks
            at = start + offset
            before = text[max(0, at - CONTEXT_CHARS) : at]
            after = text[at + len(blanks) : at + len(blanks) + CONTEXT_CHARS]
            if _Tokens.of(before + blanks + after, lex) != _Tokens.of(before + other + after, lex):
                return False
        return True
    tokens = [
        _Tokens.around(repair.text, start, end, lex).words()
        for repair, end in zip((first, second), ends, strict=True)
    ]
    return tokens[0] == tokens[1]


def _blank_differences(first: str, second: str) -> list[tuple[int, str, str]] | None:
    """Where the blanks between the same characters differ in two texts (the
    offset in the first, and the blanks of each there), or None when their
    other characters differ."""
    found: list[tuple[int, str, str]] = []
    i = j = 0
    while True:
        blank_i, blank_j = i, j
        while i < len(first) and first[i].isspace():
            i += 1
        while j < len(second) and second[j].isspace():
            j += 1
        if first[blank_i:i] != second[blank_j:j]:
            found.append((blank_i, first[blank_i:i], second[blank_j:j]))
        if i == len(first) or j == len(second):
            return found if (i, j) == (len(first), len(second)) else None
        if first[i] != second[j]:
            return None
        i += 1
        j += 1


def distinct(
    original: str, repairs: Iterable[Repair], lexer: Lexer | None = None
) -> list[Repair]:
    """The repairs in order, each that a reader cannot tell from an earlier one
    (same tokens after the repair) left out."""
    kept: list[Repair] = []
    for repair in repairs:
        if not any(same_for_reader(original, repair, other, lexer) for other in kept):
            kept.append(repair)
    return kept
