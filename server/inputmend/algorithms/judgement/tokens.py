"""Criteria on the input's tokens: kept, ``changed`` (reclassified, merged,
re-read inside out), ``quoted``, ``divided`` and ``phrase``, and strings
whose lost quote the repair puts back (``reread``).
"""

from __future__ import annotations

import bisect
import itertools
import re

from inputmend.algorithms.judgement.state import AssessmentState
from inputmend.algorithms.judgement.text import (
    BRACKETS,
    CLOSERS,
    OPENERS,
    SEPARATORS,
    WORD,
    inside_word,
    runs_of,
    runs_on,
    set_apart,
    text_brackets,
    within,
    word_end,
    word_start,
)
from inputmend.core.loss import plain_words, prose
from inputmend.core.text import line_at, line_start
from inputmend.grammar.tolerant import Lexeme, Role


class TokenCriteria(AssessmentState):
    """What becomes of the input's tokens: kept, changed, reclassified, quoted, re-read."""

    def survivors(self, position: int) -> int:
        """The non-blank characters of the token at ``position`` (in
        ``before``) that the repair keeps, counted when first asked: most
        tokens are kept whole, and their count is never needed."""
        found = self._survived.get(position)
        if found is None:
            token = self.before[position]
            found = self._survived[position] = self._survivors(token.start, token.end)
        return found

    def _survivors(self, start: int, end: int) -> int:
        """The input's non-blank characters in ``[start, end)`` the repair keeps."""
        if not within(self.deleted, start, end):  # (most tokens: counted in C)
            return len("".join(self.original[start:end].split()))
        return sum(
            1
            for i in range(start, end)
            if i not in self.deleted_set and not self.original[i].isspace()
        )

    def _kept_in_place(self) -> list[int]:
        """The tokens kept as they are, where the repaired text has a lexeme of
        their text and kind that starts where they start and holds them
        (the first answer of :meth:`judgement`'s loop for most tokens),
        added to ``kept`` with their lexemes in one pass over both lists
        (most of a large document's tokens lie far from any edit); the
        positions of the others, in order, for that loop to read one at a
        time.  A repaired lexeme found by its start is the one
        :meth:`_cover` finds: the last that starts there."""
        before, lows, highs = self.before, self.lows, self.highs
        at = dict(zip(self.after_starts, self.after, strict=True))
        covers = list(map(at.get, lows))
        layout, junk = Role.LAYOUT, Role.JUNK
        same = [
            position
            for position, token, cover in zip(itertools.count(), before, covers)
            if cover is not None
            and lows[position] < highs[position] <= cover.end
            and cover.value == token.value
            and cover.kind == token.kind
            and token.foreign is None
            and not token.partial
            and token.role is not layout
            and token.role is not junk
        ]
        self.kept.update(same)
        self.covers.update(map(id, map(covers.__getitem__, same)))
        return list(itertools.filterfalse(self.kept.__contains__, range(len(before))))

    def _cover(self, low: int, high: int) -> Lexeme | None:
        """The one lexeme of the repaired text that holds all of ``[low, high)``."""
        if low >= high:
            return None
        index = bisect.bisect_right(self.after_starts, low) - 1
        if index < 0:
            return None
        lexeme = self.after[index]
        return lexeme if lexeme.end >= high else None

    def _kept(self, position: int, cover: Lexeme | None) -> bool:
        token = self.before[position]
        if token.foreign is not None and not token.value.strip():
            return self.survivors(position) == 0  # removed, as its hint says
        if token.role is Role.LAYOUT:
            return cover is not None and cover.role is Role.LAYOUT
        continued = (
            cover is not None
            and cover.start == self.lows[position]
            and cover.value.startswith(token.value)
        )
        if token.partial:
            return (
                continued
                and cover is not None
                and cover.kind == token.kind
                and not self._writes_again(token, cover)
            )
        if cover is not None and cover.kind == token.kind and cover.value == token.value:
            return True
        if continued and token.foreign is None and token.end == len(self.original):
            return True  # the input may end inside it: `t` read as a name may be `true` cut off
        if token.foreign is None:
            return False
        mapping, repaired = self.mapping, self.repaired
        wide = repaired[
            mapping.start(token.start, inclusive=True) : mapping.end(token.end, inclusive=True)
        ]
        return token.value in (wide, repaired[self.lows[position] : self.highs[position]])

    def _writes_again(self, token: Lexeme, cover: Lexeme) -> bool:
        """Does the repair close a quoted token cut off by the end of the input
        after the punctuation it ends in, and then write that punctuation
        again (``[ " ] }`` completed as ``[ " ] }"]}``)?  Then the token was
        not cut off: its closing quote was lost before the brackets that
        close the document, and the repair swallows them."""
        if token.value[:1].isalnum():
            return False
        # the punctuation it ends in follows its last letter or digit: a long
        # string cut off (a base64 blob) is not read character by character
        boundary = token.end
        while boundary > token.start + 1 and not self.original[boundary - 1].isalnum():
            boundary -= 1
        # its longest end read as punctuation alone, read from each character
        # back to there: read from the boundary, an escaped quote in it
        # (`\"?}`) would begin a string that swallows the rest
        written = ""
        for start in range(token.end - 1, boundary - 1, -1):
            if self.original[start].isspace():
                continue
            inner = self.judge.lexer.lex(self.original, start, token.end, foreign=False)
            if not inner or inner[0].start != start:
                break
            if any(lexeme.role is not Role.STRUCTURE for lexeme in inner):
                break
            written = "".join(lexeme.value for lexeme in inner)
        after = self.repaired[cover.end : cover.end + 2 * (token.end - token.start) + 16]
        return bool(written) and "".join(after.split()).startswith(written)

    def _changed(self, position: int, cover: Lexeme | None) -> bool:
        """Does a token that was not kept survive as part of something else?"""
        token = self.before[position]
        if cover is None and token.role is Role.LAYOUT and self._uncommented(position):
            return True  # a comment's text now reads as data: `/* = note */`
        if token.foreign is not None:
            # foreign syntax left as it is, or not read as one token now
            if cover is None:
                return True
            return not (self._reread(position, cover) or self._read_inside_out(position, cover))
        if token.partial and "\n" not in token.value:
            return True  # the input ended inside it: completing it is the repair
        if cover is None:
            if token.role is Role.DATA:
                low, high = self.lows[position], self.highs[position]
                runs = runs_of(within(self.inserted, low + 1, high))
                dividing = [run for run in runs if self._between_words(run)]
                if not dividing and any(self._cuts_word(run) for run in runs):
                    self.divided += 1  # a word cut in two: no phrase on either side
                if dividing:
                    self.divided += 1
                    # on the punctuation's line: a value read over lines is a
                    # string that ran on, which an inserted quote closes
                    cut = dividing[0][1]
                    line_end = self.repaired.find("\n", cut, high)
                    after = WORD.findall(self.repaired, cut, high if line_end < 0 else line_end)
                    start = max(low, self.repaired.rfind("\n", low, dividing[0][0]) + 1)
                    head = self.repaired[start : dividing[0][0]].strip()
                    mark = self.repaired[dividing[0][0] : dividing[0][1]].strip()
                    separated = bool(mark) and all(c in SEPARATORS for c in mark)
                    # a name the input gives a value elsewhere is followed by
                    # a value, whatever its words (`name: OS Test` where the
                    # list's other items have `name: ...`): no phrase
                    if not (separated and head in self.judge.names()):
                        self.phrase += max(0, len(after) - 1)
                    # and before it on its line, where a separator divides
                    # it from a value that follows: a name of several words
                    # (not a text that an end tag or a quote closes)
                    if after and separated:
                        before = WORD.findall(self.repaired, start, dividing[0][0])
                        self.phrase += max(0, len(before) - 1)
            return False
        if cover.role is Role.LAYOUT and token.role is not Role.LAYOUT and self._hidden(token):
            return False  # turned into a comment: counted as ``commented``
        if token.role is cover.role is Role.STRUCTURE:
            self.retyped.add(position)  # punctuation re-read as other punctuation
            return False
        if (
            cover.kind != token.kind
            or cover.role is not token.role
            or self._merged(position, cover)
        ):
            if self._reclassified(position, cover):
                return False
            if self._quotes_fields(position, cover):
                if not self._written_with_separator(cover):
                    self.joined.add(id(cover))
                return False
            return not (self._reread(position, cover) or self._read_inside_out(position, cover))
        return False

    def _reclassified(self, position: int, cover: Lexeme) -> bool:
        """Is the token at ``position`` the data token where the grammar
        refused the input, which ``cover`` keeps with its text and role, only
        read as another kind, and holds no other token?  The kind the
        tolerant lexer gave it there is a guess: the grammar read no token
        there (an INI line ``foo`` without ``=`` reads as a name, and is
        more of the value above once indented).  The kind the repair gives
        it must agree with the token before it in the input (read from the
        input's start, :meth:`Judge.token_before`).  Below punctuation,
        after which no value began yet (``deps =`` and a list on the lines
        below), or below a token of that kind (a value already continued
        over lines), it does, unless it is set apart from it (:func:`set_apart`:
        by a blank line, or a comment at its own column) where the input
        continues no value so elsewhere (:meth:`Judge.follows`).  Below a
        value of another kind, which ended on its line, it does where the
        input continues such values so elsewhere, or, not set apart, where
        it continues values at all and the token is not words of prose
        (``enable = locally-disabled`` and ``suppressed-message`` below it:
        :func:`~inputmend.core.loss.plain_words`).  A line of prose
        (:func:`~inputmend.core.loss.prose`) never does, below any token: a
        value's lines are its items, not sentences.  Else the token
        becomes more of a value that ended before it: prose that lost its
        comment marker (``FIXME``, ``see issue 42``), joined to the value
        above."""
        token = self.before[position]
        if not (
            token.role is Role.DATA
            and cover.role is Role.DATA
            and cover.value == token.value
            and not self._merged(position, cover)
        ):
            return False
        refused = self.judge.refused_at()
        if refused is None or not token.start <= refused <= token.end:
            return False
        earlier = self.judge.token_before(token.start)
        if earlier is None:
            return False
        if prose(token.value):
            return False
        apart = set_apart(self.original, earlier.end, token.start)
        if earlier.role is not Role.STRUCTURE and earlier.kind != cover.kind:
            # a value of another kind above it, which ended on its line
            if not apart and self.judge.follows(cover.kind) and not plain_words(token.value):
                return True
        elif not apart:
            return True
        return self.judge.follows(cover.kind, earlier.kind, apart=apart)

    def _quoted(self, position: int, cover: Lexeme | None) -> bool:
        """Is the input's token at ``position`` swallowed whole, with other
        text, into a value whose both delimiters the repair inserts?  Counted
        also where the input was misread: quoting a stretch that holds
        punctuation of the input makes its structure text (an escaped
        document ``{\\"a\\": 1}`` quoted whole as one string); but not
        a bracket of pairs inside a longer text (:func:`text_brackets`)."""
        if cover is None or cover.role is not Role.DATA:
            return False
        token = self.before[position]
        inside = cover.start < self.lows[position] and self.highs[position] < cover.end
        # brackets in pairs inside a longer text are text: a template's
        # `*{{ name }}` quoted, not a collection made a string
        if (token.value in OPENERS or token.value in CLOSERS) and text_brackets(
            self.repaired[cover.start + 1 : cover.end - 1]
        ):
            return False
        # punctuation other than a separator between two letters or digits,
        # where the grammar read no more, is a character of a word, as text
        # writes it (`README.md`, `v1.2`), not structure the grammar read
        text = self.original
        refused = self.judge.refused_at()
        if (
            refused is not None
            and token.start >= refused
            and not any(char in SEPARATORS for char in token.value)
            and token.start > 0
            and token.end < len(text)
            and text[token.start - 1].isalnum()
            and text[token.end].isalnum()
        ):
            return False
        return (
            inside
            and (cover.kind != token.kind or self._merged(position, cover))
            and bool(within(self.inserted, cover.start, cover.start + 1))
            and bool(within(self.inserted, cover.end - 1, cover.end))
            and token.role is Role.STRUCTURE
            and not self._quotes_fields(position, cover)  # counted once, as ``joined``
        )

    def _between_words(self, run: tuple[int, int]) -> bool:
        """Is the text inserted at ``run`` punctuation next to a blank of
        the repaired text (put between two words, not inside one)?"""
        start, end = run
        inserted = self.repaired[start:end]
        return any(not (c.isalnum() or c.isspace()) for c in inserted) and (
            self.repaired[start - 1 : start].isspace() or self.repaired[end : end + 1].isspace()
        )

    def _cuts_word(self, run: tuple[int, int]) -> bool:
        """Is the text inserted at ``run`` punctuation between two letters or
        digits of the repaired text (``defaul:t``: one word cut in two, a
        name and a value made of its two ends)?"""
        start, end = run
        repaired = self.repaired
        return (
            not any(c.isalnum() or c.isspace() for c in repaired[start:end])
            and repaired[start - 1 : start].isalnum()
            and repaired[end : end + 1].isalnum()
        )

    def _hidden(self, token: Lexeme) -> bool:
        """Does the repair turn some of ``token`` into a comment it starts or
        lengthens (:meth:`_commented_out`)?"""
        return any(offset in self.commented_set for offset in range(token.start, token.end))

    def _quotes_fields(self, position: int, cover: Lexeme) -> bool:
        """Is ``cover`` a quoted field the repair made by putting quotes around
        adjacent fields (of its kind) and the separators between them, with
        no other edit inside?"""
        separator = self.judge.lexer.hints.fields
        token = self.before[position]
        return (
            separator is not None
            and cover.role is Role.DATA
            and (token.kind == cover.kind or token.value == separator)
            and bool(within(self.inserted, cover.start, cover.start + 1))
            and bool(within(self.inserted, cover.end - 1, cover.end))
            and not within(self.inserted, cover.start + 1, cover.end - 1)
            and not within(
                self.deleted, self.mapping.behind(cover.start), self.mapping.behind(cover.end - 1)
            )
        )

    def _written_with_separator(self, cover: Lexeme) -> bool:
        """Is the quoted field ``cover`` (adjacent fields quoted as one) a
        value written with the separator as prose writes it, a blank after
        each (``Smith, John``, ``2018-06-06, 16:11``), on a line whose other
        separators have none?  Such a value lost its quotes; the blank tells
        it from two fields of the record, and quoting it is no join.  Not
        where a field after an inner separator stands where the table writes
        its values after a blank (:meth:`Judge.led_columns`, that column or
        the one before, should the field too many come first): the blank is
        the table's own."""
        separator = self.judge.lexer.hints.fields
        if separator is None:
            return False
        text = self.repaired
        inner = [
            m.end() + cover.start
            for m in re.finditer(re.escape(separator), text[cover.start : cover.end - 1])
        ]
        if not inner or not all(text[end : end + 1] in (" ", "\t") for end in inner):
            return False
        start, end = line_start(text, cover.start), line_at(text, cover.end)[1]
        outside = text[start : cover.start] + "\n" + text[cover.end : end]
        if f"{separator} " in outside or f"{separator}\t" in outside:
            return False
        led = self.judge.led_columns()
        before = self.judge.lexer.lex(text, start, cover.start)
        column = sum(lexeme.value == separator for lexeme in before)
        fields = range(column + 1, column + len(inner) + 1)
        return not any(led.intersection((field - 1, field)) for field in fields)

    def _reread(self, position: int, cover: Lexeme) -> bool:
        """Is the token at ``position`` a word of the text of ``cover``, a
        string whose lost quote the repair puts back (:meth:`_restore`)?"""
        found = self.restored.get(id(cover))
        token = self.before[position]
        return found is not None and found[0] - 1 <= token.start and token.end <= found[1] + 1

    def _restore(self, value: Lexeme) -> None:
        """Is ``value`` a string that the repair makes by putting back a quote
        lost on the line of one of the input, only words between them?  Then
        the words were meant to be its text (``(write-line Hello World")``
        repaired as ``"Hello World"``): re-read, not swallowed (recorded in
        :attr:`restored`).  The evidence: the other quote is the input's, at
        a word's edge; the repair edits nothing between; the stretch holds
        only words (:meth:`_only_words`); and the inserted
        quote stands at a word's edge, where a person would have typed it: an
        opening one after a blank or at the start of the text (not glued to
        an opening bracket: the first word of a list is a name more often
        than text), a closing one before a blank, punctuation or the end of
        the text."""
        original, repaired, mapping = self.original, self.repaired, self.mapping
        quote = repaired[value.start]
        if (
            value.role is not Role.DATA
            or value.end - value.start < 3
            or quote.isalnum()
            or quote.isspace()
            or repaired[value.end - 1] != quote
            or within(self.inserted, value.start + 1, value.end - 1)
        ):
            return
        opened = bool(within(self.inserted, value.start, value.start + 1))
        if opened == bool(within(self.inserted, value.end - 1, value.end)):
            return
        if opened:
            low, high = mapping.behind(value.start + 1), mapping.behind(value.end - 1)
            unpaired = high
            at_edge = low == 0 or original[low - 1].isspace()
            glued = word_end(original, unpaired)
        else:
            low, high = mapping.behind(value.start) + 1, mapping.behind(value.end - 1)
            unpaired = low - 1
            at_edge = value.end >= len(repaired) or not repaired[value.end].isalnum()
            glued = word_start(original, unpaired)
        words = original[low:high].split()
        if not (
            at_edge
            and glued
            and words
            and original[unpaired] == quote
            and quote not in original[low:high]
            and "\n" not in original[low:high]
            and not within(self.deleted, low - 1, high + 1)
        ):
            return
        if self._only_words(low, high, quote, opened=opened):
            self.restored[id(value)] = (low, high, words)

    def _only_words(self, low: int, high: int, quote: str, *, opened: bool) -> bool:
        """Does the input's ``[low, high)`` hold only words on one line: no
        comment, no word the grammar's hints call a name (code, never text),
        punctuation of the structure only inside a word (``~,11f``) or in a
        bracket group glued to one (``rgba(0,0,0,0.4)``), and at the edge
        where the quote is put back (the start when ``opened``) not a word
        the input uses elsewhere as code (``(format stream ~a~%")`` in a
        function with a parameter ``stream``)?  Where the input read the
        stretch as a string running on (a closing quote put back), only
        brackets, punctuation that is a word of its own (TOML's ``=`` in
        ``"warn, priority = -1 }``) and punctuation where the quote goes
        (``"jest,`` is closed before its comma) mark code among the words:
        prose keeps its commas and quotes."""
        text = self.original
        words = [found.span() for found in WORD.finditer(text, low, high)]
        if not words or "\n" in text[low:high]:
            return False
        punctuation = [False] * (high - low)
        for token in self.judge.lexer.lex(text, low, high):
            if token.start >= high:
                break
            if token.role is Role.LAYOUT:
                return False
            if token.role is Role.STRUCTURE and (
                opened
                or token.end >= high
                or (token.start, token.end) in words
                or BRACKETS.intersection(token.value)
            ):
                for offset in range(max(low, token.start), min(high, token.end)):
                    punctuation[offset - low] = True
        names = self.judge.lexer.hints.names
        for start, end in words:
            marks = punctuation[start - low : end - low]
            if any(marks) and not inside_word(text[start:end], marks, between=not opened):
                return False
            if names is not None and names.fullmatch(text[start:end]):
                return False
        start, end = words[0] if opened else words[-1]
        return len(words) == 1 or not self.judge.used_elsewhere(text[start:end], quote, low, high)

    def _uncommented(self, position: int) -> bool:
        """Does the repaired text read a token that is not layout where the
        input's comment at ``position`` was (its text made data)?  Not for a
        comment the input never closed, nor for one that holds its opener
        again on a later line (``/* see issue 42`` then ``/* Linting */``
        further on: it ran on to the next comment's closer): it ran on over
        the data, and closing it is the repair."""
        token = self.before[position]
        if token.partial or runs_on(token.value):
            return False
        low, high = self.lows[position], self.highs[position]
        index = bisect.bisect_left(self.after_starts, low)
        while index < len(self.after) and self.after[index].start < high:
            if self.after[index].role is not Role.LAYOUT:
                return True
            index += 1
        return False

    def _neighbours(self, position: int) -> tuple[int | None, int | None]:
        """The nearest surviving tokens before and after ``position`` (not junk)."""
        earlier = later = None
        for index in range(position - 1, -1, -1):
            if self.before[index].role is not Role.JUNK and self.survivors(index):
                earlier = index
                break
        for index in range(position + 1, len(self.before)):
            if self.before[index].role is not Role.JUNK and self.survivors(index):
                later = index
                break
        return earlier, later

    def _merged(self, position: int, cover: Lexeme) -> bool:
        """Does ``cover`` also hold the whole of a neighbouring token?"""
        return any(
            index is not None and cover.start <= self.lows[index] and self.highs[index] <= cover.end
            for index in self._neighbours(position)
        )

    def _read_inside_out(self, position: int, cover: Lexeme) -> bool:
        """Are both delimiters of ``cover`` pieces of input tokens that the
        repair splits (not inserted, not whole tokens of their own)?  A
        comment has one: where it starts (it ends with its line)."""
        edges = (cover.start,) if cover.role is Role.LAYOUT else (cover.start, cover.end - 1)
        for edge in edges:
            if within(self.inserted, edge, edge + 1):
                return False
            origin = self.mapping.behind(edge)
            index = bisect.bisect_right(self.before_starts, origin) - 1
            if index < 0 or index == position or origin >= self.before[index].end:
                return False
            if self.lows[index] >= cover.start and self.highs[index] <= cover.end:
                return False  # a whole token inside the value: swallowed, not split
        return True
