"""FSynth on the worked examples of the FSynth paper, with a lark grammar
oracle and with the black-box ``json.loads`` oracle."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from inputmend import services
from inputmend.algorithms.fsynth import (
    DEFAULT_ALPHABET,
    FSynthOptions,
    FSynthResult,
    _record,
    fsynth,
)
from inputmend.core.budget import Budget
from inputmend.core.model import Edit, apply_edits
from inputmend.core.oracle import Feedback, Oracle, Verdict
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.python import CallableOracle
from tests.clock import work_clock

JSON_GRAMMAR = """\
// title: JSON (test)
// extensions: .json
?start: value
?value: object | array | string | SIGNED_NUMBER | "true" -> true | "false" -> false | "null" -> null
array  : "[" [value ("," value)*] "]"
object : "{" [pair ("," pair)*] "}"
pair   : string ":" value
string : ESCAPED_STRING
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
"""


@pytest.fixture(scope="module")
def grammar_oracle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceGrammarOracle]:
    path = tmp_path_factory.mktemp("grammar") / "json.lark"
    path.write_text(JSON_GRAMMAR, encoding="utf-8")
    oracle = ReferenceGrammarOracle(str(path))
    yield oracle
    oracle.close()


class NoOffsets:
    """A black box that only says complete / incomplete / incorrect."""

    def __init__(self, inner: Oracle) -> None:
        self.inner = inner
        self.calls = 0

    def check(self, text: str) -> Feedback:
        self.calls += 1
        return Feedback(self.inner.check(text).verdict)

    def describe(self) -> str:
        return "no offsets"

    def close(self) -> None:
        pass


class Recording(NoOffsets):
    """The grammar oracle, remembering what it was asked."""

    def __init__(self, inner: Oracle) -> None:
        super().__init__(inner)
        self.tried: list[str] = []

    def check(self, text: str) -> Feedback:
        self.tried.append(text)
        return self.inner.check(text)


JSON_ORACLE = CallableOracle(json.loads)


@pytest.fixture(params=["lark", "json.loads", "no-offsets"])
def oracle(request: pytest.FixtureRequest, grammar_oracle: ReferenceGrammarOracle) -> Oracle:
    if request.param == "lark":
        return grammar_oracle
    if request.param == "json.loads":
        return JSON_ORACLE
    # json.loads' prefix verdicts are not sound (``{"a" "b`` is called
    # incomplete), so the offset-free black box wraps the grammar oracle.
    return NoOffsets(grammar_oracle)


def _valid(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _check_result(text: str, result: FSynthResult, oracle: Oracle = JSON_ORACLE) -> None:
    """Invariants of every result: ranked, valid, edit scripts replay."""
    assert not result.input_valid
    assert result.repairs, result
    distances = [r.distance for r in result.repairs]
    assert distances == sorted(distances)
    for repair in result.repairs:
        assert repair.valid and repair.algorithm == "fsynth"
        assert oracle.check(repair.text).valid
        assert apply_edits(text, repair.edits) == repair.text
    assert result.partial is None and result.complete


def test_missing_comma_is_inserted(oracle: Oracle) -> None:
    text = '{ "name": "Dave" "age": 42 }'
    result = fsynth(text, oracle)
    _check_result(text, result, oracle)
    best = result.repairs[0]
    assert best.distance == 1
    assert [e.insert for e in best.edits] == [","]
    assert json.loads(best.text) == {"name": "Dave", "age": 42}
    assert result.levels == 1 and result.stats.tests < 800


def test_two_faults_are_both_deleted(oracle: Oracle) -> None:
    text = '{"ABCD":[*"1,2,3,4,5,6"]*}'
    result = fsynth(text, oracle)
    _check_result(text, result, oracle)
    assert result.repairs[0].text == '{"ABCD":["1,2,3,4,5,6"]}'
    assert result.repairs[0].edits == (Edit(9, 1), Edit(24, 1))
    assert result.stats.tests < 6000


@pytest.mark.parametrize("text", ["[ * ] +", "[ * + ]"])
def test_brackets_survive_multiple_faults(oracle: Oracle, text: str) -> None:
    result = fsynth(text, oracle)
    _check_result(text, result, oracle)
    best = result.repairs[0]
    assert best.distance == 2
    assert best.text.startswith("[") and "]" in best.text


def test_garbage_before_number_is_deleted(oracle: Oracle) -> None:
    text = '{ "item": "Apple", "price": **3.45 }'
    result = fsynth(text, oracle)
    _check_result(text, result, oracle)
    assert result.repairs[0].text == '{ "item": "Apple", "price": 3.45 }'
    assert result.repairs[0].edits == (Edit(28, 2),)


def test_missing_closers_are_inserted_at_end(oracle: Oracle) -> None:
    text = '{"a": [1, 2'
    result = fsynth(text, oracle)
    _check_result(text, result, oracle)
    assert result.repairs[0].text == '{"a": [1, 2]}'
    assert result.repairs[0].edits == (Edit(11, 0, "]}"),)


def test_missing_colon(oracle: Oracle) -> None:
    text = '{ "item": "Apple", "price" 3.45 }'
    result = fsynth(text, oracle)
    _check_result(text, result, oracle)
    best = result.repairs[0]
    assert best.distance == 1 and json.loads(best.text) == {"item": "Apple", "price": 3.45}


def test_valid_input_needs_no_repair(oracle: Oracle) -> None:
    result = fsynth('{"a": [1, 2]}', oracle)
    assert result.input_valid and result.repairs == () and result.partial is None
    assert result.stats.tests == 1


def test_empty_input(oracle: Oracle) -> None:
    result = fsynth("", oracle)
    _check_result("", result, oracle)
    assert result.repairs[0].distance == 1


def test_undecodable_byte_is_deleted(grammar_oracle: ReferenceGrammarOracle) -> None:
    text = '{"a": [1, 2\udc80]}'
    assert grammar_oracle.check(text).error_offset == 11
    result = fsynth(text, grammar_oracle)
    _check_result(text, result, grammar_oracle)
    assert result.repairs[0].text == '{"a": [1, 2]}'
    assert result.repairs[0].edits == (Edit(11, 1),)


def test_undecodable_byte_is_only_deleted_or_replaced(
    grammar_oracle: ReferenceGrammarOracle,
) -> None:
    text = "[1, \udc80 2\udc81]"
    recording = Recording(grammar_oracle)
    result = fsynth(text, recording)
    kept = fsynth(text, grammar_oracle, options=FSynthOptions(fix_undecodable_in_place=False))
    _check_result(text, result, grammar_oracle)
    assert result.repairs[0].text == kept.repairs[0].text == "[1,  2]"
    for candidate in recording.tried:
        # no edit before the first byte: the text before it is kept as it was
        assert candidate.startswith("[1, ") or len(candidate) < 4
    assert 3 * result.stats.tests < 2 * kept.stats.tests


def test_reach_finds_a_quote_lost_inside_a_string() -> None:
    text = '{"authorO : "xcode", "n": 1}'  # `"` after author became `O`
    oracle = IncrementalGrammarOracle("json")
    plain = fsynth(text, oracle)
    assert plain.repairs[0].distance == 2  # the error shows only at `x`
    options = FSynthOptions(reach=lambda t, b: oracle.last_token_start(t[:b]))
    reached = fsynth(text, oracle, options=options)
    _check_result(text, reached, oracle)
    assert reached.repairs[0].distance == 1
    assert '{"author" : "xcode", "n": 1}' in [r.text for r in reached.repairs]
    assert "reach back to the last token" in options.describe()
    assert reached.stats.tests < 3 * plain.stats.tests


def test_auto_reaches_back_for_a_black_box_too(grammar_oracle: ReferenceGrammarOracle) -> None:
    text = '{"key : "v"}'  # the quote after the key is lost
    blind = NoOffsets(grammar_oracle)
    one_edit = FSynthOptions(max_edits=1)
    assert not fsynth(text, blind, options=one_edit).repairs  # not with the window only
    result = services.repair(text, blind, algorithm="fsynth")
    assert result.repairs[0].distance == 1
    assert '{"key" : "v"}' in [r.text for r in result.repairs]


def test_black_box_without_offsets_searches_boundaries(
    grammar_oracle: ReferenceGrammarOracle,
) -> None:
    text = '{"ABCD":[*"1,2,3,4,5,6"]*}'
    blind = NoOffsets(grammar_oracle)
    searched = fsynth(text, blind)
    told = fsynth(text, grammar_oracle)
    assert searched.repairs[0].text == told.repairs[0].text
    assert searched.stats.tests > told.stats.tests  # prefix searches cost runs
    forced = fsynth(text, grammar_oracle, options=FSynthOptions(use_offsets=False))
    assert forced.repairs[0].text == told.repairs[0].text


def test_insertion_anywhere_in_prefix() -> None:
    text = '12345mystring"'
    options = FSynthOptions(last_insert_only=False, window=0)
    result = fsynth(text, JSON_ORACLE, options=options)
    _check_result(text, result)
    assert result.repairs[0].text == '"12345mystring"'
    narrow = fsynth(text, JSON_ORACLE, options=FSynthOptions(window=0))
    assert not narrow.repairs or narrow.repairs[0].distance > 1  # only at the boundary


def test_window_repairs_just_before_boundary() -> None:
    text = '4{"a": 1}'
    result = fsynth(text, JSON_ORACLE)
    assert result.repairs[0].text == '{"a": 1}'
    paper = fsynth(text, JSON_ORACLE, options=FSynthOptions.paper(), budget=Budget(max_tests=3000))
    assert not paper.repairs or paper.repairs[0].distance > 1


def test_paper_options_repair_the_worked_examples(grammar_oracle: ReferenceGrammarOracle) -> None:
    options = FSynthOptions.paper()
    assert "searched" in options.describe()
    result = fsynth('{"ABCD":[*"1,2,3,4,5,6"]*}', grammar_oracle, options=options)
    assert result.repairs[0].text == '{"ABCD":["1,2,3,4,5,6"]}'
    dave = fsynth('{ "name": "Dave" "age": 42 }', grammar_oracle, options=options)
    assert dave.repairs[0].text == '{ "name": "Dave" ,"age": 42 }'


def test_alphabet_callable_gets_the_prefix() -> None:
    prefixes: list[str] = []

    def alphabet(prefix: str) -> str:
        prefixes.append(prefix)
        return ",:]}"

    text = '{ "name": "Dave" "age": 42 }'
    options = FSynthOptions(alphabet=alphabet, window=0)
    result = fsynth(text, JSON_ORACLE, options=options)
    assert result.repairs[0].text == '{ "name": "Dave" ,"age": 42 }'
    assert prefixes and all(text.startswith(p) for p in prefixes)
    assert result.stats.tests < 20
    assert "alphabet" in options.describe()


def test_default_alphabet_is_printable_ascii_with_newline_and_tab() -> None:
    expected = {chr(c) for c in range(0x20, 0x7F)} | {"\n", "\t"}
    assert set(DEFAULT_ALPHABET) == expected and len(DEFAULT_ALPHABET) == len(expected)
    assert DEFAULT_ALPHABET[0] == ","


def test_options_are_validated() -> None:
    with pytest.raises(ValueError):
        FSynthOptions(alphabet="")
    with pytest.raises(ValueError):
        FSynthOptions(beam=0)
    with pytest.raises(ValueError):
        FSynthOptions(max_per_mask=0)
    with pytest.raises(ValueError):
        FSynthOptions(max_reach=-1)
    with pytest.raises(ValueError):
        FSynthOptions(data_levels=-1)


def test_more_repairs_with_extra_levels() -> None:
    text = '{ "name": "Dave" "age": 42 }'
    one = fsynth(text, JSON_ORACLE)
    more = fsynth(text, JSON_ORACLE, options=FSynthOptions(extra_levels=1, max_repairs=50))
    assert more.repairs[0].distance == 1
    assert len(more.repairs) > len(one.repairs)
    assert max(r.distance for r in more.repairs) == 2


def test_unranked_repairs_are_the_same_in_the_order_found() -> None:
    """``ranked=False`` leaves the ranking to the caller: the same repairs,
    unjudged, unless there are more than ``max_repairs`` to choose from."""
    text = '{ "name": "Dave" "age": 42 }'
    ranked = fsynth(text, JSON_ORACLE, options=FSynthOptions(extra_levels=1, max_repairs=50))
    found = fsynth(
        text, JSON_ORACLE, options=FSynthOptions(extra_levels=1, max_repairs=50, ranked=False)
    )
    assert len(ranked.repairs) > 2
    assert sorted(r.text for r in found.repairs) == sorted(r.text for r in ranked.repairs)
    assert [r.distance for r in found.repairs] == sorted(r.distance for r in found.repairs)
    assert all(r.tokens_kept for r in ranked.repairs)
    assert not any(r.tokens_kept for r in found.repairs)
    chosen = fsynth(
        text, JSON_ORACLE, options=FSynthOptions(extra_levels=1, max_repairs=2, ranked=False)
    )
    assert [r.text for r in chosen.repairs] == [r.text for r in ranked.repairs[:2]]


def test_the_search_goes_on_while_every_repair_overwrites_data() -> None:
    text = "[1 2 3]"
    # one edit makes it valid only by overwriting data (`[1 , 3]`) or
    # joining numbers (`[12 3]`...); two commas keep every number
    kept = fsynth(text, JSON_ORACLE, options=FSynthOptions(max_repairs=50))
    assert "[1,2,3]" in [repair.text for repair in kept.repairs]
    assert kept.levels == 2
    first = fsynth(text, JSON_ORACLE, options=FSynthOptions(data_levels=0, max_repairs=50))
    assert first.levels == 1
    assert all(json.loads(r.text) != [1, 2, 3] for r in first.repairs)


def test_budget_exhaustion_returns_partial(oracle: Oracle) -> None:
    text = '{"ABCD":[*"1,2,3,4,5,6"]*, "more": [1, 2, 3]}'
    result = fsynth(text, oracle, budget=Budget(max_tests=60))
    assert not result.complete and not result.repairs
    assert result.stats.budget_exhausted and result.stats.tests <= 60
    partial = result.partial
    assert partial is not None and partial.text and not partial.valid
    assert partial.note.startswith("partial")
    assert apply_edits(text, partial.edits) == partial.text
    assert result.partial_boundary is not None
    prefix = partial.text[: result.partial_boundary]
    assert oracle.check(prefix).verdict is not Verdict.INCORRECT
    assert result.best is partial
    assert result.to_repair_result().repairs == (partial,)


def test_budget_exhausted_before_first_boundary_keeps_input() -> None:
    text = "[1, *]"
    result = fsynth(text, JSON_ORACLE, budget=Budget(max_tests=0))
    assert result.partial is not None and result.partial.text == text
    assert not result.complete and result.partial.edits == ()


def test_cancellation_stops_quickly(
    grammar_oracle: ReferenceGrammarOracle, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0

    def cancelled() -> bool:
        nonlocal calls
        calls += 1
        return calls > 25

    checks = 0
    check = grammar_oracle.check

    def counted(text: str) -> Feedback:
        nonlocal checks
        checks += 1
        return check(text)

    monkeypatch.setattr(grammar_oracle, "check", counted)
    text = '{"ABCD":[*"1,2,3,4,5,6"]*}'
    result = fsynth(text, grammar_oracle, budget=Budget(cancelled=cancelled))
    assert calls == 26, f"the cancellation was asked {calls} times, not 25 + 1"
    assert checks <= 25, f"{checks - 25} oracle runs after the cancellation"
    assert result.stats.stop_reason == "cancelled" and not result.complete
    assert result.partial is not None and result.partial.text


def test_time_budget(
    grammar_oracle: ReferenceGrammarOracle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each oracle run costs 10 ms of a clock that moves by work: the search
    stops after about 30 runs (0.3 s)."""
    clock = work_clock(monkeypatch)
    check = grammar_oracle.check

    def costly(text: str) -> Feedback:
        clock.advance(0.01)
        return check(text)

    monkeypatch.setattr(grammar_oracle, "check", costly)
    text = '{"a": [*1, *2, *3, *4, *5, *6, *7, *8]}'
    result = fsynth(text, grammar_oracle, budget=Budget(timeout_s=0.3))
    assert clock.now <= 0.32, f"{round(clock.now * 100)} oracle runs for 30 runs' time"
    assert result.stats.budget_exhausted
    assert result.best is not None and result.best.text


def test_long_input_is_repaired() -> None:
    items = [f'{{"id": {i}, "name": "item {i}"}}' for i in range(5000)]
    items[2500] = items[2500].replace(",", "", 1)
    text = "[" + ",\n".join(items) + "]"
    result = fsynth(text, JSON_ORACLE)  # its time is measured by bench/large_repairs.py
    assert result.repairs and result.repairs[0].distance == 1
    assert _valid(result.repairs[0].text)


@pytest.mark.parametrize("seed", range(30))
def test_recorded_edits_replay(seed: int) -> None:
    """The edit script kept in input offsets always rebuilds the thread's text."""
    rng = random.Random(seed)
    original = "".join(rng.choice("abcdef") for _ in range(rng.randrange(0, 12)))
    text = original
    edits: tuple[Edit, ...] = ()
    for _ in range(rng.randrange(1, 8)):
        if text and rng.random() < 0.5:
            position = rng.randrange(len(text))
            delete, insert = 1, rng.choice(["", "X", "Y"])
        else:
            position = rng.randrange(len(text) + 1)
            delete, insert = 0, rng.choice("XYZ")
        text = text[:position] + insert + text[position + delete :]
        edits = _record(edits, position, delete, insert)
        assert apply_edits(original, edits) == text
