"""A closer that completion wrote in front of a refused token, put back on
the line where it was lost.

When a text closes a construct before one still open inside it is closed
(XML's ``</rss>`` while ``<channel>`` is open: the grammar's name check
refuses it), completion closes the inner one right there, in front of the
refused token and on its line (``</channel></rss>``); when the text ends
with it open, at the end, after the last line break (there only the first
place below is tried, whatever the line above it opened, and on the last
of the lines that hold only blanks before the end: a closer lost from the
end of a text leaves its line, emptied, before the text's final line
break; the text is not laid out further by this generator, except that
closers appended after a last line of content go, as far as that line
opened what they close, at the end of its text: ``<svg><path/>`` over the
final line break lost ``</svg>`` from its one line).  But in a text laid
out one construct per line the lost closer had a line of its own: often
its blanks are still there, on the line above.  So a completion's closer
inserted at the start of the refused token's line (after its blanks; an
insertion that ends with the characters before it is read as the same
insertion further left, ``channel></`` after ``</`` as ``</channel>``
before it), or at the end of the line above it (a completion that kept the
rest of the text), is proposed when the line above leaves open nothing it
opened (else the closer ends that line's own construct)

* at the end of the line above, when that line holds only blanks (the lost
  closer's own line, emptied), and then nowhere else: a line of its own
  beside the emptied one would add a line and leave the emptied one blank;
* else on a line of its own above the refused token's, indented halfway
  between that line and the last line above with text (one level in from
  the one, one out from the other), then as either of them.

Completion also joins the lines it closes (``</a></b></c>`` in place of
three lines): it deletes the blanks between them.  Read without those
deletions, a completion is what it inserts: the completion with the
blanks it deleted kept is proposed (the closer at the end of the line
where the open construct's text ends: ``<title>text`` then ``</title>``
there, not one line down), and when what it inserts is one closer, the
closer goes to the places above.  And since a lost closer's line, emptied,
stays where the closer was, which need not be right above the refused
token (the construct went on to hold more after it, which its parent's
closer refused), the closer is proposed too in each of the
:data:`BLANK_LINES` nearest runs of lines above the error's that hold
only blanks (not in a text cut off: its end is not laid out).  In a run
of blank lines a closer goes on the first: it ends the content above it,
and the blank lines after it part that from what follows.

A lost closer whose line went with it leaves the indentation to say where
it was: what a construct holds is indented deeper than the line that
opened it, so the construct ended before the first line below that is
indented no deeper (a sibling, ``<family>Minion Math <!-- Adobe -->``
over ``<family>Lucida Math</family>``), at the end of the text of the
line above that one, its trailing comment left after it.  The closer is
proposed there (for the :data:`ENDED_LINES` first such lines; only where
the grammar refused a token, not in a text cut off), and when such a line
comes before the error's, not on a line of its own in front of the
refused token, which the layout contradicts.

A text that does not part its constructs by lines (``<svg><path d="1">``
``<path d="2"></path></svg>`` on one line, one path's ``</path>`` lost)
shows no line for the closer: it may go between any two of the children
of the construct it ends, or right after that construct's opener, each
giving other data.  Those places on the error's line are proposed
(:data:`CHILD_PLACES` of them, nearest first, read back over at most
:data:`CHILD_TOKENS` tokens): before each token where the grammar
completes the text with the closer first, back to the construct's opener.
The ranking weighs them, the document's way of writing such elements
among the rest (:mod:`~inputmend.algorithms.endtags`).

The oracle checks every proposal; only blanks and the closer change.  Of
the indentations of one line of its own, the first the oracle accepts is
proposed: its layout is this generator's choice, which the ranking has no
ground to make.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import replace

from inputmend.algorithms.completion import ALGORITHM as COMPLETION_ALGORITHM
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.core.oracle import Verdict
from inputmend.core.text import common_prefix, leading_blanks, line_at, line_start
from inputmend.grammar.tolerant import Role
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator, verified

ALGORITHM = "closer-line"

BLANK_LINES = 3
"""How many runs of lines that hold only blanks above an error's line, the
nearest first, a closer is proposed in (each one oracle run)."""


def _line(text: str, start: int) -> str:
    """The text of the line that starts at ``start``, without its line break
    (not a copy of the rest of the text: these are read line by line)."""
    return text[start : line_at(text, start)[1]]


def line_leading(text: str, edit: Edit) -> str | None:
    """What ``edit`` inserts, when it is an insertion that can be read as one
    at the start of its line's content (after the line's blanks): the text
    inserted there; else None."""
    if edit.delete or not edit.insert:
        return None
    start = line_start(text, edit.offset)
    content = start + len(leading_blanks(_line(text, start)))
    inserted, at = edit.insert, edit.offset
    while at > content and text[at - 1] == inserted[-1]:
        inserted, at = inserted[-1] + inserted[:-1], at - 1
    return inserted if at == content else None


def _in_front(text: str, edit: Edit, content: int) -> bool:
    """Is ``edit`` an insertion with only blanks between it and ``content``?"""
    return not edit.delete and bool(edit.insert) and not text[edit.offset : content].strip()


def proposals(text: str, at: int, closer: str, *, own_line: bool) -> Iterator[tuple[Edit, ...]]:
    """Places for ``closer``, lost before the content of the line at ``at``
    (see the module's docstring), best first; on a line of its own only when
    ``own_line``."""
    start = line_start(text, at)
    own = text[start:at]
    if start == 0:
        return
    above_end = start - 1  # the line break that ends the line above
    above_start = line_start(text, above_end)
    above = text[above_start:above_end]
    ending = "\r\n" if above.endswith("\r") else "\n"
    above = above.removesuffix("\r")
    if not above.strip():
        # at the end of the text, the last line of blanks: what the closer's
        # line, emptied, left before the text's final line break
        last = not text[at:].strip()
        place = above_start + len(above) if last else _run_top(text, above_start)
        yield (Edit(place, 0, closer),)
        return
    if not own_line:
        return
    outer = leading_blanks(above)
    indents = [own, outer]
    if outer.startswith(own) and len(outer) > len(own) and (len(outer) - len(own)) % 2 == 0:
        indents.insert(0, own + outer[len(own) : len(own) + (len(outer) - len(own)) // 2])
    for indent in dict.fromkeys(indents):
        yield (Edit(start, 0, indent + closer + ending),)


def layout_kept(text: str, edits: tuple[Edit, ...]) -> tuple[Edit, ...] | None:
    """``edits`` with the blanks they delete kept (what they insert, where
    they insert it), when they delete nothing but blanks; else None."""
    kept: list[Edit] = []
    for edit in edits:
        if edit.delete and not text[edit.offset : edit.end].isspace():
            return None
        if edit.insert:
            kept.append(Edit(edit.offset, 0, edit.insert))
    return tuple(kept)


def one_insertion(text: str, edits: tuple[Edit, ...]) -> Edit | None:
    """The one insertion that ``edits`` (insertions) amount to, if they do:
    put after a blank or the start of the text where it can be read so
    (``_hits></Iteration`` inserted into ``</Iteration>`` is
    ``</Iteration_hits>`` before it), else as far right as it goes."""
    if not edits:
        return None
    changed = apply_edits(text, edits)
    grown = len(changed) - len(text)
    at = common_prefix(text, changed)
    if grown <= 0 or changed[at + grown :] != text[at:]:
        return None
    inserted = changed[at : at + grown]
    rotated, where = inserted, at
    while where > 0 and text[where - 1] == rotated[-1]:
        rotated, where = rotated[-1] + rotated[:-1], where - 1
        if where == 0 or text[where - 1].isspace():
            return Edit(where, 0, rotated)
    return Edit(at, 0, inserted)


def _blank(text: str, start: int) -> str | None:
    """The line at ``start`` (without its line break), if it holds only blanks."""
    end = text.find("\n", start)
    line = text[start : len(text) if end < 0 else end].removesuffix("\r")
    return None if line.strip() else line


def _run_top(text: str, start: int) -> int:
    """Where a closer goes in the run of blank lines that holds the line at
    ``start``: at the end of its first line, right after the content above
    (a closer ends what it closes; the blank lines after it part that from
    what follows)."""
    while start > 0 and _blank(text, line_start(text, start - 1)) is not None:
        start = line_start(text, start - 1)
    line = _blank(text, start)
    return start + (0 if line is None else len(line))


def blank_lines(text: str, before: int) -> Iterator[int]:
    """Where a closer goes in the runs of lines that hold only blanks above
    the line at ``before`` (:func:`_run_top`), nearest first, at most
    :data:`BLANK_LINES` runs."""
    found = 0
    start = line_start(text, before)
    while start > 0 and found < BLANK_LINES:
        start = line_start(text, start - 1)
        if _blank(text, start) is not None:
            found += 1
            at = _run_top(text, start)
            yield at
            start = line_start(text, at)


def _placed(context: RepairContext, found: tuple[Repair, ...]) -> Iterator[tuple[Edit, ...]]:
    """The places for the closers of the completions ``found`` (none when the
    text is valid or its error is unknown)."""
    text = context.text
    error = context.feedback.error_offset
    if context.feedback.verdict is Verdict.COMPLETE or error is None:
        return
    error_line = line_start(text, error)
    content = error_line + len(leading_blanks(_line(text, error_line)))
    laid_out = content < len(text)  # not a text cut off

    # what depends on the error's place alone, asked of the grammar once
    # and only when a completion needs it
    @functools.cache
    def ended() -> tuple[tuple[int, int], ...]:
        # a closer the grammar refused, not a text cut off: its end is not laid out
        refused = context.feedback.verdict is Verdict.INCORRECT
        return _ended_by_indentation(context, error_line) if laid_out and refused else ()

    @functools.cache
    def own_line_allowed() -> bool:
        return (
            error_line > 0
            and not any(line < error_line for line, _ in ended())
            and _closes_earlier(context, _content_end_above(text, error_line))
            and not _opened_before_content(context, error_line)
        )

    @functools.cache
    def emptied_lines() -> tuple[int, ...]:
        return tuple(
            end
            for end in blank_lines(text, error)
            if _closes_earlier(context, _content_end_above(text, line_start(text, end)))
        )

    walked = False  # between the children of the construct a completion's closer ends
    for repair in found:
        if repair.algorithm != COMPLETION_ALGORITHM:
            continue
        kept = layout_kept(text, repair.edits)
        if kept is None:
            continue
        if kept != repair.edits:
            yield kept
        edit = one_insertion(text, kept)
        if edit is None:
            continue
        closer = line_leading(text, edit)
        own_line: bool | None = None
        if closer is not None and line_start(text, edit.offset) == error_line:
            own_line = laid_out
        elif _in_front(text, edit, content) and edit.offset < error_line:
            closer, own_line = edit.insert, True  # closed at the end of the line above
        if own_line is not None and (not own_line or own_line_allowed()):
            yield from proposals(text, content, closer or edit.insert, own_line=own_line)
        if not laid_out and edit.offset == len(text):
            known = {other.text for other in found}  # completion's own, before the break
            for edits in _on_last_line(context, edit.insert):
                if apply_edits(text, edits) not in known:
                    yield edits
        if laid_out:
            for end in emptied_lines():
                yield (Edit(end, 0, closer or edit.insert),)
            for _, place in ended():
                if place < edit.offset:
                    yield (Edit(place, 0, closer or edit.insert),)
            walked = True
            for place, head in _between_children(context, error, kept):
                yield (Edit(place, 0, head),)
    if laid_out and not walked:
        for place, head in _between_children(context, error, None):
            yield (Edit(place, 0, head),)


CHILD_TOKENS = 256
"""Tokens of the error's line read back for the places between the
children of the construct a closer ends (each a parse of the text before
it: a bound on work)."""

CHILD_PLACES = 6
"""Places between those children, the nearest first, a closer is proposed
at (each one oracle run)."""


def _between_children(
    context: RepairContext, error: int, edits: tuple[Edit, ...] | None
) -> Iterator[tuple[int, str]]:
    """Where else on the error's line the closer that completion put in
    front of the refused token (``edits``: the head of the grammar's
    completion there, inserted before that token, or at the error inside
    it; None when completion put none there, the text refused with that
    closer too: then the closing bracket the grammar's completion begins
    with, ``]`` of ``{"tags": ["a", "b", "count": 2}``) may go: before each token of
    that line back to the start of the construct it ends, where the
    grammar completes the text with that closer first (between two of the
    construct's children, or right after its opener), nearest first, as
    (the place, the closer).  A text that does not part its constructs by
    lines (``<svg><path d="1"><path d="2"></path></svg>``: one of the paths
    lost its ``</path>``) shows no line for the closer's place; each place
    between the children gives other data, and the ranking weighs them
    (the document's own way of writing such elements among others).  The
    walk stops where the completion is shorter than at the error, a tail
    of it: before the construct's opener."""
    locator = context.locator
    text = context.text
    if locator is None or context.feedback.verdict is not Verdict.INCORRECT:
        return
    start = line_start(text, error)
    tokens = context.guidance.lexer.lex(text, start, error + 1)
    refused = tokens[-1].start if tokens and tokens[-1].start < error else error
    inside = locator.completion(text[:refused])
    if not inside:
        return
    if edits is None:
        brackets = context.syntax.brackets
        closers = [] if brackets is None else [c for c in brackets.closers if inside.startswith(c)]
        if not closers:
            return
        head = max(closers, key=len)
        completed = None
    else:
        head = inside[: sum(len(edit.insert) for edit in edits)]
        completed = apply_edits(text, edits)
        if apply_edits(text, (Edit(refused, 0, head),)) != completed:
            return  # not the completion's head in front of the refused token
    found = 0
    for token in reversed(tokens[-CHILD_TOKENS:]):
        if token.start >= refused or token.start <= start:
            continue
        before = locator.completion(text[: token.start])
        if before is None:
            continue
        if len(before) < len(inside) and inside.endswith(before):
            return
        if (
            before.startswith(head)
            and apply_edits(text, (Edit(token.start, 0, head),)) != completed
        ):
            yield token.start, head
            found += 1
            if found == CHILD_PLACES:
                return


def _on_last_line(context: RepairContext, closers: str) -> Iterator[tuple[Edit, ...]]:
    """``closers``, appended after the last line break of a text that ends
    with a line of content and its line break (not a new line begun, which
    the closers end), split where that line began: the closers of what the
    line opened go at the end of its text (``<svg ...><path .../>`` over
    the final line break: ``</svg>`` lost from the end of its one line, not
    from a line of its own below), the rest stay at the end.  The part is
    what the grammar completes the text with at the end that it does not at
    the start of that line."""
    text, locator = context.text, context.locator
    end = _content_end_above(text, len(text))
    if locator is None or end == 0 or text[end:] not in ("\n", "\r\n"):
        return  # not one line break after it: blank lines, or a line begun
    start = line_start(text, end)
    before = "" if start == 0 else locator.completion(text[:start])
    if before is None or len(before) >= len(closers) or not closers.endswith(before):
        return
    edits = (Edit(_text_end(context, end), 0, closers[: len(closers) - len(before)]),)
    yield edits + ((Edit(len(text), 0, before),) if before else ())


def _content_end_above(text: str, line: int) -> int:
    """Where the last line with text above the line that starts at ``line``
    ends (0 when there is none)."""
    end = line - 1
    while end > 0:
        start = line_start(text, end)
        if text[start:end].strip():
            return end
        end = start - 1
    return 0


OPENER_LINES = 64
"""Lines read upwards for the one that opened the construct a closer ends."""


def _opened_before_content(context: RepairContext, error_line: int) -> bool:
    """Was the construct open at the error's line (the innermost, which a
    lost closer ends) opened on a line that goes on with its content
    (``<plant>Columbine``: its end tag belongs after that content, not on a
    line of its own below the elements that follow)?  The opening line is
    the nearest above where the grammar completes the text with that
    construct's closer less; its content goes on when the grammar completes
    the text before the line's last token as after it."""
    locator = context.locator
    start = _opening_line(context, error_line)
    if locator is None or start is None:
        return False
    text = context.text
    inside = locator.completion(text[:error_line])
    end = start + len(_line(text, start).rstrip())
    last = locator.last_token_start(text[:end])
    return last is not None and last > start and locator.completion(text[:last]) == inside


def _opening_line(context: RepairContext, error_line: int) -> int | None:
    """Where the line that opened the construct open at the error's line
    (the innermost) starts: the nearest above where the grammar completes
    the text with that construct's closer less (None: not within
    :data:`OPENER_LINES` lines)."""
    locator = context.locator
    text = context.text
    if locator is None:
        return None
    inside = locator.completion(text[:error_line])
    start = error_line
    for _ in range(OPENER_LINES):
        if start == 0 or inside is None:
            return None
        start = line_start(text, start - 1)
        before = locator.completion(text[:start])
        if before is not None and len(before) < len(inside) and inside.endswith(before):
            return start
    return None


ENDED_LINES = 2
"""Lines no deeper than the one that opened a construct, the nearest first,
before which a closer is proposed (each one oracle run)."""


def _ended_by_indentation(context: RepairContext, error_line: int) -> tuple[tuple[int, int], ...]:
    """Where the indentation says the construct open at the error's line
    ended: before a line below the one that opened it (from the next one
    to the error's) indented no deeper than that one, at the end of the
    text on the line above it, its trailing comments and blanks left
    after; the first :data:`ENDED_LINES` such lines, each as (where that
    line starts, the place).  One above the error's line says the closer
    has no line of its own before the error's.  In a text laid out one construct a
    line, what the construct holds is indented deeper than its opening
    line (``<family>Minion Math <!-- Adobe -->`` then a sibling
    ``<family>`` under it: the end tag lost after ``Math``).  The first
    such line may still close an inner construct the opening line opened
    too (``<a><b>`` over ``</b>``): the oracle refuses that place.  Not
    where that construct is a string or a comment: its lines are text."""
    text = context.text
    opening = _opening_line(context, error_line)
    locator = context.locator
    if opening is None or locator is None:
        return ()
    inside, before = locator.completion(text[:error_line]), locator.completion(text[:opening])
    closer = (inside or "")[: len(inside or "") - len(before or "")]
    if any(quote in closer for quote in _quotes(context)):
        return ()  # a string's lines are its text, not laid out
    width = len(leading_blanks(_line(text, opening)))
    places: list[tuple[int, int]] = []
    start = opening
    while start < error_line and len(places) < ENDED_LINES:
        start = text.find("\n", start) + 1
        if start == 0:
            break
        line = _line(text, start)
        if line.strip() and len(leading_blanks(line)) <= width:
            places.append((start, _text_end(context, _content_end_above(text, start))))
    return tuple(places)


def _quotes(context: RepairContext) -> tuple[str, ...]:
    """The quotes of the grammar's strings, and the ends of its block comments."""
    syntax = context.syntax
    brackets = () if syntax.brackets is None else syntax.brackets.quotes
    strings = tuple(string.quote for string in syntax.strings)
    return (*brackets, *strings, *(end for _, end in syntax.comments.block))


def _text_end(context: RepairContext, end: int) -> int:
    """Where the text of the line that ends at ``end`` ends: before the
    comments and blanks at its end."""
    text = context.text
    start = line_start(text, end)
    tokens = context.guidance.lexer.lex(text, start, end)
    while tokens and tokens[-1].role is Role.LAYOUT:
        end = tokens[-1].start
        tokens = tokens[:-1]
    return start + len(text[start:end].rstrip())


def _closes_earlier(context: RepairContext, offset: int) -> bool:
    """Does the line that ends at ``offset`` (the last with text above the
    error's) leave open nothing it opened: the grammar completes the text up
    to its end with the end of what completes it up to its start (the line
    opens nothing, or closes what earlier lines opened: ``</tr>``)?  Then a
    closer lost before the error's line closes a construct of an earlier
    line, and may have a line of its own; else it ends that line's own
    (``<b lang="fr"`` lacks ``/>`` at its end).  Comparing completions
    tells the ends of constructs from the ends of tokens only when both
    are whole: ``></kcfg>`` after ``  </group`` ends ``</group></kcfg>``
    too.  So the line must also end where the text below it may go on
    (the first character after the blanks that follow it): a line that
    ends inside a construct of its own (``</group`` lacks its ``>``) leaves
    no room for the ``<`` of the next tag, one that ends where a construct
    of an earlier line may close does (``"target": "es5"`` before ``}``)."""
    locator = context.locator
    if locator is None:
        return False
    text = context.text
    start = line_start(text, offset)
    before, after = (
        locator.completion(text[:start]),
        locator.completion(text[:offset]),
    )
    if before is None or after is None or not before.endswith(after):
        return False
    below = len(text) - len(text[offset:].lstrip())
    following = text[below : below + 1]
    return not following or bool(locator.continuations(text[:below], following))


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    places = _placed(context, found)
    checked = verified(context.text, context.oracle, places, algorithm=ALGORITHM, budget=budget)
    # of the indentations of one closer's line, the first the oracle accepts:
    # layout this generator chooses, which the ranking cannot tell apart
    first: dict[tuple[int, str], Repair] = {}
    for repair in checked.repairs:
        edit = repair.edits[0]
        if len(repair.edits) == 1:
            first.setdefault((edit.offset, edit.insert.strip()), repair)
        else:  # a completion with its blanks kept: no line of its own
            first.setdefault((-1, repair.text), repair)
    return replace(checked, repairs=tuple(first.values()))


def has_places(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth running when completion wrote a closer at the start of the
    error's line that may go elsewhere."""
    return next(_placed(context, found), None) is not None


CLOSERS = Generator(ALGORITHM, 1, _run, has_places, breaks_ties=True)
