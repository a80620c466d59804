"""The corpora of the newer formats, and the grammars' verdicts against reference parsers.

``tests/corpus/FORMAT/`` holds at least 30 real-looking valid files per format
(TOML, YAML, XML, JSONC); every one must be valid for the format's reference
parser (``references.py``).  For the bundled grammars the
grammar's verdict must equal the reference's on every corpus file and on fresh
mutations of it, made with the FSynth study's protocol (``mutate`` of the
repair benchmark: random byte insertions, deletions and flips; one, or 2 to
16; see ``references.mutants``).  The only allowed differences are the
documented ones below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.core.text import decode_bytes
from tests.grammars import references
from tests.grammars.references import corpus_files, mutants
from tests.grammars.test_bundled_grammars import accepts

FORMATS = ("toml", "yaml", "xml", "jsonc")

# TOML rules that are not syntax (toml.lark leaves them to tomllib): a text
# can be valid for the grammar and still be rejected by tomllib with one of
# these messages (a key or table defined twice, a table extended after it was
# defined by dotted keys or inline, an array of tables appended to a static
# array).  Any other disagreement fails the test.
TOML_SEMANTIC_ERRORS = (
    "Cannot overwrite a value",
    "Cannot declare ",
    "Cannot mutate immutable namespace",
    "Cannot redefine namespace",
    "Duplicate inline table key",
)


def grammar_accepts(name: str, data: bytes) -> bool:
    """The grammar's verdict on a file as inputmend reads it."""
    return accepts(name, decode_bytes(data)[0])


@pytest.mark.parametrize("fmt", FORMATS)
def test_corpus_has_enough_real_looking_files(fmt: str) -> None:
    files = corpus_files(fmt)
    assert len(files) >= 30
    assert len({path.read_bytes() for path in files}) == len(files)
    assert any(b"\r\n" in path.read_bytes() for path in files), "a CRLF file"
    assert any(not path.read_bytes().endswith(b"\n") for path in files), "no final newline"


@pytest.mark.parametrize(
    ("fmt", "path"),
    [(fmt, path) for fmt in FORMATS for path in corpus_files(fmt)],
    ids=lambda value: value.name if isinstance(value, Path) else str(value),
)
def test_corpus_file_is_valid_for_the_reference_parser(fmt: str, path: Path) -> None:
    assert references.VALID[fmt](path.read_bytes())


def _disagreements(name: str) -> list[tuple[str, bool, bytes]]:
    """(file, grammar's verdict, text) wherever grammar and reference differ."""
    found = []
    for path in corpus_files(name):
        for data in [path.read_bytes(), *mutants(path)]:
            ours = grammar_accepts(name, data)
            if ours != references.VALID[name](data):
                found.append((path.name, ours, data))
    return found


def test_toml_grammar_agrees_with_tomllib_except_semantic_rules() -> None:
    unexplained = []
    for file, ours, data in _disagreements("toml"):
        message = references.toml_error(data) or ""
        if not (ours and message.startswith(TOML_SEMANTIC_ERRORS)):
            unexplained.append((file, ours, message, data))
    assert unexplained == []


def test_jsonc_grammar_agrees_with_the_reference_checker() -> None:
    assert _disagreements("jsonc") == []


def test_yaml_grammar_agrees_with_pyyaml_except_building_data() -> None:
    # The grammar is YAML's syntax as PyYAML reads it (scanner, parser and
    # composer: anchors and aliases too); safe_load_all also builds Python
    # data, which fails on unknown tags, dates that do not exist, base64 that
    # does not decode, ...: those texts are valid for the grammar.
    unexplained = []
    for file, ours, data in _disagreements("yaml"):
        error = references.yaml_error(data)
        if not (ours and error is not None and error.constructing):
            unexplained.append((file, ours, error, data))
    assert unexplained == []


# What expat reads beyond the text: an encoding named in the XML declaration
# that it does not know.
XML_NOT_IN_THE_TEXT = ("unknown encoding",)


def test_xml_grammar_agrees_with_expat_and_elementtree() -> None:
    unexplained = [
        (file, ours, data)
        for file, ours, data in _disagreements("xml")
        if not (references.xml_error(data) or "").startswith(XML_NOT_IN_THE_TEXT)
    ]
    assert unexplained == []


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\na = 2\n",
        "[t]\n[t]\n",
        "a.b = 1\n[a]\n",
        "t = {x = 1}\n[t]\ny = 2\n",
        "t = {x = 1, x = 2}\n",
        "a = []\n[[a]]\n",
    ],
)
def test_toml_semantic_rules_are_left_to_tomllib(text: str) -> None:
    data = text.encode()
    assert grammar_accepts("toml", data)
    assert (references.toml_error(data) or "").startswith(TOML_SEMANTIC_ERRORS)


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("[1, 2,]", True),
        ("[1, /* c */ 2 // d\n]", True),
        ("\u00a0[\x0b1\x0c]\u2028", True),
        ("// only a comment", True),
        ("", True),
        ("[,]", False),
        ("{,}", False),
        ("[1,,]", False),
        ("[1] ,", False),
        ("/* open", False),
        ("[1 // hides ]", False),
        ("[1 /**/ 2]", False),
        ('"a // b"', True),
        ('{"a": NaN}', False),
    ],
)
def test_jsonc_reference_checker(text: str, valid: bool) -> None:
    assert references.jsonc_valid(text.encode()) is valid
    assert grammar_accepts("jsonc", text.encode()) is valid


def test_references_reject_what_is_not_utf8_and_ignore_a_bom() -> None:
    for fmt in FORMATS:
        data = corpus_files(fmt)[0].read_bytes()
        assert references.VALID[fmt](b"\xef\xbb\xbf" + data)
        assert not references.VALID[fmt](data + b"\xff")
