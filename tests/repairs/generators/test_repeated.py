"""A definition written twice, one copy removed, where a rule beyond the syntax refuses it."""

from __future__ import annotations

from inputmend.repairs.generators.repeated import REPEATED, refused_beyond_syntax
from tests.repairs.generators.run import context, proposed, texts

TOML = '[tool.ruff]\nline-length = 100\ntarget-version = "py311"\nline-length = 100\n'


def test_a_toml_key_set_twice_loses_either_line() -> None:
    found = texts(proposed(REPEATED, TOML, "toml"))
    # the copy tomllib points at first, then the other one
    assert found == [
        '[tool.ruff]\nline-length = 100\ntarget-version = "py311"\n',
        '[tool.ruff]\ntarget-version = "py311"\nline-length = 100\n',
    ]


def test_an_attribute_written_twice_loses_either_copy_with_its_blank() -> None:
    found = texts(proposed(REPEATED, '<dep scope="test" optional="true" scope="test"/>', "xml"))
    assert found == ['<dep scope="test" optional="true"/>', '<dep optional="true" scope="test"/>']


def test_only_a_refusal_beyond_the_syntax_asks_for_it() -> None:
    assert refused_beyond_syntax(context(TOML, "toml"), ())
    assert refused_beyond_syntax(context('<a x="1" x="1"/>', "xml"), ())
    # a syntax error on a line that repeats another: nothing to remove
    broken = '[a]\nx = 1\ny = [1,\nx = 1\n'
    assert not refused_beyond_syntax(context(broken, "toml"), ())
    assert not refused_beyond_syntax(context('{"a": 1, "a": 1', "json"), ())


def test_a_key_set_twice_to_other_values_is_no_copy() -> None:
    assert texts(proposed(REPEATED, "[s]\nport = 80\nport = 81\n", "toml")) == []


def test_an_attribute_written_again_in_a_tag_over_lines_loses_the_new_copy() -> None:
    # one attribute a line, and the copy added at the end of the last one
    text = '<svg\n   width="100mm"\n   height="1"\n   id="s" width="100mm">\n</svg>\n'
    found = texts(proposed(REPEATED, text, "xml"))
    assert found[0] == '<svg\n   width="100mm"\n   height="1"\n   id="s">\n</svg>\n'
