"""Grammar oracle from a lark LALR grammar (from-scratch reference version).

Answers COMPLETE / INCOMPLETE / INCORRECT with the parse boundary at
character granularity: a prefix that ends inside a token is INCOMPLETE when
the partial token can still grow into a token the parser accepts there.
Text containing a character that came from an undecodable byte is INCORRECT
at that character.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lark
import regex
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from inputmend import grammars
from inputmend.core.text import UNDECODABLE_MESSAGE, first_undecodable, snippet
from inputmend.oracles.base import COMPLETE, Feedback, Verdict


@dataclass
class CompiledGrammar:
    """A built lark parser plus what prefix checks need: terminal regexes
    usable for partial matching, ignored terminals, printable names."""

    info: grammars.GrammarInfo
    parser: lark.Lark
    patterns: dict[str, Any] = field(default_factory=dict)
    literals: dict[str, str] = field(default_factory=dict)
    ignored: frozenset[str] = frozenset()

    @classmethod
    def load(cls, name_or_path: str, *, base_dir: Path | None = None) -> CompiledGrammar:
        info = grammars.resolve(name_or_path, base_dir=base_dir)
        parser = grammars.build_parser(info)
        ignored = frozenset(str.__str__(name) for name in parser.lexer_conf.ignore)
        compiled = cls(info, parser, ignored=ignored)
        for terminal in parser.terminals:
            pattern = terminal.pattern
            name = str.__str__(terminal.name)  # plain str: lark may hand out Tokens
            compiled.patterns[name] = regex.compile(pattern.to_regexp())
            if pattern.type == "str":
                compiled.literals[name] = pattern.value
        return compiled

    def display(self, terminal: str) -> str:
        """How to name a terminal to a user: its text if literal, else its name."""
        if terminal == "$END":
            return "end of input"
        literal = self.literals.get(terminal)
        if literal is not None:
            return f"`{literal}`"
        return terminal.lower().lstrip("_").replace("_", " ")

    def expected(self, terminals: set[str] | frozenset[str]) -> str:
        names = sorted({self.display(t) for t in terminals if t not in self.ignored})
        if not names:
            return "nothing more"
        if len(names) > 8:
            names = [*names[:8], "…"]
        return ", ".join(names)

    def partial_extent(self, text: str, start: int, terminals: set[str] | frozenset[str]) -> int:
        """How many characters from ``start`` are a prefix (or all) of a token of
        one of ``terminals``, or of an ignored token; 0 if none."""
        best = 0
        for name in set(terminals) | self.ignored:
            pattern = self.patterns.get(name)
            if pattern is None:
                continue
            best = max(best, prefix_extent(pattern, text, start))
        return best


def prefix_extent(pattern: Any, text: str, start: int, end: int | None = None) -> int:
    """Longest ``k`` such that ``text[start:start+k]`` (within ``end``) is, or
    can still grow into, a match of ``pattern`` (a ``regex`` pattern)."""
    end = len(text) if end is None else end
    if start >= end or pattern.fullmatch(text, start, start + 1, partial=True) is None:
        return 0  # cannot even start here: the common case, one regex call
    if pattern.fullmatch(text, start, end, partial=True) is not None:
        return end - start
    low, high = 0, end - start  # extent ``low`` is always possible (k=0)
    while low < high:
        middle = (low + high + 1) // 2
        if pattern.fullmatch(text, start, start + middle, partial=True) is not None:
            low = middle
        else:
            high = middle - 1
    return low


class GrammarOracle:
    """Judges a text by parsing it from scratch with lark."""

    def __init__(self, grammar: str | CompiledGrammar, *, base_dir: Path | None = None) -> None:
        if not isinstance(grammar, CompiledGrammar):
            grammar = CompiledGrammar.load(grammar, base_dir=base_dir)
        self.grammar = grammar

    def describe(self) -> str:
        info = self.grammar.info
        return f"grammar {info.name} ({info.title}, {info.path})"

    def close(self) -> None:
        pass

    def check(self, text: str) -> Feedback:
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
