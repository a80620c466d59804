"""Ranking of repairs: the stated order, and the style model that breaks ties."""

from __future__ import annotations

from inputmend.algorithms.ranking import StyleModel, rank
from inputmend.core.model import Edit, Repair, apply_edits, distance

LISP = "(defun f (x)\n  (g (h x)))\n\n(defun g (y)\n  (h (k y)))\n\n(print (f (g 1))\n"


def _repair(original: str, *edits: Edit, algorithm: str = "fsynth") -> Repair:
    text = apply_edits(original, edits)
    return Repair(text, edits, algorithm, True, distance(original, text))


def test_style_breaks_a_tie_in_favour_of_the_files_own_habits() -> None:
    end = len(LISP)
    after_newline = _repair(LISP, Edit(end, 0, ")"))
    before_newline = _repair(LISP, Edit(end - 1, 0, ")"))
    assert after_newline.distance == before_newline.distance == 1
    ranked = rank(LISP, [after_newline, before_newline], top=5)
    assert ranked[0].text.endswith("1)))\n")  # every form here ends on `))\n`
    assert ranked == rank(LISP, [before_newline, after_newline], top=5)  # order-independent


def test_a_habit_of_the_file_wins_over_the_order_found() -> None:
    text = '{"a" : 1 , "b" : 2 , "c" : 3 , "d" : 4 , "e" : 5 , "f" 6 }'
    colon = text.index('" 6') + 1
    spaced = _repair(text, Edit(colon + 1, 0, ": "))  # not a tie: distance 2
    tight = _repair(text, Edit(colon, 0, ":"))
    after_space = _repair(text, Edit(colon + 1, 0, ":"))
    ranked = rank(text, [tight, after_space, spaced], top=5)
    assert [r.text for r in ranked[:2]] == [
        text.replace('"f" 6', '"f" :6'),  # `" :` is how this file writes a pair
        text.replace('"f" 6', '"f": 6'),
    ]
    assert ranked[2] is spaced  # edit distance comes first


def test_fewer_edits_then_less_data_lost_come_before_style() -> None:
    text = '{"a": [1, 2]**, "b": [3, 4]}'
    star = text.index("**")
    one_edit = _repair(text, Edit(star, 2))  # delete `**`: distance 2
    two_edits = _repair(text, Edit(star, 0, '"'), Edit(star + 2, 0, '"'))  # quote it
    assert rank(text, [two_edits, one_edit], top=1) == (one_edit,)

    text = "(a b c) (d e) x)\n"
    closer = text.index(" x)") + 2
    model = StyleModel(text)
    drop = _repair(text, Edit(closer, 1))  # loses the `)`
    keep = _repair(text, Edit(closer - 1, 0, "("))  # keeps it: `(x)`
    assert model.cost(text, drop.text, drop.edits) < model.cost(text, keep.text, keep.edits)
    assert rank(text, [drop, keep], top=1) == (keep,)


def test_duplicates_are_removed_and_top_is_honoured() -> None:
    first = _repair(LISP, Edit(len(LISP), 0, ")"), algorithm="fsynth")
    again = _repair(LISP, Edit(len(LISP), 0, ")"), algorithm="ddmax")
    other = _repair(LISP, Edit(0, 1))
    ranked = rank(LISP, [first, again, other], top=5)
    assert [r.algorithm for r in ranked].count("ddmax") == 0
    assert len(ranked) == 2
    assert len(rank(LISP, [first, other], top=1)) == 1
    assert rank(LISP, [], top=3) == ()


def test_cost_is_zero_without_edits_and_long_texts_are_sampled() -> None:
    model = StyleModel(LISP)
    assert model.cost(LISP, LISP, ()) == 0
    long_text = LISP * 2000  # 132 KB: the model is counted near the edits only
    edit = Edit(len(long_text), 0, ")")
    sampled = StyleModel.around(long_text, [edit])
    assert sampled.size < len(long_text)
    assert sampled.cost(long_text, long_text + ")", [edit]) > 0
