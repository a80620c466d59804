"""Criteria on lines and records: values ``continued`` onto a line or
emptied at a line's end (``invented``), blanks ``absorbed``, and a table's
records ``misshapen``, ``misplaced`` or ``unaligned``.
"""

from __future__ import annotations

import bisect
import itertools

from inputmend.algorithms.fieldforms import matched_values
from inputmend.algorithms.judgement.columns import field_values, records_of
from inputmend.algorithms.judgement.state import AssessmentState
from inputmend.algorithms.judgement.text import (
    BLOCK_HEADER,
    BRACKETS,
    data_before,
    deeper_after,
    indent_width,
    item_above,
    within,
)
from inputmend.core.text import line_start
from inputmend.grammar.tolerant import Lexeme, Role


class LayoutCriteria(AssessmentState):
    """Lines and records: values continued or emptied, blanks absorbed,
    records misshapen or misplaced."""

    def _holding(self) -> list[Lexeme]:
        """The repaired values (data of three characters or more) that hold an
        inserted character, found once, in one search each: only there can
        the repair put back a string's lost quote (:meth:`_restore`) or leave
        a blank at a value's edge (:meth:`_absorbed`), and most values of a
        long window hold none."""
        if self._held is None:
            inserted, size = self.inserted, len(self.inserted)
            self._held = []
            for lexeme in self.after:
                if lexeme.role is Role.DATA and lexeme.end - lexeme.start >= 3:
                    index = bisect.bisect_left(inserted, lexeme.start)
                    if index < size and inserted[index] < lexeme.end:
                        self._held.append(lexeme)
        return self._held

    def _continued(self) -> int:
        """Lines of one data token, kept, that the repair indents deeper than
        the line above, or than its first value (a key after YAML's ``- ``),
        where it was not, and the line above ends in a value after its
        punctuation, not a block scalar's header: the line continues that
        value (see ``changed``).  The
        blanks inserted may lie anywhere in the line's indentation: where
        among equal blanks an edit script puts them says nothing."""
        count = 0
        repaired, after = self.repaired, self.after
        starts = self.after_starts
        if not starts:
            return 0
        # a run on a line before the window's first lexeme, or after its
        # last lexeme's start, has no token of the window on its line
        first_line = repaired.rfind("\n", 0, starts[0]) + 1
        for start, end in self.inserted_runs.overlapping(first_line - 1, starts[-1]):
            line = repaired.rfind("\n", 0, start) + 1
            if line == 0 or repaired[line:end].strip(" \t"):
                continue
            stop = repaired.find("\n", end)
            stop = len(repaired) if stop < 0 else stop
            first = bisect.bisect_left(starts, end)
            # one data token, the input's, and nothing else but layout
            token = after[first] if first < len(after) else None
            if (
                token is None
                or token.start >= stop
                or token.role is not Role.DATA
                or id(token) not in self.covers
                or data_before(after, first + 1, stop)
            ):
                continue
            above = repaired.rfind("\n", 0, line - 1) + 1
            while above and not repaired[above : line - 1].strip():
                above = repaired.rfind("\n", 0, above - 1) + 1
            head = bisect.bisect_left(starts, above)
            previous = [t for t in after[head:first] if t.role is not Role.LAYOUT]
            if (
                len(previous) < 2
                or previous[-1].role is not Role.DATA
                or previous[-2].role is not Role.STRUCTURE
                or BLOCK_HEADER.match(previous[-1].value) is not None
            ):
                continue
            # the line now starts right of a column where a node of the line
            # above starts, and did not: its indentation, or its first value
            # (a key after YAML's `- `)
            indent = indent_width(repaired[line:stop])
            key = next(t.start for t in previous if t.role is Role.DATA) - above
            count += any(
                indent > upper >= indent - (end - start)
                for upper in (indent_width(repaired[above : line - 1]), key)
            )
        return count

    def _emptied(self) -> int:
        """Lines of one data token that the repair ends with punctuation it
        inserts, no deeper line after them, where the input ends no sibling
        with that punctuation (see ``invented``): names of empty values, but
        for the field separator of a format whose records have the header's
        number of fields (a record of one value given its second, empty);
        and lines of one data token joined to the next by punctuation put
        in place of their line break (:meth:`_joins_lines`).  Adds to
        :attr:`phrase` the words of each such token beyond the first, with
        or without a value below: a phrase made a name."""
        count = 0
        repaired, after, starts = self.repaired, self.after, self.after_starts
        if not starts:
            return 0
        # only a lexeme that starts inside an inserted run can be inserted
        # whole: a run of the window's stretch of the repaired text
        candidates = (
            index
            for start, end in self.inserted_runs.overlapping(starts[0], starts[-1])
            for index in range(bisect.bisect_left(starts, start), bisect.bisect_left(starts, end))
        )
        for index in candidates:
            lexeme = after[index]
            if (
                index == 0
                or lexeme.role is not Role.STRUCTURE
                or not lexeme.value.strip()
                or BRACKETS.intersection(lexeme.value)
                or len(within(self.inserted, lexeme.start, lexeme.end))
                != lexeme.end - lexeme.start
            ):
                continue
            end = repaired.find("\n", lexeme.end)
            end = len(repaired) if end < 0 else end
            word = after[index - 1]
            # the word's line: punctuation put after it past a line break
            # (``<b`` then ``/>`` at the start of the next line) ends it too,
            # and what follows on that next line is that line's own
            line = line_start(repaired, word.start)
            if "\n" in repaired[word.end : lexeme.start]:
                end = lexeme.end
            if (
                word.role is not Role.DATA
                or repaired[word.end : lexeme.start].strip()
                or (index > 1 and after[index - 2].end > line)
            ):
                continue
            if index + 1 < len(after) and self._joins_lines(word, after[index + 1]):
                # the punctuation stands where the word's line ended: the
                # word becomes a name over the next line's (TOML's
                # `FIXME.edition = "2018"`), structure the input never had
                self.phrase += max(0, len(word.value.split()) - 1)
                count += 1
                continue
            if data_before(after, index + 1, end) or lexeme.value == self.judge.lexer.hints.fields:
                continue  # (a record's field separator: its table has the field)
            # a phrase made a name (`TODO check this value:`): its words
            # beyond the first (see ``phrase``)
            self.phrase += max(0, len(word.value.split()) - 1)
            # a list as deep as the word is its value only where the input
            # writes lists so under their keys, and the word is no item's
            # neighbour in such a list (`- nightly`, `FIXME`, `- beta`)
            items = self.judge.lists_at_key_column() and not item_above(repaired, line)
            # a block below a blank line is the word's value only where the
            # input sets blocks apart from their names so elsewhere
            apart = self.judge.sets_blocks_apart(lexeme.value)
            if not (
                deeper_after(repaired, line, end, items=items, apart=apart)
                or self.judge.ends_lines(lexeme.value, self.mapping.behind(line))
            ):
                count += 1
        return count

    def _joins_lines(self, word: Lexeme, following: Lexeme) -> bool:
        """Does the repair delete a line break of the input between ``word``
        and ``following`` (lexemes of the repaired text)?"""
        behind = self.mapping.behind
        low, high = behind(word.end - 1) + 1, behind(following.start)
        return any(self.original[offset] == "\n" for offset in within(self.deleted, low, high))

    def _absorbed(self) -> int:
        """Values that a delimiter inserted at their edge makes begin or end
        with a blank: ``"yarn "}`` rather than ``"yarn" }``."""
        count = 0
        repaired = self.repaired
        for lexeme in self._holding():
            first, last = lexeme.start, lexeme.end - 1
            for edge in within(self.inserted, first, first + 1) + within(
                self.inserted, last, last + 1
            ):
                inner = edge + 1 if edge == first else edge - 1
                count += repaired[inner].isspace() and inner not in (first, last)
        return count

    def _misshapen(self) -> int:
        """Records in view with another number of fields than the table's (a
        record only partly in view, begun before the window or cut off by the
        end of the input, does not count), and records the repair adds: a
        line break put between two tokens of one record moves data into
        another row, even where each row then has the right number of
        fields (``Ann,likes te\na, coffee``)."""
        fields = self.judge.header_fields()
        separator = self.judge.lexer.hints.fields
        if fields is None:
            return 0
        records = records_of(self.repaired, self.after)
        added = 0
        for previous, lexeme in itertools.pairwise(self.after):
            gap = self.repaired[previous.end : lexeme.start]
            put = within(self.inserted, previous.end, lexeme.start)
            breaks = sum(self.repaired[i] == "\n" for i in put)
            added += bool(breaks) and gap.count("\n") == breaks  # a new record break
        if not self.judge.starts_record(self.window.start):
            records = records[1:]  # may be the end of a record that began before
        cut = self.original[-1:] not in ("\n", "")
        if records and cut and records[-1][-1].end >= self.mapping.end(len(self.original)):
            records.pop()
        wrong = sum(1 for record in records if sum(t.value == separator for t in record) != fields)
        return wrong + added

    def _misplaced(self) -> int:
        """Values not of their column's shape, digits pattern or forms
        (:meth:`Judge.misfits`) in the window's records, less the values
        equal to their column's value in the record above or below
        (:func:`~inputmend.algorithms.fieldforms.matched_values`, each adjacent
        pair of records once); less the
        same count of the input there (see the module documentation).  The
        values are compared with the records beside theirs only where the
        repair keeps the window's number of records: it moves values between
        columns, not rows (two sides of a merge conflict kept both are
        alike, not aligned)."""
        fields = self.judge.header_fields()
        rows = self._rows()
        if fields is None or rows is None:
            return 0
        before, after = rows
        whole = self.judge.starts_record(self.window.start)
        found = sum(map(self.judge.misfits, after)) - sum(map(self.judge.misfits, before))
        if len(before) == len(after):
            first, last = self.before[0].start, self.before[-1].end
            above, below = self.judge.beside(self.original.rfind("\n", 0, first) + 1, last)
            above = above if whole else []

            def matched(rows: list[list[str]]) -> int:
                return sum(
                    matched_values(upper, lower, fields + 1)
                    for upper, lower in itertools.pairwise([above, *rows, below])
                )

            found -= matched(after) - matched(before)
        return found

    def _rows(self) -> tuple[list[list[str]], list[list[str]]] | None:
        """The field values of the window's records in the input and in the
        repaired text, less a record begun before the window (None without
        ``fields`` hints or tokens)."""
        separator = self.judge.lexer.hints.fields
        if separator is None or self.judge.header_fields() is None or not self.before:
            return None
        skip = 0 if self.judge.starts_record(self.window.start) else 1
        before = [field_values(r, separator) for r in records_of(self.original, self.before)]
        after = [field_values(r, separator) for r in records_of(self.repaired, self.after)]
        return before[skip:], after[skip:]

    def _unaligned(self) -> int:
        """How much less the values of the window's records of the table's
        width fit their columns (:meth:`Judge.unaligned`, in tenths of
        nats) than the input's there.  Of repairs alike in all else (the
        places for a lost field among columns of flags, of times, of ids),
        the one that puts each value where its column's values are most
        like it."""
        rows = self._rows()
        if rows is None:
            return 0
        before, after = rows
        cost = sum(map(self.judge.unaligned, after)) - sum(map(self.judge.unaligned, before))
        return round(10 * cost)
