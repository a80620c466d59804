"""Criteria on what a repair loses and makes up: ``data_lost``,
``structure_lost``, ``junk_lost``, ``dropped`` fields, ``removed`` foreign
syntax, and ``invented``, ``unfilled`` and ``punctuated`` values.
"""

from __future__ import annotations

import bisect

from inputmend.algorithms.judgement.edits import escape_removed
from inputmend.algorithms.judgement.state import AssessmentState
from inputmend.algorithms.judgement.text import alike, punctuation_added, within
from inputmend.grammar.tolerant import Lexeme, Role


class LossCriteria(AssessmentState):
    """What the repair loses and makes up: data and structure lost, fields
    dropped, values invented."""

    def _removed(self, token: Lexeme) -> int:
        """Characters of a removed foreign token deleted, with the blanks around it."""
        text, deleted = self.original, self.deleted_set
        start, end = token.start, token.end
        while start > 0 and text[start - 1].isspace() and start - 1 in deleted:
            start -= 1
        while end < len(text) and text[end].isspace() and end in deleted:
            end += 1
        return sum(1 for offset in range(start, end) if offset in deleted)

    def _lost(self) -> tuple[int, int, int, int, int, int, int, int]:
        """Data characters deleted or overwritten; punctuation tokens so lost
        (or commented out) that were not duplicates or a hint's fix;
        characters no terminal reads, other than letters and digits, so
        lost; characters turned into a comment that would otherwise count as
        data or junk lost (the text stays in the file: hidden, not lost);
        and escapes deleted (:func:`escape_removed`); last, how many of the
        characters turned into a comment are in one that begins after text on
        its line; separators deleted with a whole field beside them that
        holds a value (``dropped``, not counted as punctuation lost); and of
        the data lost, the characters of those fields (``dropped_lost``).  The
        characters of a wrapper the repair removes (:func:`removed_wrappers`) count
        in none."""
        original, tokens, starts = self.original, self.before, self.before_starts
        lost = junk = commented = escapes = 0
        tail = 0
        punctuation: set[int] = set()
        data: list[int] = []  # the offsets counted as data lost
        for offset in sorted(self.deleted_set.union(self.commented)):
            char = original[offset]
            if char.isspace() or offset in self.wrapping:
                continue
            hidden = offset in self.commented_set and offset not in self.deleted_set
            if offset in self.unescaped:
                escapes += self.unescaped[offset]
                continue
            if not hidden and escape_removed(original, offset, self.deleted_set):
                escapes += 1
                continue
            index = bisect.bisect_right(starts, offset) - 1
            token = tokens[index] if index >= 0 and offset < tokens[index].end else None
            if token is None or token.role is Role.JUNK:
                if hidden:
                    counted = char.isalnum() or not self._overwritten_alike(offset, char)
                    commented += counted
                    tail += counted and offset in self.trailing
                    continue
                lost += char.isalnum()
                junk += not char.isalnum() and not self._overwritten_alike(offset, char)
            elif hidden and token.role is Role.LAYOUT:
                # a comment of the input read as data (:meth:`_hides_closer`)
                commented += 1
                tail += offset in self.trailing
            elif index in self.kept or index in self.retyped:
                continue
            elif token.role is Role.STRUCTURE and token.foreign is None:
                punctuation.add(index)
            elif token.foreign is not None and (
                not token.value.strip() or token.role is Role.LAYOUT
            ):
                continue
            elif hidden:
                commented += 1
                tail += offset in self.trailing
            elif char.isalnum() or not self.judge.fix_removes_punctuation(offset):
                lost += 1
                data.append(offset)
        structure = dropped = 0
        fields: list[tuple[int, int]] = []  # the stretches of the fields dropped
        separator = self.judge.lexer.hints.fields
        for index in punctuation:
            # a field separator written twice holds an empty field: dropped or not
            if self.before[index].value != separator and self._stray(index):
                continue
            field = self._dropped(index)
            structure += not field
            dropped += field
            for step in (-1, 1) if field else ():
                whole, valued, stretch = self._field_side(index, step)
                if whole and valued:
                    fields.append(stretch)
        in_fields = sum(1 for offset in data if any(low <= offset < high for low, high in fields))
        return lost, structure, junk, commented, escapes, tail, dropped, in_fields

    def _overwritten_alike(self, offset: int, char: str) -> bool:
        """Is the input's ``char`` at ``offset`` overwritten by punctuation
        of its kind (:func:`alike`): re-read, not lost?"""
        written = self.repunctuated.get(offset)
        return written is not None and alike(char, written)

    def _dropped(self, position: int) -> bool:
        """Is the punctuation token at ``position`` a field separator
        (``fields`` hints) deleted between a field that keeps something and
        one that is deleted whole, holding a value or empty?  An empty field
        too many (``,1,C`` under ``id,kind``) goes with a separator beside
        it as a valued one does, only losing nothing; counted as punctuation
        lost, it would rank below quoting it together with its neighbour
        (``",1",C``: a value made up of a separator).  But not in a table
        with an empty column (:meth:`Judge.empty_column`): there an empty
        field may be that column's, and the one too many elsewhere."""
        tokens = self.before
        if tokens[position].value != self.judge.lexer.hints.fields:
            return False
        sides = [self._field_side(position, step)[:2] for step in (-1, 1)]
        if not any(whole for whole, _ in sides) or all(whole and v for whole, v in sides):
            return False  # nothing deleted whole, or a record deleted whole
        return any(whole and v for whole, v in sides) or not self.judge.empty_column()

    def _field_side(self, position: int, step: int) -> tuple[bool, bool, tuple[int, int]]:
        """The field before (``step`` -1) or after (+1) the separator at
        ``position``: is it deleted whole, does it hold a value, and the
        stretch of the input its tokens cover?  A field that may go on
        outside the window counts as kept."""
        tokens, text = self.before, self.original
        index, valued, whole = position + step, False, True
        covered: list[Lexeme] = []
        while 0 <= index < len(tokens):
            token, near = tokens[index], tokens[index - step]
            between = text[min(token.end, near.end) : max(token.start, near.start)]
            if "\n" in between or "\n" in token.value or token.value == tokens[position].value:
                break
            valued = valued or bool(token.value.strip())
            whole = whole and all(
                text[o].isspace() or o in self.deleted_set for o in range(token.start, token.end)
            )
            covered.append(token)
            index += step
        else:
            if step < 0 and not self.judge.starts_record(self.window.start):
                whole = False  # the field may begin before the window
        low = min((token.start for token in covered), default=tokens[position].start)
        return whole, valued, (low, max((token.end for token in covered), default=low))

    def _stray(self, position: int) -> bool:
        """Is a punctuation token a duplicate of its neighbour, or what a fix removes?"""
        token = self.before[position]
        for index in (position - 1, position + 1):
            if 0 <= index < len(self.before):
                other = self.before[index]
                if (other.kind, other.value) == (token.kind, token.value):
                    return True
        text = self.original
        for fix in self.judge.lexer.hints.fixes:
            found = fix.pattern.match(text, token.start)
            if found is not None and found.end() >= token.end and not fix.canonical(found):
                return True
        return False

    def _invented(self) -> tuple[int, int, int]:
        """Values made up, those not the filler, and punctuation inserted
        into values that keep input text (``invented``, ``unfilled``,
        ``punctuated``)."""
        invented = unfilled = punctuated = 0
        filler = self.judge.lexer.hints.filler
        repaired = self.repaired
        data, covers = Role.DATA, self.covers
        for lexeme in [t for t in self.after if t.role is data and id(t) not in covers]:
            added = within(self.inserted, lexeme.start, lexeme.end)
            if len(added) == lexeme.end - lexeme.start:
                invented += 1
                unfilled += filler is not None and lexeme.value != filler
            elif added:
                invented += sum(1 for i in added if repaired[i].isalnum())
                punctuated += punctuation_added(repaired, lexeme, added)
        return invented, unfilled, punctuated
