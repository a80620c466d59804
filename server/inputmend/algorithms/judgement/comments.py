"""Criteria on text the repair turns into a comment: ``commented``,
``tail_commented`` and ``prose_commented``; closers a comment hides.
"""

from __future__ import annotations

import bisect
from collections import Counter

from inputmend.algorithms.judgement.state import AssessmentState
from inputmend.algorithms.judgement.text import OPENERS, within
from inputmend.core.loss import prose, significant
from inputmend.core.text import line_at
from inputmend.grammar.syntax import Brackets, brackets_of
from inputmend.grammar.tolerant import GrammarLexer, Lexeme, Role


class CommentCriteria(AssessmentState):
    """Text the repair turns into a comment: commented out, closers hidden, prose commented."""

    def _commented_out(self) -> tuple[list[int], list[int]]:
        """Input offsets of text that the repair turns into a comment: in a
        comment of the repaired text that the repair starts or lengthens, not
        in one of the input (``'it'#s'`` from ``'it's'``).  Text in a comment
        is no longer data.  A comment whose start is the input's, inside a
        token the input misread (a string a lost quote ran on over it), is
        read the other way round: its text was a comment all along.  Second,
        those of them in a comment that begins after other text on its line
        (the tail of a line hidden)."""
        offsets: list[int] = []
        trailing: list[int] = []
        original, mapping = self.original, self.mapping
        layout = Role.LAYOUT
        comments = [t for t in self.before if t.role is layout]
        starts = {t.start for t in comments}
        inside = {
            offset
            for t in comments
            if not self._hides_closer(t)
            for offset in range(t.start, t.end)
        }
        for lexeme in [t for t in self.after if t.role is layout]:
            added = set(within(self.inserted, lexeme.start, lexeme.end))
            repaired = self.repaired
            first = lexeme.start
            head = next((p for p in range(first, lexeme.end) if not repaired[p].isspace()), first)
            if first not in added and not {mapping.behind(first), mapping.behind(head)} & starts:
                # a layout lexeme that takes in the line break before the
                # comment (YAML's): the comment starts at its inserted marker;
                # one whose marker is text of an input token (``"//"`` cut
                # into ``""//"``) hides the input's tokens after that one
                first = min(
                    next((p for p in sorted(added) if not repaired[p].isspace()), lexeme.end),
                    self._past_token(head, lexeme.end, added),
                )
            # the text the comment takes in begins at its inserted marker or
            # where the input's layout ends, not at the start of a lexeme that
            # takes in the line break before it and the input's comment lines
            # (YAML's); it hides the tail of a line when text of the input,
            # not its comments, stands before it
            begin = next(
                (
                    p
                    for p in range(first, lexeme.end)
                    if not repaired[p].isspace() and (p in added or mapping.behind(p) not in inside)
                ),
                lexeme.end,
            )
            line = repaired.rfind("\n", 0, begin) + 1
            line_end = repaired.find("\n", begin, lexeme.end)
            tail = any(
                not repaired[p].isspace() and p not in added and mapping.behind(p) not in inside
                for p in range(line, begin)
            ) or any(
                # it takes in a comment the input begins later on the line:
                # the input wrote where that line's comment begins
                p not in added and mapping.behind(p) in starts
                for p in range(begin + 1, lexeme.end if line_end < 0 else line_end)
            )
            for position in range(first, lexeme.end):
                offset = mapping.behind(position)
                if position not in added and offset not in inside:
                    offsets.append(offset)
                    if tail:
                        trailing.append(offset)
        return (
            [offset for offset in offsets if not original[offset].isspace()],
            [offset for offset in trailing if not original[offset].isspace()],
        )

    def _past_token(self, head: int, end: int, added: set[int]) -> int:
        """Where, in a comment of the repaired text that ends at ``end``,
        the input's text after the input token that holds its marker (at
        ``head``, not inserted; ``added``: the comment's inserted positions)
        begins: a comment the repair starts at text of a string or a name
        (``""//"`` from ``"//"``) hides the tokens after that one, which the
        input read as its own (``end``: the marker is in no token, or in one
        the input misread as running on past the comment's end, a string
        that lost its closing quote, or in one glued to the data after it,
        ``"1 # every "Monday"``, whose quote may have ended it early)."""
        if head >= end:
            return end
        mapping = self.mapping
        offset = mapping.behind(head)
        index = next(
            (
                i
                for i, t in enumerate(self.before)
                if t.start <= offset < t.end and t.role is not Role.LAYOUT
            ),
            None,
        )
        if index is None:
            return end
        token = self.before[index]
        later = self.before[index + 1] if index + 1 < len(self.before) else None
        if later is not None and later.start == token.end and later.role is not Role.STRUCTURE:
            return end  # glued to the text after it: where it ends is in doubt
        return next(
            (p for p in range(head + 1, end) if p not in added and mapping.behind(p) >= token.end),
            end,
        )

    def _hides_closer(self, comment: Lexeme) -> bool:
        """Does the input's ``comment`` hold, on its line, the closer of a
        bracket opened before it on that line and not closed there
        (``[/dev/null #1]``, ``[a, b #1, c]``), and does the repaired text
        still read it as a comment (:meth:`_still_comment`)?  A comment
        cannot close the collection it stands in: its marker is text of a
        value that needed quotes, and a repair that closes the bracket
        before it, or after its line, leaves the rest of the line hidden as
        a comment, the input's closer with it.  Its text is read as data
        that the repair comments out.  The brackets are read as the
        grammar's bracket pattern reads them
        (:func:`~inputmend.grammar.syntax.brackets_of`: strings and
        comments hide them)."""
        lexer = self.judge.lexer
        brackets = brackets_of(lexer.grammar) if isinstance(lexer, GrammarLexer) else None
        original = self.original
        start = comment.start
        while start < comment.end and original[start].isspace():
            start += 1
        end = original.find("\n", start, comment.end)
        body = original[start : comment.end if end < 0 else end]
        if brackets is None or not body or not any(c in body for c in brackets.closers):
            return False
        line = original.rfind("\n", 0, start) + 1
        expected: list[tuple[str, ...]] = []  # the closers each open bracket may take
        for match in brackets.finditer(original[line:start]):
            if match.group("o") is not None:
                closer = OPENERS.get(match.group("o"))
                expected.append(brackets.closers if closer is None else (closer,))
            elif match.group("c") is not None and expected:
                expected.pop()
        return (
            bool(expected)
            and any(closer in body for closer in expected[-1])
            and self._still_comment(brackets, start)
        )

    def _still_comment(self, brackets: Brackets, start: int) -> bool:
        """Does the repaired text, read from the start of its line by the
        bracket pattern, begin a comment (a token that hides brackets) where
        the input's comment begins at ``start``?  A repair that quotes the
        value around the marker makes it a string's text."""
        repaired, position = self.repaired, self.mapping.start(start)
        if position >= len(repaired) or repaired[position] != self.original[start]:
            return False
        line = repaired.rfind("\n", 0, position) + 1
        end = repaired.find("\n", position)
        return any(
            match.group("s") is not None and line + match.start() == position
            for match in brackets.finditer(repaired[line : len(repaired) if end < 0 else end])
        )

    def _prose_commented(self) -> int:
        """Of the characters turned into a comment, those on lines of the
        input that the repair comments whole and that are prose
        (:func:`~inputmend.core.loss.prose`), holding no punctuation the
        lexer reads as structure: text the grammar could not read as
        written, which the loss rule does not count (it stays in the
        file, and hiding it hides no key or value)."""
        original, before = self.original, self.before
        lines: Counter[tuple[int, int]] = Counter()  # (start, end) -> characters commented
        line = (0, -1)
        for offset in sorted(self.commented):
            if offset >= line[1]:
                line = line_at(original, offset)
            lines[line] += offset not in self.trailing
        hidden = 0
        for (start, end), count in lines.items():
            text = original[start:end]
            if not count or count != significant(text) or not prose(text):
                continue
            first = max(0, bisect.bisect_right(self.before_starts, start) - 1)
            last = bisect.bisect_left(self.before_starts, end)
            if not any(t.role is Role.STRUCTURE and t.end > start for t in before[first:last]):
                hidden += count
        return hidden
