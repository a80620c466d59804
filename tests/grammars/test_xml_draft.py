"""The XML draft grammar (``grammars/pending/xml.lark``, not bundled).

The grammar is the context-free part of XML 1.0 well-formedness.  What an
oracle has to check beside the parser (a stack of open tag names, the
attribute names of each tag, the declared entities, legal character
references, PI targets, namespace prefixes in scope) is modelled here by
``beside_the_parser`` on lark's tree.  Together they must agree with expat and
ElementTree on the XML corpus and on fresh mutations of it (the study's
protocol), except where the reference reads more than the text: an encoding
declaration it does not know.
"""

from __future__ import annotations

import re
from pathlib import Path

import lark
import pytest

from inputmend.core.text import decode_bytes
from inputmend.grammar import registry
from tests.grammars import references
from tests.grammars.references import corpus_files, mutants
from tests.grammars.test_bundled_grammars import has_lone_surrogate, lalr_conflicts

DRAFT = Path(__file__).resolve().parents[2] / "grammars" / "pending" / "xml.lark"
PREDEFINED_ENTITIES = frozenset({"lt", "gt", "amp", "apos", "quot"})
REFERENCE = re.compile(r"&#x([0-9A-Fa-f]+);|&#([0-9]+);|&([^#;]+);")
NOT_IN_THE_TEXT = ("unknown encoding",)  # reference errors the grammar cannot see


def parser() -> lark.Lark:
    return registry.build_parser(registry.read_info(DRAFT))


def _legal_char(code: int) -> bool:
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


def beside_the_parser(tree: lark.Tree) -> list[str]:
    """The well-formedness errors a context-free parse cannot see."""
    errors: list[str] = []
    declared = set(PREDEFINED_ENTITIES)
    for declaration in tree.find_data("entity_decl"):
        first = declaration.children[0]
        if isinstance(first, lark.Token) and first.type == "NAME":
            declared.add(str(first))

    def references_in(text: str) -> None:
        for match in REFERENCE.finditer(text):
            hexadecimal, decimal, name = match.groups()
            if name is not None:
                if name not in declared:
                    errors.append(f"undeclared entity {name}")
            elif not _legal_char(int(hexadecimal, 16) if hexadecimal else int(decimal)):
                errors.append(f"illegal character reference {match.group()}")

    def visit(node: lark.Tree | lark.Token, prefixes: frozenset[str]) -> None:
        if isinstance(node, lark.Token):
            if node.type in ("ENTITY_REF", "CHAR_REF"):
                references_in(str(node))
            elif node.type == "PI" and re.match(r"<\?[xX][mM][lL](?:\?>|\s)", str(node)):
                errors.append("processing instruction named xml")
            return
        if node.data != "element":
            for child in node.children:
                visit(child, prefixes)
            return
        tag = node.children[0]
        name = str(tag.children[0])[1:]
        attributes = [(str(a.children[0]), str(a.children[1])) for a in tag.children[1:]]
        names = [attribute for attribute, _ in attributes]
        if len(set(names)) != len(names):
            errors.append(f"duplicate attribute in <{name}>")
        for _, value in attributes:
            references_in(value)
        prefixes |= {attribute[6:] for attribute in names if attribute.startswith("xmlns:")}
        for qualified in [name, *(n for n in names if not n.startswith("xmlns"))]:
            if ":" in qualified and qualified.split(":")[0] not in prefixes:
                errors.append(f"unbound prefix in {qualified}")
        if tag.data == "start_tag":
            end = str(node.children[-1].children[0])[2:]
            if end != name:
                errors.append(f"</{end}> closes <{name}>")
        for child in node.children[1:]:
            visit(child, prefixes)

    visit(tree, frozenset({"xml"}))
    return errors


def draft_accepts(data: bytes) -> bool:
    text, _ = decode_bytes(data)
    if has_lone_surrogate(text):
        return False
    try:
        tree = parser().parse(text)
    except lark.exceptions.LarkError:
        return False
    return not beside_the_parser(tree)


def test_the_registry_does_not_load_the_draft() -> None:
    assert "xml" not in registry.bundled()
    assert registry.for_extension("pom.xml") is None


def test_builds_as_lalr_without_conflicts() -> None:
    assert lalr_conflicts(registry.read_info(DRAFT)) == (set(), [])


def test_agrees_with_expat_on_the_corpus_and_mutations() -> None:
    disagreements = []
    for path in corpus_files("xml"):
        for data in [path.read_bytes(), *mutants(path)]:
            error = references.xml_error(data)
            explained = (error or "").startswith(NOT_IN_THE_TEXT)
            if draft_accepts(data) != (error is None) and not explained:
                disagreements.append((path.name, error, data))
    assert disagreements == []


@pytest.mark.parametrize(
    ("text", "grammar", "beside"),
    [
        ("<a><b/>text &amp; &#x41;</a>", True, True),
        ('<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', True, True),
        ("<a></b>", True, False),
        ('<a x="1" x="2"/>', True, False),
        ("<a>&nbsp;</a>", True, False),
        ("<a>&#0;</a>", True, False),
        (' <?xml version="1.0"?><a/>', True, False),
        ("<p:a/>", True, False),
        ('<p:a xmlns:p="urn:x"><p:b/></p:a>', True, True),
        ('<a b="1"c="2"/>', False, None),
        ("< a/>", False, None),
        ("<a>]]></a>", False, None),
        ("<!-- a -- b --><a/>", False, None),
        ("<a/><b/>", False, None),
        ("<a/>text", False, None),
        ("<a", False, None),
    ],
)
def test_samples(text: str, grammar: bool, beside: bool | None) -> None:
    try:
        tree = parser().parse(text)
    except lark.exceptions.LarkError:
        tree = None
    assert (tree is not None) is grammar
    if tree is not None:
        assert (not beside_the_parser(tree)) is beside
    assert references.xml_valid(text.encode()) is bool(grammar and beside)
