"""Hybrid ddmax as a generator: when it runs, and what its lexical phase may spend."""

from __future__ import annotations

from inputmend.algorithms.syntactic import TokenMaximized
from inputmend.core.budget import RunStats
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.repairs.generators.ddmax import HYBRID, lexical_runs
from tests.repairs.generators.run import context, repair_of

TEXT = '{"name": "inputmend", "summary": "repairs broken input files" "version": 3}\n'


def _deleting(start: int, end: int) -> TokenMaximized:
    """The syntactic phase's result that removed ``TEXT[start:end]``."""
    kept = ((0, start), (end, len(TEXT)))
    return TokenMaximized(
        TEXT[:start] + TEXT[end:], kept, ((start, end),), True, RunStats(1, 0.0), units=12
    )


def test_the_lexical_phase_is_bounded_only_for_a_lossy_removal_beside_a_repair_that_is_not() -> (
    None
):
    comma = TEXT.index('" "version') + 1
    edit = Edit(comma, 0, ",")
    kept_all = Repair(apply_edits(TEXT, (edit,)), (edit,), "x", True, 1)
    summary, version = TEXT.index('"summary"'), TEXT.index('"version"')
    lossy = _deleting(summary, version)  # the summary's key and value: 41 characters
    small = _deleting(comma, comma + 1)  # a blank
    runs = lexical_runs(context(TEXT, "json"), (kept_all,))
    # the limit allows 6 characters (10% of the 60-odd not blank); 41 removed: 6 halvings
    assert runs(lossy) == 2 * 6 * 6
    assert runs(small) is None
    # with no repair within the loss limit in hand, no bound but the budget
    assert lexical_runs(context(TEXT, "json"), ())(lossy) is None
    invalid = Repair(kept_all.text, kept_all.edits, "x", False, 1)
    assert lexical_runs(context(TEXT, "json"), (invalid,))(lossy) is None


LOST = 'id,name,"last, first",city,note\n2,Ada Lovelace,Lovelace, Ada",Lima,paid in full\n'
"""A CSV field that lost its opening quote."""


def test_it_is_not_wanted_after_a_repair_that_keeps_everything() -> None:
    found = context(LOST, "csv")
    quoted = repair_of(LOST, Edit(LOST.index("Lovelace, "), 0, '"'))  # re-reads words only
    assert not found.judge(quoted).harmless
    assert not HYBRID.wanted(found, (quoted,))
    # beside a repair that loses a character (the comma), deleting may find better
    joined = repair_of(LOST, Edit(LOST.index(", Ada"), 1, ""))
    assert HYBRID.wanted(found, (joined,))
    assert HYBRID.wanted(found, ())
    # an invalid proposal is no repair to give way to
    invalid = Repair(quoted.text, quoted.edits, "test", False, 1)
    assert HYBRID.wanted(found, (invalid,))
