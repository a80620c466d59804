"""The registry of algorithms: what the CLI offers, the settings accept, the README documents."""

from __future__ import annotations

import re

import pytest

from inputmend import services
from inputmend.cli.main import build_parser
from inputmend.core.budget import Budget, RunStats
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.conftest import ROOT, CountingOracle

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(title)
    end = README.find("\n#", start + len(title))
    return README[start:end]


def test_the_readme_documents_every_repair_algorithm_and_no_other() -> None:
    table = _section("### Repair strategies")
    documented = re.findall(r"^\| `([\w-]+)`", table, re.M)
    # the table's header, then one row per algorithm
    assert documented == ["--algorithm", *services.REPAIR_ALGORITHMS]


def test_the_readme_documents_every_explain_algorithm() -> None:
    synopsis = re.search(r"inputmend explain FILE \[--algorithm ([\w|-]+)\]", README)
    assert synopsis is not None
    assert set(synopsis[1].split("|")) == {*services.EXPLAIN_ALGORITHMS, "ddset"}
    bullets = _section("* `explain` prints")
    for name in services.EXPLAIN_ALGORITHMS:
        assert f"`{name}`" in bullets


def test_the_cli_offers_what_the_registry_has() -> None:
    parser = build_parser()
    args = parser.parse_args(["repair", "x", "--algorithm", "ddmax-lines"])
    assert args.algorithm == "ddmax-lines"
    for name in services.REPAIR_ALGORITHMS:
        assert parser.parse_args(["repair", "x", "--algorithm", name]).algorithm == name
    for name in services.EXPLAIN_ALGORITHMS:
        assert parser.parse_args(["explain", "x", "--algorithm", name]).algorithm == name


def test_unknown_algorithms_are_refused() -> None:
    oracle = CountingOracle(lambda text: text == "ok")
    with pytest.raises(ValueError, match="unknown repair algorithm"):
        services.repair("bad", oracle, algorithm="magic")
    with pytest.raises(ValueError, match="unknown explain algorithm"):
        services.explain("bad", oracle, algorithm="magic")
    with pytest.raises(ValueError, match="needs a grammar"):
        services.explain("bad", oracle, algorithm="ddmax-syntactic")


def _spending(tests: int, seen: list[int | None]) -> services.StrategyRun:
    def run(task: services.RepairTask, budget: Budget) -> services.Attempt:
        seen.append(budget.max_tests)
        return [], None, RunStats(tests, 0.0)

    return run


def test_strategies_share_one_budget_by_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int | None] = []
    strategies = (
        services.Strategy("first", 1, _spending(2, seen)),
        services.Strategy("second", 1, _spending(50, seen)),
        services.Strategy("last", 2, _spending(10, seen)),
    )
    monkeypatch.setitem(
        services.REPAIR_ALGORITHMS, "test", services.RepairAlgorithm("test", "", strategies)
    )
    oracle = CountingOracle(lambda text: False)
    result = services.repair("x", oracle, algorithm="test", budget=Budget(max_tests=101))
    # 100 tests left after judging the input: the first gets a quarter, the second a
    # third of what the first left, the last all the rest
    assert seen == [25, 33, 48]
    assert result.stats.tests == 63 and not result.stats.budget_exhausted
    seen.clear()
    spent = services.repair("x", oracle, algorithm="test", budget=Budget(max_tests=63))
    assert spent.stats.budget_exhausted
    assert spent.stats.stop_reason == "test budget of 63 oracle runs used up"


def test_an_incomplete_input_is_completed_first_and_alone() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '{"list": [{"id": 1}, {"id": 2'
    result = services.repair(text, oracle)
    assert result.repairs[0].text == text + "}]}"
    assert result.repairs[0].algorithm == "completion"
    # no search (FSynth, ddmax) after a completion: only the cheap strategies ran
    assert {r.algorithm for r in result.repairs} <= {"completion", "layout"}
    assert not result.stats.budget_exhausted


def test_an_incorrect_input_is_searched_until_a_repair_does_the_data_no_harm() -> None:
    oracle = IncrementalGrammarOracle("json")
    result = services.repair('{"a": 1 "b": 2}', oracle, top=10)
    assert result.repairs[0].distance == 1  # a comma
    # FSynth's comma keeps every token: hybrid ddmax (which deletes) is not run
    assert {r.algorithm for r in result.repairs} == {"completion", "fsynth"}
    harmed = services.repair('{"a": 1 2 "b": 2}', oracle, top=10)
    assert "ddmax-hybrid" in {r.algorithm for r in harmed.repairs}


def test_a_string_closed_at_the_end_is_not_taken_for_a_completion() -> None:
    oracle = IncrementalGrammarOracle("dot")
    text = 'digraph G {\n  a -> b [label="x]\n  b -> c;\n}\n'
    result = services.repair(text, oracle)
    # the lost closing quote goes back where the value ends, not after the
    # last line (which would swallow two statements into the label)
    assert result.repairs[0].text == text.replace('"x]', '"x"]')


def test_an_end_tag_from_the_name_stack_is_completed_and_invents_nothing() -> None:
    oracle = IncrementalGrammarOracle("xml")
    cut = '<?xml version="1.0"?>\n<catalog>\n  <plant zone="4">Columbine'
    completed = services.repair(cut, oracle)
    assert completed.repairs[0].text == cut + "</plant></catalog>"
    assert {r.algorithm for r in completed.repairs} <= {"completion", "hints", "layout"}
    # an element left open inside the document: the hints close it with its own
    # name, which is no made-up data, so no search runs after them
    text = "<catalog>\n  <plant>Columbine\n  <plant>Yarrow</plant>\n</catalog>\n"
    result = services.repair(text, oracle)
    assert result.repairs[0].text == text.replace("Columbine", "Columbine</plant>")
    assert not {"fsynth", "ddmax-hybrid"} & {r.algorithm for r in result.repairs}
    assert result.stats.tests < 50
