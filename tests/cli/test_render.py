"""The command line's diffs: built from the edits, the same as difflib's for
short lines, bounded for long ones."""

from __future__ import annotations

import difflib
import random

from inputmend.cli.render import LINE_SHOWN, WHOLE_HUNK_LINES, bounded_diff
from inputmend.core.model import Edit, apply_edits
from inputmend.core.text import LineIndex


def _difflib(name: str, before: str, after: str, label: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=name,
        tofile=f"{name} ({label})",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _random_edits(rng: random.Random, text: str) -> list[Edit]:
    offsets = sorted(rng.sample(range(len(text) + 1), rng.randint(1, 4)))
    edits, end = [], -1
    for offset in offsets:
        if offset <= end:
            continue
        delete = rng.randint(0, min(3, len(text) - offset))
        edits.append(Edit(offset, delete, rng.choice(["", ",", "x\n", "\n", "]]"])))
        end = offset + delete
    return edits


def test_the_same_hunks_as_difflib() -> None:
    rng = random.Random(11)
    for _ in range(400):
        lines = [f"line {i}" for i in range(rng.randint(1, 40))]
        text = "\n".join(lines) + rng.choice(["", "\n"])
        edits = _random_edits(rng, text)
        after = apply_edits(text, edits)
        if after == text:
            continue
        ours = bounded_diff("f.txt", LineIndex(text), edits, "repair 1")
        assert ours == _difflib("f.txt", text, after, "repair 1"), (text, edits)


def test_a_hunk_of_thousands_of_changes_is_compared_edit_by_edit_alike() -> None:
    # marker lines deleted every few lines, one line joined to the next, and
    # the last line (without a final line break) appended to: each stretch
    # the edits touch is compared on its own, with the same result here
    lines = [f"line {i}" for i in range(WHOLE_HUNK_LINES)]
    text = "\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    edits = [Edit(starts[i], len(lines[i]) + 1, "") for i in range(0, len(lines) - 2, 7)]
    edits.append(Edit(starts[3] + len(lines[3]), 1, ""))
    edits.append(Edit(len(text), 0, "!"))
    after = apply_edits(text, edits)
    ours = bounded_diff("f.txt", LineIndex(text), edits, "repair 1")
    assert ours == _difflib("f.txt", text, after, "repair 1")


def test_long_lines_are_cut_around_the_change() -> None:
    text = "a" * 10_000 + "X" + "b" * 10_000 + "\nshort\n"
    edit = Edit(10_000, 1, "Y")
    diff = bounded_diff("f", LineIndex(text), [edit], "repair 1").splitlines()
    assert diff[2] == "@@ -1,2 +1,2 @@"
    removed, added = diff[3], diff[4]
    assert removed.startswith("-…") and removed.endswith("…") and "X" in removed
    assert added.startswith("+…") and "Y" in added
    assert len(removed) == len(added) == 1 + LINE_SHOWN + 2
    assert diff[5] == " short"
