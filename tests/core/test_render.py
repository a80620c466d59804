"""Words for edits: the same for the command line and the language server."""

from __future__ import annotations

from inputmend.core.model import Edit
from inputmend.core.render import describe_edit, describe_edits, repair_summary
from inputmend.core.text import LineIndex

TEXT = '{ "item": "Apple",\n  "price": **3.45 }'
INDEX = LineIndex(TEXT)
STARS = TEXT.index("**")


def test_each_kind_of_edit() -> None:
    assert describe_edit(INDEX, Edit(STARS, 2)) == "delete `**` at 2:12"
    assert describe_edit(INDEX, Edit(STARS, 0, "x")) == "insert `x` at 2:12"
    assert describe_edit(INDEX, Edit(STARS, 2, "0")) == "replace `**` with `0` at 2:12"
    assert describe_edit(INDEX, Edit(len(TEXT), 0, "\n")) == "insert `\\n` at 2:20"


def test_long_scripts_are_cut_short() -> None:
    edits = [Edit(offset, 1) for offset in range(5)]
    described = describe_edits(INDEX, edits)
    assert described.count("delete") == 3 and described.endswith("and 2 more edits")


def test_repair_titles() -> None:
    assert repair_summary(INDEX, [Edit(STARS, 2)], 1) == "Delete `**` at 2:12"
    assert repair_summary(INDEX, [Edit(0, 1), Edit(STARS, 2)], 3) == "Apply repair 3 (2 edits)"
