"""Everything inputmend reads from a built lark parser, in one place.

lark's documented API builds and runs parsers; the incremental scanner, error
recovery and DDSET's derivation trees need more: the terminal definitions,
the LALR parse table, the compiled BNF rules and the contextual lexer's
scanner for each parser state.  Those are lark's private objects, and they
may change in any release: pyproject pins lark to the tested minor version,
:func:`require_tested_lark` refuses any other with a clear message, and
``tests/grammar/test_lark_internals.py`` checks the shape of every object read
here.  Everything leaves this module as plain data of our own (names are
plain ``str``, never lark's ``Token``, whose comparisons are Python code).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from inputmend.core.oracle import OracleConfigError

if TYPE_CHECKING:
    import lark

TESTED_LARK = "1.3"  # major.minor; keep in step with pyproject's pin
END = "$END"  # the terminal lark's tables use for the end of the input


def require_tested_lark(version: str | None = None) -> None:
    """Refuse a lark whose private objects may differ from the tested ones
    (the installed lark's version unless ``version`` is given)."""
    if version is None:
        import lark

        version = lark.__version__
    if version.split(".")[:2] != TESTED_LARK.split("."):
        raise OracleConfigError(
            f"inputmend needs lark {TESTED_LARK}.x (found lark {version}): "
            f"pip install 'lark>={TESTED_LARK},<{_next_minor(TESTED_LARK)}'"
        )


def _next_minor(version: str) -> str:
    major, minor = version.split(".")
    return f"{major}.{int(minor) + 1}"


def _name(symbol: Any) -> str:
    """A plain, interned ``str`` for a lark name (lark may hand out ``Token``)."""
    return sys.intern(str.__str__(symbol))


@dataclass(frozen=True)
class TerminalDefinition:
    """A terminal as lark compiled it."""

    name: str
    regexp: str  # the Python regular expression lark matches it with
    literal: str | None  # the string of a string terminal ("if", also for "if"i)
    flags: frozenset[str]  # regex flags of the terminal ("i" for "if"i)
    max_width: int  # longest match (a large number when unbounded)


@dataclass(frozen=True)
class BnfRule:
    """One compiled BNF rule ``origin -> expansion`` (alias: lark's ``-> name``).
    lark's trees inline and hide some of them; these are all of them."""

    origin: str
    expansion: tuple[str, ...]
    alias: str | None


class TableAction(NamedTuple):
    """One entry of an LALR table row: on ``symbol``, shift (go to state
    ``target``) or reduce (by rule number ``target`` of :func:`bnf_rules`)."""

    symbol: str
    shift: bool
    target: int


@dataclass(frozen=True)
class LalrTable:
    """lark's LALR(1) table for one start symbol."""

    start_state: int
    end_state: int
    rows: dict[int, tuple[TableAction, ...]]


Source = tuple[str, int]
"""A regular expression for Python's ``re``: its pattern and its flags."""


@dataclass(frozen=True)
class StateLexer:
    """What lark's contextual lexer does in one parser state: try ``regexes``
    in order (each an alternation with one named group per terminal, the
    group name is the terminal), then let ``retype`` rename a match (a
    keyword that a name pattern also matches: the name of the group of the
    first of its regexes that matches the whole token, if one does).  The
    regexes are sources, compiled where they are used
    (:mod:`inputmend.grammar.lexer`), so that they can be kept on disk."""

    regexes: tuple[Source, ...]
    terminals: tuple[str, ...]  # in the order lark tries them
    retype: dict[str, tuple[Source, ...]]


@dataclass(frozen=True)
class Analysis:
    """Everything inputmend reads from a built lark parser, as plain data
    (what :mod:`inputmend.grammar.cache` keeps on disk)."""

    terminals: tuple[TerminalDefinition, ...]
    ignored: frozenset[str]
    rules: tuple[BnfRule, ...]
    table: LalrTable
    regex_flags: int
    lexers: dict[int, StateLexer]  # states served by one lark scanner share one


def analyse(parser: lark.Lark, start: str) -> Analysis:
    """The plain data of a built parser for start symbol ``start``."""
    return Analysis(
        tuple(terminal_definitions(parser)),
        ignored_terminals(parser),
        tuple(bnf_rules(parser)),
        lalr_table(parser, start),
        regex_flags(parser),
        state_lexers(parser),
    )


def terminal_definitions(parser: lark.Lark) -> list[TerminalDefinition]:
    definitions = []
    for terminal in parser.terminals:
        pattern = terminal.pattern
        definitions.append(
            TerminalDefinition(
                name=_name(terminal.name),
                regexp=pattern.to_regexp(),
                literal=pattern.value if pattern.type == "str" else None,
                flags=frozenset(pattern.flags),
                max_width=pattern.max_width,
            )
        )
    return definitions


def ignored_terminals(parser: lark.Lark) -> frozenset[str]:
    return frozenset(_name(name) for name in parser.lexer_conf.ignore)


def _lark_rules(parser: lark.Lark) -> list[Any]:
    return list(parser.parser.parser_conf.rules)


def bnf_rules(parser: lark.Lark) -> list[BnfRule]:
    """The compiled rules; rule numbers in :class:`LalrTable` index this list."""
    return [
        BnfRule(
            _name(rule.origin.name),
            tuple(_name(symbol.name) for symbol in rule.expansion),
            str(rule.alias) if rule.alias else None,
        )
        for rule in _lark_rules(parser)
    ]


def lalr_table(parser: lark.Lark, start: str) -> LalrTable:
    from lark.parsers.lalr_analysis import Shift

    table = parser.parser.parser._parse_table
    numbers = {rule: number for number, rule in enumerate(_lark_rules(parser))}
    rows = {
        state: tuple(
            TableAction(_name(symbol), action is Shift, arg if action is Shift else numbers[arg])
            for symbol, (action, arg) in row.items()
        )
        for state, row in table.states.items()
    }
    return LalrTable(table.start_states[start], table.end_states[start], rows)


def regex_flags(parser: lark.Lark) -> int:
    """The flags lark compiles its lexers' regexes with."""
    flags: int = parser.lexer_conf.g_regex_flags
    return flags


def state_lexers(parser: lark.Lark) -> dict[int, StateLexer]:
    """The contextual lexer's scanner of each parser state (states that lark
    serves with one scanner share one :class:`StateLexer`)."""
    shared: dict[int, StateLexer] = {}
    lexers: dict[int, StateLexer] = {}
    for state, basic in parser.parser.lexer.lexers.items():
        lexer = shared.get(id(basic))
        if lexer is None:
            scanner = basic.scanner
            retype = {
                _name(name): _sources(callback.scanner._mres)
                for name, callback in basic.callback.items()
                if hasattr(callback, "scanner")
            }
            terminals = tuple(_name(t.name) for t in scanner.terminals)
            lexer = shared[id(basic)] = StateLexer(_sources(scanner._mres), terminals, retype)
        lexers[state] = lexer
    return lexers


def _sources(regexes: list[re.Pattern[str]]) -> tuple[Source, ...]:
    return tuple((sys.intern(regex.pattern), regex.flags) for regex in regexes)
