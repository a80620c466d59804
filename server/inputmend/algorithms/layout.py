"""Layout-guided structural repairs: brackets where the indentation says.

A lost or doubled bracket is often noticed far from where it happened: a
Lisp form whose ``(`` is lost parses on until a surplus ``)`` much later, a
doubled ``[`` in JSON only shows at the end of the document.  Repairs at
the parse boundary then put the bracket in the wrong place.  But people
indent to show nesting: lines at the same indentation sit at the same
depth.  So:

* :func:`layout_agreement` scores a text by its lines that do not sit at
  the bracket depth their indentation suggests (0 when none; a tie-breaker
  for the ranking: of two repairs that differ in where a bracket goes, the
  one whose nesting matches the layout);
* :func:`layout_repairs` finds the lines where the depth stops agreeing
  with the indentation and tries, there, the single edits that restore it:
  insert an opener or a closer, delete a surplus one; and, in grammars
  whose strings may span lines, puts a lost quote back on the line of the
  string it left running on (:func:`quote_edits`); and where a text
  reads as cut off with one bracket open, deletes that bracket when it is
  written twice (:func:`_doubled_unclosed`).  The oracle checks every
  candidate.

Bracket pairs come from the grammar's syntax roles
(:func:`~inputmend.grammar.syntax.brackets_of`); text inside strings and
comments is skipped.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, RunStats
from inputmend.core.model import Edit, Repair, apply_edit, distance
from inputmend.core.oracle import Feedback, Oracle
from inputmend.grammar.syntax import Brackets
from inputmend.oracles.wrappers import metered

ALGORITHM = "layout"
TAB = 8  # a tab indents to the next multiple of this
POLL_LINES = 4096
"""Lines (or brackets) read between two looks at the budget (a whole-text
analysis of a megabyte takes a second or more, on one line too)."""


def _never() -> None:
    """A budget that never runs out."""


# ------------------------------------------------------------------- lines


@dataclass(frozen=True)
class Line:
    """A line with content: where its content starts and ends (before
    trailing blanks) and where its line break is, its indentation's width
    and the bracket depth of its content (brackets open before it, one less
    when it starts with a closer)."""

    content: int
    end: int
    newline: int
    indent: int
    depth: int


@dataclass(frozen=True)
class Layout:
    """The lines of a text and where its brackets are."""

    lines: tuple[Line, ...]
    brackets: tuple[tuple[int, str], ...]  # (offset, text), in order

    def brackets_in(self, start: int, end: int) -> list[tuple[int, str]]:
        low = bisect.bisect_left(self.brackets, (start, ""))
        high = bisect.bisect_left(self.brackets, (end, ""))
        return list(self.brackets[low:high])


_LINE = re.compile(r"([ \t]*)([^\r\n]*)(\r\n|\r|\n|\Z)")


def _content_end(line: re.Match[str]) -> int:
    """Where the content of a line of :data:`_LINE` ends, before its trailing
    blanks (a lazy pattern would try the line's end at every character)."""
    body = line.group(2)
    return line.end(2) - (len(body) - len(body.rstrip(" \t")))


def marks_of(
    text: str, brackets: Brackets, poll: Callable[[], None] = _never
) -> list[re.Match[str]]:
    """The brackets and hiding tokens of ``text`` (``brackets.finditer``),
    read once for the analyses of one text, which each need them
    (:func:`layout_of`, the rows of :func:`_closing_breaks`,
    :func:`_words_astray`, :func:`quote_edits`).  ``poll`` as in
    :func:`layout_edits`."""
    if poll is _never:
        return list(brackets.finditer(text))
    marks = []
    for count, match in enumerate(brackets.finditer(text)):
        if not count % POLL_LINES:
            poll()
        marks.append(match)
    return marks


def layout_of(
    text: str,
    brackets: Brackets,
    poll: Callable[[], None] = _never,
    unfinished: int | None = None,
    marks: list[re.Match[str]] | None = None,
) -> Layout:
    """The lines of ``text`` (lines that start inside a string or comment
    and blank lines left out; the end of the text as a last, empty line at
    indentation 0, where the depth should be 0 again) and its brackets.
    ``unfinished``: where a token that the end of the text cuts off starts
    on its last line (its brackets are not brackets, and the bracket
    pattern need not learn that by reading it to the end in vain; a string
    cut off over lines may be code after a lost quote, and is read as such).
    ``marks``: the text's :func:`marks_of` when read already (not with
    ``unfinished``, which reads less of it)."""
    found: list[tuple[int, str]] = []
    hidden: list[int] = []  # starts and ends of tokens that run over a line break
    if marks is None:
        marks = marks_of(text if unfinished is None else text[:unfinished], brackets, poll)
    for match in marks:
        kind = match.lastgroup
        if kind == "s":
            if "\n" in match.group() or "\r" in match.group():
                hidden += (match.start(), match.end())
        else:
            found.append((match.start(), match.group()))
    openers, closers = set(brackets.openers), set(brackets.closers)
    offsets = [offset for offset, _ in found]
    depths = [0, *itertools.accumulate(1 if b in openers else -1 for _, b in found)]
    lines: list[Line] = []
    size = len(text)
    for count, line in enumerate(_LINE.finditer(text)):
        if not count % POLL_LINES:
            poll()
        content, end = line.start(2), _content_end(line)
        if content == end or bisect.bisect_left(hidden, line.start()) % 2:
            if line.end() >= size:
                break
            continue  # blank, or it starts inside a string or comment
        index = bisect.bisect_left(offsets, content)
        # a line that starts with a closer is indented as the line of its opener
        leads = index < len(found) and offsets[index] == content and found[index][1] in closers
        indent = indentation_width(line.group(1))
        lines.append(Line(content, end, line.start(3), indent, depths[index] - leads))
        if line.end() >= size:
            break
    # the end of the text closes everything: a last line at no depth or indentation
    lines.append(Line(size, size, size, 0, depths[-1]))
    return Layout(tuple(lines), tuple(found))


def indentation_width(indentation: str) -> int:
    """The width of an indentation (a tab goes to the next multiple of :data:`TAB`)."""
    if "\t" not in indentation:
        return len(indentation)
    width = 0
    for char in indentation:
        width = (width // TAB + 1) * TAB if char == "\t" else width + 1
    return width


def _offsets(lines: tuple[Line, ...]) -> list[int]:
    """Each line's depth less the depth lines of its indentation mostly have."""
    by_indent: dict[int, Counter[int]] = {}
    for line in lines:
        by_indent.setdefault(line.indent, Counter())[line.depth] += 1
    usual = {indent: counts.most_common(1)[0][0] for indent, counts in by_indent.items()}
    return [line.depth - usual[line.indent] for line in lines]


def layout_agreement(text: str, brackets: Brackets) -> int:
    """How well the nesting of ``text`` agrees with its layout: 0 when every
    line sits at the bracket depth that lines of its indentation mostly have,
    its depth changes from the line before by as many levels as its
    indentation, and the brackets open at its start are those its
    indentation leaves open (:func:`_closing_breaks`); minus one for each line
    and rule where this does not hold (higher is better)."""
    marks = marks_of(text, brackets)
    layout = layout_of(text, brackets, marks=marks)
    lines = layout.lines
    return (
        -sum(offset != 0 for offset in _offsets(lines))
        - len(_level_breaks(lines))
        - len(_closing_breaks(text, layout, brackets, marks=marks))
        - _words_astray(text, brackets, marks)
    )


@dataclass(frozen=True)
class _Rows:
    """Every line of a text (blank ones and those inside strings too): where
    it starts, where its content starts and the width of its indentation,
    where its tail of closers, separators and a last comment starts, and
    whether it ends with an opener.  Computed once, so that a document on
    one long line costs no more than on many."""

    starts: list[int]
    contents: list[int]
    ends: list[int]  # where the content ends, before trailing blanks
    indents: list[int]
    tails: list[int]
    opening: list[bool]

    def of(self, offset: int) -> int:
        """The line of ``offset``."""
        return bisect.bisect_right(self.starts, offset) - 1

    def column(self, offset: int) -> int:
        """Where a line's indentation says the bracket opened at ``offset``
        is: its column, or the indentation of its line when the line ends
        with an opener (``{`` or ``"b": {"c": [`` ending a line open a block
        indented from the line, ``(foo`` a list indented from the
        parenthesis).  Tabs count as :data:`TAB` wide in the indentation,
        one column after it."""
        row = self.of(offset)
        if self.opening[row]:
            return self.indents[row]
        return self.indents[row] + max(0, offset - self.contents[row])


def _rows(
    text: str,
    brackets: Brackets,
    poll: Callable[[], None] = _never,
    marks: list[re.Match[str]] | None = None,
) -> _Rows:
    """The :class:`_Rows` of ``text`` (``marks``: its :func:`marks_of`, when read already)."""
    hidden: dict[int, int] = {}  # end -> start of strings and comments
    for match in brackets.finditer(text) if marks is None else marks:
        if match.lastgroup == "s":
            hidden[match.end()] = match.start()
    trailing = "".join(brackets.closers) + " \t,;"
    rows = _Rows([], [], [], [], [], [])
    for count, line in enumerate(_LINE.finditer(text)):
        if not count % POLL_LINES:
            poll()
        content, end = line.start(2), _content_end(line)
        rows.starts.append(line.start())
        rows.contents.append(content)
        rows.ends.append(end)
        rows.indents.append(indentation_width(line.group(1)))
        rows.opening.append(text[content:end].endswith(brackets.openers))
        tail = hidden.get(end, end) if hidden.get(end, -1) >= content else end
        rows.tails.append(content + len(text[content:tail].rstrip(trailing)))
        if line.end() >= len(text):
            break
    return rows


def _closing_breaks(
    text: str,
    layout: Layout,
    brackets: Brackets,
    poll: Callable[[], None] = _never,
    marks: list[re.Match[str]] | None = None,
) -> list[int]:
    """The lines whose indentation disagrees with the brackets open at their
    start, as a reader of indented code (and parinfer, for Lisp) takes them:
    a bracket opened on an earlier line stays open over the lines indented
    further than it is (:meth:`_Rows.column`), and the closers that end the line
    before or start this one close exactly the brackets at or right of this
    line's indentation.  A line breaks the rule when such a closer closed a
    bracket left of its indentation, or one at or right of it is still open;
    the line before breaks it when it closes a bracket of an earlier line
    and goes on (``(+ a 10)) 15)`` closing a ``(let`` two lines up: a form
    that spans lines ends with its last line), or closes what was not open.
    ``marks``: the text's :func:`marks_of`, when read already."""
    found = layout.brackets
    openers = set(brackets.openers)
    closer_chars = "".join(brackets.closers) + " \t"
    rows = _rows(text, brackets, poll, marks)
    stack: list[tuple[int, int]] = []  # the open brackets: (:meth:`_Rows.column`, offset)
    closed: list[int] = []  # the columns of the brackets the last closers closed
    index = 0
    breaks = []
    for k, line in enumerate(layout.lines):
        if not k % POLL_LINES:
            poll()
        content = text[line.content : line.end]
        lead_end = line.end - len(content.lstrip(closer_chars))  # after the leading closers
        broken = False
        while index < len(found) and found[index][0] < lead_end:
            offset, bracket = found[index]
            index += 1
            if bracket in openers:
                stack.append((rows.column(offset), offset))
                closed.clear()
            elif not stack:
                broken = True
            else:
                column, opened = stack.pop()
                row = rows.of(offset)
                if offset >= line.content or offset >= rows.tails[row]:
                    closed.append(column)  # it starts this line or ends the one before
                else:
                    closed.clear()
                    broken = broken or opened < rows.starts[row]
        if (k and lead_end < line.end) or k == len(layout.lines) - 1:
            indent = line.indent
            broken = broken or any(c < indent for c in closed) or any(c >= indent for c, _ in stack)
            closed.clear()
        if broken and k:
            breaks.append(k)
    return breaks


_WORDS = re.compile(r"\S+")
_WORD_START = frozenset("_-+*/<>=!?%&$:.@~^")


def _words_astray(text: str, brackets: Brackets, marks: list[re.Match[str]] | None = None) -> int:
    """Words out of their usual place at the start of brackets: words that
    mostly come first in their brackets (Lisp's ``(defun``, ``(fib``) where
    they do not, and words that come first after one opener where they
    mostly come after two (``((eq? x`` in a ``cond``) or the other way round
    (``((car x)`` where ``(car x)`` is usual); how many such places.  A lost
    ``(`` before ``fib 0)`` is put back there, a doubled one in ``((car`` is
    the one taken out.  Words the grammar's hints call ``heads`` (Lisp's
    ``define``, ``progn``) come first wherever the file uses them only
    once: ``(progn define a 10)`` lost the ``(`` before ``define``.  A word
    is text between blanks and brackets that starts with a letter, a digit
    or a symbol, not a string or a comment.  ``marks``: the text's
    :func:`marks_of`, when read already."""
    placed: tuple[list[str], list[str], list[str]] = ([], [], [])  # after 0, 1, 2+ openers
    openers = 0  # how many openers came right before
    position = 0
    read = brackets.finditer(text) if marks is None else marks
    for match in itertools.chain(read, (None,)):
        end = len(text) if match is None else match.start()
        words = _WORDS.findall(text, position, end)
        if match is not None:
            token = match.group()
            position = match.end()
            if match.lastgroup == "s" and (token[0].isalnum() or token[0] in _WORD_START):
                words.append(token)  # an atom the grammar's pattern finds
        if words:  # the openers before come right before its first word only
            placed[min(openers, 2)].append(words[0])
            placed[0].extend(words[1:])
            openers = 0
        if match is not None:
            openers = openers + 1 if match.lastgroup == "o" else 0
    other, single, double = (Counter(words) for words in placed)
    astray = 0
    heads = brackets.heads
    # a word never first in brackets is astray only as a head
    for word in {*other, *single, *double} if heads is not None else {*single, *double}:
        elsewhere, first = other[word], single[word] + double[word]
        head = first > elsewhere or (heads is not None and heads.fullmatch(word) is not None)
        astray += (elsewhere if head else 0) + min(single[word], double[word])
    return astray


# ----------------------------------------------------------------- repairs


def _level_breaks(lines: tuple[Line, ...]) -> list[int]:
    """The lines whose depth changes from the line before by another number
    of levels than their indentation (the distinct indentations of the
    text, in order, are its levels)."""
    indents = sorted({line.indent for line in lines})
    levels = {indent: level for level, indent in enumerate(indents)}
    return [
        k
        for k in range(1, len(lines))
        if lines[k].depth - lines[k - 1].depth
        != levels[lines[k].indent] - levels[lines[k - 1].indent]
    ]


def _breaks(lines: tuple[Line, ...]) -> list[int]:
    """The lines where the nesting stops agreeing with the layout: level
    breaks (:func:`_level_breaks`), then the lines where the depth leaves
    what lines of their indentation mostly have, those after which it stays
    there longest first."""
    found = dict.fromkeys(_level_breaks(lines))
    offsets = _offsets(lines)
    jumps = []
    for k in range(1, len(lines)):
        if offsets[k] != offsets[k - 1]:
            stays = k + 1
            while stays < len(lines) and offsets[stays] == offsets[k]:
                stays += 1
            jumps.append((k - stays, k))
    for _, k in sorted(jumps):
        found[k] = None
    return list(found)


def _surplus(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The brackets of a line that may be one too many: one written twice
    (:func:`_twice`), and the first and the last bracket of the line."""
    chosen = dict.fromkeys([found[0], found[-1]] if found else [])
    chosen.update(dict.fromkeys(_twice(text, found)))
    return list(chosen)


def _twice(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The brackets of ``found`` (in order) written twice: the second of two
    alike with only blanks between them (``[[``, ``} }``)."""
    return [
        (offset, second)
        for (start, first), (offset, second) in itertools.pairwise(found)
        if first == second and not text[start + len(first) : offset].strip()
    ]


_SEPARATORS = ",;"
"""What a line may end in after a closer: a list's or a statement's separator."""


FLAT_LINES = 8
"""A text of more lines than this whose indentation disagrees with its
nesting on most of them does not indent what it nests (a JSON array with
one unindented record per line): its indentation says nothing about where
a bracket went missing."""


def layout_edits(
    text: str,
    brackets: Brackets,
    *,
    openers: bool = True,
    poll: Callable[[], None] = _never,
    unfinished: int | None = None,
) -> Iterator[Edit]:
    """Single bracket edits where the nesting stops agreeing with the layout
    (:func:`_breaks`): insert a closer or an opener at the end of the line
    before (after its last character, before the separators it ends in, or
    after its trailing blanks, where a lost `` {`` leaves a blank) or at the
    start of the line, an opener at the
    start of the line before; or delete a bracket of the line before or of
    the closers the line starts with that may be one too many (:func:`_surplus`).
    First, the opener of the text's last bracket at its start where that
    closer is the only one no opener takes (:func:`_lost_first_opener`).
    Then, where the indentation says the line before closes too much or too
    little (:func:`_closing_breaks`), a bracket before or after each of its
    words (:func:`_inside`); in between, lost quotes (:func:`quote_edits`).
    Without ``openers``, no opener is inserted (a valid prefix that lacks its
    end cannot be made valid by opening more), and the bracket left open at
    the end goes when it is written twice (:func:`_doubled_unclosed`); on a
    single line, with no indentation to follow, that and (in a text of one
    line) the lost quotes are the only edits.  A
    text that does not indent what it nests (:data:`FLAT_LINES`) gets no
    edits from its indentation.  ``poll`` is called every
    :data:`POLL_LINES` lines while the whole text is read (it raises when
    the budget is spent).  ``unfinished``: see :func:`layout_of`."""
    whole = None if unfinished is not None else marks_of(text, brackets, poll)
    layout = layout_of(text, brackets, poll, unfinished, whole)
    lines = layout.lines
    doubled = [] if openers else _doubled_unclosed(text, layout, brackets)
    if not openers and len(lines) < 3:  # one line and the end
        yield from doubled
        if text.count("\n", 0, len(text.rstrip())) == 0:  # a text of one line
            # (a lost opening quote leaves it cut off)
            yield from quote_edits(text, brackets, whole)
        return
    closers = brackets.closers[::-1]  # shortest first
    inserted = brackets.openers[::-1] if openers else ()
    closing = _closing_breaks(text, layout, brackets, poll, whole)
    if len(closing) * 2 > len(lines) > FLAT_LINES:
        closing = []  # most lines disagree: the text does not indent what it nests
    breaks = [*closing, *_breaks(lines)]
    seen: set[Edit] = set()
    for edit in itertools.chain(
        doubled,
        _lost_first_opener(text, layout, brackets) if openers else (),
        _written_twice(text, layout, breaks),
        _edge_edits(text, layout, breaks, closers, inserted),
        quote_edits(text, brackets, whole),
        (edit for k in closing for edit in _inside(text, lines[k - 1], closers, inserted)),
    ):
        if edit not in seen:
            seen.add(edit)
            yield edit


def _lost_first_opener(text: str, layout: Layout, brackets: Brackets) -> list[Edit]:
    """The opener of the text's last bracket at its start, when that bracket
    is a closer no opener takes: a file of records that lost its first
    ``[`` (every record pairs up, the final ``]`` does not), which a search
    at the first error (the comma after the first record) cannot reach.
    On the text's first line when that is empty (where the lost bracket
    stood alone), else before its first character."""
    depth = 0
    for index, (_, bracket) in enumerate(layout.brackets):
        if bracket in brackets.openers:
            depth += 1
        elif depth:
            depth -= 1
        elif index < len(layout.brackets) - 1:
            return []  # a closer too many before the end: not lost at the start
        else:
            opener = brackets.openers[brackets.closers.index(bracket)]
            first_line = text[: text.find("\n") + 1] if "\n" in text else text
            at = 0 if not first_line.strip() else len(text) - len(text.lstrip())
            return [Edit(at, 0, opener)]
    return []


def _doubled_unclosed(text: str, layout: Layout, brackets: Brackets) -> list[Edit]:
    """Deleting the one bracket ``text`` leaves open at its end, when the
    same opener follows it (blanks between them allowed) and that one's form
    ends the text: ``((print x)`` is ``(print x)`` written with its ``(``
    twice, as ``{{a=1;}`` is ``{a=1;}``.  What the deleted bracket held is
    its twin's form alone, so nothing moves into or out of another form.
    Nothing when more than one bracket is left open (one edit cannot close
    them), when the bracket left open has no twin (``(let ((a 1)) (print a)``
    lost its last ``)``: deleting the ``(`` of ``((a`` would move
    ``(print a)`` out of the ``let``), or when more follows the twin's form
    (``((f x) y``: ``y`` would leave the form it is in)."""
    found = layout.brackets
    openers = set(brackets.openers)
    stack: list[int] = []
    closed_by: dict[int, int] = {}  # opener's index -> its closer's index
    for index, (_, bracket) in enumerate(found):
        if bracket in openers:
            stack.append(index)
        elif stack:
            closed_by[stack.pop()] = index
    if len(stack) != 1 or closed_by.get(stack[0] + 1) != len(found) - 1:
        return []
    (offset, bracket), (following, twin), (last, closer) = (
        found[stack[0]],
        found[stack[0] + 1],
        found[-1],
    )
    if twin != bracket or text[offset + len(bracket) : following].strip():
        return []
    if text[last + len(closer) :].strip():
        return []
    return [Edit(offset, len(bracket), "")]


def _written_twice(text: str, layout: Layout, breaks: list[int]) -> Iterator[Edit]:
    """Deleting a bracket written twice on the line before each of ``breaks``
    (:func:`_twice`), before any other edit there: a slip of the hand
    doubles a bracket where it stands, while the edits at a line's edges
    guess where a bracket went, and a long text has many breaks whose edges
    would use up the budget before the doubled bracket's turn came."""
    for k in dict.fromkeys(breaks):
        before = layout.lines[k - 1]
        for offset, bracket in _twice(text, layout.brackets_in(before.content, before.end)):
            yield Edit(offset, len(bracket), "")


def _edge_edits(
    text: str,
    layout: Layout,
    breaks: list[int],
    closers: tuple[str, ...],
    inserted: tuple[str, ...],
) -> Iterator[Edit]:
    """The edits of :func:`layout_edits` at the edges of the lines at ``breaks``."""
    lines = layout.lines
    for k in dict.fromkeys(breaks):
        before, line = lines[k - 1], lines[k]
        leading = []
        for offset, bracket in layout.brackets_in(line.content, line.end):
            if bracket not in closers or text[line.content : offset].strip(
                " \t" + "".join(closers)
            ):
                break
            leading.append((offset, bracket))
        yield from [
            *(
                Edit(at, 0, closer)
                for closer in closers
                for at in dict.fromkeys((before.end, _separated(text, before), line.content))
            ),
            *(
                Edit(at, 0, opener)
                for opener in inserted
                for at in dict.fromkeys((before.end, before.newline, before.content))
            ),
            *(Edit(at, 0, opener) for opener in inserted for at in (line.content,)),
            *(
                Edit(offset, len(bracket), "")
                for offset, bracket in _surplus(
                    text, layout.brackets_in(before.content, before.end)
                )
            ),
            *(Edit(offset, len(bracket), "") for offset, bracket in _surplus(text, leading)),
        ]


def _separated(text: str, line: Line) -> int:
    """Where ``line``'s content ends before the separators it ends in (a
    closer lost at the end of ``"jest"],`` goes before the comma)."""
    end = line.end
    while end > line.content and text[end - 1] in _SEPARATORS:
        end -= 1
    return end


def _inside(
    text: str, line: Line, closers: tuple[str, ...], openers: tuple[str, ...]
) -> Iterator[Edit]:
    """A closer after, an opener before each word of ``line`` (its pieces
    between blanks): where a bracket lost inside a line goes, when the line
    closes more or less than the next line's indentation says."""
    for word in _WORDS.finditer(text, line.content, line.end):
        for opener in openers:
            yield Edit(word.start(), 0, opener)
        for closer in closers:
            yield Edit(word.end(), 0, closer)


def quote_edits(
    text: str, brackets: Brackets, marks: list[re.Match[str]] | None = None
) -> Iterator[Edit]:
    """Where a lost quote goes back: for each string that runs over a line
    break and each quote that starts no string (it finds no partner), a
    quote inserted where a word on its line ends after it (its closing quote
    was lost: ``"~a~% (solve (read))))``) or begins before it (it is the
    closing quote of a string whose opening one was lost:
    ``(write-line Hello World")``).  Only for grammars whose strings may
    span lines: elsewhere the error is on the string's line anyway.
    ``marks``: the text's :func:`marks_of`, when read already."""
    if not brackets.quotes:
        return
    if marks is None:
        marks = list(brackets.finditer(text))
    suspects = []
    position = 0
    for match in itertools.chain(marks, (None,)):
        end = len(text) if match is None else match.start()
        suspects += [i for i in range(position, end) if text[i] in brackets.quotes]
        if match is None:
            break
        token = match.group()
        if token[0] in brackets.quotes and ("\n" in token or "\r" in token):
            suspects.append(match.start())
        position = match.end()
    if not suspects:
        return
    openers = "".join(brackets.openers)
    closers = "".join(brackets.closers)
    rows = _rows(text, brackets, marks=marks)
    seen: set[Edit] = set()
    for at in suspects:
        quote = text[at]
        row = rows.of(at)
        start, stop = rows.starts[row], max(at + 1, rows.ends[row])
        places = [
            i
            for i in range(at + 2, stop + 1)
            if not text[i - 1].isspace()
            and text[i - 1] not in closers
            and (i == stop or text[i].isspace() or text[i] in closers or text[i] in ",;")
        ]
        places += [
            i
            for i in range(start, at)
            if not text[i].isspace()
            and text[i] not in openers
            and (i == start or text[i - 1].isspace() or text[i - 1] in openers)
        ]
        for place in places:
            edit = Edit(place, 0, quote)
            if edit not in seen:
                seen.add(edit)
                yield edit


@dataclass(frozen=True)
class LayoutResult:
    """The layout edits the oracle accepted, and what checking them cost."""

    repairs: tuple[Repair, ...]
    stats: RunStats


def layout_repairs(
    text: str,
    oracle: Oracle,
    *,
    brackets: Brackets,
    incomplete: bool = False,
    unfinished: int | None = None,
    boundary: int | None = None,
    budget: Budget = UNLIMITED,
) -> LayoutResult:
    """Repairs of ``text`` by one bracket edit where its layout says the
    nesting went wrong (see :func:`layout_edits`), each checked by the
    oracle; ``incomplete``: the text is a valid prefix that lacks its end,
    ``unfinished``: see :func:`layout_of`.  ``boundary``: a place where the
    oracle is known to reject ``text[: boundary + 1]`` whatever follows it
    (its parse boundary); an edit after it keeps that prefix, so it is not
    checked (on a one-line record about half of the edits)."""
    checked, meter = metered(oracle, budget)
    repairs: list[Repair] = []
    try:
        edits = layout_edits(
            text, brackets, openers=not incomplete, poll=meter.poll, unfinished=unfinished
        )
        for edit in edits:
            if boundary is not None and edit.offset > boundary:
                continue
            candidate = apply_edit(text, edit)
            feedback = checked.check(candidate)
            if feedback.valid:
                repair = Repair(candidate, (edit,), ALGORITHM, True, distance(text, candidate))
                repairs.append(repair)
                continue
            for tried in _with_separators(edit, candidate, brackets, feedback):
                candidate = apply_edit(text, tried)
                if checked.check(candidate).valid:
                    repairs.append(
                        Repair(candidate, (tried,), ALGORITHM, True, distance(text, candidate))
                    )
                    break
    except BudgetExhausted:
        pass
    return LayoutResult(tuple(repairs), RunStats.of(meter))


def _with_separators(
    edit: Edit, candidate: str, brackets: Brackets, feedback: Feedback
) -> list[Edit]:
    """A closer followed by each separator, where the closer alone leaves
    the text (``candidate``, rejected as ``feedback`` says) rejected right
    after it: the next line starts a sibling of what it closed, and the
    separator between them was lost too (the line ``  },`` lost whole)."""
    if edit.delete or edit.insert not in brackets.closers:
        return []
    after = edit.offset + len(edit.insert)
    error = feedback.error_offset
    if error is None or error < after or candidate[after:error].strip():
        return []
    return [Edit(edit.offset, 0, edit.insert + separator) for separator in _SEPARATORS]
