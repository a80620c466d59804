"""What the analyser decides by itself: the final ranking is the command
line's, and keeps the quick fix the search did not find when it is as good."""

from __future__ import annotations

from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.lsp.analysis import final_ranking

TEXT = '{"a": 1 "b": 2}'
GAP = TEXT.index(' "b"')


def _repair(*edits: Edit, algorithm: str = "fsynth") -> Repair:
    repaired = apply_edits(TEXT, edits)
    return Repair(repaired, edits, algorithm, True, sum(e.delete + len(e.insert) for e in edits))


COMMA = _repair(Edit(GAP, 0, ","))
COMMA_LATER = _repair(Edit(GAP + 1, 0, ","))  # same key: distance 1, one edit, nothing lost
DELETE = _repair(Edit(1, 7), algorithm="ddmax-hybrid")


def test_the_quick_top_stays_first_among_equals() -> None:
    ranked = final_ranking(TEXT, (COMMA_LATER,), (COMMA, DELETE), 5, quick_verified=True)
    assert [r.text for r in ranked] == [COMMA_LATER.text, COMMA.text, DELETE.text]
    assert ranked[-1].lossy  # ranked as the command line ranks: losing 7 of 12 is lossy


def test_a_strictly_better_repair_replaces_the_quick_top() -> None:
    ranked = final_ranking(TEXT, (DELETE,), (COMMA,), 5, quick_verified=True)
    assert ranked[0].text == COMMA.text


def test_quick_repairs_are_final_only_when_verified() -> None:
    assert final_ranking(TEXT, (COMMA,), (), 5, quick_verified=True) == (COMMA,)
    assert final_ranking(TEXT, (COMMA,), (), 5, quick_verified=False) == ()
    # with a validator, the quick top counts once the background search has verified it
    assert final_ranking(TEXT, (COMMA_LATER,), (COMMA,), 5, quick_verified=False) == (COMMA,)


def test_the_search_ranks_what_it_found_as_the_command_line_does() -> None:
    """The preferred fix is the command line's top repair: a quick top that
    the search found too takes the search's place."""
    for verified in (True, False):
        ranked = final_ranking(
            TEXT, (COMMA_LATER,), (COMMA, COMMA_LATER), 5, quick_verified=verified
        )
        assert ranked == (COMMA, COMMA_LATER)
