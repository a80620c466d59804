"""The judgement of one repair in one window: the state set up, then every
group of criteria asked in order.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from inputmend.algorithms.judgement.comments import CommentCriteria
from inputmend.algorithms.judgement.edits import EditMap, Window
from inputmend.algorithms.judgement.layout import LayoutCriteria
from inputmend.algorithms.judgement.loss import LossCriteria
from inputmend.algorithms.judgement.text import Runs, glued_to_junk, within
from inputmend.algorithms.judgement.tokens import TokenCriteria
from inputmend.grammar.tolerant import Lexeme, Role

if TYPE_CHECKING:
    from inputmend.algorithms.judgement.judge import Judge


class Assessment(TokenCriteria, CommentCriteria, LossCriteria, LayoutCriteria):
    """The judgement of one repair in one window: the state the criteria
    share (:class:`~inputmend.algorithms.judgement.state.AssessmentState`),
    set up here, and one mixin for each group of criteria."""

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
        lost = self._lost()
        data_lost, structure_lost, junk_lost, commented, escapes, tail, dropped, in_fields = lost
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
            in_fields,
            self._prose_commented(),
            0,  # wrappers: counted once per repair (:func:`removed_wrappers`)
        )
