"""The judge of one input's repairs: the windows of input it lexes around a
repair's edits (and comments that run on over the data), each window judged
by an :class:`~inputmend.algorithms.judgement.assessment.Assessment`.

The judgement looks at the input only around the edits: on the lines they
touch and the line before, at most :data:`LOOKAROUND` characters away, and as
much further as the repair changes how the text reads (a string that now
swallows the rest).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import fields

from inputmend.algorithms.judgement.assessment import Assessment
from inputmend.algorithms.judgement.edits import (
    LOOKAROUND,
    EditMap,
    Window,
    changes,
    decoded_characters,
    escapes_written_out,
    long_runs_shortened,
    removed_wrappers,
    slid_out_of_tokens,
    substitutions_apart,
)
from inputmend.algorithms.judgement.queries import InputQueries, Refusal, TokenStart
from inputmend.algorithms.judgement.text import Runs, indent_width, line_lead, runs_on
from inputmend.algorithms.judgement.verdict import Judgement
from inputmend.core.budget import BudgetExhausted
from inputmend.core.loss import significant
from inputmend.core.model import Edit, Repair, apply_edits, edits_between
from inputmend.core.text import first_on_line, line_at, line_start
from inputmend.grammar.syntax import spanning_openers
from inputmend.grammar.tolerant import GrammarLexer, Lexeme, Role, TolerantLexer

OPEN_TOKEN_REACH = 16 * LOOKAROUND
"""Characters before an edit's lines that its window reaches back to the
start of a token still open there (a comment or string run on over lines)."""

LEX_STEP = 16 * LOOKAROUND
"""Characters of the input lexed between two asks of the stop hook: a
window that spans a document (an edit on every line) is lexed piece by
piece, so a request whose budget is used up stops reading it."""


class Judge(InputQueries):
    """Judges repairs of one input (the input's wrappers found once).

    ``token_start`` lets a stretch on a long line start where a token really
    starts (a minified document is one line, and a stretch that started inside
    a string would read the text inside out); without it, after a blank.
    ``refused`` says where the grammar refused the input (see ``changed``);
    without it, every kind change counts."""

    def __init__(
        self,
        original: str,
        lexer: TolerantLexer,
        *,
        token_start: TokenStart | None = None,
        refused: Refusal | None = None,
        stop: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(original, lexer, token_start=token_start, refused=refused)
        self._content_end = len(original.rstrip())  # only blanks after it
        self.stop = stop
        self.wrappers = [(s, e) for s, e, _ in lexer.hints.wrapper_regions(original)]
        self._judged: dict[tuple[str, tuple[Edit, ...]], Judgement] = {}
        self._lexed: dict[tuple[int, int], tuple[Lexeme, ...]] = {}  # see :meth:`_lex_input`
        self._opened: dict[int, int] = {}  # see :meth:`_start_of`
        self._run_on: tuple[tuple[int, int], ...] | None = None  # see :meth:`run_on_comments`
        self._pass: tuple[list[Lexeme], list[int]] | None = None  # see :meth:`lexemes_in`

    def _start_of(self, offset: int, *, by: int | None = None) -> int:
        """Where the window of an edit at ``offset`` starts; with ``by``, the
        answer is exact only when it is after ``by`` (merging windows asks
        only whether it is: a start on a line at or before ``by`` is not
        looked further back from, which would scan the input again)."""
        text = self.original
        at_end = offset >= len(text)
        offset = max(0, min(offset, len(text)) - 1)
        for start, end in self.wrappers:
            if start <= offset < end:
                return start
        if at_end and self.token_start is not None:
            # an ending appended changes no token before the text's last one
            # (or the one still open there), however long its line
            last = self.token_start(len(text))
            if last is not None and last >= len(text) - OPEN_TOKEN_REACH:
                return last
        line = text.rfind("\n", 0, offset) + 1
        if line:  # the line before too: a record or a string may begin there
            line = text.rfind("\n", 0, line - 1) + 1
        if offset - line <= LOOKAROUND:
            if by is not None and line <= by:
                return line  # a token still open there began earlier still
            found = self._opened.get(offset)
            if found is None:  # (asked again for the edit that starts the next window)
                found = self._opened[offset] = self._open_token_start(offset + 1, line)
            return found
        if self.token_start is not None and offset + 1 >= self._content_end:
            # on a long line, what is inserted before the blanks the text
            # ends in changes no token before its last one either
            last = self.token_start(offset + 1)
            if last is not None and last >= offset + 1 - OPEN_TOKEN_REACH:
                return last
        blank = offset - LOOKAROUND
        known = self.token_start(blank) if self.token_start is not None else None
        if known is not None and known >= line:
            return known
        while blank < offset and not text[blank].isspace():
            blank += 1
        return blank + 1 if blank < offset else line

    def _open_token_start(self, offset: int, start: int) -> int:
        """``start``, or where a token still open at ``offset`` began when
        that is before it, up to :data:`OPEN_TOKEN_REACH` earlier: a comment
        or string that lost its end runs on over lines, and a stretch that
        starts inside it cannot tell that an edit ends it (a completion's
        ``*/`` turns everything since ``/*`` into a comment)."""
        if not start or self.token_start is None:
            return start
        known = self.token_start(offset)
        if known is not None and start - OPEN_TOKEN_REACH <= known < start:
            return known
        return start

    def _end_of(self, offset: int) -> int:
        text = self.original
        for start, end in self.wrappers:
            if start <= offset < end:
                return end
        line = text.find("\n", offset)
        line = len(text) if line < 0 else line
        if line - offset <= LOOKAROUND:
            return line
        blank = offset + LOOKAROUND
        while blank < line and not text[blank].isspace():
            blank += 1
        return blank

    def _lex_input(self, start: int, end: int, window: int) -> tuple[list[Lexeme], int]:
        """The input's lexemes in ``[start, end)`` of a window that starts at
        ``window``, and how far they were read: ``end``, or less when the stop
        hook said that the budget is used up (see :meth:`_lex_stretch`).
        Each wrapper there is one foreign layout lexeme, to be removed (in the
        piece of the window it begins in).  Each stretch of the input is lexed
        once: the repairs of one input mostly share their windows (on a record
        of one line, every window is the line)."""
        lexed = self._lexed.get((start, end))
        if lexed is None:
            found, read = self._lex_stretch(start, end)
            lexed = tuple(found)
            if read < end:
                return self._with_wrappers(list(lexed), start, read, window), read
            self._lexed[start, end] = lexed
        return self._with_wrappers(list(lexed), start, end, window), end

    def lexemes_in(self, start: int, end: int) -> list[Lexeme]:
        """The input's lexemes in ``[start, end)`` (foreign tokens too), as
        lexing from ``start`` reads them.  A short input on one line (a
        record, an answer of a model) is lexed once, whole, the first time
        it is asked, and each stretch is taken from that pass: every window
        of its repairs is the line, and completion reads its rest before
        (:func:`~inputmend.repairs.generators.completion.droppable`).  A
        lexer without context reads from a place where one pass stood (the
        start, the end of a lexeme, a blank between two) what that pass read
        from there: its lexemes only append to what was read before.  A
        stretch that starts inside a lexeme of the pass is lexed itself."""
        text = self.original
        if len(text) > LOOKAROUND or "\n" in text or self.lexer.hints.contextual:
            return self.lexer.lex(text, start, end)
        if self._pass is None:
            lexemes = self.lexer.lex(text, 0, len(text))
            self._pass = (lexemes, [lexeme.start for lexeme in lexemes])
        lexemes, starts = self._pass
        first = bisect.bisect_left(starts, start)
        if first and lexemes[first - 1].end > start:  # inside the lexeme before
            return self.lexer.lex(text, start, end)
        return lexemes[first : bisect.bisect_left(starts, end, first)]

    def _lex_stretch(self, start: int, end: int) -> tuple[list[Lexeme], int]:
        """The input's lexemes in ``[start, end)``, read :data:`LEX_STEP`
        characters at a time, the stop hook asked before each piece after the
        first; and how far they were read.  Each piece is lexed from the end of
        the last lexeme read, where the lexer of a format without context
        (every lexer but a ``contextual`` one's) stands as it would in one
        pass, so the pieces read what one pass reads; a contextual lexer's
        context is the tokens before, so its stretch is lexed in one piece."""
        if self.lexer.hints.contextual or end - start <= LEX_STEP:
            return self.lexemes_in(start, end), end
        lexemes: list[Lexeme] = []
        resume = cut = start  # where the next piece is lexed from, and up to
        while cut < end:
            if cut > start and self._stopped():
                return lexemes, cut
            cut = min(end, max(cut, resume) + LEX_STEP)
            found = self.lexer.lex(self.original, resume, cut)
            lexemes += found
            if found:
                resume = found[-1].end
        return lexemes, end

    def _with_wrappers(
        self, lexemes: list[Lexeme], start: int, end: int, window: int
    ) -> list[Lexeme]:
        """``lexemes`` of ``[start, end)`` with each wrapper there as one
        foreign layout lexeme (see :meth:`_lex_input`)."""
        inside = [(s, e) for s, e in self.wrappers if s < end and e > start]
        if not inside:
            return lexemes
        kept = [t for t in lexemes if not any(s <= t.start < e for s, e in inside)]
        kept += [
            Lexeme(None, s, e, "", Role.LAYOUT, "wrapper")
            for s, e in inside
            if start <= max(s, window)
        ]
        return sorted(kept, key=lambda t: t.start)

    def _windows(
        self, repaired: str, edits: Sequence[Edit], mapping: EditMap, unread: Sequence[int]
    ) -> list[Window]:
        """Stretches of the input around the edits, each lexed in the input and
        in the repaired text until both read the same tokens again, or up to
        the next of the ``unread`` offsets (where a long deletion begins that
        is counted whole, not read), or the end of the text.

        A window that grows (a repair that changes how the rest of a long line
        reads) lexes only what it grows by, and asks the stop hook before
        each step: once the budget is used up, it is judged as far as it was
        read, so judging after the budget costs a bounded amount of work."""
        windows: list[Window] = []
        index = 0
        while index < len(edits):
            limit = next(
                (offset for offset in unread if offset >= edits[index].offset),
                len(self.original),
            )
            start = self._start_of(edits[index].offset)
            if windows and start <= windows[-1].end:
                start = windows.pop().start
            last = index
            end = self._end_of(edits[last].end)
            # the edits whose own stretches meet this one, before lexing it:
            # else each would re-lex the stretch grown so far (a comma put
            # between each two of 1,000 documents on lines of their own)
            while last + 1 < len(edits) and self._start_of(edits[last + 1].offset, by=end) <= end:
                last += 1
                end = max(end, self._end_of(edits[last].end))
            before: list[Lexeme] = []
            after: list[Lexeme] = []
            reached = start  # the input read so far, and the repaired text
            out_reached = mapping.start(start, inclusive=True)
            cut = False  # the stop hook ended the lexing of the input
            while True:
                while last + 1 < len(edits) and edits[last + 1].offset <= end:
                    last += 1
                    end = max(end, self._end_of(edits[last].end))
                end = min(end, limit)
                if reached < end:
                    lexed, read = self._lex_input(reached, end, start)
                    before += lexed
                    if read < end:  # stopped: judged as far as it was read
                        end = limit = read
                        cut = True
                reached = max(end, before[-1].end) if before else end
                if not cut and last + 1 < len(edits) and edits[last + 1].offset < reached:
                    end = reached
                    continue
                out_end = mapping.end(reached, inclusive=True)
                if out_reached < out_end:
                    after += self.lexer.lex(repaired, out_reached, out_end, foreign=False)
                out_reached = max(out_end, after[-1].end) if after else out_end
                if out_reached == out_end or reached >= limit or self._stopped():
                    break
                end = max(reached + 1, self._end_of(mapping.behind(out_reached)))
            windows.append(Window(start, reached, before, after))
            index = last + 1
        return windows

    def _stopped(self) -> bool:
        """Has the stop hook said that the budget is used up?"""
        if self.stop is None:
            return False
        try:
            self.stop()
        except BudgetExhausted:
            return True
        return False

    def run_on_comments(self) -> tuple[tuple[int, int], ...]:
        """The input's block comments that ran on over the data (each as its
        start and end): those that hold their opener again after their first
        line break (``/* see issue 42`` read on to the closer of a later
        ``/* Linting */``), of a comment the grammar or its hints' foreign
        comments may write over lines (see
        :func:`~inputmend.grammar.syntax.spanning_openers`).  Such a comment
        holds its opener twice: where the text holds none twice (a large
        document of JSON, or one without comments), nothing is lexed.
        Otherwise the input is lexed from its start up to the last opener
        but one, once, the first time it is asked, in pieces while the
        budget lasts (see :meth:`_lex_stretch`)."""
        if self._run_on is None:
            text = self.original
            self._run_on = ()
            lexer = self.lexer
            grammar = lexer.grammar if isinstance(lexer, GrammarLexer) else None
            openers = [
                opener
                for opener in spanning_openers(grammar, lexer.hints)
                if text.count(opener, 0, self._content_end) >= 2
            ]
            if openers and text.find("\n", 0, self._content_end) >= 0:
                # the comment starts at or before its opener's last place but one
                last = max(
                    text.rfind(opener, 0, text.rfind(opener, 0, self._content_end))
                    for opener in openers
                )
                self._run_on = tuple(
                    (t.start, t.end)
                    for t in self._lex_stretch(0, last + 1)[0]
                    if t.role is Role.LAYOUT
                    and text.startswith(tuple(openers), t.start)
                    and runs_on(text[t.start : t.end])
                )
        return self._run_on

    # -- judging ------------------------------------------------------------

    def __call__(self, repair: Repair) -> Judgement:
        """What ``repair`` does to the input's data (each repair judged once:
        strategies ask before the ranking does)."""
        key = (repair.text, repair.edits)
        found = self._judged.get(key)
        if found is None:
            found = self._judged[key] = self._judge(repair)
        return found

    def _judge(self, repair: Repair) -> Judgement:
        original = self.original
        edits = sorted(repair.edits, key=lambda e: (e.offset, e.delete))
        grown = sum(len(e.insert) - e.delete for e in edits)
        if len(original) + grown != len(repair.text):  # edits that do not describe the text
            edits = list(edits_between(original, repair.text))
        if not edits:
            return Judgement()
        given = edits  # as the repair makes them: a long deletion among them too
        unescaped = escapes_written_out(original, edits)
        decoded = decoded_characters(original, edits, unescaped)
        edits = substitutions_apart(original, edits)
        repaired = repair.text
        counts = [0] * (_WRAPPERS + 1)
        unread: list[int] = []
        if any(edit.delete > 4 * LOOKAROUND for edit in edits):
            unread = [edit.offset for edit in edits if edit.delete > 4 * LOOKAROUND]
            edits, counts[1] = self._unread_deletions(edits)
            if not edits:
                return Judgement(*counts)
            repaired = apply_edits(original, edits)
        shortened = [long_runs_shortened(edit) for edit in edits]
        if shortened != edits:
            # a completion's thousands of closers: only their ends meet the data
            edits = shortened
            repaired = apply_edits(original, edits)
        mapping = EditMap(edits)
        deleted, inserted = changes(original, edits, mapping)
        if decoded and repaired is repair.text:
            # a character an escape stands for is the input's, read: not made up
            inserted = [offset for offset in inserted if offset not in decoded]
        unwrapped = removed_wrappers(original, deleted)
        counts[_WRAPPERS] += len(unwrapped)
        counts[_ESCAPES_KEPT] += self.escapes_kept(deleted, unescaped)
        wrapping = {offset for offsets in unwrapped for offset in offsets}
        windows = self._windows(repaired, edits, mapping, unread)
        slid = slid_out_of_tokens(original, edits, windows, mapping)
        if slid is not edits:
            # the same text, its insertions placed where they keep a token
            # whole: only what is inserted moves, the windows stay the same
            edits = slid
            mapping = EditMap(edits)
            inserted = changes(original, edits, mapping)[1]
            if decoded and repaired is repair.text:
                inserted = [offset for offset in inserted if offset not in decoded]
        inserted_runs = Runs.of(inserted)  # shared by the windows: read once
        for window in windows:
            found = Assessment(
                self,
                window,
                repaired,
                mapping,
                deleted,
                inserted,
                wrapping,
                unescaped,
                inserted_runs,
            ).judgement()
            counts = [a + b for a, b in zip(counts, found, strict=True)]
        # text around the data that no edit touches is left as it is: foreign
        # syntax kept, which its hint says to remove
        counts[0] += sum(
            1
            for start, end in self.wrappers
            if original[start:end].strip()
            and not any(w.start < end and start < w.end for w in windows)
        )
        counts[0] += self._unaligned(edits)
        # a block comment that ran on over the data, no edit in it: the data stays hidden
        counts[0] += sum(
            1
            for start, end in self.run_on_comments()
            if not any(e.offset < end and start < max(e.end, e.offset + 1) for e in given)
        )
        return Judgement(*counts)

    def _unaligned(self, edits: Sequence[Edit]) -> int:
        """Lines of the input that the repair indents less, where they began
        at the column of the line right above them, a line of data that
        begins alike (both items of a list, or neither) and that the repair
        leaves where it is: the line leaves the block it shared with that
        line, and whatever was read as its sibling becomes its parent's
        value (``schedule:``, a line of prose that lost its comment marker
        and ``interval: daily`` below it: ``interval`` moved up a level
        makes the prose the value of ``schedule``).  A line put back
        into its block from a column of its own is not counted (see
        ``changed``)."""
        text = self.original
        dedented = [
            edit
            for edit in edits
            if edit.delete > len(edit.insert)
            and not text[edit.offset : edit.end].strip(" \t")
            and not edit.insert.strip(" \t")
            and first_on_line(text, edit.end)
            and text[edit.end : line_at(text, edit.end)[1]].strip()
        ]
        if not dedented:
            return 0
        moved = {line_start(text, edit.offset) for edit in edits if first_on_line(text, edit.end)}
        count = 0
        for edit in dedented:
            line = line_start(text, edit.offset)
            if not line:
                continue
            above = line_start(text, line - 1)
            upper = text[above : line - 1]
            if not upper.strip() or above in moved:
                continue
            earlier = self.token_before(line)
            if earlier is None or earlier.start < above:
                continue  # the line above holds no data: a comment
            own = text[line : line_at(text, line)[1]]
            if indent_width(upper) == indent_width(own) and line_lead(upper) == line_lead(own):
                count += 1
        return count

    def _unread_deletions(self, edits: Sequence[Edit]) -> tuple[list[Edit], int]:
        """The edits to read, and the data the long deletions lose: a long
        deletion (a dropped tail, more than 4 :data:`LOOKAROUND`) is not read
        but counted as data lost whole (its non-whitespace characters outside
        the wrappers), so that judging costs the same for any length."""
        judged: list[Edit] = []
        lost = 0
        for edit in edits:
            if edit.delete <= 4 * LOOKAROUND:
                judged.append(edit)
                continue
            low, high = edit.offset, edit.end
            text = self.original
            lost += significant(text[low:high]) - sum(
                significant(text[max(s, low) : min(e, high)])
                for s, e in self.wrappers
                if s < high and e > low
            )
        return judged, lost


_WRAPPERS = len(fields(Judgement)) - 1
"""Where :attr:`Judgement.wrapper_removed` is among the judgement's counts."""


_ESCAPES_KEPT = [field.name for field in fields(Judgement)].index("escapes_kept")
"""Where :attr:`Judgement.escapes_kept` is among the judgement's counts."""
