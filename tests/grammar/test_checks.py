"""Name checks beside the parser, declared in a grammar header (``check:``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError, Verdict
from inputmend.grammar.checks import NameChecks, Rejected, affix
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle

PATTERNS = {
    "OPEN": r"<[a-z]+",
    "CLOSE": r"</[a-z]+",
    "END": r"/>",
    "NAME": r"[a-z]+",
    "REF": r"&[a-z]+;",
    "DEF": r"![a-z]+",
    "RESET": r"---",
}


def test_names_are_tokens_without_their_fixed_ends() -> None:
    assert affix(r"<[a-z]+") == (1, 0)
    assert affix(r"</[a-z]+") == (2, 0)
    assert affix(r"&[a-z]+;") == (1, 1)
    assert affix(r"(?:&[a-z]+;)") == (1, 1)
    assert affix(r"[a-z]+") == (0, 0)


def test_match_closes_the_innermost_name() -> None:
    checks = NameChecks.parse(["match open=OPEN close=CLOSE end=END"], PATTERNS)
    assert checks is not None
    state = checks.step(checks.initial, "OPEN", "<ab")
    assert not isinstance(state, Rejected)
    inner = checks.step(state, "OPEN", "<c")
    assert not isinstance(inner, Rejected)
    assert checks.expected_close(inner) == ["c", "ab"]
    assert checks.step(inner, "END", "/>") == state  # the same stack node: equal states
    assert checks.step(state, "CLOSE", "</ab") == checks.initial
    assert checks.step(state, "CLOSE", "</ax") == Rejected(3, "`ax` closes `ab`")
    assert checks.step(state, "CLOSE", "</a") == Rejected(3, "`a` closes `ab`")  # after it
    assert checks.limit(state, "CLOSE", "</a") == 3
    assert checks.limit(state, "CLOSE", "</x") == 2
    assert checks.limit(state, "OPEN", "<x") == 2


def test_fit_writes_the_names_the_checks_ask_for() -> None:
    lines = ["match open=OPEN close=CLOSE end=END", "declared REF by=DEF known=lt,gt"]
    checks = NameChecks.parse(lines, PATTERNS)
    assert checks is not None
    state = checks.step(checks.initial, "OPEN", "<shelf")
    assert not isinstance(state, Rejected)
    assert checks.fit(state, "CLOSE", "", "</a") == "</shelf"
    assert checks.fit(state, "CLOSE", "</sh", "</sh") == "</shelf"
    assert checks.fit(state, "CLOSE", "</x", "</x") is None  # no open name starts so
    assert checks.fit(checks.initial, "CLOSE", "", "</a") is None  # nothing to close
    assert checks.fit(state, "REF", "&", "&a;") == "&gt;"  # the shortest, then first
    assert checks.fit(state, "NAME", "", "a") == "a"  # not named by any check


def test_unique_and_declared_names() -> None:
    lines = ["unique NAME reset=RESET", "declared REF by=DEF known=lt reset=RESET"]
    checks = NameChecks.parse(lines, PATTERNS)
    assert checks is not None
    state = checks.initial
    for kind, text in [("NAME", "a"), ("DEF", "!amp"), ("REF", "&amp;"), ("REF", "&lt;")]:
        found = checks.step(state, kind, text)
        assert not isinstance(found, Rejected)
        state = found
    assert checks.step(state, "NAME", "a") == Rejected(1, "`a` appears twice")
    assert checks.step(state, "REF", "&amx;") == Rejected(3, "`amx` is not declared")
    assert checks.limit(state, "REF", "&am") == 3
    assert checks.limit(state, "REF", "&x") == 1
    reset = checks.step(state, "RESET", "---")
    assert not isinstance(reset, Rejected)
    assert not isinstance(checks.step(reset, "NAME", "a"), Rejected)
    assert isinstance(checks.step(reset, "REF", "&amp;"), Rejected)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("tally NAME", "unknown check 'tally'"),
        ("unique NOPE", "'NOPE' is not a terminal"),
        ("unique NAME color=red", "unknown option 'color'"),
        ("match open=OPEN", "needs open=TERMINAL and close=TERMINAL"),
        ("declared REF", "needs by=TERMINAL"),
        ("unique reset=RESET", "needs the terminals it checks"),
    ],
)
def test_bad_check_lines_are_one_line_errors(line: str, message: str) -> None:
    with pytest.raises(OracleConfigError, match=message):
        NameChecks.parse([line], PATTERNS)


def test_a_user_grammar_can_ask_for_checks(tmp_path: Path) -> None:
    path = tmp_path / "blocks.lark"
    path.write_text(
        "// check: match open=BEGIN close=END\n"
        "start: block*\n"
        'block: BEGIN ";" block* END ";"\n'
        "BEGIN: /begin [a-z]+/\n"
        "END: /end [a-z]+/\n"
        "%ignore /[ \\n]+/\n"
    )
    grammar = CompiledGrammar.load(str(path))
    for oracle in (IncrementalGrammarOracle(grammar), ReferenceGrammarOracle(grammar)):
        assert oracle.check("begin a; begin b; end b; end a;").valid
        wrong = oracle.check("begin a; begin b; end a; end b;")
        assert (wrong.verdict, wrong.error_offset) == (Verdict.INCORRECT, 22)  # at `a`
    path.write_text("// check: match open=BEGIN close=NOPE\n" + path.read_text())
    with pytest.raises(OracleConfigError, match="'NOPE' is not a terminal"):
        CompiledGrammar.load(str(path))


def test_a_name_check_refusal_stays_beyond_the_syntax_when_rescanned() -> None:
    # an edit above the refusal rescans incrementally and moves its offset:
    # the verdict must say the same as a fresh scan of the edited text
    oracle = IncrementalGrammarOracle("xml")
    base = "<r>\n" + '  <k v="1"/>\n' * 50 + '  <a x="1" x="1"/>\n</r>\n'
    refused = oracle.check(base)
    assert refused.beyond_syntax and refused.error_offset is not None
    edited = base.replace('<k v="1"/>', '<k v="12"/>', 1)
    moved = oracle.check(edited)
    assert moved == IncrementalGrammarOracle("xml").check(edited)
    assert moved.beyond_syntax and moved.error_offset == refused.error_offset + 1
