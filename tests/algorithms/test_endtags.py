"""The places of a document's end tags, as evidence for a lost one's."""

from __future__ import annotations

import pytest

from inputmend.algorithms.endtags import (
    Conventions,
    Element,
    context_and_place,
    elements,
    may_write_tags,
)
from inputmend.core.model import Edit, apply_edits

FEED = (
    "<feed>\n"
    "<entry>\n"
    '  <title><div>Example <a href="x">test</a></div>\n'
    "  <id>1</id>\n"
    "</entry>\n"
    "</feed>\n"
)
"""An Atom feed whose ``<title>`` lost its end tag: its intact elements
close on their start tag's line when their content begins there."""


def test_an_end_tag_closes_the_innermost_open_element_of_its_name() -> None:
    text = "<a><b><c>x</b><!-- </a> --><d/></a>"
    found = [(e.name, text[e.opened : e.closing]) for e in elements(text)]
    assert found == [("b", "<c>x"), ("a", "<b><c>x</b><!-- </a> --><d/>")]


def test_an_end_tag_of_no_open_element_closes_nothing() -> None:
    assert list(elements("<a></b></a>")) == [Element("a", 3, 7)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<a>x</a>", (True, "same")),
        ("<a></a>", (False, "same")),
        ("  <a>\n    <b/>\n  </a>", (False, "aligned")),
        ("  <a>\n    <b/>\n</a>", (False, "shifted")),
        ("<a>x\n  y</a>", (True, "after")),
    ],
)
def test_the_place_of_an_end_tag(text: str, expected: tuple[bool, str]) -> None:
    (element,) = elements(text)
    assert context_and_place(text, element) == expected


def test_a_place_as_the_document_writes_its_elements_costs_nothing() -> None:
    conventions = Conventions(FEED)
    same_line = FEED.index("</div>") + len("</div>")
    next_line = FEED.index("</entry>")
    on_its_line = conventions.cost(*_inserted(FEED, same_line, "</title>"))
    before_entry = conventions.cost(*_inserted(FEED, next_line, "</title>"))
    assert on_its_line == 0
    assert before_entry > 1


def test_the_elements_of_one_name_outweigh_the_document() -> None:
    # every <path> is closed right after its start tag; other elements hold text
    svg = (
        "<svg><g>x</g><g>y</g>"
        + '<path d="1"></path>' * 4
        + '<path d="2"><path d="3"></path></svg>'
    )
    conventions = Conventions(svg)
    lost = svg.index('<path d="3">')
    at_once = conventions.cost(*_inserted(svg, lost, "</path>"))
    at_the_end = conventions.cost(*_inserted(svg, svg.index("</svg>"), "</path>"))
    assert at_once == 0
    assert at_the_end > at_once


def test_no_evidence_and_no_end_tag_cost_nothing() -> None:
    assert not may_write_tags('{"a": "<b>"}')
    assert Conventions("<a>\n<b>x").cost(*_inserted("<a>\n<b>x", 8, "</b>")) == 0
    assert Conventions(FEED).cost(*_inserted(FEED, 0, "x")) == 0


def _inserted(text: str, offset: int, insert: str) -> tuple[str, tuple[Edit, ...]]:
    """``text`` with ``insert`` at ``offset``, and the edit."""
    edits = (Edit(offset, 0, insert),)
    return apply_edits(text, edits), edits
