"""Error-tolerant lexing that knows foreign syntax: what the ranking reads.

Judging a repair means comparing what the input's tokens were with what the
repaired text makes of them.  :class:`GrammarLexer` lexes any stretch of a
text with a grammar's terminals (longest match, as
:func:`~inputmend.grammar.lexer.lex_typed`) and, when asked, with the foreign
tokens of its hints: a foreign token is read where it matches at least as much
as any terminal (``'a'`` in JSON, where ``'`` is junk) and stands for its
canonical form (the string ``"a"``).  Without a grammar, :class:`GenericLexer`
reads words, numbers, quoted strings and punctuation.

Every lexeme has a *role*: **data** (values, names, keywords: a lark pattern
terminal or a literal with a letter or digit), **structure** (punctuation: a
literal without letters or digits, a terminal whose name starts with ``_``,
which lark leaves out of trees, or a token whose text the grammar's name
stack dictates, such as XML's end tag, which repeats its start tag's name and
holds no data of its own), **layout** (comments: ignored terminals other
than whitespace; foreign comments and wrappers) or **junk** (a character no
terminal matches).  A hints file's ``[roles]`` overrides the first three.
Whitespace is no lexeme at all.

Longest match reads a text without its context.  Where a grammar's terminals
overlap so that only the context tells them apart (XML's ``>`` ends a tag,
and ``>b`` is also character data), its hints say ``contextual = true``: the
lexer then prefers the terminals the parser could take after the tokens
before (:class:`_Context`), and falls back to any terminal where none of them
matches (broken text).

Where the C extension is built, :meth:`GrammarLexer.lex`'s loop runs in C
(:meth:`~inputmend.grammar.native.Native.tolerant`) for a lexer without a
parser context: it reads what it can exactly as the Python loop does, tries
the hints' foreign tokens at a place as :meth:`_ForeignTokens.longest` does
(their patterns called from C, no Python loop around them: a document has a
string at every other token), and calls back to make a foreign token's
lexeme and for each place it cannot read (one turn of the Python loop), so
the lexemes are the same with or without it.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from inputmend.grammar import patterns
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import NO_HINTS, Hints, Rewrite
from inputmend.grammar.native import (
    MAX_DFA_STATES,
    _alphabet,
    _dfa_from_plain,
    _Nfa,
    _reachable,
    extension_path,
)
from inputmend.grammar.regex import RegexItem, UnsupportedRegex, _char_set, _CharClass, parse_regex


class Role(enum.Enum):
    DATA = "data"
    STRUCTURE = "structure"
    LAYOUT = "layout"
    JUNK = "junk"


@dataclass(frozen=True, slots=True)
class Lexeme:
    """A token of a possibly broken text.

    ``value`` is the token's canonical text: the text itself, or for a foreign
    token the canonical form its hint gives (``""`` when it is to be removed).
    ``kind`` is the terminal (of the canonical form, for a foreign token), or
    the kind of value its hints say it holds; ``None`` for junk and for what
    has no terminal.  ``partial``: a token cut
    off by the end of the text (``"fo`` of a string, ``tr`` of ``true``).
    ``guessed``: read where a contextual lexer expected none of the
    terminals that match (broken text: its kind is a guess)."""

    kind: str | None
    start: int
    end: int
    value: str
    role: Role
    foreign: str | None = None
    partial: bool = False
    guessed: bool = False


class TolerantLexer(Protocol):
    """Lexes any stretch of a text; the stretch should begin at a token start."""

    hints: Hints

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        """The lexemes that start in ``text[start:end]`` (the last may reach
        past ``end``); foreign tokens only when ``foreign``."""
        ...


FOREIGN_REACH = 1 << 12
"""Characters a foreign token of the hints may span (a comment, a string
with the line breaks typed into it)."""


CLASSIFIED = 1 << 12
"""Canonical texts whose reading :meth:`GrammarLexer.classify` keeps: one
lexer serves every request of a process (a server, millions of records), and
the canonical forms of their foreign tokens are as many as their texts."""


REACHED_FROM = 1 << 12
"""Characters from which the C loop rules out foreign tokens by their
patterns' reach (see :func:`reach_dfa`) before it runs them: the automata
are built once per lexer, when it first reads a text this long or has read
this many characters in all (the repairs of a stream of records or of many
small inputs: a record of 180 characters of JSON, read a few times by its
judge and completion, is then read in about half the time).  They are kept
in the grammar cache (:func:`reach_dfas`): read back, they cost about what
trying the foreign tokens without them costs in this many characters
(about 15 ms to work out the first time)."""


_NO_TRIES = (None, None, None, 1, None)
"""The C loop's arguments for foreign tokens, where there are none."""


Tried = tuple[Rewrite, Any, str | None, tuple[frozenset[str], ...]]
"""A rewrite as :meth:`_ForeignTokens.longest` tries it: with its pattern's
match, the character its matches end with and the sets of characters each of
its matches holds one of."""


class _Held:
    """What one text holds, as the foreign tokens ask it: a rewrite each of
    whose matches holds one of a set of characters (its
    :attr:`~inputmend.grammar.hints.Rewrite.required_chars`) that the text
    lacks cannot match anywhere in it, and is not run at any of its places
    (a JSON string's hints for backslashes, tabs or a `+`, in a record that
    has none).  Each set is looked for once per text, however many
    stretches of it are lexed (a judge lexes a document's windows one by
    one)."""

    __slots__ = ("_held", "_usable", "text", "tries")

    def __init__(self, text: str) -> None:
        self.text = text
        self._held: dict[tuple[frozenset[str], ...], bool] = {}
        self._usable: dict[str, list[Tried]] = {}
        # per ASCII character, the C loop's tries there (see
        # :meth:`_ForeignTokens.tries`), None until it first asks
        self.tries: list[tuple[tuple[Any, int, Rewrite], ...] | None] = [None] * 128

    def usable(self, char: str, rewrites: list[Tried]) -> list[Tried]:
        """The ``rewrites`` tried at a ``char`` whose matches the text may hold."""
        found = self._usable.get(char)
        if found is None:
            found = self._usable[char] = [
                tried for tried in rewrites if not tried[3] or self._holds(tried[3])
            ]
        return found

    def _holds(self, needed: tuple[frozenset[str], ...]) -> bool:
        """Does the text hold one character of each set of ``needed``?"""
        found = self._held.get(needed)
        if found is None:
            text = self.text
            found = self._held[needed] = all(
                any(char in text for char in chars) for chars in needed
            )
        return found


class _ForeignTokens:
    """The lexing side of a grammar's hints: foreign tokens by first character."""

    def __init__(self, hints: Hints) -> None:
        starts = [(rewrite, rewrite.first_chars) for rewrite in hints.tokens]
        chars = set().union(*(found for _, found in starts if found is not None))
        self.any_start = [self._tried(rewrite) for rewrite, found in starts if found is None]
        self.by_char = {  # in the order of the hints file
            char: [
                self._tried(rewrite) for rewrite, found in starts if found is None or char in found
            ]
            for char in chars
        }
        self._last: _Held | None = None

    def held(self, text: str) -> _Held:
        """What ``text`` holds (:class:`_Held`): the last text's is kept, so
        the stretches of one text lexed one after another look once (a
        reference to that one text is kept until another is lexed)."""
        last = self._last
        if last is None or last.text is not text:
            last = self._last = _Held(text)
        return last

    @staticmethod
    def _tried(rewrite: Rewrite) -> Tried:
        """A rewrite as :meth:`longest` tries it: with its pattern's match,
        the character its matches end with and the sets of characters each
        of its matches holds one of."""
        return rewrite, rewrite.pattern.match, rewrite.last_char, rewrite.required_chars

    def tries(
        self, held: _Held, numbers: dict[Rewrite, int], code: int
    ) -> tuple[tuple[Any, int, Rewrite, int], ...]:
        """The foreign tokens :meth:`longest` tries at the character ``code``
        in the text ``held`` tells of, as the C loop tries them: each
        pattern's match, the code of the character its matches end with
        (-1: none known), the rewrite and the number of its reach automaton
        in ``numbers`` (-1: none)."""
        char = chr(code)
        rewrites = self.by_char.get(char, self.any_start)
        if rewrites:
            rewrites = held.usable(char, rewrites)
        return tuple(
            (match, -1 if last is None else ord(last), rewrite, numbers.get(rewrite, -1))
            for rewrite, match, last, _ in rewrites
        )

    def may_start(self, char: str) -> bool:
        """Can a foreign token begin with ``char``?"""
        return bool(self.any_start) or char in self.by_char

    def longest(
        self, text: str, position: int, held: _Held | None = None
    ) -> tuple[Rewrite, Any] | None:
        """The longest foreign token at ``position`` (the first hint on ties),
        of at most :data:`FOREIGN_REACH` characters: a pattern that looks for a
        string's line break must not read a long string at every quote (nor
        at all where the character its matches end with does not follow, or
        where the text lacks a character every match holds, as ``held``,
        what it holds, tells)."""
        char = text[position]
        rewrites = self.by_char.get(char, self.any_start)
        if rewrites and held is not None:
            rewrites = held.usable(char, rewrites)
        if not rewrites:
            return None
        best: tuple[Rewrite, Any] | None = None
        best_end = position  # a match must take a character
        reach = min(len(text), position + FOREIGN_REACH)
        lasts: dict[str, bool] = {}  # does the character follow (the rewrites share a few)
        for rewrite, match, last, _ in rewrites:
            if last is not None:
                follows = lasts.get(last)
                if follows is None:
                    follows = lasts[last] = text.find(last, position + 1, reach) >= 0
                if not follows:
                    continue
            found = match(text, position, reach)
            if found is not None and found.end() > best_end:
                best, best_end = (rewrite, found), found.end()
        return best


class GrammarLexer:
    """The error-tolerant lexer of a grammar, with its hints' foreign tokens
    (``native=False``: its loop in Python even where the C one is built)."""

    def __init__(
        self, grammar: CompiledGrammar, hints: Hints = NO_HINTS, *, native: bool = True
    ) -> None:
        self.grammar = grammar
        self.hints = hints
        self._foreign = _ForeignTokens(hints)
        self._order = [t.name for t in grammar.lexing_order]
        self._roles: dict[str, Role] = {name: self._role(name) for name in grammar.terminals}
        self._kinds = {name: hints.kinds.get(name, name) for name in grammar.terminals}
        self._starters: dict[str, list[str]] = {}
        self._lone: dict[str, str | None] = {}
        self._canonical: dict[str, tuple[str | None, Role]] = {}
        self._context = _Context(grammar) if hints.contextual else None
        # the loop in C: False until first built, None where there is none
        self._tolerant: Any = False if native else None
        # the hints' reach automata in C and each rewrite's number among
        # them (see :func:`reach_dfa`), built for the first long text or
        # once ``_read`` characters have been read with foreign tokens
        self._reaches: tuple[Any, dict[Rewrite, int]] = (None, {})
        self._read = 0
        # its callback for a text read without foreign tokens
        self._plain = functools.partial(self._step_free, None)

    def _role(self, name: str) -> Role:
        declared = self.hints.roles.get(name)
        if declared is not None:
            return Role(declared)
        if name in self.grammar.ignored:
            return Role.LAYOUT
        checks = self.grammar.checks
        if checks is not None and name in checks.dictated:
            return Role.STRUCTURE
        literal = self.grammar.terminals[name].literal
        if name.startswith("_") or (literal is not None and not any(c.isalnum() for c in literal)):
            return Role.STRUCTURE
        return Role.DATA

    def _candidates(self, char: str) -> list[str]:
        found = self._starters.get(char)
        if found is None:
            starters = self.grammar.starters(char)
            found = self._starters[char] = [name for name in self._order if name in starters]
        return found

    def _lone_literal(self, char: str) -> str | None:
        """The literal terminal that is ``char`` alone when no other terminal
        begins with it (a bracket): its token there is that character, never
        a longer or cut-off one (a run of closers is read at a glance)."""
        if char not in self._lone:
            candidates = self._candidates(char)
            lone = candidates[0] if len(candidates) == 1 else None
            self._lone[char] = lone if self.grammar.literals.get(lone or "") == char else None
        return self._lone[char]

    def _native(
        self, text: str, position: int, states: frozenset[int] | None
    ) -> tuple[str | None, int, bool]:
        """The longest token at ``position``: of a terminal the parser could
        take in one of ``states`` when the lexer is contextual and one
        matches; else of any terminal, literals first, then guessed (the
        third value)."""
        candidates = self._candidates(text[position])
        context = self._context
        if context is not None and states is not None:
            allowed = context.allowed(states)
            expected = [name for name in candidates if name in allowed]
            name, end = self._longest(text, position, expected)
            if name is not None:
                return name, end, False
            # broken text: punctuation reads as itself (the second `=` of
            # `a=="x"`), anything else as the longest token
            literals = [name for name in candidates if name in self.grammar.literals]
            name, end = self._longest(text, position, literals)
            if name is None:
                name, end = self._longest(text, position, candidates)
            return name, end, True
        name, end = self._longest(text, position, candidates)
        return name, end, False

    def _longest(self, text: str, position: int, names: list[str]) -> tuple[str | None, int]:
        best_name: str | None = None
        best_end = position
        patterns = self.grammar.patterns
        native = self.grammar.native_program
        for name in names:
            end = None if native is None else native.match_end(name, text, position)
            if end is None:
                found = patterns[name].match(text, position)
                end = -1 if found is None else found.end()
            if end > best_end:
                best_name, best_end = name, end
        return best_name, best_end

    def _partial(
        self, text: str, position: int, allowed: frozenset[str] | None = None
    ) -> str | None:
        """The terminal a cut-off token at the end of ``text`` would belong to
        (one of ``allowed``, when the context says what the parser takes)."""
        patterns = self.grammar.patterns
        native = self.grammar.native_program
        rest = len(text) - position
        for name in self._candidates(text[position]):
            if name in self.grammar.ignored or (allowed is not None and name not in allowed):
                continue
            # (all the rest can still grow into a token: the DFA reads it to the end)
            extent = None if native is None else native.extent(name, text, position, len(text))
            if extent is None:
                viable = patterns[name].fullmatch(text, position, partial=True) is not None
            else:
                viable = extent == rest
            if viable:
                return name
        return None

    def _unclosed(self, text: str, position: int) -> tuple[str, int] | None:
        """The ignored terminal (a block comment) that begins at ``position``
        without ending anywhere (no token matched there), and the end of its
        line; None when none begins there.  Only the line is read: a text
        of many such lines costs no more than one pass."""
        patterns = self.grammar.patterns
        ignored = [
            name for name in self._candidates(text[position]) if name in self.grammar.ignored
        ]
        if not ignored:
            return None
        line_end = text.find("\n", position)
        line_end = len(text) if line_end < 0 else line_end
        for name in ignored:
            if patterns[name].fullmatch(text, position, line_end, partial=True):
                return name, line_end
        return None

    def classify(self, canonical: str) -> tuple[str | None, Role]:
        """The terminal and role of a canonical text (``None``, layout: removed;
        ``None``, data: more than one token)."""
        known = self._canonical.get(canonical)
        if known is None:
            if not canonical.strip():
                known = (None, Role.LAYOUT)
            else:
                lexemes = self.lex(canonical, 0, len(canonical), foreign=False)
                if len(lexemes) == 1 and (lexemes[0].start, lexemes[0].end) == (0, len(canonical)):
                    known = (lexemes[0].kind, lexemes[0].role)
                else:
                    known = (None, Role.DATA)
            if len(self._canonical) >= CLASSIFIED:
                self._canonical.clear()
            self._canonical[canonical] = known
        return known

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        lexemes: list[Lexeme] = []
        held = self._foreign.held(text) if foreign else None
        loop = self._loop()
        if loop is not None and start >= 0 and end <= len(text):
            if held is None:
                loop.lex(text, start, end, foreign, lexemes, self._plain, *_NO_TRIES)
            else:
                reaches, numbers = self._reaches_for(text, end - start)
                loop.lex(
                    text,
                    start,
                    end,
                    foreign,
                    lexemes,
                    functools.partial(self._step_free, held),
                    held.tries,
                    functools.partial(self._foreign.tries, held, numbers),
                    self._found,
                    FOREIGN_REACH,
                    reaches,
                )
            return lexemes
        position = start
        states: frozenset[int] | None = None  # where the parser may be (None: unknown)
        while position < end:
            position, states = self._step(text, position, foreign, states, lexemes, held)
            if position < 0:
                break
        return lexemes

    def _loop(self) -> Any:
        """The loop of :meth:`lex` in C (:meth:`~inputmend.grammar.native.Native.tolerant`),
        built on first use; None without the extension, when the lexer is
        contextual or when it was made without it."""
        if self._tolerant is False:
            native = self.grammar.native_program
            if native is None or self._context is not None:
                self._tolerant = None
            else:
                chars = [chr(code) for code in range(128)]
                self._tolerant = native.tolerant(
                    [self._candidates(char) for char in chars],
                    [self._lone_literal(char) for char in chars],
                    [self._foreign.may_start(char) for char in chars],
                    self._kinds,
                    self._roles,
                    Lexeme,
                    Role.JUNK,
                )
        return self._tolerant

    def _reaches_for(self, text: str, read: int) -> tuple[Any, dict[Rewrite, int]]:
        """The reach automata of the hints' foreign tokens in C and each
        rewrite's number among them, built the first time a text of at least
        :data:`REACHED_FROM` characters is lexed, or once the stretches
        lexed (``read``: the characters of this one) add up to as many (none
        before: a short text costs less to read than they cost to build).
        Either way the lexemes are the same: the automata only rule out
        patterns that cannot match."""
        if self._reaches[0] is not None:
            return self._reaches
        self._read += read
        if len(text) >= REACHED_FROM or self._read >= REACHED_FROM:
            native = self.grammar.native_program
            numbers: dict[Rewrite, int] = {}
            specs: list[tuple[Any, ...]] = []
            sources = tuple((r.pattern.pattern, r.pattern.flags) for r in self.hints.tokens)
            for rewrite, spec in zip(self.hints.tokens, reach_dfas(sources), strict=True):
                if spec is not None:
                    numbers[rewrite] = len(specs)
                    specs.append(spec)
            self._reaches = (None if native is None else native.reaches(specs), numbers)
        return self._reaches

    def _step_free(
        self,
        held: _Held | None,
        text: str,
        position: int,
        end: int,
        foreign: bool,
        lexemes: list[Lexeme],
    ) -> int:
        """One turn of :meth:`lex`'s loop without a parser context: where
        the C loop cannot read a place as this loop does (``held``: what the
        text holds, see :class:`_Held`)."""
        return self._step(text, position, foreign, None, lexemes, held)[0]

    def _hint(
        self,
        held: _Held | None,
        text: str,
        position: int,
        token_end: int,
        foreign: bool,
        lexemes: list[Lexeme],
    ) -> int:
        """Appends the foreign token at ``position`` when one reaches at least
        to ``token_end`` (where the terminals' token ends): its end; -1 when
        there is none.  ``held``: what the text holds (:class:`_Held`)."""
        hint = self._foreign.longest(text, position, held)
        if hint is None or hint[1].end() < token_end:
            return -1
        return self._found(text, position, hint[0], hint[1], lexemes)

    def _found(
        self, text: str, position: int, rewrite: Rewrite, found: Any, lexemes: list[Lexeme]
    ) -> int:
        """Appends the foreign token of ``rewrite`` that ``found`` matched at
        ``position``: its end."""
        del text  # (the C loop's callbacks all take the text first)
        value = rewrite.canonical(found)
        kind, role = self.classify(value)
        lexemes.append(Lexeme(kind, position, found.end(), value, role, rewrite.name))
        return int(found.end())

    def _step(
        self,
        text: str,
        position: int,
        foreign: bool,
        states: frozenset[int] | None,
        lexemes: list[Lexeme],
        held: _Held | None = None,
    ) -> tuple[int, frozenset[int] | None]:
        """One turn of :meth:`lex`'s loop: appends the lexeme that begins at
        ``position`` (if any) and gives the position after it, -1 where the
        lexing ends (a token cut off by the end of the text), and the
        parser's states after it (``held``: what the text holds, see
        :class:`_Held`)."""
        size = len(text)
        context = self._context
        char = text[position]
        starts = self._candidates(char)
        if not starts and not (foreign and self._foreign.may_start(char)):
            if not char.isspace():  # no token of any kind begins with it: junk
                lexemes.append(Lexeme(None, position, position + 1, char, Role.JUNK))
                states = None
            return position + 1, states
        lone = self._lone_literal(char)
        if lone is None:
            name, token_end, guessed = self._native(text, position, states)
        else:
            name, token_end, guessed = lone, position + 1, False
            if context is not None and states is not None:  # a guess where not expected
                guessed = lone not in context.allowed(states)
        if foreign and (hinted := self._hint(held, text, position, token_end, True, lexemes)) >= 0:
            return hinted, None
        # a token the end of the text cuts off, also where a shorter token
        # matches (`""` of a cut-off `"""` string), of a terminal the
        # parser takes there; in broken text the native reading stands
        partial = None
        if lone is None and (name is None or (token_end < size and not guessed)):
            allowed = None  # what the parser takes, when the context knows it
            if context is not None and states is not None and name is not None:
                allowed = context.allowed(states)
            partial = self._partial(text, position, allowed)
        if partial is not None:
            role = self._roles[partial]
            kind = self._kinds[partial]
            lexemes.append(Lexeme(kind, position, size, text[position:], role, None, True))
            return -1, states
        if name is None and (unclosed := self._unclosed(text, position)) is not None:
            # a comment that lost its end reads to the end of its line,
            # not over the rest of the text: what follows is still data
            lexemes.append(
                Lexeme(
                    unclosed[0],
                    position,
                    unclosed[1],
                    text[position : unclosed[1]],
                    Role.LAYOUT,
                )
            )
            return unclosed[1], None
        if name is None:
            lexemes.append(Lexeme(None, position, position + 1, text[position], Role.JUNK))
            return position + 1, None
        value = text[position:token_end]
        if value.strip():
            kind, role = self._kinds[name], self._roles[name]
            lexemes.append(Lexeme(kind, position, token_end, value, role, guessed=guessed))
        if context is not None and name not in self.grammar.ignored:
            states = context.after(states, name)
        return token_end, states


class _Context:
    """Where an LR parser may be after the tokens read so far, without its
    stack: a set of states.  After a token, the states that shift its
    terminal from the set, after the reductions its look-ahead calls for
    (a reduction goes to any state entered by its rule's symbol: the stack
    below is not known, so the set is a superset); every state that shifts
    the terminal when none of the set does (broken text)."""

    def __init__(self, grammar: CompiledGrammar) -> None:
        tables = grammar.tables
        self._actions, self._reductions = tables.actions, tables.reductions
        self._entered: dict[str, set[int]] = {}  # nonterminal -> the states its gotos enter
        self._shifted: dict[str, frozenset[int]] = {}  # terminal -> the states it shifts to
        for row in tables.gotos.values():
            for symbol, target in row.items():
                self._entered.setdefault(symbol, set()).add(target)
        shifted: dict[str, set[int]] = {}
        for row in self._actions.values():
            for symbol, target in row.items():
                if target >= 0:
                    shifted.setdefault(symbol, set()).add(target)
        self._shifted = {symbol: frozenset(targets) for symbol, targets in shifted.items()}
        self._after: dict[tuple[frozenset[int] | None, str], frozenset[int]] = {}
        self._allowed: dict[frozenset[int], frozenset[str]] = {}

    def after(self, states: frozenset[int] | None, terminal: str) -> frozenset[int]:
        """The states after a ``terminal`` token read in one of ``states``."""
        key = (states, terminal)
        found = self._after.get(key)
        if found is None:
            found = self._shift(states, terminal) if states is not None else frozenset()
            found = self._after[key] = found or self._shifted.get(terminal, frozenset())
        return found

    def _shift(self, states: frozenset[int], terminal: str) -> frozenset[int]:
        actions, reductions = self._actions, self._reductions
        reached = set(states)
        pending = list(states)
        while pending:
            action = actions[pending.pop()].get(terminal)
            if action is None or action >= 0:
                continue
            for target in self._entered.get(reductions[-action - 1].origin, ()):
                if target not in reached:
                    reached.add(target)
                    pending.append(target)
        return frozenset(
            action
            for action in (actions[state].get(terminal) for state in reached)
            if action is not None and action >= 0
        )

    def allowed(self, states: frozenset[int]) -> frozenset[str]:
        """The terminals the parser takes in one of ``states``."""
        found = self._allowed.get(states)
        if found is None:
            found = self._allowed[states] = frozenset(
                terminal for state in states for terminal in self._actions[state]
            )
        return found


_GENERIC = patterns.compile(
    r"""(?P<STRING>"(?:[^"\\\r\n]|\\.)*"|'(?:[^'\\\r\n]|\\.)*')
      |(?P<NUMBER>[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![\w]))
      |(?P<WORD>\w+)
      |(?P<PARTIAL>["'](?:[^\\\r\n]|\\.)*\Z)""",
    re.VERBOSE,
)


class GenericLexer:
    """Words, numbers, quoted strings and punctuation: for oracles without a grammar."""

    def __init__(self, hints: Hints = NO_HINTS) -> None:
        self.hints = hints
        self._foreign = _ForeignTokens(hints)

    def classify(self, canonical: str) -> tuple[str | None, Role]:
        if not canonical.strip():
            return None, Role.LAYOUT
        lexemes = self.lex(canonical, 0, len(canonical), foreign=False)
        if len(lexemes) == 1 and (lexemes[0].start, lexemes[0].end) == (0, len(canonical)):
            return lexemes[0].kind, lexemes[0].role
        return None, Role.DATA

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        lexemes: list[Lexeme] = []
        held = self._foreign.held(text) if foreign else None
        position = start
        while position < end:
            if text[position].isspace():
                position += 1
                continue
            found = _GENERIC.match(text, position)
            token_end = found.end() if found is not None else position
            hint = self._foreign.longest(text, position, held) if foreign else None
            if hint is not None and hint[1].end() >= token_end:
                rewrite, match = hint
                value = rewrite.canonical(match)
                kind, role = self.classify(value)
                lexemes.append(Lexeme(kind, position, match.end(), value, role, rewrite.name))
                position = match.end()
                continue
            if found is None:
                lexemes.append(
                    Lexeme("PUNCT", position, position + 1, text[position], Role.STRUCTURE)
                )
                position += 1
                continue
            kind = str(found.lastgroup)
            value = found.group()
            if kind == "PARTIAL":
                lexemes.append(Lexeme("STRING", position, token_end, value, Role.DATA, None, True))
            else:
                lexemes.append(Lexeme(kind, position, token_end, value, Role.DATA))
            position = token_end
        return lexemes


def reach_dfas(sources: tuple[tuple[str, int], ...]) -> tuple[tuple[Any, ...] | None, ...]:
    """:func:`reach_dfa` of each pattern of ``sources`` (source, flags),
    kept on disk by :mod:`inputmend.grammar.cache` (made from the
    patterns, the code that builds them and the C extension that runs
    them): working them out takes longer than a lexer takes to read tens
    of thousands of characters, reading them back a fraction of a
    millisecond."""
    from inputmend.grammar import cache

    extension = extension_path()
    here = Path(__file__)
    parts = [
        b"reach dfas",
        *patterns.engine_parts(),
        cache.stamp(here),
        cache.stamp(here.with_name("native.py")),
        cache.stamp(here.with_name("regex.py")),
        b"no C loop" if extension is None else cache.stamp(extension),
        repr(sources).encode("utf-8", "surrogatepass"),
    ]

    def decode(plain: Any) -> tuple[tuple[Any, ...] | None, ...]:
        if type(plain) is not tuple or len(plain) != len(sources):
            raise ValueError("not the reach automata of these patterns")
        return tuple(_dfa_from_plain((dfa,)) for dfa in plain)

    def build() -> tuple[tuple[Any, ...] | None, ...]:
        return tuple(reach_dfa(source, flags) for source, flags in sources)

    return cache.cached(parts, build, lambda dfas: dfas, decode)


def reach_dfa(source: str, flags: int) -> tuple[Any, ...] | None:
    """An automaton that tells how far a match of the pattern ``source``
    (compiled with ``flags``) can reach from a place, for the C loop of
    :class:`GrammarLexer`: the pattern without its lookarounds and anchors,
    whose texts include every text the pattern matches (but for a negative
    lookahead, read as the characters that may come next, see
    :func:`_guard`), as a DFA that
    follows every way of matching at once and marks each state where one
    of them ends (as :func:`~inputmend.grammar.native.build_dfa` takes it:
    ``(states, classes, start, ascii, high, next, match)``).  Where it
    ends no match before a token's end, the pattern has no foreign token
    that reaches that far there, and is not run (a JSON string's hints for
    its line breaks, at a string that has none).  None for a pattern it
    cannot follow (a back reference, a case-insensitive part, flags other
    than the hints' own) or too large an automaton."""
    plain = patterns.compile("").flags | re.MULTILINE | re.DOTALL
    if flags & ~plain:
        return None
    try:
        items = _consuming(parse_regex(source))
        if _ignores_case(items):
            return None
        nfa = _GuardedNfa()
        start = nfa.sequence(items, nfa.match(0), flags & re.DOTALL)
    except (UnsupportedRegex, re.error, RecursionError):
        return None
    alphabet = _alphabet(nfa)
    if alphabet is None or not alphabet[3]:  # too many classes, or no character to read
        return None
    width, ascii_classes, high, takes = alphabet
    first = _reachable(nfa, [start])
    states = {first: 0}
    order = [first]
    table: list[int] = []
    ends = [-1]
    index = 0
    reached: dict[tuple[int, ...], frozenset[int]] = {}
    while index < len(order):
        steps = _guarded_steps(nfa, order[index], takes, width)
        index += 1
        for cls in range(width):
            targets = tuple(steps[cls])
            going = reached.get(targets)
            if going is None:
                going = reached[targets] = _reachable(nfa, targets)
            if not going:
                table.append(-1)
                continue
            number = states.get(going)
            if number is None:
                if len(order) >= MAX_DFA_STATES:
                    return None
                number = states[going] = len(order)
                order.append(going)
                ends.append(0 if _may_end(nfa, going) else -1)
            table.append(number)
    return (len(order), width, 0, ascii_classes, high, tuple(table), tuple(ends))


class _GuardedNfa(_Nfa):
    """An :class:`~inputmend.grammar.native._Nfa` with ``GUARD`` nodes: an
    epsilon move to ``out[0]`` taken only where the next character is of
    the node's class (a negative lookahead, :func:`_guard`)."""

    GUARD = 3

    def _item(self, item: RegexItem, then: int, flags: int) -> int:
        if item.op == "GUARD":
            return self._node(self.GUARD, item.arg, [then], -1)
        return super()._item(item, then, flags)


def _guarded_steps(
    nfa: _Nfa, nodes: Iterable[int], takes: dict[int, list[int]], width: int
) -> list[list[int]]:
    """Where each of ``nodes`` goes on each alphabet class: a character
    node past the character, a guard where the nodes after it go on the
    classes it lets through."""
    steps: list[list[int]] = [[] for _ in range(width)]
    for node in nodes:
        if nfa.kinds[node] == _GuardedNfa.GUARD:
            ahead = _guarded_steps(nfa, _reachable(nfa, nfa.out[node]), takes, width)
            for cls in takes.get(node, ()):
                steps[cls].extend(ahead[cls])
        else:
            for cls in takes.get(node, ()):
                steps[cls].append(nfa.out[node][0])
    return steps


def _may_end(nfa: _Nfa, nodes: Iterable[int]) -> bool:
    """Does a match end among ``nodes``, or past a guard of them (whatever
    follows: the text may end there)?"""
    return any(
        nfa.kinds[node] == _Nfa.MATCH
        or (nfa.kinds[node] == _GuardedNfa.GUARD and _may_end(nfa, _reachable(nfa, nfa.out[node])))
        for node in nodes
    )


def _guard(items: list[RegexItem]) -> _CharClass | None:
    """The characters that may follow where the negative lookahead of
    ``items`` holds: none of those its pattern matches alone (where it
    matches the next character, whatever comes after, the lookahead fails:
    ``(?![ \t]*[,:])`` fails before a comma).  None where no such character
    is known (a pattern with a possessive repeat or an atomic group may
    refuse a text its characters spell, so it is not read)."""
    if _commits(items):
        return None
    members = _lone(items)
    if not members:
        return None
    return _char_set([RegexItem("NEGATE", None), *members], False)


def _commits(items: list[RegexItem]) -> bool:
    """Does ``items`` hold a possessive repeat or an atomic group (at any depth)?"""
    return _any_part(items, lambda op, _arg: op in ("POSSESSIVE_REPEAT", "ATOMIC_GROUP"))


def _lone(items: list[RegexItem]) -> list[RegexItem]:
    """Set members (``LITERAL``, ``RANGE``) of characters that ``items``
    matches alone, the rest of them matching nothing; some may be left out
    (a category, a case-insensitive part, one after an anchor), never one
    that is not."""
    found: list[RegexItem] = []
    for index, item in enumerate(items):
        if all(map(_empty, items[:index])) and all(map(_empty, items[index + 1 :])):
            found += _lone_item(item)
    return found


def _lone_item(item: RegexItem) -> list[RegexItem]:
    """:func:`_lone` of one item."""
    op, arg = item
    if op == "LITERAL":
        return [item]
    if op == "IN" and all(member.op in ("LITERAL", "RANGE") for member in arg):
        return list(arg)
    if op == "SUBPATTERN" and not (arg[1] | arg[2]):
        return _lone(arg[3])
    if op == "BRANCH":
        return [member for option in arg for member in _lone(option)]
    if op in ("MAX_REPEAT", "MIN_REPEAT") and arg[0] <= 1 and (arg[1] is None or arg[1] >= 1):
        return _lone(arg[2])
    return []


def _empty(item: RegexItem) -> bool:
    """Does ``item`` match the empty text wherever it is (no anchor or
    lookaround on the way)?"""
    op, arg = item
    if op == "SUBPATTERN":
        return all(map(_empty, arg[3]))
    if op == "BRANCH":
        return any(all(map(_empty, option)) for option in arg)
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        return arg[0] == 0 or all(map(_empty, arg[2]))
    return False


def _consuming(items: list[RegexItem]) -> list[RegexItem]:
    """``items`` without the lookarounds and anchors in them (at any depth),
    and a possessive repeat read as a greedy one (it gives back nothing: a
    condition on how a match is found, not on what it reads): what is left
    reads the same characters, with fewer conditions, but for a negative
    lookahead whose pattern matches characters alone, kept as a ``GUARD``
    of the characters that may follow it (:func:`_guard`)."""
    kept: list[RegexItem] = []
    for op, arg in items:
        if op == "ASSERT_NOT" and arg[0] == 1:
            guard = _guard(arg[1])
            if guard is not None:
                kept.append(RegexItem("GUARD", guard))
            continue
        if op in ("ASSERT", "ASSERT_NOT", "AT"):
            continue
        if op == "SUBPATTERN":
            arg = (*arg[:3], _consuming(arg[3]))
        elif op == "BRANCH":
            arg = [_consuming(option) for option in arg]
        elif op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            op = "MAX_REPEAT" if op == "POSSESSIVE_REPEAT" else op
            arg = (*arg[:2], _consuming(arg[2]))
        kept.append(RegexItem(op, arg))
    return kept


def _ignores_case(items: list[RegexItem]) -> bool:
    """Is a part of ``items`` case-insensitive?"""
    return _any_part(items, lambda op, arg: op == "SUBPATTERN" and bool(arg[1] & re.IGNORECASE))


def _any_part(items: list[RegexItem], test: Callable[[str, Any], bool]) -> bool:
    """Does ``test`` hold for an item of ``items``, or of the items its
    groups, alternatives and repeats hold (at any depth)?"""
    for op, arg in items:
        if test(op, arg):
            return True
        if op == "SUBPATTERN":
            parts = [arg[3]]
        elif op == "BRANCH":
            parts = arg
        elif op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            parts = [arg[2]]
        else:
            continue
        if any(_any_part(part, test) for part in parts):
            return True
    return False
