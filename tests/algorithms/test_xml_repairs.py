"""XML's everyday slips, repaired as a person would: the hints propose, the
ranking (which reads XML in context) puts the repair that keeps the data first."""

from __future__ import annotations

import pytest

from inputmend import services
from inputmend.config.defaults import RUN_MAX_TESTS
from inputmend.core.budget import Budget
from inputmend.oracles.incremental import IncrementalGrammarOracle

SHELF = '<shelf>\n  <book lang="en" year="1965">Dune</book>\n  <book lang="fr"/>\n</shelf>\n'

BUDGET = Budget(max_tests=RUN_MAX_TESTS)
"""Bounded by work as the CLI is, with no wall-time cap: the same answer under any load."""


@pytest.mark.parametrize(
    "damaged",
    [
        SHELF.replace('"en"', '"en', 1),  # a value lost its closing quote
        SHELF.replace('"1965"', '1965"', 1),  # or its opening quote
        SHELF.replace('"1965">Dune', '"1965"Dune', 1),  # a start tag lost its `>`
        SHELF.replace('<book lang="fr"/>', '<book lang="fr"', 1),  # an empty tag its `/>`
        SHELF.replace("</book>", "</book", 1),  # an end tag its `>`
        "<shelf>\n  <title>Dune</title>\n</shelf>\n".replace("<title>", "<title", 1),
    ],
)
def test_a_lost_quote_or_bracket_is_put_back(damaged: str) -> None:
    original = SHELF if damaged.count("book") else "<shelf>\n  <title>Dune</title>\n</shelf>\n"
    oracle = IncrementalGrammarOracle("xml")
    result = services.repair(damaged, oracle, budget=BUDGET)
    assert result.repairs[0].text == original


def test_a_value_that_lost_its_opening_quote_keeps_the_blank_it_ends_with() -> None:
    intended = '<magic>\n  <match value="&lt;bank " type="string"/>\n</magic>\n'
    damaged = intended.replace('"&lt;', "&lt;", 1)
    result = services.repair(damaged, IncrementalGrammarOracle("xml"), budget=BUDGET)
    assert result.repairs[0].text == intended


def test_an_answer_around_the_document_is_peeled_without_a_search() -> None:
    oracle = IncrementalGrammarOracle("xml")
    answer = f"Here is the shelf you asked for:\n\n{SHELF}\nLet me know if you need more.\n"
    result = services.repair(answer, oracle, budget=BUDGET)
    assert result.repairs[0].text.strip() == SHELF.strip()
    # removing the text around the data loses none: no search runs after it
    assert not {"fsynth", "ddmax-hybrid"} & {r.algorithm for r in result.repairs}


def test_a_cut_off_sentence_inside_an_element_is_completed_not_peeled() -> None:
    oracle = IncrementalGrammarOracle("xml")
    cut = "<shelf>\n  <note>\n\n  Read it twice."
    result = services.repair(cut, oracle, budget=BUDGET)
    assert result.repairs[0].text == cut + "</note>\n</shelf>"


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # HTML's void elements pasted into XML: ended with `/>`, not closed by an
        # end tag around what follows them
        ("<p>Call us<br>today</p>\n", "<p>Call us<br/>today</p>\n"),
        (
            '<figure>\n  <img src="cat.png" alt="C">\n  <figcaption>T</figcaption>\n</figure>\n',
            '<figure>\n  <img src="cat.png" alt="C"/>\n  <figcaption>T</figcaption>\n</figure>\n',
        ),
        # two left open before one end tag: each alone takes the parse no further
        (
            '<label>\n  Name <input name="who" required>\n  <hr>\n</label>\n',
            '<label>\n  Name <input name="who" required="required"/>\n  <hr/>\n</label>\n',
        ),
        (
            '<head><meta charset="utf-8"><link rel="icon" href="f.ico"></head>\n',
            '<head><meta charset="utf-8"/><link rel="icon" href="f.ico"/></head>\n',
        ),
    ],
)
def test_html_void_elements_are_self_closed(damaged: str, repaired: str) -> None:
    oracle = IncrementalGrammarOracle("xml")
    result = services.repair(damaged, oracle, budget=BUDGET)
    assert result.repairs[0].text == repaired


def _top(damaged: str) -> str:
    result = services.repair(damaged, IncrementalGrammarOracle("xml"), budget=BUDGET)
    return result.repairs[0].text


def test_a_lost_end_tag_goes_before_the_sibling_its_indentation_shows() -> None:
    items = ['  <item id="1">\n    <name>A</name>\n', '  <item id="2">\n    <name>B</name>\n']
    damaged = "<list>\n" + items[0] + items[1] + "  </item>\n</list>\n"
    # item 2 follows item 1, it is not inside it
    meant = damaged.replace("</name>\n  <item", "</name></item>\n  <item", 1)
    assert _top(damaged) == meant


def test_an_unclosed_comment_is_closed_on_its_line_not_at_the_end() -> None:
    damaged = "<root>\n  <a>1</a>\n  <!-- note\n  <b>2</b>\n</root>\n"
    assert _top(damaged) == "<root>\n  <a>1</a>\n  <!-- note -->\n  <b>2</b>\n</root>\n"


def test_elements_left_open_in_html_style_are_each_ended_on_their_line() -> None:
    damaged = "<ul>\n  <li>one\n  <li>two\n</ul>\n"
    result = services.repair(damaged, IncrementalGrammarOracle("xml"), budget=BUDGET)
    # each alone gets no further than the `</ul>`; together they end both
    assert "<ul>\n  <li>one</li>\n  <li>two</li>\n</ul>\n" in [r.text for r in result.repairs]


def test_a_lost_end_tag_goes_on_its_emptied_line_before_the_sibling() -> None:
    items = ['  <item id="1">\n    <name>A</name>\n', '  <item id="2">\n    <name>B</name>\n']
    # item 1's end tag lost from its line, left with its blanks, before a blank line
    damaged = "<list>\n" + items[0] + "  \n\n" + items[1] + "  </item>\n</list>\n"
    assert _top(damaged) == damaged.replace("  \n\n", "  </item>\n\n", 1)


def test_an_element_whose_text_spans_lines_is_closed_after_its_last_line() -> None:
    original = (
        "<case>\n  <failure>Parsing failed:\nline 3: def f(</failure>\n"
        "  <out>def f(</out>\n</case>\n"
    )
    damaged = original.replace("</failure>", "", 1)
    assert _top(damaged) == original


def test_an_element_whose_text_is_a_cdata_section_is_closed_after_it() -> None:
    original = "<feed>\n  <item>\n    <title><![CDATA[a <b>]] c]]></title>\n  </item>\n</feed>\n"
    damaged = original.replace("</title>", "", 1)
    assert _top(damaged) == original


@pytest.mark.parametrize(
    ("damaged", "meant"),
    [
        # a word right after the start tag of an element that HTML never puts
        # in running text: its text, not a void element's sibling
        (
            '<page>\n  <p>Read <link href="https://example.org/">the terms.</p>\n</page>\n',
            '<page>\n  <p>Read <link href="https://example.org/">the terms.</link></p>\n</page>\n',
        ),
        # a line of mixed content, its element ended at the end of its text
        (
            "<doc>\n  <p>Go <b>now</b> or <i>later</i>.\n</doc>\n",
            "<doc>\n  <p>Go <b>now</b> or <i>later</i>.</p>\n</doc>\n",
        ),
        # an element that holds nothing, before a sibling at its column
        (
            '<g>\n  <path d="M1">\n\n  <path d="M2"></path>\n</g>\n',
            '<g>\n  <path d="M1"></path>\n\n  <path d="M2"></path>\n</g>\n',
        ),
        # ... and before its parent's end tag, its start tag over two lines
        (
            '<svg>\n  <path fill="none"\n    d="M2">\n</svg>\n',
            '<svg>\n  <path fill="none"\n    d="M2"></path>\n</svg>\n',
        ),
    ],
)
def test_a_lost_end_tag_goes_where_the_content_of_its_element_ends(
    damaged: str, meant: str
) -> None:
    assert _top(damaged) == meant


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # a start tag's lost `>` glued its name to its text, which holds an
        # element of its own before the end tag: the name its end tag closes
        (
            '<license>\n\n  <pThis work is under a\n  <link href="x">it</link>.</p>\n</license>\n',
            '<license>\n\n  <p>This work is under a\n  <link href="x">it</link>.</p>\n</license>\n',
        ),
        # its name alone on its line, the next line a tag: `>` after the name
        (
            '<a>\n        <props\n                <prop n="1"/>\n        </props>\n</a>\n',
            '<a>\n        <props>\n                <prop n="1"/>\n        </props>\n</a>\n',
        ),
    ],
)
def test_a_start_tag_gets_its_lost_greater_than_after_its_name(damaged: str, repaired: str) -> None:
    result = services.repair(damaged, IncrementalGrammarOracle("xml"), budget=BUDGET)
    assert result.repairs[0].text == repaired
