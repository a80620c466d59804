"""Words for repairs: the same for the command line and the language server."""

from __future__ import annotations

import re

import pytest

from inputmend.core.model import Edit, Repair, apply_edits, edits_between
from inputmend.core.render import (
    describe_repair,
    distinct,
    human_where,
    plain_lexer,
    same_for_reader,
)
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.services import lexer_of

PACKAGE = '{\n  "name": "inputmend",\n  "version": "0.1.0"\n  "private": true\n}\n'
AFTER_VERSION = PACKAGE.index('"0.1.0"') + len('"0.1.0"')
JSON_LEXER = lexer_of(ReferenceGrammarOracle("json"))


@pytest.fixture(params=["plain", "grammar"])
def lexer(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return plain_lexer if request.param == "plain" else JSON_LEXER


def test_a_missing_delimiter_is_named_with_the_token_before_it(lexer) -> None:  # type: ignore[no-untyped-def]
    expected = 'Insert missing `,` after `"0.1.0"`'
    assert describe_repair(PACKAGE, [Edit(AFTER_VERSION, 0, ",")], lexer=lexer) == expected
    # before the next token, or instead of the line break: the same words
    before_private = PACKAGE.index('"private"')
    assert describe_repair(PACKAGE, [Edit(before_private, 0, ",")], lexer=lexer) == expected
    assert describe_repair(PACKAGE, [Edit(AFTER_VERSION, 1, ",")], lexer=lexer) == expected


def test_completing_a_truncated_text_closes_what_is_open(lexer) -> None:  # type: ignore[no-untyped-def]
    text = '{"a": ["x'
    close = describe_repair(text, [Edit(len(text), 0, '"]}')], lexer=lexer)
    assert close == "Close the string and the 2 open brackets"
    numbers = '{"a": [1, 2\n'
    assert describe_repair(numbers, [Edit(11, 0, "]}")], lexer=lexer) == (
        "Close the 2 open brackets"
    )
    assert describe_repair("[1", [Edit(2, 0, "]")], lexer=lexer) == "Close the open bracket"
    # a word cut short is named whole, before and after
    assert describe_repair('{"a": tr', [Edit(8, 0, "ue}")], lexer=lexer) == (
        "Complete `tr` as `true` and close the open bracket"
    )
    declaration = '<?xml version="1.0" encoding="U'
    assert describe_repair(declaration, [Edit(len(declaration), 0, 'TF-8"?><a/>')]) == (
        'Complete `U` as `UTF-8` and append `"?><a/>`'
    )


def test_trailing_and_doubled_delimiters(lexer) -> None:  # type: ignore[no-untyped-def]
    trailing = '{"a": [1, 2,\n]}'
    comma = trailing.index(",\n")
    assert describe_repair(trailing, [Edit(comma, 1)], lexer=lexer) == "Remove trailing `,`"
    doubled = "[1, 2,, 3]"
    assert describe_repair(doubled, [Edit(6, 1)], lexer=lexer) == "Remove extra `,` after `2`"
    assert describe_repair(doubled, [Edit(5, 1)], lexer=lexer) == "Remove extra `,` after `2`"
    assert describe_repair('{"a"::1}', [Edit(5, 1)], lexer=lexer) == (
        'Remove extra `:` after `"a"`'
    )
    # replacing it by a space is removing it
    assert describe_repair(doubled, [Edit(6, 1, " ")], lexer=lexer) == (
        "Remove extra `,` after `2`"
    )


def test_deletions_and_replacements_are_placed_by_their_neighbours(lexer) -> None:  # type: ignore[no-untyped-def]
    text = '{"price": **3.45}'
    stars = text.index("**")
    assert describe_repair(text, [Edit(stars, 2)], lexer=lexer) == "Remove `**` before `3.45`"
    assert describe_repair(text, [Edit(stars, 2, "-")], lexer=lexer) == (
        "Replace `**` with `-` before `3.45`"
    )
    junk = '{"a": 1 xyz, "b": 2}'
    assert describe_repair(junk, [Edit(7, 4)], lexer=lexer) == "Remove `xyz` after `1`"


def test_inserted_layout_is_named(lexer) -> None:  # type: ignore[no-untyped-def]
    assert describe_repair("1 + ((2))", [Edit(8, 0, " ")], lexer=lexer) == (
        "Insert a space after `)`"
    )
    assert (
        describe_repair("[1]", [Edit(2, 0, "\n")], lexer=lexer) == "Insert a line break after `1`"
    )


def test_removed_layout_is_named_not_escaped(lexer) -> None:  # type: ignore[no-untyped-def]
    joined = '{"a": 1,\n    "b": 2}'
    assert describe_repair(joined, [Edit(8, 5)], lexer=lexer) == "Remove a line break after `,`"
    assert describe_repair('{"a":   1}', [Edit(5, 3)], lexer=lexer) == "Remove 3 spaces after `:`"


def test_a_lost_quote_and_quoting_a_word(lexer) -> None:  # type: ignore[no-untyped-def]
    text = '{"test": "node --test,\n "lint": "x"}'
    end = text.index(",\n")
    assert describe_repair(text, [Edit(end, 0, '"')], lexer=lexer) == (
        'Insert missing `"` after `"node --test`'
    )
    bare = "{a: 1}"
    assert describe_repair(bare, [Edit(1, 0, '"'), Edit(2, 0, '"')], lexer=lexer) == (
        "Put `a` in quotes"
    )


def test_several_edits_are_counted_after_the_first_two() -> None:
    text = "[1 2 3 4 5]"
    edits = [Edit(offset, 0, ",") for offset in (2, 4, 6, 8)]
    assert describe_repair(text, edits) == (
        "Insert missing `,` after `1`, insert missing `,` after `2` and 2 more edits"
    )


def test_an_ending_laid_out_on_lines_is_named_on_one() -> None:
    text = "<a>\n  <b>\n    <c/>\n"
    assert describe_repair(text, [Edit(len(text), 0, "  </b>\n</a>\n")]) == (
        "Append `</b> </a>`"
    )


def test_a_line_inserted_on_its_own_is_named_by_the_line_after_it() -> None:
    text = "<a>\n  <b>\n    <c/>\n</a>\n"
    assert describe_repair(text, [Edit(text.index("</a>"), 0, "  </b>\n")]) == (
        "Insert `</b>` on a line of its own before `</a>`"
    )


def test_positions_only_where_no_token_helps() -> None:
    assert describe_repair("", [Edit(0, 0, "{}")]) == "Append `{}`"
    # a lexer that sees only layout (comments, say) leaves the position
    text = "# a\n# b"
    nothing = lambda window: []  # noqa: E731
    where = human_where(text)
    assert describe_repair(text, [Edit(4, 0, "x")], lexer=nothing, where=where) == (
        "Insert `x` at 2:1"
    )
    # in the caller's columns: the language server passes the editor's
    assert describe_repair(text, [Edit(4, 0, "x")], lexer=nothing, where=lambda o: f"@{o}") == (
        "Insert `x` at @4"
    )


def _repair(text: str, *edits: Edit) -> Repair:
    repaired = apply_edits(text, edits)
    return Repair(repaired, edits, "test", True, 1)


def test_repairs_a_reader_cannot_tell_apart_are_one(lexer) -> None:  # type: ignore[no-untyped-def]
    first = _repair(PACKAGE, Edit(AFTER_VERSION, 0, ","))
    same = [
        _repair(PACKAGE, Edit(AFTER_VERSION + 1, 0, ",")),
        _repair(PACKAGE, Edit(AFTER_VERSION, 1, ",")),
        _repair(PACKAGE, Edit(PACKAGE.index('"private"'), 0, ",")),
    ]
    other = _repair(PACKAGE, Edit(AFTER_VERSION - 7, 7, '"x"'), Edit(AFTER_VERSION, 0, ","))
    assert distinct(PACKAGE, [first, *same, other], lexer) == [first, other]


def test_layout_inside_a_token_is_not_layout(lexer) -> None:  # type: ignore[no-untyped-def]
    def same(original: str, a: Edit, b: Edit) -> bool:
        return same_for_reader(original, _repair(original, a), _repair(original, b), lexer)

    assert same('{"a" 1}', Edit(4, 0, ":"), Edit(5, 0, " : "))
    # `["a b" ]` and `["ab" x]`: the space inside the string is data
    assert not same('["a b" x]', Edit(7, 1), Edit(3, 1))
    assert not same("[1 2 3]", Edit(2, 0, ","), Edit(2, 1))  # `[1, 2 3]` and `[12 3]`
    assert not same("[1 x]", Edit(3, 1, "2"), Edit(3, 1, "3"))


def test_only_the_lines_around_an_edit_are_read() -> None:
    lines = [f'  "k{i}": {i},' for i in range(100_000)]
    text = "{\n" + "\n".join(lines) + '\n  "end": 1\n  "x": 2\n}\n'
    end = text.index('"end": 1') + len('"end": 1')
    read: list[int] = []

    def counting(window: str):  # type: ignore[no-untyped-def]
        read.append(len(window))
        return plain_lexer(window)

    assert describe_repair(text, [Edit(end, 0, ",")], lexer=counting) == (
        "Insert missing `,` after `1`"
    )
    assert max(read) < 200


def test_a_long_deletion_is_named_from_its_edges_without_reading_it_all() -> None:
    body = ",\n".join(f'  {{"id": {n}}}' for n in range(3000))
    text = "[\n" + body + "\n]\n"
    cut = text.index('{"id": 10}')
    lexed: list[int] = []

    def counting(piece: str) -> list[tuple[str | None, int, int]]:
        lexed.append(len(piece))
        return list(JSON_LEXER(piece))

    # a tail deleted, then the list closed
    edits = [Edit(cut - 1, len(text) - cut, "]\n")]
    title = describe_repair(text, edits, lexer=counting)
    assert title.startswith("Replace `{\"id\": 10},") and title.endswith("after `,`")
    assert max(lexed) < 4000
    # a repair's tokens are still read whole where it matters: two repairs
    # that differ in the middle of a long stretch are not taken for one
    first = Repair(text[:cut] + text[cut:].replace('"id": 2500', '"id": 1'), (), "a", True, 1)
    second = Repair(text[:cut] + text[cut:].replace('"id": 2500', '"id": 2'), (), "b", True, 1)
    edits_of = [Edit(cut, len(text) - cut, r.text[cut:]) for r in (first, second)]
    first, second = (
        Repair(r.text, (e,), r.algorithm, True, 1)
        for r, e in zip((first, second), edits_of, strict=True)
    )
    assert not same_for_reader(text, first, second, JSON_LEXER)


def test_blanks_changed_in_a_line_s_indentation_read_as_indenting_it() -> None:
    text = "items:\n  - name: b\n   value: 2\n database:\n"
    more = Edit(text.index("   value"), 0, " ")
    assert describe_repair(text, [more]) == "Indent `value: 2` by 1 space more"
    less = Edit(text.index(" database"), 1, "")
    assert describe_repair(text, [less]) == "Indent `database:` by 1 space less"
    tab = Edit(text.index("   value"), 3, "\t")
    assert describe_repair(text, [tab]) == "Indent `value: 2` by 5 spaces more"
    # blanks between words are no indentation
    assert describe_repair("a  b\n", [Edit(1, 1, "")]) == "Remove a space after `a`"


def test_line_breaks_read_as_tokens_name_no_edit() -> None:
    toml = lexer_of(IncrementalGrammarOracle("toml"))
    text = 'a = "1"\n,\nb = 2\n'
    removed = Edit(text.index(","), 1, "")
    assert describe_repair(text, [removed], lexer=toml) == 'Remove `,` after `"1"`'


def test_repairs_that_differ_in_a_line_break_token_only_are_the_same_for_a_reader() -> None:
    toml = lexer_of(IncrementalGrammarOracle("toml"))
    original = "a = [1, 2\n"
    before = Repair(original + "]", (Edit(len(original), 0, "]"),), "t", True, 1)
    inside = Repair("a = [1, 2]\n", (Edit(len(original) - 1, 0, "]"),), "t", True, 1)
    assert same_for_reader(original, before, inside, toml)
    other = Repair("a = [1, 2, 3]\n", (Edit(len(original) - 1, 0, ", 3]"),), "t", True, 4)
    assert not same_for_reader(original, before, other, toml)


def test_a_long_stretch_is_the_same_for_a_reader_where_only_blanks_moved() -> None:
    original = "[" * 3000 + "1 \n"
    closers = "]" * 3000
    before_blank = Repair("[" * 3000 + "1" + closers + " \n", (), "t", True, 3000)
    after_blank = Repair(original + closers, (), "t", True, 3000)
    assert same_for_reader(original, before_blank, after_blank, None)
    other = Repair(original + closers[:-1] + ")", (), "t", True, 3000)
    assert not same_for_reader(original, after_blank, other, None)
    # a blank that moves across the closers into a word splits it
    glued = Repair("[" * 3000 + "1 " + closers + "ab\n", (), "t", True, 3002)
    split = Repair("[" * 3000 + "1" + closers + "a b\n", (), "t", True, 3002)
    assert not same_for_reader(original, glued, split, None)


def test_an_edit_inside_a_word_names_the_whole_word() -> None:
    for before, after, title in [
        ("x = yes\n", "x = true\n", "Replace `yes` with `true`"),  # two edits in one word
        ('{"a": True}', '{"a": true}', "Replace `True` with `true`"),
        ('{"a": tru, "b": 1}', '{"a": true, "b": 1}', "Replace `tru` with `true`"),
    ]:
        assert describe_repair(before, edits_between(before, after)) == title
    # punctuation between words stays an insertion
    assert describe_repair('{"a": 1 "b": 2}', [Edit(8, 0, ",")]) == "Insert missing `,` after `1`"


def test_quotes_replaced_by_the_grammars_name_the_string() -> None:
    before, after = "{'a': “b”}", '{"a": "b"}'
    assert describe_repair(before, edits_between(before, after)) == (
        "Replace `'a'` with `\"a\"` and replace `“b”` with `\"b\"`"
    )


def test_text_with_backticks_is_quoted_in_a_longer_run() -> None:
    fenced = "```json\n[1]\n```\n"
    title = describe_repair(fenced, edits_between(fenced, "[1]\n"))
    assert title.startswith("Remove ```` ```json ```` before `[`")


def test_a_text_read_back_from_its_escapes_is_named_by_them() -> None:
    escaped = '{\\n  \\"a\\": 1}'
    edits = [
        Edit(escaped.index("\\n"), 2, "\n"),
        Edit(escaped.index('\\"a'), 2, '"'),
        Edit(escaped.index('\\":'), 2, '"'),
    ]
    assert describe_repair(escaped, edits) == "Unescape 3 backslash escapes"
    quoted = '"' + escaped + '"'
    around = [Edit(0, 1, ""), *(Edit(e.offset + 1, e.delete, e.insert) for e in edits)]
    around.append(Edit(len(quoted) - 1, 1, ""))
    assert describe_repair(quoted, around) == (
        "Unescape 3 backslash escapes and remove the quotes around the text"
    )
    # one escape alone is an ordinary edit
    assert not describe_repair('"a\\tb"', [Edit(2, 2, "\t")]).startswith("Unescape")


def test_text_cut_short_ends_after_a_word() -> None:
    answer = "Here is the configuration you asked for:\n[a]\nb = 1\n"
    title = describe_repair(answer, [Edit(0, answer.index("["))])
    assert title == "Remove `Here is the…` before `[`"


def test_text_of_several_lines_is_named_by_one_line() -> None:
    answer = 'Here is the JSON:\n```json\n{"a": 1}\n```\n'
    start = answer.index("{")
    edits = [Edit(0, start), Edit(answer.index("}") + 1, len(answer) - answer.index("}") - 1)]
    assert describe_repair(answer, edits, lexer=JSON_LEXER) == (
        "Remove `Here is the JSON:…` before `{` and remove ```` ``` ```` after `}`"
    )

    def comments(text: str) -> list[tuple[str | None, int, int]]:
        found = re.finditer(r"/\*.*?\*/|[^\s,]+|,", text, re.DOTALL)
        return [("word", match.start(), match.end()) for match in found]

    # what an edit comes after: the line next to it
    text = "[1 /* one\n   more */ 2]"
    after_comment = text.index("*/") + 2
    assert describe_repair(text, [Edit(after_comment, 0, ",")], lexer=comments) == (
        "Insert missing `,` after `more */`"
    )


def test_a_long_line_is_lexed_from_outside_its_strings() -> None:
    entries = ",".join(f'"name{n}":"value {n}"' for n in range(60))
    text = "{" + entries + ',"size":38,}'
    comma = text.rindex(",")
    assert comma > 800  # far from where the line starts: its lexing starts inside it
    assert describe_repair(text, [Edit(comma, 1)], lexer=JSON_LEXER) == "Remove trailing `,`"
    doubled = "{" + entries + ',"size"::38}'
    colon = doubled.index("::")
    assert describe_repair(doubled, [Edit(colon, 1)], lexer=JSON_LEXER) == (
        'Remove extra `:` after `"size"`'
    )
