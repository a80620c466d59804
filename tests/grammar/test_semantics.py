"""Each format's own loader (grammar headers' ``semantics``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError, Verdict
from inputmend.grammar import registry, semantics
from inputmend.grammar.semantics import (
    LOADERS,
    check_configparser,
    check_csv_columns,
    check_expat,
    check_inih,
    check_tomllib,
    check_yaml,
)
from inputmend.oracles.incremental import IncrementalGrammarOracle


def test_tomllib_objections_are_placed_where_it_says() -> None:
    text = "[t]\na = 1\n[t]\n"
    feedback = check_tomllib(text)
    assert feedback.verdict is Verdict.INCORRECT
    assert feedback.message == "Cannot declare ('t',) twice"
    assert feedback.error_offset == text.rindex("]")  # line 3, column 3
    assert check_tomllib("a = 1\n").valid
    unfinished = check_tomllib("a = ")
    assert (unfinished.error_offset, unfinished.message) == (4, "Invalid value")


def test_csv_records_have_the_headers_number_of_fields() -> None:
    assert check_csv_columns('name,note\nann,"a, b"\n\nbob,\n').valid
    many = 'name,note\nann,"a, b",x\n'
    found = check_csv_columns(many)
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == many.rindex(",")  # the comma that starts field 3
    assert found.message == "a record with 3 fields where the header has 2 fields"
    few = "a,b,c\r\n1,2,3\r\n4,5\r\n"
    assert check_csv_columns(few).error_offset == few.index("4")
    # a last record the end cuts short is an unfinished prefix, not an error
    cut = check_csv_columns("a,b,c\n1,2,3\n4,5")
    assert (cut.verdict, cut.error_offset) == (Verdict.INCOMPLETE, len("a,b,c\n1,2,3\n4,5"))
    assert check_csv_columns("a,b,c\n4,5\n6,7,8").verdict is Verdict.INCORRECT
    # a quoted field over lines: the record after it is placed on its own line
    quoted = 'a,b\n"x\ny",1\n2\n'
    assert check_csv_columns(quoted).error_offset == quoted.rindex("2")


def test_expat_places_its_objection_in_characters() -> None:
    assert check_expat('<a x="1"/>').valid
    text = '<é x="1" x="2"/>'  # columns in characters, not UTF-8 bytes
    found = check_expat(text)
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == text.rindex("x")
    assert found.message == "duplicate attribute"
    undeclared = "<a>\n  &nbsp;</a>"
    assert check_expat(undeclared).error_offset == undeclared.index("&")


def test_yaml_safe_loader_refuses_what_it_cannot_construct() -> None:
    pytest.importorskip("yaml")
    assert check_yaml("a: 1\n---\nb: [1, 2]\n").valid
    text = "ok: 1\n? [a]\n: 1\n"  # a list as a mapping key is unhashable
    found = check_yaml(text)
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == text.index("[")
    assert "unhashable key" in found.message


def test_configparser_reads_ini_as_the_grammar_does() -> None:
    text = (
        "; comment\n[s]\n# comment\na = 1 ; inline\nb: x;y\nc =\n  more\n\n  and more\n"
        "d = a#b\n[t]\na = 2\n"
    )
    assert check_configparser(text).valid
    assert check_configparser("").valid
    assert check_configparser("[s]\r\na = 1\r\n").valid


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("[s]\na = 1\nA: 2\n", "A: 2", "name 'a' defined twice in section 's'"),
        ("[s]\n[t]\nx = 1\n  [s]\n", None, None),  # an indented line continues x
        ("[s]\n[t]\n[s]\n", "[s]\n", "section 's' defined twice"),
        ("[s]\n=x\n", "=x", "not a section header, a comment, nor a name with a value"),
        ("[s]\n  a = 1\n  b\n", "b\n", "not a section header, a comment, nor a name with a value"),
        ("Here is the file:\n\n[s]\na = 1\n", "Here", "a name before the first [section] header"),
    ],
)
def test_configparser_objections_are_placed_at_their_line(
    text: str, line: str | None, message: str | None
) -> None:
    found = check_configparser(text)
    if line is None:
        assert found.valid
        return
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == text.rindex(line)
    assert found.message == message


@pytest.mark.parametrize(
    "text",
    [
        "root = true\n[*]\nindent = 4\n",  # inih's global names, with values
        "a =\nb = 2\n[s]\n",  # one of them has a value
        "a =\n  more\n[s]\n",  # a continuation line is its value
        "Here is the file:\n",  # no header: nothing tells prose from a name
        "[s]\na =\n",
        "",
    ],
)
def test_inih_reads_names_before_the_first_section(text: str) -> None:
    assert check_inih(text).valid


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Here is the file:\n\n[s]\na = 1\n", "Here"),
        ("; note\r\nSure, here it is:\r\n[s]\r\n", "Sure"),
        ("  a =\nb:\n\n[s]\n", "a ="),
    ],
)
def test_inih_refuses_only_names_without_values_before_the_first_section(
    text: str, line: str
) -> None:
    found = check_inih(text)
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == text.index(line)
    assert "a line of prose?" in found.message


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("[s]\npackage_dir =\n=src\n", "=src", "an empty name"),
        ("[s]\n  : x\n", ": x", "an empty name"),  # indented, after no named pair
        ("[a]\nx = 1\ntestenv:docs]\ny = 2\n", "testenv", "header without its '['"),
        ("[a]\nx = 1\n  dev=1]\n", None, None),  # a continuation line: a value
        ("[a]\nincrease_columns=]\n", None, None),  # a value `]`, after no name
        ("[a]\nk = [1]\n", None, None),
    ],
)
def test_inih_refuses_names_no_ini_file_writes(
    text: str, line: str | None, message: str | None
) -> None:
    found = check_inih(text)
    if line is None or message is None:
        assert found.valid
        return
    assert found.verdict is Verdict.INCORRECT
    assert found.error_offset == text.index(line)
    assert message in found.message


@pytest.mark.parametrize(
    ("grammar", "loader"),
    [("toml", "tomllib"), ("csv", "csv"), ("xml", "expat"), ("yaml", "yaml"), ("ini", "inih")],
)
def test_the_bundled_grammars_name_their_loader(grammar: str, loader: str) -> None:
    assert registry.resolve(grammar).semantics == loader


def test_the_incremental_oracle_asks_the_loader_when_asked() -> None:
    oracle = IncrementalGrammarOracle("toml")
    text = "a = 1\na = 2\n"
    assert oracle.check(text).valid  # the grammar alone accepts it
    found = oracle.check_semantics(text)
    assert found is not None and found.message == "Cannot overwrite a value"
    assert IncrementalGrammarOracle("json").check_semantics("1") is None


def test_a_loader_not_installed_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = semantics.Loader("yaml", check_yaml, "no_such_module_for_yaml", extra="yaml")
    monkeypatch.setitem(LOADERS, "yaml", missing)
    assert not missing.available
    assert missing.missing == (
        "checked by the grammar only: no_such_module_for_yaml is not installed "
        "(install inputmend[yaml])"
    )
    assert IncrementalGrammarOracle("yaml").check_semantics("? [a]\n: 1\n") is None


def test_only_known_loaders_can_be_named(tmp_path: Path) -> None:
    path = tmp_path / "g.lark"
    path.write_text('// semantics: os.system\nstart: "x"\n')
    with pytest.raises(
        OracleConfigError, match=r"unknown semantics 'os.system' \(known: configparser, csv"
    ):
        registry.read_info(path)
    assert set(LOADERS) == {"tomllib", "csv", "expat", "yaml", "configparser", "inih"}
    assert {loader.module for loader in LOADERS.values()} == {
        "configparser",
        "tomllib",
        "csv",
        "xml.parsers.expat",
        "yaml",
        "re",
    }
