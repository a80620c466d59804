"""Layouts: post-lexers that turn indentation and line structure into tokens.

Some formats say with layout what other formats say with brackets: YAML's
block collections are lines indented alike.  A grammar for such a format
declares zero-width terminals (``%declare BLOCK_END ...``) and names a layout
in its header (``// layout: yaml``); the layout watches the text go by and
puts those tokens where they belong, keeping a small state (a stack of
columns, the flow depth, ...).

The scanner calls a layout around every token, including ignored ones:

* :meth:`Layout.before` at each position before lexing (but where a
  character of :attr:`Layout.blanks` is): the zero-width
  tokens to feed the parser first (a block's end before a less indented
  line), and possibly a token the layout lexes itself (terminals that only
  exist at the start of a line, :attr:`Layout.own_terminals`, which the
  contextual lexer never tries);
* :meth:`Layout.after` once the token is lexed: the layout's new state, and
  the token's true end (a token may continue on the next lines, when they are
  indented enough);
* :meth:`Layout.finish` at the end of the text: the tokens that close what is
  still open.

Layout states are immutable and hashable, and equal states are interchangeable:
the scanner keeps them in its checkpoints next to the parser stack (interned,
so they compare by identity) and rejoins a base scan only where both agree.
Positions handed to a layout are offsets in ``text``, a part of the document
that starts at a token boundary; a layout that needs to read beyond its end
while more of the document exists returns ``None`` and is asked again with
more text.  Every method reports how far it read (``reach``) so that an edit
there lexes the token again.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple, Protocol


class Step(NamedTuple):
    """What a layout decided at one token.

    ``markers``: zero-width tokens to feed the parser now, in order;
    ``token``: for :meth:`Layout.before`, a token the layout lexed itself
    (terminal, end), else None; for :meth:`Layout.after`, the token's end;
    ``reach``: the furthest offset read."""

    state: Hashable
    markers: tuple[str, ...] = ()
    token: tuple[str, int] | None = None
    reach: int = 0


class Refusal(NamedTuple):
    """The layout refuses the text at this token (a tab in the indentation,
    an entry where none may start)."""

    message: str
    reach: int = 0


class Layout(Protocol):
    """A post-lexer (see the module documentation)."""

    own_terminals: frozenset[str]
    """Terminals only the layout lexes (the contextual lexer never tries them)."""

    blanks: frozenset[str]
    """Characters where no token of the text starts (blanks, comments):
    there :meth:`before` has nothing to do and is not called."""

    def initial(self) -> Hashable: ...

    def before(self, state: Hashable, text: str, pos: int, complete: bool) -> Step | Refusal | None:
        """Before lexing at ``pos``; None when it needs text beyond ``text``."""
        ...

    def after(
        self, state: Hashable, kind: str, text: str, start: int, end: int, complete: bool
    ) -> Step | Refusal | None:
        """After the token ``text[start:end]`` of terminal ``kind``; ``Step.token``
        is ``(kind, end)`` with the token's true end."""
        ...

    def finish(self, state: Hashable) -> Step | Refusal:
        """At the end of the text: the tokens that close what is open."""
        ...
