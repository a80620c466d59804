"""Completion as a generator: what a prefix lacks appended, and for an
incorrect input a rest dropped only where the loss rule would not call it lost."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from inputmend.algorithms.judgement import Judge
from inputmend.core.model import apply_edits
from inputmend.grammar.tolerant import Lexeme, TolerantLexer
from inputmend.repairs.generators.completion import COMPLETION, LEX_STEP, droppable
from tests.repairs.generators.run import context, proposed, texts

SLIPPED = '{"id": 7, "user": {"tags": ["admin", "ops"}, "name": "Ada", "team": "core"}'
"""A record that slipped once in its middle (a lost ``]``): most of its
data after the error."""


def test_a_rest_of_data_is_not_dropped_but_closed_in_place() -> None:
    found = context(SLIPPED, "json")
    error = found.feedback.error_offset
    assert error == SLIPPED.index("}") and not droppable(found, SLIPPED, error)
    closed = SLIPPED.replace('"ops"}', '"ops"]}')
    assert texts(proposed(COMPLETION, SLIPPED, "json")) == [closed]


def test_a_short_rest_is_dropped_as_before() -> None:
    text = '{"id": 7, "name": "Ada", "active": true, "team": "core"} x'
    found = context(text, "json")
    error = found.feedback.error_offset
    assert error is not None and droppable(found, text, error)
    assert '{"id": 7, "name": "Ada", "active": true, "team": "core"}' in texts(
        proposed(COMPLETION, text, "json")
    )


def test_prose_around_the_data_and_syntax_the_hints_remove_are_no_loss() -> None:
    data = '{"list": [1, 2}'
    prose = "\n\nLet me know if you need anything else with this list of values.\n"
    comment = " // the values are checked against the list of all the known ones\n"
    for rest in (prose, comment):
        text = data + rest
        found = context(text, "json")
        assert found.feedback.error_offset == data.index("}")
        assert droppable(found, text, data.index("}"))
    # the same number of characters of data after the error is lost
    text = data + ', "note": "' + prose.strip() + '"}'
    assert not droppable(context(text, "json"), text, data.index("}"))


def test_every_completion_is_the_text_after_its_edits() -> None:
    for repair in proposed(COMPLETION, SLIPPED, "json").repairs:
        assert apply_edits(SLIPPED, repair.edits) == repair.text


class _Counting:
    """A lexer that counts the characters it is asked to lex."""

    def __init__(self, lexer: TolerantLexer) -> None:
        self.lexer = lexer
        self.hints = lexer.hints
        self.asked = 0

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        self.asked += end - start
        return self.lexer.lex(text, start, end, foreign=foreign)


def test_a_long_rest_is_read_only_until_it_is_over_the_limit() -> None:
    items = ", ".join(f'"item {n}"' for n in range(10_000))
    text = '{"list": [1, 2}, "items": [' + items + "]}"
    found = context(text, "json")
    counting = _Counting(found.guidance.lexer)
    lexer = cast(TolerantLexer, counting)
    # completion reads the input's rest through the judge's lexing of it
    guidance = replace(found.guidance, lexer=lexer)
    counted = replace(found, guidance=guidance, judge=Judge(text, lexer))
    assert not droppable(counted, text, text.index("}"))
    assert 0 < counting.asked <= 2 * LEX_STEP  # not the 100 KB after it


def test_junk_punctuation_may_be_dropped_its_letters_not() -> None:
    # a drop of `@@@...` may do the data no harm, and the searches give way to it
    text = "[1]" + "@" * 40
    assert droppable(context(text, "json"), text, 3)
    worded = "[1]" + "@x" * 20
    assert not droppable(context(worded, "json"), worded, 3)
    # as many characters as the completion writes may be kept where it writes them
    assert droppable(context(worded, "json"), worded, 3, "x" * 20)
