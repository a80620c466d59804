"""The one oracle interface: does the program accept this input?

An oracle answers with :class:`Feedback`: a three-way :class:`Verdict` for
FSynth (complete / incomplete prefix / incorrect) plus, when the oracle knows
it, the parse boundary.  Delta debugging needs only a test :class:`Outcome`,
which every feedback derives.  DDSET asks a :class:`Predicate` instead: does
the program under test fail the same way as on the original input?
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from inputmend.core.model import Span


class Outcome(enum.Enum):
    """Result of a delta-debugging test (Zeller's dd): pass, fail, or unresolved."""

    PASS = "PASS"
    FAIL = "FAIL"
    UNRESOLVED = "UNRESOLVED"


class Verdict(enum.Enum):
    """Prefix feedback: is the input valid, a prefix of a valid input, or neither?"""

    COMPLETE = "complete"
    INCOMPLETE = "incomplete"
    INCORRECT = "incorrect"


@dataclass(frozen=True, slots=True)
class Feedback:
    """One oracle answer.

    ``error_offset`` is the parse boundary when known: ``text[:error_offset]``
    is a valid prefix and the character at ``error_offset`` makes it incorrect
    (``len(text)`` for an incomplete input, ``None`` when valid or unknown).
    """

    verdict: Verdict
    error_offset: int | None = None
    message: str = ""
    beyond_syntax: bool = False
    """Refused by a rule beyond the syntax, in a text the parser reads: a
    name check of the grammar (an attribute twice in a tag) or the format's
    loader (a TOML key set twice, a CSV record of another width)."""

    @property
    def outcome(self) -> Outcome:
        """The dd outcome for "the program accepts this input"."""
        return Outcome.PASS if self.verdict is Verdict.COMPLETE else Outcome.FAIL

    @property
    def valid(self) -> bool:
        return self.verdict is Verdict.COMPLETE


COMPLETE = Feedback(Verdict.COMPLETE)


def error_span(text: str, feedback: Feedback) -> Span:
    """Where the oracle stopped accepting ``text``, as a range to show: the
    character at the parse boundary, or the last character when the text
    just ends too early (a zero-width range at the end is hard to see)."""
    size = len(text)
    offset = feedback.error_offset if feedback.error_offset is not None else size
    incomplete = feedback.verdict is Verdict.INCOMPLETE
    end = offset if incomplete else min(offset + 1, size)
    if end == offset and offset > 0 and incomplete:
        offset -= 1
    return Span(offset, max(end, offset))


@runtime_checkable
class Oracle(Protocol):
    """Anything that can judge a text.  Implementations must be deterministic."""

    def check(self, text: str) -> Feedback:
        """Judge ``text``; never raises for bad input (a crash is a verdict)."""
        ...

    def describe(self) -> str:
        """A one-line, printable description of the configuration."""
        ...

    def close(self) -> None:
        """Release processes and temporary files."""
        ...


@runtime_checkable
class Predicate(Protocol):
    """A test for DDSET: PASS, FAIL (the original failure) or UNRESOLVED."""

    def __call__(self, text: str) -> Outcome: ...


class OracleConfigError(ValueError):
    """The oracle cannot be built as configured (unknown grammar, bad regex, ...)."""
