"""Repairs that keep a side of each merge conflict, decided by the oracle and ranked first."""

from __future__ import annotations

from inputmend import services
from inputmend.algorithms.conflicts import conflict_repairs
from inputmend.config.schema import OracleSpec
from inputmend.core.budget import Budget
from inputmend.oracles.factory import build_oracle
from inputmend.oracles.incremental import IncrementalGrammarOracle


def test_each_side_the_oracle_accepts_is_a_repair() -> None:
    text = "[\n<<<<<<< HEAD\n  1,\n=======\n  2,\n>>>>>>> feature\n  3\n]\n"
    found = conflict_repairs(text, IncrementalGrammarOracle("json"))
    assert [r.text for r in found.repairs] == [
        "[\n  1,\n  3\n]\n",
        "[\n  2,\n  3\n]\n",
        "[\n  1,\n  2,\n  3\n]\n",
    ]
    assert found.stats.tests == 3


def test_keeping_both_versions_of_a_key_is_not_offered() -> None:
    text = '{\n<<<<<<< HEAD\n  "v": 1,\n=======\n  "v": 2,\n>>>>>>> x\n  "w": 3\n}\n'
    found = conflict_repairs(text, IncrementalGrammarOracle("json"))
    assert [r.text for r in found.repairs] == [
        '{\n  "v": 1,\n  "w": 3\n}\n',
        '{\n  "v": 2,\n  "w": 3\n}\n',
    ]


def test_no_conflict_costs_no_oracle_run_and_the_budget_stops_the_rest() -> None:
    assert conflict_repairs("[1,]", IncrementalGrammarOracle("json")).stats.tests == 0
    text = "[\n<<<<<<< a\n  1\n=======\n  2\n>>>>>>> b\n]\n"
    stopped = conflict_repairs(text, IncrementalGrammarOracle("json"), budget=Budget(max_tests=1))
    assert len(stopped.repairs) == 1


def test_a_side_of_the_conflict_is_the_top_repair_and_not_lossy() -> None:
    text = (
        '{\n  "name": "app",\n<<<<<<< HEAD\n  "version": "1.2.0",\n=======\n'
        '  "version": "1.3.0",\n>>>>>>> feature\n  "private": true\n}\n'
    )
    result = services.repair(text, IncrementalGrammarOracle("json"))
    best = result.repairs[0]
    assert best.text == '{\n  "name": "app",\n  "version": "1.2.0",\n  "private": true\n}\n'
    assert best.algorithm == "conflict" and not best.lossy
    assert result.repairs[1].text == best.text.replace("1.2.0", "1.3.0")
    # no search after a resolution (FSynth would make one string of it all)
    assert not {"fsynth", "ddmax-hybrid"} & {r.algorithm for r in result.repairs}


def test_every_format_gets_its_conflicts_resolved() -> None:
    yaml = "deps:\n<<<<<<< HEAD\n  - a\n=======\n  - b\n>>>>>>> topic\n  - c\n"
    found = [r.text for r in services.repair(yaml, IncrementalGrammarOracle("yaml")).repairs]
    assert found[0] == "deps:\n  - a\n  - c\n"
    assert "deps:\n  - a\n  - b\n  - c\n" in found[1:]
    toml = "[a]\n<<<<<<< ours\nx = 1\n=======\nx = 2\n>>>>>>> theirs\n"
    assert services.repair(toml, IncrementalGrammarOracle("toml")).repairs[0].text == "[a]\nx = 1\n"


def test_both_sides_added_at_the_end_of_a_list_are_joined_by_its_separator() -> None:
    text = (
        '{\n  "deps": {\n    "a": "1",\n<<<<<<< HEAD\n    "b": "2"\n=======\n'
        '    "c": "3"\n>>>>>>> feature\n  }\n}\n'
    )
    found = services.repair(text, IncrementalGrammarOracle("json")).repairs
    both = '{\n  "deps": {\n    "a": "1",\n    "b": "2",\n    "c": "3"\n  }\n}\n'
    [joined] = [r for r in found if r.text == both]
    assert joined.algorithm == "conflict" and not joined.lossy
    # the separator is inserted after ours' last word, nothing else is rewritten
    assert [e.insert for e in joined.edits if e.insert] == [","]


def test_a_resolution_deletes_the_markers_and_the_side_left_out_in_place() -> None:
    text = "[\n<<<<<<< HEAD\n  1,\n||||||| base\n  0,\n=======\n  2,\n>>>>>>> x\n  3\n]\n"
    found = {r.text: r for r in conflict_repairs(text, IncrementalGrammarOracle("json")).repairs}
    theirs = found["[\n  2,\n  3\n]\n"]
    # the kept side is not rewritten: its tokens stand where they stood
    assert all(not edit.insert for edit in theirs.edits)
    assert [text[e.offset : e.end] for e in theirs.edits] == [
        "<<<<<<< HEAD\n  1,\n||||||| base\n  0,\n=======\n",
        ">>>>>>> x\n",
    ]


def test_ours_comes_first_then_theirs_then_both() -> None:
    text = "[\n<<<<<<< HEAD\n  1,\n=======\n  22,\n>>>>>>> feature\n  3\n]\n"
    found = services.repair(text, IncrementalGrammarOracle("json")).repairs
    assert [r.text for r in found[:3]] == [
        "[\n  1,\n  3\n]\n",
        "[\n  22,\n  3\n]\n",
        "[\n  1,\n  22,\n  3\n]\n",
    ]
    assert not any(r.lossy for r in found[:3])


def test_a_side_the_loader_rejects_falls_behind_the_other() -> None:
    # the grammar accepts ours, but TOML's loader forbids giving `x` twice
    text = "[a]\nx = 1\n<<<<<<< HEAD\nx = 2\n=======\ny = 2\n>>>>>>> feature\n"
    best = services.repair(text, IncrementalGrammarOracle("toml")).repairs[0]
    assert best.text == "[a]\nx = 1\ny = 2\n"


def test_a_side_left_out_drops_no_field_of_a_table() -> None:
    # the side left out holds empty fields: leaving it out drops none of them
    text = "a,b,c\n1,,x\n<<<<<<< HEAD\n2,,y\n=======\n3,,y\n>>>>>>> feature\n4,,z\n"
    oracle = build_oracle(OracleSpec(grammar="csv"))  # the loader counts the fields
    try:
        found = services.repair(text, oracle).repairs
    finally:
        oracle.close()
    assert found[0].text == "a,b,c\n1,,x\n2,,y\n4,,z\n"
