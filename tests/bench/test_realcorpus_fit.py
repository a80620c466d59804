"""Fitting the ranking's weights to a dump of candidates."""

from __future__ import annotations

import json
from pathlib import Path

from bench.realcorpus.fit import (
    ARGUED,
    HAND_ORDER,
    fit,
    hand_weights,
    main,
    read_dump,
    top1,
)

from inputmend.algorithms.features import NAMES, Features, load_weights


def _candidate(carries: bool, **features: int) -> dict[str, object]:
    return {
        "text": "",
        "carries": carries,
        "edits": [[0, 0, "x"]],
        "features": {name: features.get(name, 0) for name in NAMES},
    }


def _dump(path: Path, cases: int, carrying: str = "data_lost") -> Path:
    """Cases where the carrying candidate has one of ``carrying`` (deletes
    one character of data) and the other makes up a value: the hand order
    (data lost before invented) puts the wrong one first."""
    with path.open("w", encoding="utf-8") as handle:
        for number in range(cases):
            record = {
                "id": f"json/quotes/fit/{number:03d}",
                "format": "json",
                "family": "quotes",
                "side": "fit",
                "candidates": [
                    _candidate(False, invented=1, distance=1 + number % 3),
                    _candidate(True, **{carrying: 1}, distance=2),
                ],
            }
            handle.write(json.dumps(record) + "\n")
    return path


def test_each_hand_criterion_outweighs_all_later_ones_within_their_ranges() -> None:
    hand = hand_weights()
    for position, (name, _, sign) in enumerate(HAND_ORDER):
        later = HAND_ORDER[position + 1 :]
        # the most the later criteria reach (style both ways around 0)
        reach = sum(abs(hand[n]) * span * (2 if n == "style" else 1) for n, span, _ in later)
        assert abs(hand[name]) > reach and (hand[name] > 0) == (sign > 0)


def test_an_argued_weight_is_not_fitted_and_outweighs_its_criteria(tmp_path: Path) -> None:
    cases = read_dump([_dump(tmp_path / "dump.jsonl", 12)])
    hand = hand_weights()
    criteria = [name for name, _, _ in HAND_ORDER]
    for weights in (hand, fit(cases, {**hand, "distance": hand["distance"] * 4}, rounds=4)):
        for name, before in ARGUED.items():
            later = HAND_ORDER[criteria.index(before) :]
            reach = sum(abs(weights[n]) * span * (2 if n == "style" else 1) for n, span, _ in later)
            assert weights[name] > reach
    # held at 0 (an ablation), it stays 0
    assert fit(cases, {**hand, **dict.fromkeys(ARGUED, 0.0)}, rounds=1)["conflict_choice"] == 0


def test_fitting_ranks_the_carrying_candidate_first(tmp_path: Path) -> None:
    cases = read_dump([_dump(tmp_path / "dump.jsonl", 12)])
    hand = hand_weights()
    assert top1(cases, hand) == (0, 12)
    fitted = fit(cases, hand, rounds=4)
    assert top1(cases, fitted) == (12, 12)
    assert fit(cases, hand, rounds=4) == fitted  # deterministic


def test_the_command_writes_a_weights_file_the_ranking_loads(tmp_path: Path) -> None:
    dump = _dump(tmp_path / "dump.jsonl", 6)
    out = tmp_path / "ranking.toml"
    assert main([str(dump), "--out", str(out), "--rounds", "2"]) == 0
    loaded = load_weights(out).default
    wrong = Features(invented=1, distance=1)
    right = Features(data_lost=1, distance=2)
    assert loaded.score(right) < loaded.score(wrong)


def test_only_the_features_named_move_from_the_start_file(tmp_path: Path) -> None:
    # against the criterion just before it in the hand order: one step of
    # coordinate ascent can cross it, however many criteria come before
    criteria = [name for name, _, _ in HAND_ORDER]
    before_invented = criteria[criteria.index("invented") - 1]
    dump = _dump(tmp_path / "dump.jsonl", 6, before_invented)
    start = tmp_path / "start.toml"
    assert main([str(dump), "--out", str(start), "--rounds", "0"]) == 0  # the hand order
    out = tmp_path / "ranking.toml"
    assert main([str(dump), "--start", str(start), "--only", "invented", "--out", str(out)]) == 0
    before, after = load_weights(start).default.as_dict(), load_weights(out).default.as_dict()
    assert [n for n in NAMES if before[n] != after[n]] == ["invented"]
    loaded = load_weights(out).default
    assert loaded.score(Features(**{before_invented: 1}, distance=2)) < loaded.score(
        Features(invented=1, distance=1)
    )
    assert "Then invented fitted on 6 cases" in out.read_text(encoding="utf-8")
