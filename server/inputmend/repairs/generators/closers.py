"""A closer that completion wrote in front of a refused token, put back on
the line where it was lost.

When a text closes a construct before one still open inside it is closed
(XML's ``</rss>`` while ``<channel>`` is open: the grammar's name check
refuses it), completion closes the inner one right there, in front of the
refused token and on its line (``</channel></rss>``); when the text ends
with it open, at the end, after the last line break (there only the first
place below is tried: a text cut off is not laid out by this generator).  But in a text laid
out one construct per line the lost closer had a line of its own: often
its blanks are still there, on the line above.  So a completion's closer
inserted at the start of the refused token's line (after its blanks; an
insertion that ends with the characters before it is read as the same
insertion further left, ``channel></`` after ``</`` as ``</channel>``
before it), or at the end of the line above it (a completion that kept the
rest of the text), is proposed when the line above leaves open nothing it
opened (else the closer ends that line's own construct)

* at the end of the line above, when that line holds only blanks (the lost
  closer's own line, emptied);
* on a line of its own above the refused token's, indented halfway between
  that line and the last line above with text (one level in from the one,
  one out from the other), then as either of them.

The oracle checks every proposal; only blanks and the closer change.  Of
the indentations of one line of its own, the first the oracle accepts is
proposed: its layout is this generator's choice, which the ranking has no
ground to make.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from inputmend.algorithms.completion import ALGORITHM as COMPLETION_ALGORITHM
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.core.oracle import Verdict
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator, verified

ALGORITHM = "closer-line"


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def line_leading(text: str, edit: Edit) -> str | None:
    """What ``edit`` inserts, when it is an insertion that can be read as one
    at the start of its line's content (after the line's blanks): the text
    inserted there; else None."""
    if edit.delete or not edit.insert:
        return None
    start = _line_start(text, edit.offset)
    content = start + len(_indent(text[start:]))
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
    start = _line_start(text, at)
    own = text[start:at]
    if start == 0:
        return
    above_end = start - 1  # the line break that ends the line above
    above_start = _line_start(text, above_end)
    above = text[above_start:above_end]
    ending = "\r\n" if above.endswith("\r") else "\n"
    above = above.removesuffix("\r")
    if not above.strip():
        yield (Edit(above_start + len(above), 0, closer),)
    if not own_line:
        return
    while not above.strip() and above_start > 0:  # the last line above with text
        above_end = above_start - 1
        above_start = _line_start(text, above_end)
        above = text[above_start:above_end].removesuffix("\r")
    outer = _indent(above)
    indents = [own, outer]
    if outer.startswith(own) and len(outer) > len(own) and (len(outer) - len(own)) % 2 == 0:
        indents.insert(0, own + outer[len(own) : len(own) + (len(outer) - len(own)) // 2])
    for indent in dict.fromkeys(indents):
        yield (Edit(start, 0, indent + closer + ending),)


def _placed(context: RepairContext, found: tuple[Repair, ...]) -> Iterator[tuple[Edit, ...]]:
    """The places for the closers of the completions ``found`` (none when the
    text is valid or its error is unknown)."""
    text = context.text
    error = context.feedback.error_offset
    if context.feedback.verdict is Verdict.COMPLETE or error is None:
        return
    error_line = _line_start(text, error)
    content = error_line + len(_indent(text[error_line:]))
    for repair in found:
        if repair.algorithm != COMPLETION_ALGORITHM or len(repair.edits) != 1:
            continue
        edit = repair.edits[0]
        closer = line_leading(text, edit)
        if closer is not None and _line_start(text, edit.offset) == error_line:
            own_line = content < len(text)
        elif _in_front(text, edit, content) and edit.offset < error_line:
            closer, own_line = edit.insert, True  # closed at the end of the line above
        else:
            continue
        if error_line and _closes_earlier(context, _content_end_above(text, error_line)):
            yield from proposals(text, content, closer, own_line=own_line)


def _content_end_above(text: str, line_start: int) -> int:
    """Where the last line with text above the line at ``line_start`` ends
    (0 when there is none)."""
    end = line_start - 1
    while end > 0:
        start = _line_start(text, end)
        if text[start:end].strip():
            return end
        end = start - 1
    return 0


def _closes_earlier(context: RepairContext, offset: int) -> bool:
    """Does the line that ends at ``offset`` (the last with text above the
    error's) leave open nothing it opened: the grammar completes the text up to its
    end as up to its start?  Then a closer lost before the error's line
    closes a construct of an earlier line, and may have a line of its own;
    else it ends that line's own (``<b lang="fr"`` lacks ``/>`` at its
    end)."""
    locator = context.locator
    if locator is None:
        return False
    start = _line_start(context.text, offset)
    before, after = (
        locator.completion(context.text[:start]),
        locator.completion(context.text[:offset]),
    )
    return before is not None and before == after


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    places = _placed(context, found)
    checked = verified(context.text, context.oracle, places, algorithm=ALGORITHM, budget=budget)
    # of the indentations of one closer's line, the first the oracle accepts:
    # layout this generator chooses, which the ranking cannot tell apart
    first: dict[tuple[int, str], Repair] = {}
    for repair in checked.repairs:
        (edit,) = repair.edits
        first.setdefault((edit.offset, edit.insert.strip()), repair)
    return replace(checked, repairs=tuple(first.values()))


def has_places(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth running when completion wrote a closer at the start of the
    error's line that may go elsewhere."""
    return next(_placed(context, found), None) is not None


CLOSERS = Generator(ALGORITHM, 1, _run, has_places, breaks_ties=True)
