"""A closer completion wrote in front of a refused token, put back on its own line."""

from __future__ import annotations

from inputmend import services
from inputmend.algorithms.completion import ALGORITHM as COMPLETION
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repairs.generators.closers import (
    CLOSERS,
    layout_kept,
    line_leading,
    one_insertion,
    proposals,
)
from tests.repairs.generators.run import context, texts

RSS = "<rss>\n  <channel>\n    <item>a</item>\n  \n</rss>\n"
"""``</channel>`` lost from its line, which is left with its blanks."""


def _completed(text: str, edit: Edit) -> Repair:
    return Repair(apply_edits(text, (edit,)), (edit,), COMPLETION, True, len(edit.insert))


def test_an_insertion_ending_with_the_text_before_it_is_read_further_left() -> None:
    text = "a\n  </rss>"
    assert line_leading(text, Edit(text.index("rss"), 0, "channel></")) == "</channel>"
    assert line_leading(text, Edit(text.index("</"), 0, "</channel>")) == "</channel>"
    assert line_leading(text, Edit(text.index(">"), 0, "x")) is None  # not at the line's start
    assert line_leading(text, Edit(text.index("rss"), 1, "x")) is None  # not an insertion


def test_the_closer_goes_on_the_blank_line_else_on_a_line_of_its_own() -> None:
    at = RSS.index("</rss>")
    placed = [apply_edits(RSS, edits) for edits in proposals(RSS, at, "</channel>", own_line=True)]
    # its emptied line and nowhere else: a line beside it would leave that blank
    assert placed == ["<rss>\n  <channel>\n    <item>a</item>\n  </channel>\n</rss>\n"]
    lost = RSS.replace("  \n", "")  # the closer's line lost whole
    at = lost.index("</rss>")
    places = proposals(lost, at, "</channel>", own_line=True)
    placed = [apply_edits(lost, edits) for edits in places]
    # halfway between the lines around it first, then as either of them
    assert placed[0].endswith("</item>\n  </channel>\n</rss>\n")
    assert placed[1].endswith("</item>\n</channel>\n</rss>\n")
    assert placed[2].endswith("</item>\n    </channel>\n</rss>\n")
    assert len(placed) == 3


def test_it_moves_the_closer_completion_put_in_front_of_the_refused_end_tag() -> None:
    request = context(RSS, "xml")
    at = RSS.index("</rss>") + 2
    completed = _completed(RSS, Edit(at, 0, "channel></"))
    found = texts(CLOSERS.run(request, (completed,), Budget(max_tests=50)))
    assert found[0] == RSS.replace("  \n", "  </channel>\n")


def test_a_text_cut_off_after_a_blank_line_is_closed_on_it() -> None:
    text = "<a>\n  <b/>\n\n"
    completed = _completed(text, Edit(len(text), 0, "</a>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found[0] == "<a>\n  <b/>\n</a>\n"


def test_a_closer_lost_from_the_end_goes_on_the_last_blank_line() -> None:
    # `</license>` lost from its line, the last before the final line break,
    # after a blank line that parted it from the content: that one stays
    text = "<license>\n  <p>text</p>\n\n\n"
    completed = _completed(text, Edit(len(text), 0, "</license>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found[0] == "<license>\n  <p>text</p>\n\n</license>\n"
    # and the ranking keeps it there: polishing deletes no blank line
    result = services.repair(text, IncrementalGrammarOracle("xml"), budget=Budget(max_tests=2000))
    assert result.repairs[0].text == "<license>\n  <p>text</p>\n\n</license>\n"


def test_a_closer_appended_after_the_line_that_opened_it_goes_on_that_line() -> None:
    # `</svg>` lost from the end of the one line that holds the whole element
    text = '<svg viewBox="0 0 1 1"><path d="m0 0z"/> <!-- end -->\n'
    completed = _completed(text, Edit(len(text), 0, "</svg>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found == ['<svg viewBox="0 0 1 1"><path d="m0 0z"/></svg> <!-- end -->\n']
    # of several closers, only those of what the last line opened go on it
    text = "<a>\n  <b>x<c/>\n"
    completed = _completed(text, Edit(len(text), 0, "</b></a>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found == ["<a>\n  <b>x<c/></b>\n</a>"]
    # a line that opens nothing left open keeps the closers at the end
    text = "<a>\n  <b/>\n"
    completed = _completed(text, Edit(len(text), 0, "</a>"))
    assert not CLOSERS.wanted(context(text, "xml"), (completed,))


def test_a_line_that_ends_inside_a_tag_leaves_it_open() -> None:
    # `</group` lost its `>`: the blank line below is not an emptied line of
    # a closer, though `></kcfg>` ends `</group></kcfg>` as a string
    text = "<kcfg>\n  <group>\n    <entry/>\n  </group\n\n</kcfg>\n"
    at = text.index("</kcfg>")
    completed = _completed(text, Edit(at, 0, ">"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert text[:at] + "\n" + text[at:] not in found
    assert text.replace("\n\n", "\n>\n") not in found
    result = services.repair(text, IncrementalGrammarOracle("xml"), budget=Budget(max_tests=2000))
    assert result.repairs[0].text == text.replace("</group", "</group>")


def test_nothing_without_a_completion_at_the_start_of_the_line() -> None:
    request = context(RSS, "xml")
    assert not CLOSERS.wanted(request, ())
    assert texts(CLOSERS.run(request, (), Budget(max_tests=50))) == []
    # a text cut off without a blank line at its end: completion's closer stays
    text = "<a>\n  <b/>\n"
    completed = _completed(text, Edit(len(text), 0, "</a>"))
    assert not CLOSERS.wanted(context(text, "xml"), (completed,))


def test_the_ranking_puts_the_lost_end_tag_back_on_its_line() -> None:
    oracle = IncrementalGrammarOracle("xml")
    result = services.repair(RSS, oracle, budget=Budget(max_tests=2000))
    assert result.repairs[0].text == RSS.replace("  \n", "  </channel>\n")


POM = (
    "<project>\n  <dependencies>\n    <dependency>\n      <id>x</id>\n"
    "  </dependencies>\n</project>\n"
)
"""``</dependency>`` lost with its line, before the parent's end tag."""


def test_a_closer_completion_put_at_the_end_of_the_line_above_gets_a_line_of_its_own() -> None:
    request = context(POM, "xml")
    at = POM.index("\n  </dependencies>")
    completed = _completed(POM, Edit(at, 0, "</dependency>"))
    found = texts(CLOSERS.run(request, (completed,), Budget(max_tests=50)))
    # one indentation: halfway between the lines around it, the first accepted
    assert found == [POM.replace("  </dependencies>", "    </dependency>\n  </dependencies>")]


def test_a_closer_of_a_construct_the_line_above_opened_stays_on_that_line() -> None:
    text = '<shelf>\n  <book lang="fr"\n</shelf>\n'
    at = text.index("\n</shelf>")
    completed = _completed(text, Edit(at, 0, "/>"))
    assert not CLOSERS.wanted(context(text, "xml"), (completed,))


def test_the_ranking_closes_a_lost_element_on_its_own_line_and_touches_nothing_else() -> None:
    result = services.repair(POM, IncrementalGrammarOracle("xml"), budget=Budget(max_tests=2000))
    best = result.repairs[0]
    assert best.text == POM.replace("  </dependencies>", "    </dependency>\n  </dependencies>")
    assert best.edits == (Edit(POM.index("  </dependencies>"), 0, "    </dependency>\n"),)


def test_the_line_that_opened_the_construct_is_read_past_blank_lines() -> None:
    text = '<a>\n  <b name=""\n\n  <c/>\n</a>\n'
    at = text.index("\n\n  <c/>")
    completed = _completed(text, Edit(at, 0, "/>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert not any("\n/>" in repaired or " />" in repaired for repaired in found)


def test_a_completion_is_read_without_the_blanks_it_deletes() -> None:
    text = "<r>\n  <t>x\n</r>\n"
    joined = (Edit(text.index("\n</r>"), 1, "</t>"), Edit(len(text) - 1, 1, ""))
    assert layout_kept(text, joined) == (Edit(text.index("\n</r>"), 0, "</t>"),)
    assert layout_kept(text, (Edit(text.index("x"), 1, "</t>"),)) is None  # deletes data
    completed = Repair(apply_edits(text, joined), joined, COMPLETION, True, 5)
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert "<r>\n  <t>x</t>\n</r>\n" in found


def test_insertions_are_read_as_one_after_a_blank_where_they_can_be() -> None:
    text = "a\n</It>\n"
    inside = (Edit(text.index(">"), 0, "_x"), Edit(text.index(">") + 1, 0, "</It>"))
    assert one_insertion(text, inside) == Edit(text.index("</"), 0, "</It_x>")
    # no blank before any reading of it: as far right as it goes
    assert one_insertion("<b/>", (Edit(4, 0, "</a>"),)) == Edit(4, 0, "</a>")
    assert one_insertion(text, (Edit(0, 0, "x"), Edit(3, 0, "y"))) is None


def test_the_closer_goes_on_an_emptied_line_above_the_error_first_of_its_run() -> None:
    # `</a>` lost from its line, whose element went on to hold `<c/>` after
    text = "<r>\n<a>\n<b/>\n\n\n<c/>\n</r>\n"
    completed = _completed(text, Edit(text.index("</r>"), 0, "</a>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert "<r>\n<a>\n<b/>\n</a>\n\n<c/>\n</r>\n" in found
    assert "<r>\n<a>\n<b/>\n\n</a>\n<c/>\n</r>\n" not in found
    # the ranking puts it there: it adds no line
    result = services.repair(text, IncrementalGrammarOracle("xml"), budget=Budget(max_tests=2000))
    assert result.repairs[0].text == "<r>\n<a>\n<b/>\n</a>\n\n<c/>\n</r>\n"


def test_a_line_that_closes_what_lines_above_opened_leaves_the_closer_a_line_below() -> None:
    # `</a>` lost from its line (left with its blanks), after a line that closes `<b>`
    text = "<r>\n  <a>\n    <b>\n    </b>\n  \n</r>\n"
    completed = _completed(text, Edit(text.index("</r>"), 0, "</a>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found[0] == text.replace("  \n</r>", "  </a>\n</r>")


def test_a_text_cut_off_after_a_blank_line_is_closed_on_it_whatever_the_line_above_opened() -> None:
    text = '<a>\n<b name="x">\n\n'
    completed = _completed(text, Edit(len(text), 0, "</b></a>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found[0] == '<a>\n<b name="x">\n</b></a>\n'


def test_a_closer_goes_where_the_indentation_ends_its_construct() -> None:
    # `</family>` lost after `Minion Math`: the next line, a sibling as deep
    # as the line that opened it, says the element ended on that line,
    # before its comment; not before the refused `</prefer>`, nor on a line
    # of its own there
    text = (
        "<prefer>\n  <family>Latin Modern Math</family> <!-- TeX -->\n"
        "  <family>STIX Two Math</family> <!-- Tiro -->\n"
        "  <family>Minion Math <!-- Adobe -->\n"
        "  <family>Lucida Math</family> <!-- Adobe -->\n"
        "  <family>Asana Math</family>\n</prefer>\n"
    )
    intended = text.replace("Minion Math ", "Minion Math</family> ")
    at = text.index("</prefer>")
    completed = _completed(text, Edit(at, 0, "</family>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert intended in found
    own_lines = ("\n</family>\n</prefer>", "\n </family>\n</prefer>", "\n  </family>\n</prefer>")
    assert not any(line in repaired for repaired in found for line in own_lines)
    result = services.repair(text, IncrementalGrammarOracle("xml"), budget=Budget(max_tests=2000))
    assert result.repairs[0].text == intended


def test_the_indentation_of_a_string_cut_off_places_no_closer() -> None:
    # the lines of a multi-line string are its text, however indented: its
    # closing quotes are not put back before a line that is less indented
    text = 'a = 1\nb = """\n    #define X 1\n  #else\n#endif // X'
    completed = _completed(text, Edit(len(text), 0, '"""'))
    assert not texts(CLOSERS.run(context(text, "toml"), (completed,), Budget(max_tests=50)))


def test_a_closer_lost_on_a_line_of_many_elements_goes_between_its_children() -> None:
    # a text that does not part its elements by lines: one <path> lost its
    # `</path>`, which completion puts in front of the refused `</svg>`;
    # between the paths, and right after the open one's start tag, are the
    # other places, and there the document's own paths are closed
    text = '<svg><path d="1"></path><path d="2"><path d="3"></path></svg>\n'
    intended = text.replace('"2">', '"2"></path>')
    at = text.index("</svg>")
    completed = _completed(text, Edit(at + 2, 0, "path></"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found == [intended]  # (before the third's `</path>`: completion's own text)
    result = services.repair(text, IncrementalGrammarOracle("xml"), budget=Budget(max_tests=2000))
    assert result.repairs[0].text == intended


def test_the_places_between_children_stop_at_the_construct_a_closer_ends() -> None:
    # before `<b>` the grammar completes the text with less: `</b>` ends
    # nothing opened before it, so no place is proposed there or earlier
    text = "<a><c/><b><d/><e/></a>\n"
    at = text.index("</a>")
    completed = _completed(text, Edit(at, 0, "</b>"))
    found = texts(CLOSERS.run(context(text, "xml"), (completed,), Budget(max_tests=50)))
    assert found == ["<a><c/><b><d/></b><e/></a>\n", "<a><c/><b></b><d/><e/></a>\n"]


def test_a_bracket_lost_before_a_separator_goes_between_the_children_it_ends() -> None:
    # `]` lost after the array's last item: the grammar refuses only the
    # `:` of the key that follows, and `]` in front of it is refused too, so
    # completion puts nothing there; the bracket its completion begins with
    # goes back over the key and the comma, where it ends the array
    text = '{"tags": ["a", "b", "count": 2}'
    intended = '{"tags": ["a", "b"], "count": 2}'
    found = texts(CLOSERS.run(context(text, "json"), (), Budget(max_tests=50)))
    assert found == [intended]
    result = services.repair(text, IncrementalGrammarOracle("json"), budget=Budget(max_tests=2000))
    assert result.repairs[0].text == intended


def test_no_closer_goes_back_where_the_completion_begins_with_none() -> None:
    # a key's `:` lost: the grammar completes `{"a"` with `:`, not a bracket
    text = '{"a" 1, "b": 2}'
    assert not texts(CLOSERS.run(context(text, "json"), (), Budget(max_tests=50)))
