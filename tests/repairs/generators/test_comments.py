"""Comments that lost a delimiter, by the grammar's comment syntax."""

from __future__ import annotations

from inputmend.grammar.syntax import Comments
from inputmend.grammar.tolerant import Lexeme, Role
from inputmend.repairs.generators.comments import (
    ABOVE,
    BEHIND,
    COMMENTS,
    RUN,
    block_proposals,
    line_proposals,
    prose_lines,
    run_on,
    unclosed,
)
from tests.repairs.generators.run import proposed, texts


def test_a_line_of_prose_becomes_a_comment_again_in_each_marker() -> None:
    found = texts(proposed(COMMENTS, "[a]\nname = demo\nsee the docs\nother = 1\n", "ini"))
    assert "[a]\nname = demo\n; see the docs\nother = 1\n" in found
    assert "[a]\nname = demo\n# see the docs\nother = 1\n" in found


def test_the_line_before_the_error_is_commented_out_at_its_indentation() -> None:
    text = "name: demo\nlist:\n  - a\n  see the docs\n  - b\n"
    found = texts(proposed(COMMENTS, text, "yaml"))
    assert "name: demo\nlist:\n  - a\n  # see the docs\n  - b\n" in found


def test_prose_above_a_comment_is_commented_out_though_the_error_is_after_it() -> None:
    # the parser reads on over `# Required` and stops at `version`
    text = "# config\n\nset by the installer\n# Required\nversion: 2\n"
    found = texts(proposed(COMMENTS, text, "yaml"))
    assert "# config\n\n# set by the installer\n# Required\nversion: 2\n" in found


def test_the_prose_line_is_the_first_above_the_error_that_is_no_comment() -> None:
    comments = Comments(line=("#",))
    text = "a: 1\nsee the docs\n# one\n\n# two\nb: 2\n"
    error = text.index("b:")
    above = text.index("see")
    assert (above, above + len("see the docs")) in prose_lines(text, error, comments)
    # a comment line is the line before the error: it is still proposed
    assert (text.index("# two"), text.index("\nb:")) in prose_lines(text, error, comments)


def test_comment_lines_read_over_are_bounded() -> None:
    comments = Comments(line=("#",))
    text = "see the docs\n" + "# note\n" * ABOVE + "b: 2\n"
    assert all(start > 0 for start, _ in prose_lines(text, text.index("b:"), comments))
    shorter = "see the docs\n" + "# note\n" * (ABOVE - 1) + "b: 2\n"
    assert (0, len("see the docs")) in prose_lines(shorter, shorter.index("b:"), comments)


def test_a_run_of_prose_lines_is_commented_out_together() -> None:
    text = "a = 1\nsee the docs\nand the notes\nb = 2\n"
    found = texts(proposed(COMMENTS, text, "toml"))
    assert found[0] == "a = 1\n# see the docs\n# and the notes\nb = 2\n"


def test_a_block_comment_never_closed_is_closed_at_its_line_end() -> None:
    text = '{\n  "a": 1,\n  /* see the docs\n  "b": 2\n}\n'
    found = texts(proposed(COMMENTS, text, "jsonc"))
    assert found == ['{\n  "a": 1,\n  /* see the docs */\n  "b": 2\n}\n']


def test_or_at_the_end_of_its_paragraph() -> None:
    comments = Comments(block=(("/*", "*/"),))
    text = "a\n/* one\ntwo\n\nb\n"
    assert [edits[0].offset for edits in block_proposals(text, comments)] == [8, 12]


def test_only_comments_never_closed_are_closed() -> None:
    assert unclosed("/* a */ b /* c */ /* d", "/*", "*/") == [18]
    assert unclosed("/* a /* b */", "/*", "*/") == []


def test_runs_are_bounded() -> None:
    text = "a = 1\n" + "word\n" * 40
    proposals = list(line_proposals(text, text.index("word"), Comments(line=("#",))))
    assert max(len(edits) for edits in proposals) == RUN + 1


def test_a_grammar_without_comments_gets_nothing() -> None:
    found = proposed(COMMENTS, '{"a": 1\nsee the docs\n}', "json")
    assert found.repairs == () and found.cost.tests == 0


def test_a_block_comment_closed_by_a_closer_in_a_later_string_is_closed_on_its_line() -> None:
    # the comment lost its `*/` and runs on to the `*/` of the glob "**/*.ts",
    # so the text holds no unclosed opener; the lexer reads where it ends
    text = '{\n  /* see the docs\n  "a": 1,\n  "include": ["src/**/*.ts"]\n}\n'
    found = texts(proposed(COMMENTS, text, "jsonc"))
    assert found[0] == '{\n  /* see the docs */\n  "a": 1,\n  "include": ["src/**/*.ts"]\n}\n'


def test_only_block_comments_that_span_lines_before_the_error_run_on() -> None:
    comments = Comments(block=(("/*", "*/"),))
    lexemes = [
        Lexeme("BLOCK_COMMENT", 0, 9, "/* one */", Role.LAYOUT),
        Lexeme("NAME", 10, 11, "x", Role.DATA),
        Lexeme("BLOCK_COMMENT", 12, 26, "/* two\nthree */", Role.LAYOUT),
        Lexeme("NAME", 27, 28, "y", Role.DATA),
    ]
    assert run_on(lexemes, comments) == [(12, "*/")]


def test_in_a_long_text_comments_are_read_from_a_token_shortly_before_the_error() -> None:
    items = "".join(f'  "k{index}": "/* not a comment */",\n' for index in range(BEHIND // 16))
    text = "{\n" + items + '  /* see the docs\n  "a": 1,\n  "include": ["src/**/*.ts"]\n}\n'
    found = texts(proposed(COMMENTS, text, "jsonc"))
    assert found[0] == text.replace("see the docs", "see the docs */")
