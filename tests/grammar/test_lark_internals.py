"""The lark objects inputmend reads beyond lark's documented API.

If one of these tests fails after a lark upgrade, lark moved a private object
that :mod:`inputmend.grammar.lark_internals` reads: adapt that module (and
only it), then the pin in pyproject.toml and ``TESTED_LARK``.
"""

from __future__ import annotations

import re
import tomllib

import lark
import pytest
from lark.lexer import BasicLexer, ContextualLexer, PatternRE, PatternStr, Scanner
from lark.parsers.lalr_analysis import Shift

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar import lark_internals, registry
from inputmend.grammar.lexer import Retype
from tests.conftest import ROOT

NAMES = sorted(registry.bundled())


def _parser(name: str) -> lark.Lark:
    return registry.build_parser(registry.resolve(name))


def test_the_installed_lark_is_the_tested_one() -> None:
    lark_internals.require_tested_lark()
    pin = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (lark_pin,) = [item for item in pin if item.startswith("lark")]
    assert f"<{lark_internals._next_minor(lark_internals.TESTED_LARK)}" in lark_pin
    assert f">={lark_internals.TESTED_LARK}" in lark_pin


@pytest.mark.parametrize("version", ["1.2.2", "1.4.0", "2.0.0"])
def test_another_lark_is_refused_with_a_clear_message(version: str) -> None:
    with pytest.raises(OracleConfigError, match=f"needs lark {lark_internals.TESTED_LARK}.x"):
        lark_internals.require_tested_lark(version)


@pytest.mark.parametrize("name", NAMES)
def test_the_private_objects_read_have_the_expected_shape(name: str) -> None:
    parser = _parser(name)
    frontend = parser.parser
    # terminals and ignored terminals
    for terminal in parser.terminals:
        assert isinstance(terminal.pattern, PatternStr | PatternRE)
        assert terminal.pattern.type in ("str", "re")
        assert isinstance(terminal.pattern.max_width, int)
        assert isinstance(terminal.pattern.flags, frozenset)
        re.compile(terminal.pattern.to_regexp())
    assert set(parser.lexer_conf.ignore) <= {t.name for t in parser.terminals}
    # compiled rules and the LALR table
    rules = frontend.parser_conf.rules
    assert all(hasattr(rule, attr) for rule in rules for attr in ("origin", "expansion", "alias"))
    table = frontend.parser._parse_table
    start = registry.resolve(name).start
    assert isinstance(table.start_states[start], int)
    assert isinstance(table.end_states[start], int)
    for row in table.states.values():
        for action, argument in row.values():
            assert action is Shift or argument in rules
    # the contextual lexer's scanners
    assert isinstance(frontend.lexer, ContextualLexer)
    for basic in frontend.lexer.lexers.values():
        assert isinstance(basic, BasicLexer)
        assert isinstance(basic.scanner, Scanner)
        assert all(isinstance(regex, re.Pattern) for regex in basic.scanner._mres)
        for callback in basic.callback.values():
            assert callable(callback.scanner.fullmatch)


@pytest.mark.parametrize("name", NAMES)
def test_what_leaves_the_module_is_plain_data(name: str) -> None:
    parser = _parser(name)
    rules = lark_internals.bnf_rules(parser)
    terminals = {t.name for t in lark_internals.terminal_definitions(parser)}
    table = lark_internals.lalr_table(parser, registry.resolve(name).start)
    for row in table.rows.values():
        for symbol, shift, target in row:
            assert type(symbol) is str
            assert shift or 0 <= target < len(rules)
    assert lark_internals.ignored_terminals(parser) <= terminals
    for lexer in lark_internals.state_lexers(parser).values():
        assert set(lexer.terminals) <= terminals
        assert set(lexer.retype) <= terminals
        compiled = [re.compile(source, flags) for source, flags in lexer.regexes]
        for source, flags in (*lexer.regexes, *(s for r in lexer.retype.values() for s in r)):
            assert type(source) is str and type(flags) is int
        # one named group per terminal, in the order lark tries them
        names = [
            name
            for regex in compiled
            for name, _ in sorted(regex.groupindex.items(), key=lambda item: item[1])
        ]
        assert names == list(lexer.terminals)


def test_rules_and_retyping_of_a_small_grammar() -> None:
    parser = lark.Lark(
        'start: (kv | IF)+\nkv: NAME "=" NAME ";" -> pair\nNAME: /[a-z]+/\nIF: "if"\n%ignore " "\n',
        parser="lalr",
        lexer="contextual",
    )
    rules = lark_internals.bnf_rules(parser)
    assert lark_internals.BnfRule("kv", ("NAME", "EQUAL", "NAME", "SEMICOLON"), "pair") in rules
    literals = {t.name: t.literal for t in lark_internals.terminal_definitions(parser)}
    assert literals["EQUAL"] == "=" and literals["NAME"] is None
    retypes = [
        Retype(lexer.retype["NAME"])
        for lexer in lark_internals.state_lexers(parser).values()
        if "NAME" in lexer.retype
    ]
    assert retypes and all(retype("if") == "IF" and retype("x") is None for retype in retypes)
