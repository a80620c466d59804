"""The sweep: many faults repaired left to right, exactly, at a cost linear
in the faults (counted in scans, not time)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from inputmend import services
from inputmend.algorithms.sweep import LOOKAHEAD, SweepResult, sweep
from inputmend.config.defaults import RUN_MAX_TESTS
from inputmend.core.budget import TIME_CAP_REACHED, Budget
from inputmend.core.model import apply_edits
from inputmend.grammar.hints import NO_HINTS
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.clock import work_clock

BUDGET = Budget(max_tests=RUN_MAX_TESTS)
"""Bounded by work as the CLI is, with no wall-time cap: the same answer under any load."""


def _records(count: int) -> list[dict[str, object]]:
    return [
        {"id": i, "name": f"user{i}", "tags": ["a", "b"], "active": i % 3 == 0}
        for i in range(count)
    ]


def _text(count: int) -> str:
    return json.dumps(_records(count), indent=2) + "\n"


def _lose_commas(text: str, every: int) -> tuple[str, int]:
    """``text`` without every ``every``-th comma at a line's end."""
    pieces = text.split(",\n")
    out = [pieces[0]]
    lost = 0
    for index, piece in enumerate(pieces[1:]):
        if index % every == 0:
            out.append("\n" + piece)
            lost += 1
        else:
            out.append(",\n" + piece)
    return "".join(out), lost


def _sweep(text: str) -> tuple[IncrementalGrammarOracle, object]:
    oracle = IncrementalGrammarOracle("json")
    return oracle, sweep(text, oracle, hints=oracle.grammar.hints(), budget=BUDGET)


def test_many_lost_commas_are_repaired_exactly() -> None:
    damaged, lost = _lose_commas(_text(200), 7)
    assert lost > 100
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None
    assert json.loads(repair.text) == _records(200)
    assert apply_edits(damaged, repair.edits) == repair.text
    assert result.faults == lost  # type: ignore[attr-defined]


def test_mixed_slips_are_repaired_exactly() -> None:
    """Lost commas, unquoted keys and Python's True, at seeded places."""
    text = _text(300)
    lines = text.split("\n")
    rng = random.Random(5)
    for index in rng.sample(range(1, len(lines) - 1), 60):
        line = lines[index]
        if '"active": true' in line:
            lines[index] = line.replace("true", "True")
        elif line.strip().startswith('"name"'):
            lines[index] = line.replace('"name"', "name")
        elif line.endswith(","):
            lines[index] = line[:-1]
    damaged = "\n".join(lines)
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None and json.loads(repair.text) == _records(300)


def test_systematic_damage_costs_about_one_try_per_fault() -> None:
    """One slip repeated throughout: after the first, each fault is fixed by
    the learned fix at its first try, so the scans grow linearly with the
    faults, at most a few per fault."""
    costs = {}
    for count in (100, 400):
        damaged, lost = _lose_commas(_text(count), 1)
        _, result = _sweep(damaged)
        assert result.repair is not None  # type: ignore[attr-defined]
        assert result.faults == lost  # type: ignore[attr-defined]
        assert result.repeated >= lost - 2  # type: ignore[attr-defined]
        costs[lost] = result.stats.tests  # type: ignore[attr-defined]
        assert result.stats.tests <= 2 * lost + 20  # type: ignore[attr-defined]
    (few, few_cost), (many, many_cost) = sorted(costs.items())
    assert many_cost / many <= few_cost / few + 0.1


def test_a_try_reads_a_window_not_the_rest_of_the_text() -> None:
    """The work of the sweep grows with the text once, not once per fault:
    the characters lexed stay within a few times the text plus a window per try."""
    damaged, _ = _lose_commas(_text(400), 3)
    oracle, result = _sweep(damaged)
    tries = result.stats.tests  # type: ignore[attr-defined]
    assert oracle.scanned_chars <= 3 * len(damaged) + tries * 4 * LOOKAHEAD


def test_dense_faults_with_no_checkpoint_between_them() -> None:
    """Faults a token apart leave no checkpoint past a fix before the next
    fault: the sweep reads on from the fix in the edited text, and its edits
    still describe the repair in the input's offsets."""
    damaged = "[" + ",".join("True" if i % 2 else "False" for i in range(300)) + "]"
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None
    assert json.loads(repair.text) == [bool(i % 2) for i in range(300)]
    assert apply_edits(damaged, repair.edits) == repair.text


def test_a_large_document_is_settled_by_the_sweep() -> None:
    """Through the service: a large text with slips gets the sweep's exact
    repair, the only candidate (the slower generators are not run)."""
    damaged, _ = _lose_commas(_text(800), 5)
    assert len(damaged) > 32_768
    result = services.repair(damaged, IncrementalGrammarOracle("json"), budget=BUDGET)
    assert result.repairs and result.repairs[0].algorithm == "sweep"
    assert json.loads(result.repairs[0].text) == _records(800)


def test_a_hint_fix_that_ends_before_the_error_is_tried() -> None:
    """YAML's lost colon shows only at the end of the line (`email u1@x`
    reads as one scalar): the hints' fix after the key, which ends before
    the error, is tried beside the plain steps at the error, and wins (a
    colon at the line's end would make the whole line a key)."""
    records = "".join(
        f"- id: {i}\n  name: user{i}\n  email: u{i}@example.com\n  score: {i / 7:.2f}\n"
        for i in range(900)
    )
    damaged = records.replace("  email: u450@", "  email u450@", 1)
    assert len(damaged) > 32_768
    oracle = IncrementalGrammarOracle("yaml")
    result = sweep(damaged, oracle, hints=oracle.grammar.hints(), budget=BUDGET)
    assert result.repair is not None and result.repair.text == records


def test_a_lost_opening_quote_is_put_back() -> None:
    """A key that lost its opening quote (`email": ...`): the quote the
    grammar accepts at the error is inserted there, and must read on past
    itself (a quote that opened a string running to the line's end would
    not)."""
    text = _text(300)
    at = text.index('"name"', len(text) // 2)
    damaged = text[:at] + text[at + 1 :]
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None and repair.text == text


def _on_lines(records: list[dict[str, object]]) -> str:
    """The records as JSON Lines: one document after another, one a line."""
    return "".join(json.dumps(record) + "\n" for record in records)


def test_records_on_lines_are_joined_into_one_list() -> None:
    """Documents one after another are systematic damage: the join (the
    hints' opener before the first, separator after it) is found once, at
    the first boundary, and its separator is the learned fix at each later
    one, about one try per document; the closer goes after the last."""
    records = _records(400)
    damaged = _on_lines(records)
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None
    assert json.loads(repair.text) == records
    assert apply_edits(damaged, repair.edits) == repair.text
    assert result.faults == len(records) - 1  # type: ignore[attr-defined]
    assert result.repeated >= len(records) - 3  # type: ignore[attr-defined]
    assert result.stats.tests <= len(records) + 30  # type: ignore[attr-defined]


def test_the_join_comes_from_the_grammar_without_hints() -> None:
    """Without hints, the ways to join are the grammar's nesting brackets'
    openers with its separators: the one that reads on is taken, and the
    bracket closer that completes the text closes the list."""
    records = _records(300)
    damaged = _on_lines(records).replace("\n", "\r\n")
    oracle = IncrementalGrammarOracle("json")
    result = sweep(damaged, oracle, hints=NO_HINTS, budget=BUDGET)
    assert result.repair is not None
    assert json.loads(result.repair.text) == records


def test_slips_inside_records_on_lines_are_repaired_too() -> None:
    """A lost comma in the first document (before the first boundary, so
    before the join's separator, after its opener) and in a later one: the
    edits still describe the repair in the input's offsets."""
    records = _records(300)
    damaged = _on_lines(records)
    damaged = damaged.replace('"name": "user0",', '"name": "user0"', 1)
    damaged = damaged.replace('"name": "user150",', '"name": "user150"', 1)
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None
    assert json.loads(repair.text) == records
    assert apply_edits(damaged, repair.edits) == repair.text
    assert result.faults == len(records) + 1  # type: ignore[attr-defined]


def test_records_on_lines_are_settled_by_the_sweep() -> None:
    """Through the service: a large JSON Lines text where one document was
    wanted gets the sweep's join as its top repair."""
    records = _records(500)
    damaged = _on_lines(records)
    assert len(damaged) > 32_768
    result = services.repair(damaged, IncrementalGrammarOracle("json"), budget=BUDGET)
    assert result.repairs and result.repairs[0].algorithm == "sweep"
    assert json.loads(result.repairs[0].text) == records


def test_the_sweep_may_use_the_whole_work_bound() -> None:
    """The default work bound of the CLI and the library (oracle runs, not
    time): the sweep needs about one run per fault, more than its weight's
    part of the bound when every record is a fault, and gets all that is
    left, so the text is still repaired by it."""
    records = _records(500)
    damaged = _on_lines(records)
    result = services.repair(
        damaged, IncrementalGrammarOracle("json"), budget=Budget(max_tests=2_000)
    )
    assert result.repairs and result.repairs[0].algorithm == "sweep"
    assert json.loads(result.repairs[0].text) == records
    assert 500 <= result.stats.tests <= 2_000


def test_numbers_on_lines_are_joined() -> None:
    """Documents that are not bracketed (numbers, one a line) are joined as
    records are: the text before the first boundary is a complete document,
    and each later number is at least 16 characters long (a learned fix
    must read that far past itself)."""
    rng = random.Random(3)
    numbers = [rng.random() for _ in range(2000)]
    numbers = [number for number in numbers if len(repr(number)) >= 16]
    damaged = "".join(f"{number!r}\n" for number in numbers)
    assert len(damaged) > 32_768
    _, result = _sweep(damaged)
    repair = result.repair  # type: ignore[attr-defined]
    assert repair is not None and json.loads(repair.text) == numbers
    assert result.stats.tests <= 2 * len(numbers) + 30  # type: ignore[attr-defined]


def test_a_sweep_that_ends_past_the_time_cap_still_gives_its_repair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sweep checks its repair with the whole oracle: a run whose time
    cap is reached as the sweep ends returns that repair, and says the cap
    was reached."""
    clock = work_clock(monkeypatch)

    def slow(*args: Any, **kwargs: Any) -> SweepResult:
        found = sweep(*args, **kwargs)
        clock.advance(60.0)  # the whole time cap spent by the end of the sweep
        return found

    monkeypatch.setattr("inputmend.repairs.generators.sweep.sweep", slow)
    records = _records(500)
    result = services.repair(
        _on_lines(records), IncrementalGrammarOracle("json"), budget=Budget(timeout_s=10)
    )
    assert result.repairs and result.repairs[0].algorithm == "sweep"
    assert json.loads(result.repairs[0].text) == records
    assert result.stats.stop_reason == TIME_CAP_REACHED
