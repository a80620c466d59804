"""Re-indenting the line near an error, in a grammar whose layout is indentation."""

from __future__ import annotations

from inputmend.algorithms.indentation import reindent_repairs
from inputmend.config.defaults import RUN_MAX_TESTS
from inputmend.core.budget import Budget
from inputmend.core.model import apply_edits
from inputmend.oracles.incremental import IncrementalGrammarOracle


def _texts(text: str, budget: Budget | None = None) -> list[str]:
    oracle = IncrementalGrammarOracle("yaml")
    feedback = oracle.check(text)
    assert not feedback.valid and feedback.error_offset is not None
    found = reindent_repairs(
        text, oracle, error=feedback.error_offset, budget=budget or Budget(max_tests=RUN_MAX_TESTS)
    )
    for repair in found.repairs:  # only blanks change
        assert apply_edits(text, repair.edits) == repair.text
        assert repair.text.split() == text.split()
    return [repair.text for repair in found.repairs]


def test_the_line_goes_to_the_nearest_column_a_sibling_uses() -> None:
    assert _texts("a:\n  b: 1\n c: 2\n")[0] == "a:\n  b: 1\n  c: 2\n"
    # as near: the previous line's column, not the enclosing one's
    assert _texts("a:\n  b:\n    c: 1\n   d: 2\n") == ["a:\n  b:\n    c: 1\n    d: 2\n"]


def test_a_key_of_a_list_item_goes_under_the_item_s_first_key() -> None:
    # `update-types` belongs to the item: after its dash, not at its parent's column
    text = "ignore:\n  - dependency-name: x\n  update-types: [major]\nnext: 1\n"
    assert _texts(text)[0] == (
        "ignore:\n  - dependency-name: x\n    update-types: [major]\nnext: 1\n"
    )


def test_the_first_line_of_a_block_scalar_goes_where_its_other_lines_are() -> None:
    # not one space deeper than `run:`, the nearest column: the text would
    # gain a blank
    text = "job:\n  run: |\n  python -m pip install\n    pip install -e .\nnext: 1\n"
    assert _texts(text)[0] == (
        "job:\n  run: |\n    python -m pip install\n    pip install -e .\nnext: 1\n"
    )


def test_a_key_stays_left_of_the_block_under_it() -> None:
    text = "on:\n  push: x\n\n env:\n  COLOR: always\n  NAME: y\n"
    assert _texts(text)[0] == "on:\n  push: x\n\nenv:\n  COLOR: always\n  NAME: y\n"


def test_a_line_moves_alone_or_with_what_it_nests() -> None:
    alone = "root:\n  x: 1\n   y:\n    z: 2\n"
    assert "root:\n  x: 1\n  y:\n    z: 2\n" in _texts(alone)
    together = "root:\n  x: 1\n y:\n   z: 2\n"
    assert "root:\n  x: 1\n  y:\n    z: 2\n" in _texts(together)


def test_the_budget_is_kept() -> None:
    assert len(_texts("a:\n  b: 1\n c: 2\n", Budget(max_tests=1))) == 1


def test_the_line_before_the_error_moves_where_the_error_s_line_would_nest_off_step() -> None:
    # `runs-on` lost two spaces; the error shows at `steps`: moved left alone,
    # `steps` would nest its item four spaces deep in a file that nests by two
    text = "jobs:\n  build:\n    name: b\n  runs-on: x\n    steps:\n      - run: make\n"
    found = _texts(text)
    meant = "jobs:\n  build:\n    name: b\n    runs-on: x\n    steps:\n      - run: make\n"
    assert meant in found
    assert "jobs:\n  build:\n    name: b\n  runs-on: x\n  steps:\n      - run: make\n" not in found


def test_a_line_of_prose_is_not_moved_under_a_key_without_a_value() -> None:
    # indented, `see issue 42` would be the value of `liberapay`: it is a
    # comment that lost its `#`, no line that lost its indentation
    text = "github: me\nliberapay: # your name\nsee issue 42\nissuehunt: # yours\n"
    assert not any("\n see issue 42" in found for found in _texts(text))
    # a word or two is no prose: `data:` above it may be its key
    assert _texts("items:\n  data:\n  ready now\n")


def test_a_key_may_go_to_the_column_of_the_list_under_it() -> None:
    # YAML's list may sit at its key's column: `steps:` is `runs-on`'s sibling
    text = "jobs:\n  build:\n    runs-on: x\n   steps:\n    - uses: a\n    - name: b\n"
    assert _texts(text)[0] == (
        "jobs:\n  build:\n    runs-on: x\n    steps:\n    - uses: a\n    - name: b\n"
    )


def test_a_key_below_an_item_goes_under_the_item_s_key_before_its_dash() -> None:
    # at the dash's column `run` would end the list (a sibling of `steps`)
    text = "job:\n  steps:\n  - name: a\n    run: b\n  - name: c\n   run: d\n"
    assert _texts(text)[0] == "job:\n  steps:\n  - name: a\n    run: b\n  - name: c\n    run: d\n"


def test_a_line_is_moved_where_its_block_ends_at_the_error() -> None:
    # `merge_group` lost a space; the error shows only at `push`, three lines on
    text = 'on:\n merge_group:\n    branches:\n      - "main"\n  push:\n    branches: [x]\n'
    meant = 'on:\n  merge_group:\n    branches:\n      - "main"\n  push:\n    branches: [x]\n'
    assert _texts(text) == [meant]
    # a key as indented as the list under it, or without a value, may be it too
    text = "get:\n    parameters:\n    - name: tag\n      in: query\n  responses:\n    ok: 1\n"
    meant = "get:\n  parameters:\n    - name: tag\n      in: query\n  responses:\n    ok: 1\n"
    assert meant in _texts(text)


def test_of_two_moves_alike_the_one_that_gives_a_key_its_block() -> None:
    # `first` lost its indentation, not `second`: `inputs` has no value else
    text = "job:\n  inputs:\n  first:\n      file: a\n    second:\n      file: b\n"
    meant = "job:\n  inputs:\n    first:\n      file: a\n    second:\n      file: b\n"
    assert _texts(text) == [meant]
