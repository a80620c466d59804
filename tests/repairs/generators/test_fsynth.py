"""FSynth as a generator: when its search is worth running."""

from __future__ import annotations

from inputmend import services
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.core.model import Edit
from inputmend.oracles.factory import build_oracle
from inputmend.repairs.generators.fsynth import FSYNTH
from tests.repairs.generators.run import context, repair_of

HEAD = 'id,name,"last, first",city,note\n1,Mei Chen,"Chen, Mei",Lima,ok\n'
LOST = HEAD + '2,Ada Lovelace,Lovelace, Ada",Lima,paid in full\n'  # its opening quote lost


def test_it_is_not_wanted_after_a_repair_that_keeps_everything() -> None:
    found = context(LOST, "csv")
    quoted = repair_of(LOST, Edit(LOST.index("Lovelace, "), 0, '"'))  # re-reads words only
    assert not found.judge(quoted).harmless
    assert not FSYNTH.wanted(found, (quoted,))
    # a repair that loses a character (the comma) leaves room for the search
    joined = repair_of(LOST, Edit(LOST.index(", Ada"), 1, ""))
    assert FSYNTH.wanted(found, (joined,))
    assert FSYNTH.wanted(found, ())


def test_a_field_that_lost_its_opening_quote_gets_it_back_without_a_search() -> None:
    oracle = build_oracle(OracleSpec(grammar="csv"))
    try:
        result = services.repair(LOST, oracle, budget=Budget(max_tests=3000))
    finally:
        oracle.close()
    assert result.repairs[0].text == LOST.replace("Lovelace, Ada", '"Lovelace, Ada')
    assert all(repair.algorithm != "fsynth" for repair in result.repairs)
    assert result.stats.tests < 200  # FSynth alone ran about 150 more
