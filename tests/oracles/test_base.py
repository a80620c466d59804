"""The oracle interface's shared rules: where an error is shown."""

from __future__ import annotations

from inputmend.core.model import Span
from inputmend.core.oracle import Feedback, Verdict, error_span


def test_an_incorrect_input_marks_the_character_at_the_boundary() -> None:
    assert error_span("[1,,2]", Feedback(Verdict.INCORRECT, 3)) == Span(3, 4)


def test_an_input_that_ends_too_early_marks_its_last_character() -> None:
    assert error_span("[1, 2", Feedback(Verdict.INCOMPLETE, 5)) == Span(4, 5)
    assert error_span("", Feedback(Verdict.INCOMPLETE, 0)) == Span(0, 0)


def test_an_unknown_position_is_the_end() -> None:
    assert error_span("xyz", Feedback(Verdict.INCORRECT)) == Span(3, 3)
