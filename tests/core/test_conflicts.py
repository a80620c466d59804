"""Merge conflicts as git and diff3 write them, and their resolutions."""

from __future__ import annotations

from inputmend.core.conflicts import conflict_message, find_conflicts, resolution_of, resolved
from inputmend.core.model import Edit, apply_edits

MERGED = '{\n<<<<<<< HEAD\n  "v": 1\n=======\n  "v": 2\n>>>>>>> feature\n}\n'


def test_a_conflict_has_two_sides_and_their_labels() -> None:
    (conflict,) = find_conflicts(MERGED)
    assert MERGED[conflict.start : conflict.end].startswith("<<<<<<< HEAD\n")
    assert MERGED[conflict.end :] == "}\n"
    assert (conflict.ours, conflict.theirs) == ('  "v": 1\n', '  "v": 2\n')
    assert (conflict.ours_label, conflict.theirs_label) == ("HEAD", "feature")


def test_the_base_of_diff3_style_is_neither_side() -> None:
    text = "a\n<<<<<<< ours\nx\n||||||| base\nw\n=======\ny\n>>>>>>> theirs\nb"
    (conflict,) = find_conflicts(text)
    assert (conflict.ours, conflict.theirs, conflict.base) == ("x\n", "y\n", "w\n")
    assert (text[conflict.ours_at], text[conflict.theirs_at]) == ("x", "y")
    assert [conflict.left_out(side) for side in ("ours", "theirs", "both")] == [4, 4, 2]
    assert find_conflicts(MERGED)[0].base == ""


def test_a_resolution_leaves_out_versions_not_data() -> None:
    items = "[\n<<<<<<< a\n  10\n=======\n  2\n>>>>>>> b\n]\n"
    conflicts = find_conflicts(items)
    for side, kept, left_out in (("ours", "  10\n", 4), ("theirs", "  2\n", 5)):
        repaired = apply_edits(items, resolved(items, conflicts, side))
        assert repaired == f"[\n{kept}]\n"
        found = resolution_of(items, repaired)
        assert found is not None and found.left_out == left_out
    # how far each departs from the current side, per conflict
    twice = items + items
    conflicts = find_conflicts(twice)
    choices = []
    for side in ("ours", "theirs", "both"):
        found = resolution_of(twice, apply_edits(twice, resolved(twice, conflicts, side)))
        assert found is not None
        choices.append(found.choice)
    assert choices == [0, 2, 4]
    # an empty side kept: the whole conflict goes, in one edit
    emptied = "a\n<<<<<<< a\n=======\nb\n>>>>>>> b\n"
    assert resolved(emptied, find_conflicts(emptied), "ours") == (Edit(2, len(emptied) - 2),)


def test_markers_out_of_order_are_text() -> None:
    heading = "Title\n=======\n\ntext\n>>>>>>> not a marker\n"
    assert find_conflicts(heading) == ()
    assert find_conflicts("a <<<<<<< b\n=======\n>>>>>>> c\n") == ()  # not at a line start
    unfinished = "<<<<<<< HEAD\nx\n=======\ny\n" + MERGED
    assert len(find_conflicts(unfinished)) == 1


def test_a_last_marker_without_a_line_break_ends_the_text() -> None:
    text = "<<<<<<< a\nx\n=======\ny\n>>>>>>> b"
    (conflict,) = find_conflicts(text)
    assert conflict.end == len(text)
    assert apply_edits(text, resolved(text, (conflict,), "theirs")) == "y\n"


def test_a_resolution_is_recognised_and_titled() -> None:
    conflicts = find_conflicts(MERGED)
    ours = apply_edits(MERGED, resolved(MERGED, conflicts, "ours"))
    assert ours == '{\n  "v": 1\n}\n'
    found = resolution_of(MERGED, ours)
    assert found is not None and found.side == "ours"
    assert found.title == "Keep ours (`HEAD`), drop theirs (`feature`) in the merge conflict"
    # both versions of one key is no resolution a person chooses
    assert resolution_of(MERGED, apply_edits(MERGED, resolved(MERGED, conflicts, "both"))) is None
    items = "[\n<<<<<<< a\n  1\n=======\n  2\n>>>>>>> b\n]\n"
    joined = apply_edits(items, resolved(items, find_conflicts(items), "both", ","))
    assert joined == "[\n  1,\n  2\n]\n"
    found = resolution_of(items, joined)
    assert found is not None and found.title == "Keep both sides of the merge conflict"
    assert resolution_of(MERGED, '{\n  "v": 3\n}\n') is None
    assert resolution_of("{}", "{}") is None


def test_sides_that_give_one_key_two_values_are_alternatives() -> None:
    (versions,) = find_conflicts(MERGED)
    assert versions.alternatives
    (items,) = find_conflicts("[\n<<<<<<< a\n  1,\n=======\n  2,\n>>>>>>> b\n  3\n]\n")
    assert not items.alternatives


def test_an_error_among_the_conflicts_is_named_as_one() -> None:
    at = MERGED.index("<<<<<<<")
    assert conflict_message(MERGED, at) == (
        "a merge conflict between ours (`HEAD`) and theirs (`feature`): keep a side"
    )
    assert conflict_message(MERGED, 0) is None  # before the conflict: the parser's word
    assert conflict_message(MERGED, None) is None
    assert conflict_message('{"a" 1}', 5) is None
