"""Grammar oracle that parses every text from scratch with lark (the
reference the incremental oracle is tested against).

A grammar with a layout or name checks (indentation, matching tags) needs
more than lark: it is checked with a fresh scan of the whole text
(:meth:`~inputmend.grammar.scan.Scanner.fresh`, no work of earlier scans
reused), which the incremental oracle's reuse of checkpoints is tested against.

Answers COMPLETE / INCOMPLETE / INCORRECT with the parse boundary at
character granularity: a prefix that ends inside a token is INCOMPLETE when
the partial token can still grow into a token the parser accepts there.
Text containing a character that came from an undecodable byte is INCORRECT
at that character.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inputmend.core.oracle import COMPLETE, Feedback, Verdict
from inputmend.core.text import UNDECODABLE_MESSAGE, first_undecodable, snippet
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.scan import Scanner

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput


class ReferenceGrammarOracle:
    """Judges a text by parsing it from scratch with lark: the reference the
    tests hold :class:`~inputmend.oracles.incremental.IncrementalGrammarOracle`
    to.  Slow on large texts (every check parses all of it); programs use the
    incremental oracle (:func:`inputmend.repair`, :mod:`~inputmend.oracles.factory`)."""

    def __init__(self, grammar: str | CompiledGrammar, *, base_dir: Path | None = None) -> None:
        if not isinstance(grammar, CompiledGrammar):
            grammar = CompiledGrammar.load(grammar, base_dir=base_dir)
        self.grammar = grammar
        self._scanner: Scanner | None = None
        if grammar.layout is not None or grammar.checks is not None:
            self._scanner = Scanner(grammar, checkpoint_every=1 << 30, margin=0)

    def describe(self) -> str:
        info = self.grammar.info
        return f"grammar {info.name} ({info.title}, {info.path})"

    def close(self) -> None:
        pass

    def check(self, text: str) -> Feedback:
        if self._scanner is not None:
            feedback = self._scanner.fresh(text).feedback
            self._scanner.clear()
            return feedback
        bad = first_undecodable(text)
        limit = len(text) if bad is None else bad
        feedback = self._check(text[:limit])
        if bad is None:
            return feedback
        if feedback.verdict is Verdict.INCORRECT:
            return feedback
        return Feedback(Verdict.INCORRECT, bad, UNDECODABLE_MESSAGE)

    def _accepts_after(self, prefix: str) -> set[str]:
        interactive = self.grammar.parser.parse_interactive(prefix)
        interactive.exhaust_lexer()
        accepted: set[str] = interactive.accepts()  # type: ignore[no-untyped-call]
        return accepted

    def _check(self, text: str) -> Feedback:
        # here: lark is imported by the commands that run this oracle only
        from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

        try:
            self.grammar.parser.parse(text)
        except UnexpectedEOF:
            return Feedback(Verdict.INCOMPLETE, len(text), "unexpected end of input")
        except UnexpectedToken as error:
            token = error.token
            if token.type == "$END":
                return Feedback(Verdict.INCOMPLETE, len(text), "unexpected end of input")
            starts = [token.start_pos]
            history = error.token_history or []
            if history and history[-1] is not None and history[-1].end_pos == token.start_pos:
                starts.append(history[-1].start_pos)
            return self._incorrect(text, starts, error, f"`{snippet(str(token))}`")
        except UnexpectedCharacters as error:
            position = error.pos_in_stream or 0
            starts = [position]
            history = error.token_history or []
            if history and history[-1] is not None and history[-1].end_pos == position:
                starts.append(history[-1].start_pos)
            found = f"`{snippet(text[position : position + 1])}`"
            return self._incorrect(text, starts, error, found)
        except RecursionError:
            return Feedback(Verdict.INCORRECT, None, "input nested too deeply for this parser")
        return COMPLETE

    def _incorrect(
        self, text: str, starts: list[int], error: UnexpectedInput, found: str
    ) -> Feedback:
        """Find the character-level parse boundary behind a token-level error."""
        from lark.exceptions import UnexpectedInput

        boundary = starts[0]
        expected: set[str] = set()
        for start in starts:
            try:
                accepts = self._accepts_after(text[:start])
            except UnexpectedInput:
                continue
            if start == starts[0]:
                expected = accepts
            boundary = max(boundary, start + self.grammar.partial_extent(text, start, accepts))
        if boundary >= len(text):
            return Feedback(Verdict.INCOMPLETE, len(text), "unexpected end of input")
        if boundary > starts[0]:
            found = f"`{snippet(text[boundary])}`"
        elif not expected:
            expected = set(getattr(error, "expected", None) or getattr(error, "allowed", ()) or ())
        message = f"unexpected {found}; expected {self.grammar.expected(expected)}"
        return Feedback(Verdict.INCORRECT, boundary, message)
