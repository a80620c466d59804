"""The judge of one input's repairs: the windows of input it lexes around a
repair's edits (and comments that run on over the data), each window judged
by an :class:`~inputmend.algorithms.judgement.judge.Assessment`.

The judgement looks at the input only around the edits: on the lines they
touch and the line before, at most :data:`LOOKAROUND` characters away, and as
much further as the repair changes how the text reads (a string that now
swallows the rest).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import fields

from inputmend.algorithms.fieldforms import matched_values
from inputmend.algorithms.judgement.columns import field_values, records_of
from inputmend.algorithms.judgement.edits import (
    LOOKAROUND,
    EditMap,
    Window,
    changes,
    decoded_characters,
    escape_removed,
    escapes_written_out,
    long_runs_shortened,
    removed_wrappers,
    slid_out_of_tokens,
    substitutions_apart,
)
from inputmend.algorithms.judgement.queries import InputQueries, Refusal, TokenStart
from inputmend.algorithms.judgement.text import (
    BLOCK_HEADER,
    BRACKETS,
    CLOSERS,
    OPENERS,
    SEPARATORS,
    WORD,
    Runs,
    alike,
    data_before,
    deeper_after,
    glued_to_junk,
    indent_width,
    inside_word,
    item_above,
    line_lead,
    punctuation_added,
    runs_of,
    runs_on,
    set_apart,
    text_brackets,
    within,
    word_end,
    word_start,
)
from inputmend.algorithms.judgement.verdict import Judgement
from inputmend.core.budget import BudgetExhausted
from inputmend.core.loss import plain_words, prose, significant
from inputmend.core.model import Edit, Repair, apply_edits, edits_between
from inputmend.core.text import first_on_line, line_at, line_start
from inputmend.grammar.syntax import Brackets, brackets_of, spanning_openers
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

    def _lex_stretch(self, start: int, end: int) -> tuple[list[Lexeme], int]:
        """The input's lexemes in ``[start, end)``, read :data:`LEX_STEP`
        characters at a time, the stop hook asked before each piece after the
        first; and how far they were read.  Each piece is lexed from the end of
        the last lexeme read, where the lexer of a format without context
        (every lexer but a ``contextual`` one's) stands as it would in one
        pass, so the pieces read what one pass reads; a contextual lexer's
        context is the tokens before, so its stretch is lexed in one piece."""
        if self.lexer.hints.contextual or end - start <= LEX_STEP:
            return self.lexer.lex(self.original, start, end), end
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
        counts = [0] * len(fields(Judgement))
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


class Assessment:
    """The judgement of one repair in one window."""

    def __init__(
        self,
        judge: Judge,
        window: Window,
        repaired: str,
        mapping: EditMap,
        deleted: list[int],
        inserted: list[int],
        wrapping: set[int],
        unescaped: dict[int, bool],
        inserted_runs: Runs,
    ) -> None:
        self.judge = judge
        self.wrapping = wrapping  # input offsets of the wrappers the repair removes
        self.original = judge.original
        self.window = window
        self.repaired = repaired
        self.mapping = mapping
        self.deleted = within(deleted, window.start, window.end)
        self.deleted_set = set(self.deleted)
        self.inserted = inserted
        self.inserted_runs = inserted_runs  # of the whole repair
        before, after = window.before, window.after
        self.before, self.after = before, after
        self.after_starts = [t.start for t in after]
        self.before_starts = [t.start for t in before]
        self.lows = mapping.starts([t.start for t in before])
        self.highs = mapping.ends_of([t.end for t in before])
        self._survived: dict[int, int] = {}  # see :meth:`survivors`
        self._held: list[Lexeme] | None = None  # see :meth:`_holding`
        self.kept: set[int] = set()  # positions (in ``before``) of kept tokens
        self.retyped: set[int] = set()  # ... of punctuation re-read as other punctuation
        self.covers: set[int] = set()  # ids of repaired lexemes that are a kept token's form
        self.joined: set[int] = set()  # ids of repaired lexemes that quote adjacent fields
        # ids of repaired strings whose lost quote the repair puts back -> the
        # input's stretch of their text and its words
        self.restored: dict[int, tuple[int, int, list[str]]] = {}
        self.commented, trailing = self._commented_out()
        self.commented_set = set(self.commented)
        self.trailing = set(trailing)  # of those, in a comment after text on its line
        # values the repair divides into several tokens by putting a
        # delimiter between their words (`This is prose` as `This: is prose`)
        self.divided = 0
        # of those, the words after the delimiter beyond the first
        self.phrase = 0
        self.unescaped = unescaped
        self.repunctuated = mapping.repunctuated

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

    def judgement(self) -> tuple[int, ...]:
        removed = quoted = 0
        for lexeme in self._holding():
            self._restore(lexeme)
        changed = 0
        misread = glued_to_junk(self.before, self.original)
        after, after_starts, lows, highs = self.after, self.after_starts, self.lows, self.highs
        for position in self._kept_in_place():
            token = self.before[position]
            if token.role is Role.JUNK:
                continue
            cover = None  # (:meth:`_cover`, inline)
            low, high = lows[position], highs[position]
            if low < high:
                index = bisect.bisect_right(after_starts, low) - 1
                if index >= 0 and after[index].end >= high:
                    cover = after[index]
            if (
                # the same token in the repaired text (:meth:`_kept`'s first answer for most)
                cover is not None
                and cover.value == token.value
                and cover.kind == token.kind
                and token.foreign is None
                and not token.partial
                and token.role is not Role.LAYOUT
            ) or self._kept(position, cover):
                self.kept.add(position)
                if cover is not None:
                    self.covers.add(id(cover))
                if token.foreign is not None and not token.value.strip():
                    removed += self._removed(token)
            else:
                quoted += self._quoted(position, cover)
                if self.survivors(position) and not misread[position]:
                    changed += self._changed(position, cover)
        changed += self._continued()
        data_lost, structure_lost, junk_lost, commented, escapes, tail, dropped = self._lost()
        invented, unfilled, punctuated = self._invented()
        invented += self._emptied()
        return (
            changed,
            data_lost,
            structure_lost,
            invented,
            unfilled,
            self._absorbed(),
            self._misshapen(),
            removed,
            len(self.kept),
            junk_lost,
            len(self.joined),
            sum(len(words) for _, _, words in self.restored.values()),
            commented,
            escapes,
            0,  # escapes kept: counted once per repair (:meth:`Judge.escapes_kept`)
            self.divided,
            quoted,
            self._misplaced(),
            self._unaligned(),
            self.phrase,
            tail,
            punctuated,
            dropped,
            self._prose_commented(),
            0,  # wrappers: counted once per repair (:func:`removed_wrappers`)
        )

    # -- tokens -------------------------------------------------------------

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
        start = token.end
        while start > token.start + 1 and not self.original[start - 1].isalnum():
            start -= 1
        inner = self.judge.lexer.lex(self.original, start, token.end, foreign=False)
        tail: list[str] = []
        for lexeme in reversed(inner):
            if lexeme.role is not Role.STRUCTURE:
                break
            tail.append(lexeme.value)
        written = "".join(reversed(tail))
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
        it from two fields of the record, and quoting it is no join."""
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
        return f"{separator} " not in outside and f"{separator}\t" not in outside

    def _reread(self, position: int, cover: Lexeme) -> bool:
        """Is the token at ``position`` a word of the text of ``cover``, a
        string whose lost quote the repair puts back (:meth:`_restore`)?"""
        found = self.restored.get(id(cover))
        token = self.before[position]
        return found is not None and found[0] - 1 <= token.start and token.end <= found[1] + 1

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

    def _removed(self, token: Lexeme) -> int:
        """Characters of a removed foreign token deleted, with the blanks around it."""
        text, deleted = self.original, self.deleted_set
        start, end = token.start, token.end
        while start > 0 and text[start - 1].isspace() and start - 1 in deleted:
            start -= 1
        while end < len(text) and text[end].isspace() and end in deleted:
            end += 1
        return sum(1 for offset in range(start, end) if offset in deleted)

    # -- characters ---------------------------------------------------------

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

    def _lost(self) -> tuple[int, int, int, int, int, int, int]:
        """Data characters deleted or overwritten; punctuation tokens so lost
        (or commented out) that were not duplicates or a hint's fix;
        characters no terminal reads, other than letters and digits, so
        lost; characters turned into a comment that would otherwise count as
        data or junk lost (the text stays in the file: hidden, not lost);
        and escapes deleted (:func:`escape_removed`); last, how many of the
        characters turned into a comment are in one that begins after text on
        its line; and separators deleted with a whole field beside them that
        holds a value (``dropped``, not counted as punctuation lost).  The
        characters of a wrapper the repair removes (:func:`removed_wrappers`) count
        in none."""
        original, tokens, starts = self.original, self.before, self.before_starts
        lost = junk = commented = escapes = 0
        tail = 0
        punctuation: set[int] = set()
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
        structure = dropped = 0
        separator = self.judge.lexer.hints.fields
        for index in punctuation:
            # a field separator written twice holds an empty field: dropped or not
            if self.before[index].value != separator and self._stray(index):
                continue
            field = self._dropped(index)
            structure += not field
            dropped += field
        return lost, structure, junk, commented, escapes, tail, dropped

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
        sides = [self._field_side(position, step) for step in (-1, 1)]
        if not any(whole for whole, _ in sides) or all(whole and v for whole, v in sides):
            return False  # nothing deleted whole, or a record deleted whole
        return any(whole and v for whole, v in sides) or not self.judge.empty_column()

    def _field_side(self, position: int, step: int) -> tuple[bool, bool]:
        """The field before (``step`` -1) or after (+1) the separator at
        ``position``: is it deleted whole, and does it hold a value?  A field
        that may go on outside the window counts as kept."""
        tokens, text = self.before, self.original
        index, valued, whole = position + step, False, True
        while 0 <= index < len(tokens):
            token, near = tokens[index], tokens[index - step]
            between = text[min(token.end, near.end) : max(token.start, near.start)]
            if "\n" in between or "\n" in token.value or token.value == tokens[position].value:
                return whole, valued
            valued = valued or bool(token.value.strip())
            whole = whole and all(
                text[o].isspace() or o in self.deleted_set for o in range(token.start, token.end)
            )
            index += step
        if step < 0 and not self.judge.starts_record(self.window.start):
            return False, valued  # the field may begin before the window
        return whole, valued

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
            if not (
                deeper_after(repaired, line, end, items=items)
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
