"""A grammar, compiled once: what every part of inputmend needs to know about it.

:class:`CompiledGrammar` holds what inputmend reads from the grammar's lark
parser (:class:`~inputmend.grammar.lark_internals.Analysis`, kept on disk by
:mod:`inputmend.grammar.cache`: the parser itself is built only for the
callers that run it), the one analysis of its terminals (partial-match
regexes, literals, ignored terminals, the order in which the
error-tolerant lexer prefers them, how to name them to a user),
its compiled BNF rules, and, built on first use, its flat LALR tables and
contextual scanners.  Oracles, token-level ddmax and DDSET all read the same
object, so a grammar is analysed once however many of them use it.
"""

from __future__ import annotations

import functools
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inputmend.grammar import cache, lark_internals, native, patterns, registry
from inputmend.grammar.checks import NameChecks
from inputmend.grammar.hints import Hints, hints_beside, hints_path
from inputmend.grammar.lark_internals import END, Analysis, BnfRule
from inputmend.grammar.regex import Ranges, first_chars, first_ranges, prefix_extent

if TYPE_CHECKING:
    import lark

    from inputmend.grammar.completion import Completer
    from inputmend.grammar.layout import Layout
    from inputmend.grammar.lexer import StateScanner
    from inputmend.grammar.tables import ParseTables


@dataclass(frozen=True)
class Terminal:
    """One terminal of a grammar."""

    name: str
    source: str  # its Python regular expression
    literal: str | None  # the string of a string terminal ("if", also for "if"i)
    flags: frozenset[str]
    max_width: int
    first_chars: frozenset[str] | None  # what a match can start with (None: anything)
    first_ranges: Ranges | None  # the same as code point ranges (large classes kept)
    # the patterns of all the grammar's terminals, by name (compiled at once)
    siblings: Callable[[], dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def pattern(self) -> Any:
        """:attr:`source` compiled for partial matching
        (:mod:`inputmend.grammar.patterns`), on first use: with those of the
        other terminals of its grammar, whose code the grammar cache keeps."""
        if self.siblings is not None:
            return self.siblings()[self.name]
        return patterns.compile(self.source)

    @property
    def fixed(self) -> str | None:
        """The only text this terminal matches, if it matches just one
        (a string terminal without flags: "if"i also matches "IF")."""
        return None if self.flags else self.literal


def _first_characters(
    sources: tuple[str, ...],
) -> tuple[tuple[frozenset[str] | None, Ranges | None], ...]:
    """What a match of each of the terminals' ``sources`` can start with
    (:func:`~inputmend.grammar.regex.first_chars` and
    :func:`~inputmend.grammar.regex.first_ranges`), kept in the grammar
    cache: reading them parses every pattern, which takes longer than
    loading the rest of a grammar from the cache."""

    def build() -> tuple[tuple[frozenset[str] | None, Ranges | None], ...]:
        return tuple((first_chars(source), first_ranges(source)) for source in sources)

    def decode(plain: Any) -> tuple[tuple[frozenset[str] | None, Ranges | None], ...]:
        if type(plain) is not tuple or len(plain) != len(sources):
            raise ValueError("not the first characters of these terminals")
        for entry in plain:
            if type(entry) is not tuple or len(entry) != 2:
                raise ValueError("not the first characters of a terminal")
            chars, ranges = entry
            if chars is not None and not (
                type(chars) is frozenset and all(type(c) is str and len(c) == 1 for c in chars)
            ):
                raise ValueError("not the first characters of a terminal")
            if ranges is not None and not (
                type(ranges) is tuple
                and all(
                    type(pair) is tuple and len(pair) == 2 and all(type(n) is int for n in pair)
                    for pair in ranges
                )
            ):
                raise ValueError("not the first characters of a terminal")
        found: tuple[tuple[frozenset[str] | None, Ranges | None], ...] = plain
        return found

    if not cache.enabled():
        return build()
    parts = [
        b"first characters",
        cache.stamp(Path(__file__).with_name("regex.py")),
        repr(sources).encode("utf-8", "surrogatepass"),
    ]
    return cache.cached(parts, build, lambda found: found, decode)


LOADED = 16
"""Grammars kept by :meth:`CompiledGrammar.load` for the next load of the same file."""
_LOADED: dict[tuple[registry.GrammarInfo, tuple[int, int] | None], CompiledGrammar] = {}


def _version(path: Path) -> tuple[int, int] | None:
    """Which version of the regular file at ``path`` is there (its change
    time and size), or None when there is none to remember."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size) if stat.S_ISREG(status.st_mode) else None


class CompiledGrammar:
    """What inputmend reads from a grammar's lark parser, plus the analysis
    of its terminals and rules."""

    def __init__(self, info: registry.GrammarInfo, analysis: Analysis) -> None:
        self.info = info
        self.analysis = analysis
        firsts = _first_characters(tuple(d.regexp for d in analysis.terminals))
        self.terminals: dict[str, Terminal] = {
            definition.name: Terminal(
                definition.name,
                definition.regexp,
                definition.literal,
                definition.flags,
                definition.max_width,
                chars,
                ranges,
                lambda: self.patterns,
            )
            for definition, (chars, ranges) in zip(analysis.terminals, firsts, strict=True)
        }
        self.literals: dict[str, str] = {
            name: t.literal for name, t in self.terminals.items() if t.literal is not None
        }
        self.ignored = analysis.ignored
        self.rules: tuple[BnfRule, ...] = analysis.rules
        # the error-tolerant lexer's preference among matches of the same
        # length: literals (keywords) first, then patterns; layout last
        self.lexing_order: tuple[Terminal, ...] = tuple(
            sorted(
                self.terminals.values(),
                key=lambda t: (t.literal is None, t.name in self.ignored, t.name),
            )
        )
        self._starters: dict[str, frozenset[str]] = {}
        self._hints: tuple[tuple[int, int] | None, Hints] | None = None

    @classmethod
    def load(cls, name_or_path: str, *, base_dir: Path | None = None) -> CompiledGrammar:
        """A bundled grammar by name, or a ``.lark`` file (raises
        ``OracleConfigError`` with a one-line reason when it cannot be built).

        A grammar loaded before is given again while its file stays the same
        (its size and modification time): what is derived from a grammar
        alone (its tables, its hints' lexer, its syntax roles) is then made
        once per process, not once per call of the library's ``repair``."""
        info = registry.resolve(name_or_path, base_dir=base_dir)
        version = _version(info.path)
        key = (info, version)
        known = _LOADED.get(key) if version is not None else None
        if known is not None:
            return known

        def build() -> Analysis:
            lark_internals.require_tested_lark()
            return lark_internals.analyse(registry.build_parser(info), info.start)

        grammar = cls(info, cache.load_analysis(info, build))
        _ = grammar.checks, grammar.layout  # a header that asks for what cannot be is an error now
        if version is not None:
            if len(_LOADED) >= LOADED:
                del _LOADED[next(iter(_LOADED))]  # the one loaded first
            _LOADED[key] = grammar
        return grammar

    @functools.cached_property
    def parser(self) -> lark.Lark:
        """The grammar's lark parser, for the callers that run lark itself
        (built on first use)."""
        lark_internals.require_tested_lark()
        return registry.build_parser(self.info)

    @functools.cached_property
    def patterns(self) -> dict[str, Any]:
        """Each terminal's :attr:`Terminal.pattern`, compiled on first use
        all at once, so that their engine's code comes from the grammar
        cache (:func:`~inputmend.grammar.patterns.compile_all`)."""
        terminals = list(self.terminals.values())
        compiled = patterns.compile_all([(terminal.source, 0) for terminal in terminals])
        return {
            terminal.name: pattern for terminal, pattern in zip(terminals, compiled, strict=True)
        }

    def hints(self) -> Hints:
        """The repair hints in the file beside the grammar (none without one),
        read again only when the file changed: every repair reads them, and
        a user may be editing them (raises ``HintsError`` with a one-line
        reason when they cannot be read)."""
        version = _version(hints_path(self.info.path))
        if self._hints is None or self._hints[0] != version:
            self._hints = (version, hints_beside(self.info.path))
        return self._hints[1]

    @functools.cached_property
    def tables(self) -> ParseTables:
        """The flat LALR tables (built on first use)."""
        from inputmend.grammar.tables import ParseTables

        return ParseTables(self.analysis.table, self.rules)

    @functools.cached_property
    def checks(self) -> NameChecks | None:
        """The name checks the header asks for (``// check: ...``), if any."""
        sources = {name: terminal.source for name, terminal in self.terminals.items()}
        return NameChecks.parse(list(self.info.checks), sources)

    @functools.cached_property
    def layout(self) -> Layout | None:
        """The layout the header names (``// layout: yaml``), if any."""
        if self.info.layout is None:
            return None
        from inputmend.grammar.layouts import build_layout

        return build_layout(self.info.layout, self)

    @functools.cached_property
    def scanners(self) -> dict[int, StateScanner]:
        """The contextual lexer's scanner of each parser state (built on first use)."""
        from inputmend.grammar.lexer import state_scanners

        return state_scanners(self)

    @functools.cached_property
    def native_program(self) -> native.Native | None:
        """The grammar's C program (:mod:`~inputmend.grammar.native`), None
        where the Python code runs alone."""
        return native.program(self)

    @functools.cached_property
    def completer(self) -> Completer | None:
        """Shortest completions of valid prefixes (built on first use; None
        when lark's tables do not match the rules, which would be a lark change)."""
        from inputmend.grammar.completion import Completer, CompletionError

        try:
            return Completer(self)
        except CompletionError:
            return None

    # -- naming terminals ----------------------------------------------------

    def display(self, terminal: str) -> str:
        """How to name a terminal to a user: its text if literal, else its name."""
        if terminal == END:
            return "end of input"
        literal = self.literals.get(terminal)
        if literal is not None:
            return f"`{literal}`"
        return terminal.lower().lstrip("_").replace("_", " ")

    def expected(self, terminals: set[str] | frozenset[str]) -> str:
        """A short list of what a parser would accept, for an error message."""
        names = sorted({self.display(t) for t in terminals if t not in self.ignored})
        if not names:
            return "nothing more"
        if len(names) > 8:
            names = [*names[:8], "…"]
        return ", ".join(names)

    # -- partial tokens ------------------------------------------------------

    def starters(self, char: str) -> frozenset[str]:
        """The terminals whose tokens can start with ``char`` (and all that look
        behind their start, which one character cannot tell)."""
        found = self._starters.get(char)
        if found is None:
            found = frozenset(
                name
                for name, pattern in self.patterns.items()
                if "(?<" in pattern.pattern or pattern.fullmatch(char, partial=True) is not None
            )
            if len(self._starters) > 4096:
                self._starters.clear()
            self._starters[char] = found
        return found

    def partial_extent(
        self,
        text: str,
        start: int,
        terminals: set[str] | frozenset[str],
        end: int | None = None,
        *,
        limit: Callable[[str, str], int] | None = None,
    ) -> int:
        """How many characters from ``start`` (up to ``end``) are a prefix (or
        all) of a token of one of ``terminals``, or of an ignored token; 0 if
        none.  ``limit(terminal, piece)`` may cut a piece shorter (the name
        checks: ``</b`` cannot close ``<a``)."""
        end = len(text) if end is None else end
        if start >= end:
            return 0
        best = 0
        native = self.native_program
        for name in (terminals | self.ignored) & self.starters(text[start]):
            extent = None if native is None else native.extent(name, text, start, end)
            if extent is None:
                extent = prefix_extent(self.patterns[name], text, start, end)
            if extent and limit is not None:
                extent = limit(name, text[start : start + extent])
            best = max(best, extent)
        return best
