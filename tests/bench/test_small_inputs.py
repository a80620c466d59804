"""bench/small_inputs.py: the split of record mode's repairs by generator."""

from __future__ import annotations

from bench.damage.corpus import Case
from bench.small_inputs import stages

from inputmend.repairs.generators import GENERATORS


def _case(damaged: str) -> Case:
    return Case("small/test/0", "json", "test", "", damaged, damaged)


def test_a_truncated_record_is_settled_by_completion_and_only_tie_breakers_run_after() -> None:
    found = stages([_case('{"name": "demo", "port": 8080'), _case('{"a": 1, "b": [1, 2}')])
    assert found.cases == 2
    assert found.settled_by["completion"] >= 1
    assert sum(found.settled_by.values()) <= found.cases
    for name, stage in found.generators.items():
        assert stage.empty <= stage.runs <= found.cases, name
        assert 0 <= stage.after <= stage.cpu, name
    # after a settled repair only the generators that break ties run
    tie_breakers = {generator.name for generator in GENERATORS if generator.breaks_ties}
    assert {name for name, stage in found.generators.items() if stage.after} <= tie_breakers


def test_a_case_no_generator_settles_counts_no_work_after_a_settled_repair() -> None:
    found = stages([_case("{'name': 'demo', 'port': 8080}")])
    assert not found.settled_by
    assert all(stage.after == 0 for stage in found.generators.values())
