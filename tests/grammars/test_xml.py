"""The XML grammar's checks beside the parser, through the oracles.

``grammars/xml.lark`` is the context-free part of XML 1.0 well-formedness;
its header asks for the rest (``check:`` lines): matching end tags, unique
attributes, declared entities and namespace prefixes.  Their agreement with
expat and ElementTree on the corpus is in ``test_reference_checks.py``.
"""

from __future__ import annotations

import pytest

from inputmend.core.oracle import Verdict
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.grammars import references


@pytest.fixture(scope="module")
def oracle() -> IncrementalGrammarOracle:
    return IncrementalGrammarOracle("xml")


@pytest.mark.parametrize(
    ("text", "verdict", "offset", "message"),
    [
        ("<a></b>", Verdict.INCORRECT, 5, "`b` closes `a`"),
        ("<abc></abd>", Verdict.INCORRECT, 9, "`abd` closes `abc`"),
        ("<abc></ab>", Verdict.INCORRECT, 9, "`ab` closes `abc`"),  # at the `>`
        ("<abc></ab", Verdict.INCOMPLETE, 9, "unexpected end of input"),
        ("<a></", Verdict.INCOMPLETE, 5, "unexpected end of input"),
        ('<a x="1" y="2" x="3"/>', Verdict.INCORRECT, 16, "`x` appears twice"),
        ('<a x="1" x', Verdict.INCOMPLETE, 10, "unexpected end of input"),
        ("<a>&nbsp;</a>", Verdict.INCORRECT, 4, "`nbsp` is not declared"),
        ("<a>&amx;</a>", Verdict.INCORRECT, 6, "`amx` is not declared"),
        ("<a>&am", Verdict.INCOMPLETE, 6, "unexpected end of input"),
        ('<a t="&apos;&foo;"/>', Verdict.INCORRECT, 13, "`foo` is not declared"),
        ("<p:a/>", Verdict.INCORRECT, 4, "the prefix of `p:a` is not declared"),
        ('<a xmlns:p="u"><p:b/></a>', Verdict.COMPLETE, None, ""),
        ('<a><b xmlns:p="u"/><p:c/></a>', Verdict.INCORRECT, 23, None),  # out of scope
        ('<p:a p:x="1" xmlns:p="u"/>', Verdict.COMPLETE, None, ""),  # declared later in the tag
        # with namespaces a name has at most one colon, with a name on each side
        (
            '<a xmlns:p="u" p:="1"/>',
            Verdict.INCORRECT,
            21,
            "`p:` is not a qualified name (prefix:local)",
        ),
        ('<a xmlns:p="u" p:b:c="1"/>', Verdict.INCORRECT, 24, None),
    ],
)
def test_checks_beside_the_parser(
    oracle: IncrementalGrammarOracle,
    text: str,
    verdict: Verdict,
    offset: int | None,
    message: str | None,
) -> None:
    for judge in (oracle, ReferenceGrammarOracle("xml")):
        feedback = judge.check(text)
        assert (feedback.verdict, feedback.error_offset) == (verdict, offset)
        if message is not None:
            assert feedback.message == message
    assert references.xml_valid(text.encode()) is (verdict is Verdict.COMPLETE)


def test_an_end_tag_can_only_continue_with_the_open_name(oracle: IncrementalGrammarOracle) -> None:
    prefix = "<root><item>x"
    assert oracle.continuations(prefix + "</", "abcimrt>/ ") == "i"
    assert oracle.continuations(prefix + "</it", "abcemt> ") == "e"
    assert set(oracle.continuations(prefix + "</item", "abcemt> \n")) == {">", " ", "\n"}
    assert "a" in oracle.continuations(prefix + "<", "a")  # a new element: any name


def test_the_open_names_are_known_at_the_end_of_a_prefix(oracle: IncrementalGrammarOracle) -> None:
    scan = oracle.scan('<a xmlns="u"><b><c x="1">text')
    assert scan.end is not None
    checks = oracle.grammar.checks
    assert checks is not None
    assert checks.expected_close(scan.end.extra[1]) == ["c", "b", "a"]


def test_an_edit_rejoins_only_where_the_open_names_agree(oracle: IncrementalGrammarOracle) -> None:
    items = "".join(f"<item n='{i}'>{i}</item>" for i in range(300))
    text = f"<list>{items}</list>"
    base = oracle.scan(text)
    assert base.feedback.valid
    lexed = oracle.scanned_chars
    renamed = text.replace("<item", "<ITEM", 1)  # the first <item> is now <ITEM>
    close = text.index("</item>") + 2
    assert oracle.check(renamed).error_offset == close
    assert oracle.check(renamed.replace("</item", "</ITEM", 1)).valid
    assert oracle.scanned_chars - lexed < 500  # from just before the edits, then rejoined
