"""Polishing a repair's layout: inserted delimiters where a person types them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from inputmend.algorithms.polish import (
    closer_on_its_line,
    closers_on_lines,
    final_break_kept,
    opener_at_line_end,
    polish_layout,
    spaced_as_the_input,
    with_filler,
    without_doubled_blanks,
)
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.services import lexer_of


def polished(grammar: str, original: str, edits: Sequence[Edit]) -> str:
    oracle = IncrementalGrammarOracle(grammar)
    text = apply_edits(original, edits)
    assert oracle.check(text).valid
    repair = Repair(text, tuple(edits), "fsynth", True, 1)
    result = polish_layout(
        original, repair, lambda t: oracle.check(t).valid, lexer=lexer_of(oracle)
    )
    return result.text


def _tidied(step: Callable[..., Repair], grammar: str, original: str, edits: list[Edit]) -> str:
    oracle = IncrementalGrammarOracle(grammar)
    repair = Repair(apply_edits(original, edits), tuple(edits), "completion", True, 1)
    assert oracle.check(repair.text).valid
    return step(original, repair, lambda t: oracle.check(t).valid, lexer=lexer_of(oracle)).text


def _inserted_after(
    step: Callable[..., Repair], grammar: str, original: str, after: str, insert: str
) -> str:
    """The text ``step`` makes of ``insert`` inserted after ``after``."""
    at = original.index(after) + len(after)
    return _tidied(step, grammar, original, [Edit(at, 0, insert)])


@pytest.mark.parametrize(
    ("grammar", "original", "expected"),
    [
        # the block's last line was lost: its closer goes on a line of its own
        ("dot", "digraph G {\n  a -> b\n", "digraph G {\n  a -> b\n}"),
        ("json", '{\n  "a": [1, 2],\n  "b": 1\n', '{\n  "a": [1, 2],\n  "b": 1\n}'),
        # an opener followed by more on its line: the closer attaches
        ("json", '{"a": 1,\n "b": 2\n', '{"a": 1,\n "b": 2}\n'),
        ("dot", "digraph G { a -> b\n", "digraph G { a -> b}\n"),
    ],
)
def test_a_closer_appended_after_the_last_line_break_stays_when_its_opener_ends_a_line(
    grammar: str, original: str, expected: str
) -> None:
    assert polished(grammar, original, [Edit(len(original), 0, "}")]) == expected


@pytest.mark.parametrize(
    ("grammar", "original", "edits", "expected"),
    [
        # what a completion appends after the final line break: the break again
        ("toml", 'doc = """\nhello\n', [Edit(16, 0, '"""')], 'doc = """\nhello\n"""\n'),
    ],
)
def test_the_final_line_break_is_kept(
    grammar: str, original: str, edits: list[Edit], expected: str
) -> None:
    assert _tidied(final_break_kept, grammar, original, edits) == expected


@pytest.mark.parametrize(
    ("original", "edits", "expected"),
    [
        # a blank overwritten by a comma: the comma goes before it
        ('{ "a": 1 "b": 2 }', [Edit(8, 1, ",")], '{ "a": 1, "b": 2 }'),
        # a comma after the next line's indentation: back to the line end
        ('{\n  "a": 1\n  "b": 2\n}', [Edit(13, 0, ",")], '{\n  "a": 1,\n  "b": 2\n}'),
        ("[1 2 3]", [Edit(2, 1, ","), Edit(4, 1, ",")], "[1, 2, 3]"),
        # a closer attaches to what precedes it
        ('{"a": [1, 2 }', [Edit(12, 0, "]")], '{"a": [1, 2] }'),
        # unless its opener is padded with a space: it mirrors that
        ('{"a": [ 1, 2 }', [Edit(13, 0, "]")], '{"a": [ 1, 2 ]}'),
        ('{ "a": 1 \n', [Edit(8, 0, "}")], '{ "a": 1 }\n'),
    ],
)
def test_delimiters_attach_as_in_nearly_every_format(
    original: str, edits: list[Edit], expected: str
) -> None:
    assert polished("json", original, edits) == expected


@pytest.mark.parametrize(
    ("grammar", "original", "expected"),
    [
        # a closer deleted from its own line left the line's indentation
        ("json", '[\n  {\n    "a": 1\n    \n]\n', '[\n  {\n    "a": 1\n    }\n]\n'),
        (
            "dot",
            "digraph {\n  subgraph {\n    a;\n  \n  b;\n}\n",
            "digraph {\n  subgraph {\n    a;\n  }\n  b;\n}\n",
        ),
        # the line kept the comma that followed the closer
        (
            "json",
            '{\n  "a": {\n    "b": 1\n  ,\n  "c": 2\n}\n',
            '{\n  "a": {\n    "b": 1\n  },\n  "c": 2\n}\n',
        ),
        # whatever the file's style says (`]` glued to its last item three times)
        (
            "json",
            '{\n  "a": ["x"],\n  "b": ["y"],\n  "c": [\n    "z"\n  ,\n  "d": ["w"]\n}\n',
            '{\n  "a": ["x"],\n  "b": ["y"],\n  "c": [\n    "z"\n  ],\n  "d": ["w"]\n}\n',
        ),
        # the text's last closer, lost from its line before the final line break
        (
            "json",
            '{\n  "a": {"b": 1},\n  "c": [1, 2]\n\n',
            '{\n  "a": {"b": 1},\n  "c": [1, 2]\n}\n',
        ),
        # an empty line between Lisp forms is no place for a closer
        (
            "sexp",
            "(defun f (x)\n  (g x)\n\n(defun h ()\n  (f 1))\n",
            "(defun f (x)\n  (g x))\n\n(defun h ()\n  (f 1))\n",
        ),
    ],
)
def test_a_lost_closer_goes_where_its_line_was_left(
    grammar: str, original: str, expected: str
) -> None:
    at = next(i for i in range(len(original)) if original[i] != expected[i])
    closer = expected[at]
    # the search inserted it right after what precedes the blanks
    after = len(original[:at].rstrip())
    assert polished(grammar, original, [Edit(after, 0, closer)]) == expected


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        # the document's opener, lost from its first line
        ('\n  "a": {"b": 1},\n  "c": {"d": 2}\n}\n', '{\n  "a": {"b": 1},\n  "c": {"d": 2}\n}\n'),
        # an opener lost from a line of its own, indented as the line before
        (
            '[\n  {"a": 1},\n  \n    "a": 2\n  }\n]\n',
            '[\n  {"a": 1},\n  {\n    "a": 2\n  }\n]\n',
        ),
    ],
)
def test_a_lost_opener_goes_where_its_line_was_left(original: str, expected: str) -> None:
    at = next(i for i in range(len(original)) if original[i] != expected[i])
    # the search inserted it right before what follows the blanks
    before = at + len(original[at:]) - len(original[at:].lstrip())
    assert polished("json", original, [Edit(before, 0, expected[at])]) == expected


def test_the_files_own_style_decides_where_it_has_one() -> None:
    # comma-first: the file writes ` ,` everywhere
    assert polished("json", "[1 ,2 3 ,4]", [Edit(5, 1, ",")]) == "[1 ,2 ,3 ,4]"


def test_a_blank_inside_a_string_never_moves() -> None:
    # the quote is no delimiter that may move: the string would change
    original = '["yarn ]'
    edits = [Edit(6, 0, '"')]
    assert polished("json", original, edits) == apply_edits(original, edits)


def test_nothing_moves_that_the_oracle_would_reject() -> None:
    original = '{ "a": 1 "b": 2 }'
    repair = Repair('{ "a": 1,"b": 2 }', (Edit(8, 1, ","),), "fsynth", True, 1)
    tried: list[str] = []

    def accepts(text: str) -> bool:
        tried.append(text)
        return False

    assert polish_layout(original, repair, accepts) is repair
    assert tried == ['{ "a": 1, "b": 2 }']  # the usual place only: no evidence of style


def test_an_unchanged_repair_is_returned_as_it_is() -> None:
    oracle = IncrementalGrammarOracle("json")
    repair = Repair('{"a": 1}', (Edit(7, 0, "}"),), "completion", True, 1)
    assert polish_layout('{"a": 1', repair, lambda t: oracle.check(t).valid) is repair


def test_a_delimiter_already_where_it_belongs_stays() -> None:
    assert polished("json", '{"a" 1}', [Edit(4, 0, ":")]) == '{"a": 1}'
    assert polished("json", '{"a" 1}', [Edit(5, 0, ":")]) == '{"a": 1}'


@pytest.mark.parametrize(
    ("original", "edits", "expected"),
    [
        ('{"i": , "j": 2}', [Edit(5, 1, "0")], '{"i": null, "j": 2}'),
        ("[1, 2, ]", [Edit(7, 0, "0")], "[1, 2, null]"),
        ('{"a": 1, "b": 2, : 3}', [Edit(17, 0, '""')], None),  # a made-up key stays
        ("[1, 2x]", [Edit(5, 0, ",")], None),  # nothing made up
        ('{"a": tru}', [Edit(9, 0, "e")], None),  # a word completed, not made up
        ('{"a": null}', [Edit(1, 0, "")], None),
    ],
)
def test_a_made_up_value_becomes_the_filler(
    original: str, edits: list[Edit], expected: str | None
) -> None:
    repair = Repair(apply_edits(original, edits), tuple(edits), "fsynth", True, 1)
    filled = with_filler(original, repair, "null")
    assert (filled.text if filled else None) == expected


def laid_out(grammar: str, original: str, appended: str) -> str:
    oracle = IncrementalGrammarOracle(grammar)
    repair = Repair(original + appended, (Edit(len(original), 0, appended),), "completion", True, 1)
    assert oracle.check(repair.text).valid
    result = closers_on_lines(
        original, repair, lambda t: oracle.check(t).valid, lexer=lexer_of(oracle)
    )
    assert oracle.check(result.text).valid
    return result.text


@pytest.mark.parametrize(
    ("grammar", "original", "appended", "expected"),
    [
        # each closer under the line that opened it, the last line's own inline
        (
            "json",
            '{\n  "user": {\n    "tags": [\n      "a", {"b": 1',
            "}]}}",
            '{\n  "user": {\n    "tags": [\n      "a", {"b": 1}\n    ]\n  }\n}',
        ),
        # the file's final line break stays last, its CRLF line ends are kept
        ("json", '[\r\n  {\r\n    "a": 1\r\n', "}]", '[\r\n  {\r\n    "a": 1\r\n  }\r\n]\r\n'),
        # an element's end tag under its start tag
        (
            "xml",
            "<list>\n  <item>\n    <name>x</name>\n",
            "</item></list>",
            "<list>\n  <item>\n    <name>x</name>\n  </item>\n</list>\n",
        ),
        ("toml", "ports = [\n  8000,\n  8001\n", "]", "ports = [\n  8000,\n  8001\n]\n"),
    ],
)
def test_appended_closers_go_under_the_lines_that_opened_them(
    grammar: str, original: str, appended: str, expected: str
) -> None:
    assert laid_out(grammar, original, appended) == expected


@pytest.mark.parametrize(
    ("grammar", "original", "appended"),
    [
        # Lisp's opening lines do not end with their openers: closers stay together
        ("sexp", "(defun f (x)\n  (let ((y 1))\n    (+ x y", ")))"),
        # everything opened on the last line
        ("json", '[{"a": 1, "b": [2', "]}]"),
        # the indentation does not show the nesting: the lines above do not pair
        ("json", '{"a":\n  {"b":\n    [1', "]}}"),
    ],
)
def test_closers_stay_together_where_the_layout_does_not_show_the_nesting(
    grammar: str, original: str, appended: str
) -> None:
    assert laid_out(grammar, original, appended) == original + appended


def test_closers_after_a_blank_line_stay_where_the_repair_put_them() -> None:
    # a line of blanks after the content (one a lost end tag emptied) is kept
    original = "<list>\n  <item>x</item>\n\n"
    assert laid_out("xml", original, "</list>") == original + "</list>"


def test_closers_stay_where_the_oracle_refuses_the_line_breaks() -> None:
    original = '{\n  "a": [\n    1'
    repair = Repair(original + "]}", (Edit(len(original), 0, "]}"),), "completion", True, 1)
    assert closers_on_lines(original, repair, lambda t: False) is repair


def test_a_closer_inserted_at_a_line_end_goes_on_a_line_of_its_own() -> None:
    c_like = "{\n  a = 1;\n  if (x) {\n    b = 2;\n  c = 3;\n}\n"
    assert _inserted_after(closer_on_its_line, "tinyc", c_like, "b = 2;", "}") == (
        "{\n  a = 1;\n  if (x) {\n    b = 2;\n  }\n  c = 3;\n}\n"
    )
    crlf = '{\r\n  "a": [\r\n    1\r\n  "b": 2\r\n}'
    assert (
        _inserted_after(closer_on_its_line, "json", crlf, "    1", "],")
        == '{\r\n  "a": [\r\n    1\r\n  ],\r\n  "b": 2\r\n}'
    )


def test_a_closer_of_a_nested_block_goes_under_the_line_that_opened_it() -> None:
    original = '{\n  "a": 1,\n  "b": {\n    "y": 2\n}\n'  # the line `  }` lost whole
    assert _inserted_after(closer_on_its_line, "json", original, '"y": 2', "}") == (
        '{\n  "a": 1,\n  "b": {\n    "y": 2\n  }\n}\n'
    )


def test_a_closer_before_a_line_that_kept_its_separator_is_left_to_the_layout() -> None:
    original = '{\n  "a": {\n    "b": 1\n  ,\n  "c": 2\n}\n'  # `}` lost, `,` kept
    assert _inserted_after(closer_on_its_line, "json", original, '"b": 1', "}") == (
        original.replace('"b": 1', '"b": 1}')
    )


def test_a_closer_stays_where_no_line_above_ends_with_its_opener() -> None:
    lisp = "(defun f (x)\n  (let ((y 1))\n    (+ x y)\n  (print y)))\n"
    damaged = lisp.replace("(+ x y)\n", "(+ x y\n")
    assert _inserted_after(closer_on_its_line, "sexp", damaged, "(+ x y", ")") == lisp


def test_inserted_text_is_spaced_as_the_input_writes_it() -> None:
    assert _tidied(spaced_as_the_input, "json", '{"a": 1, "b"}', [Edit(12, 0, ":null")]) == (
        '{"a": 1, "b": null}'
    )
    # a file written without spaces stays so, and a string's text never changes
    assert _tidied(spaced_as_the_input, "json", '{"a":1,"b"}', [Edit(10, 0, ":null")]) == (
        '{"a":1,"b":null}'
    )
    assert _tidied(spaced_as_the_input, "json", '["a: b", ', [Edit(9, 0, '"x:y"]')]) == (
        '["a: b", "x:y"]'
    )
    # an `=` gets the space before it too, where the file writes one there
    assert _tidied(spaced_as_the_input, "toml", "n = 1\nretr", [Edit(10, 0, "=0")]) == (
        "n = 1\nretr = 0"
    )
    assert _tidied(spaced_as_the_input, "toml", "n=1\nretr", [Edit(8, 0, "=0")]) == "n=1\nretr=0"
    # and the input's own text after an inserted delimiter is spaced from it
    assert _tidied(spaced_as_the_input, "toml", 'v = 1\nname "x"', [Edit(11, 0, "=")]) == (
        'v = 1\nname = "x"'
    )


def test_a_stray_delimiter_between_spaces_goes_with_one_of_them() -> None:
    assert _tidied(without_doubled_blanks, "json", "[1, 2, , 3]", [Edit(7, 1, "")]) == "[1, 2, 3]"
    assert _tidied(without_doubled_blanks, "json", "[1, 2,, 3]", [Edit(6, 1, "")]) == "[1, 2, 3]"


def test_a_deletion_at_a_line_end_takes_the_blanks_before_it() -> None:
    text = "[1, 2, 3] // end\n"
    assert _tidied(without_doubled_blanks, "json", text, [Edit(10, 6, "")]) == "[1, 2, 3]\n"


def test_an_opener_of_a_block_goes_at_the_end_of_the_line_above() -> None:
    dot = "digraph G\n  a -> b;\n}\n"
    assert _tidied(opener_at_line_end, "dot", dot, [Edit(12, 0, "{")]) == (
        "digraph G {\n  a -> b;\n}\n"
    )
    # where it was lost, after the blank it left
    blank = "digraph G \n  a -> b;\n}\n"
    assert _tidied(opener_at_line_end, "dot", blank, [Edit(13, 0, "{")]) == (
        "digraph G {\n  a -> b;\n}\n"
    )
    # a Lisp form's closer ends its line: the opener starts the form
    lisp = "(defun f (x)\n  + x 1))\n"
    assert _tidied(opener_at_line_end, "sexp", lisp, [Edit(15, 0, "(")]) == (
        "(defun f (x)\n  (+ x 1))\n"
    )
