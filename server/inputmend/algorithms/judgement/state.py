"""What one repair's judgement in one window knows: the input's and the
repaired text's lexemes there, the edits' offsets, and what the criteria
found so far (kept tokens, comments the repair starts, restored strings).
Each group of criteria is a mixin over this state; :class:`Assessment
<inputmend.algorithms.judgement.assessment.Assessment>` sets it up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inputmend.algorithms.judgement.edits import EditMap, Window
from inputmend.algorithms.judgement.text import Runs
from inputmend.grammar.tolerant import Lexeme

if TYPE_CHECKING:
    from inputmend.algorithms.judgement.judge import Judge


class AssessmentState:
    """The state the criteria of one repair's judgement in one window share
    (each attribute is set by :class:`Assessment
    <inputmend.algorithms.judgement.assessment.Assessment>`)."""

    judge: Judge
    wrapping: set[int]  # input offsets of the wrappers the repair removes
    original: str
    window: Window
    repaired: str
    mapping: EditMap
    deleted: list[int]  # input offsets deleted in the window
    deleted_set: set[int]
    inserted: list[int]  # repaired offsets inserted
    inserted_runs: Runs  # of the whole repair
    before: list[Lexeme]  # the input's lexemes in the window
    after: list[Lexeme]  # the repaired text's lexemes there
    after_starts: list[int]
    before_starts: list[int]
    lows: list[int]  # where each of ``before`` starts in the repaired text
    highs: list[int]  # ... and ends
    _survived: dict[int, int]  # see :meth:`TokenCriteria.survivors`
    _held: list[Lexeme] | None  # see :meth:`LayoutCriteria._holding`
    kept: set[int]  # positions (in ``before``) of kept tokens
    retyped: set[int]  # ... of punctuation re-read as other punctuation
    covers: set[int]  # ids of repaired lexemes that are a kept token's form
    joined: set[int]  # ids of repaired lexemes that quote adjacent fields
    # ids of repaired strings whose lost quote the repair puts back -> the
    # input's stretch of their text and its words
    restored: dict[int, tuple[int, int, list[str]]]
    commented: list[int]  # input offsets the repair turns into a comment
    commented_set: set[int]
    trailing: set[int]  # of those, in a comment after text on its line
    divided: int  # values divided into several tokens (see ``Judgement.divided``)
    phrase: int  # of those, the words after the delimiter beyond the first
    unescaped: dict[int, bool]
    repunctuated: dict[int, str]
