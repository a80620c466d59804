"""The registry of algorithms: what the CLI offers, the settings accept, the docs document."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from dataclasses import replace

import pytest

from inputmend import services
from inputmend.cli.main import build_parser
from inputmend.core.budget import TIME_CAP_REACHED, Budget, RunStats
from inputmend.core.model import Edit, Repair
from inputmend.core.oracle import Feedback
from inputmend.core.text import decode
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.syntax import brackets_of
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.repairs import context
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import Candidates, Generator, Run
from inputmend.repairs.generators.layout import closes_two
from tests.clock import work_clock
from tests.conftest import CountingOracle
from tests.documentation import page, section

CLI = page("cli.md")


def test_the_cli_page_documents_every_repair_algorithm_and_no_other() -> None:
    table = section(CLI, "## Repair strategies")
    documented = re.findall(r"^\| `([\w-]+)`", table, re.M)
    # the table's header, then one row per algorithm
    assert documented == ["--algorithm", *services.REPAIR_ALGORITHMS]


def test_the_cli_page_documents_every_explain_algorithm() -> None:
    synopsis = re.search(r"inputmend explain FILE \[--algorithm ([\w|-]+)\]", CLI)
    assert synopsis is not None
    assert set(synopsis[1].split("|")) == {*services.EXPLAIN_ALGORITHMS, "ddset"}
    bullets = CLI[CLI.index("* `explain` prints") :].split("\n#", 1)[0]
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


def _spending(tests: int, seen: list[int | None]) -> Run:
    def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
        seen.append(budget.max_tests)
        return Candidates((), None, RunStats(tests, 0.0))

    return run


def test_generators_share_one_budget_by_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int | None] = []
    generators = (
        Generator("first", 1, _spending(2, seen)),
        Generator("second", 1, _spending(50, seen)),
        Generator("last", 2, _spending(10, seen)),
    )
    monkeypatch.setitem(
        services.REPAIR_ALGORITHMS, "test", services.RepairAlgorithm("test", "", generators)
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


def test_a_generator_stopped_by_its_share_cuts_the_result_short() -> None:
    def stopped(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
        return Candidates((), None, RunStats(3, 0.0, budget_exhausted=True, stop_reason="share"))

    generators = (Generator("first", 1, _spending(2, [])), Generator("stopped", 1, stopped))
    oracle = CountingOracle(lambda text: False)
    whole = services.RepairAlgorithm("whole", "", generators[:1])
    cut = services.RepairAlgorithm("cut", "", generators)
    budget = Budget(max_tests=100)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(services.REPAIR_ALGORITHMS, "whole", whole)
        patch.setitem(services.REPAIR_ALGORITHMS, "cut", cut)
        assert not services.repair("x", oracle, algorithm="whole", budget=budget).cut_short
        result = services.repair("x", oracle, algorithm="cut", budget=budget)
    # the whole budget was not used up, but the search was cut short
    assert result.cut_short and not result.stats.budget_exhausted


def test_an_incomplete_input_is_completed_first_and_alone() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '{"list": [{"id": 1}, {"id": 2'
    result = services.repair(text, oracle)
    assert result.repairs[0].text == text + "}]}"
    assert result.repairs[0].algorithm == "completion"
    # no search (FSynth, ddmax) after a completion: only the cheap strategies ran
    assert {r.algorithm for r in result.repairs} <= {"completion", "layout"}
    assert not result.stats.budget_exhausted


def test_a_long_string_cut_off_is_closed_without_trying_separators_inside_it() -> None:
    checked: list[str] = []

    class Recording(IncrementalGrammarOracle):
        def check(self, text: str) -> Feedback:
            checked.append(text)
            return super().check(text)

    text = '{"id": 7, "data": "' + "QUJD" * 5000
    result = services.repair(text, Recording("json"))
    assert result.repairs[0].text == text + '"}'
    # a step that inserts a separator or closer at the end of a valid prefix
    # can only complete it, which completion did: the hints try none
    assert not [seen for seen in checked if seen[:-1] == text and seen[-1] in ",:;)]}"]


def test_a_completion_closes_two_brackets_when_it_closes_two_more_than_it_opens() -> None:
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None

    def counted(text: str) -> bool:
        kinds = [found.lastgroup for found in brackets.pattern.finditer(text)]
        return kinds.count("c") - kinds.count("o") >= 2

    rng = random.Random(4)
    for _ in range(3000):
        text = "".join(rng.choice('{}[]" ,a') for _ in range(rng.randrange(24)))
        assert closes_two(brackets, text) == counted(text), text
    assert closes_two(brackets, "}]" * 10_000)


def _proposing(repair: Repair | None, ran: list[str], name: str) -> Run:
    def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
        ran.append(name)
        return Candidates(() if repair is None else (repair,), None, RunStats(1, 0.0))

    return run


def _edited(text: str, edit: Edit) -> Repair:
    repaired = text[: edit.offset] + edit.insert + text[edit.offset + edit.delete :]
    return Repair(repaired, (edit,), "proposed", True, max(edit.delete, len(edit.insert)))


def _pipeline_with(
    monkeypatch: pytest.MonkeyPatch, first: Repair, ran: list[str]
) -> services.RepairAlgorithm:
    generators = (
        Generator("first", 1, _proposing(first, ran, "first")),
        Generator("second", 1, _proposing(None, ran, "second")),
    )
    algorithm = services.RepairAlgorithm("test", "", generators)
    monkeypatch.setitem(services.REPAIR_ALGORITHMS, "test", algorithm)
    return algorithm


def _json_oracle() -> CountingOracle:
    def accepts(text: str) -> bool:
        try:
            json.loads(text)
        except ValueError:
            return False
        return True

    return CountingOracle(accepts)


def test_a_settled_repair_stops_the_later_generators(monkeypatch: pytest.MonkeyPatch) -> None:
    # one character inserted, every token kept: no later repair can be better
    text = "[1 2]"
    ran: list[str] = []
    _pipeline_with(monkeypatch, _edited(text, Edit(2, 0, ",")), ran)
    oracle = _json_oracle()
    result = services.repair(text, oracle, algorithm="test", budget=Budget(max_tests=100))
    assert ran == ["first"]
    assert [r.text for r in result.repairs] == ["[1, 2]"]
    # the input once, the repair once (verified when it settled, not again)
    assert oracle.seen == [text, "[1, 2]"]
    assert result.stats.tests == 2


@pytest.mark.parametrize(
    ("text", "edit", "why"),
    [
        ("[1 2]", Edit(2, 0, ", "), "two characters: a one-character repair may follow"),
        ("[1 2]", Edit(2, 1, ""), "the blank deleted merges 1 and 2 into 12: a token changed"),
        ("[1,]", Edit(3, 0, "0"), "a value invented"),
    ],
)
def test_a_repair_that_is_not_settled_lets_the_later_generators_run(
    monkeypatch: pytest.MonkeyPatch, text: str, edit: Edit, why: str
) -> None:
    ran: list[str] = []
    first = _edited(text, edit)
    _pipeline_with(monkeypatch, first, ran)
    oracle = _json_oracle()
    assert oracle.accepts(first.text)
    result = services.repair(text, oracle, algorithm="test", budget=Budget(max_tests=100))
    assert ran == ["first", "second"], why
    assert [r.text for r in result.repairs] == [first.text]
    assert oracle.seen == [text, first.text]  # each repair verified once


def test_a_repair_the_whole_oracle_rejects_does_not_settle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "[1 2]"
    ran: list[str] = []
    _pipeline_with(monkeypatch, _edited(text, Edit(2, 0, ";")), ran)
    oracle = _json_oracle()
    result = services.repair(text, oracle, algorithm="test", budget=Budget(max_tests=100))
    assert ran == ["first", "second"]
    assert result.repairs == ()
    assert oracle.seen == [text, "[1; 2]"]


def _count_auto_generators(
    monkeypatch: pytest.MonkeyPatch, ran: list[str], *later: Generator
) -> None:
    """The auto strategy's generators, each noting its name in ``ran`` when it
    runs, then ``later``."""
    auto = services.REPAIR_ALGORITHMS["auto"]

    def counted(generator: Generator) -> Generator:
        def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
            ran.append(generator.name)
            return generator.run(context, found, budget)

        return replace(generator, run=run)

    generators = (*(counted(g) for g in auto.generators), *later)
    monkeypatch.setitem(services.REPAIR_ALGORITHMS, "auto", replace(auto, generators=generators))


def test_a_byte_with_no_reading_as_text_overwritten_by_its_character_settles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a quote flipped to a byte that no encoding reads as text here: every
    # repair removes the byte, so FSynth's quote back in its place loses
    # nothing another could keep, and the search after it does not run
    ran: list[str] = []
    _count_auto_generators(monkeypatch, ran)
    text = decode(b'{"a": 1, "b\x81: 2, "c": 3}\n', encoding="utf-8").text
    result = services.repair(text, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == '{"a": 1, "b": 2, "c": 3}\n'
    assert ran[-1] == "fsynth"


def test_a_later_generator_that_reaches_the_time_cap_loses_no_repair_found_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = work_clock(monkeypatch)
    text = "[1,]"
    ran: list[str] = []

    def long(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
        ran.append("long")
        clock.advance(60.0)  # a search that runs out the whole time cap
        return Candidates((), None, RunStats(1, 60.0, True, TIME_CAP_REACHED))

    generators = (
        Generator("first", 1, _proposing(_edited(text, Edit(3, 0, "0")), ran, "first")),
        Generator("long", 1, long),
    )
    algorithm = services.RepairAlgorithm("test", "", generators)
    monkeypatch.setitem(services.REPAIR_ALGORITHMS, "test", algorithm)
    budget = Budget(timeout_s=10.0, max_tests=100)
    result = services.repair(text, _json_oracle(), algorithm="test", budget=budget)
    assert ran == ["first", "long"]  # the invented value settles nothing
    assert [r.text for r in result.repairs] == ["[1,0]"]
    assert result.stats.stop_reason == TIME_CAP_REACHED


def test_a_repair_its_generator_verified_is_kept_when_that_generator_reaches_the_time_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finished repair the whole oracle accepted is an answer, whatever
    the clock says after: the time cap is reported, not a reason to drop it.
    One the generator did not check is checked only while the cap lasts."""
    clock = work_clock(monkeypatch)
    text = "[1 2 3]"  # two edits: not settled, so checked only by the generator
    repair = Repair("[1, 2, 3]", (Edit(2, 0, ","), Edit(4, 0, ",")), "proposed", True, 2)

    def checked_then_capped(verified: bool) -> Run:
        def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
            clock.advance(60.0)  # a sweep that ends after the whole time cap
            cost = RunStats(1, 60.0, True, TIME_CAP_REACHED)
            return Candidates((repair,), None, cost, verified=verified)

        return run

    for verified, kept in ((True, ["[1, 2, 3]"]), (False, [])):
        generators = (Generator("capped", 1, checked_then_capped(verified)),)
        algorithm = services.RepairAlgorithm("test", "", generators)
        monkeypatch.setitem(services.REPAIR_ALGORITHMS, "test", algorithm)
        oracle = _json_oracle()
        budget = Budget(timeout_s=10.0, max_tests=100)
        result = services.repair(text, oracle, algorithm="test", budget=budget)
        assert [r.text for r in result.repairs] == kept
        assert result.stats.stop_reason == TIME_CAP_REACHED
        assert "[1, 2, 3]" not in oracle.seen  # not checked again past the cap


def test_after_a_settled_repair_only_the_generators_that_break_ties_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[str] = []
    later = Generator("later", 1, _proposing(None, ran, "later"))
    _count_auto_generators(monkeypatch, ran, later)
    # completion closes the list with one character, every token kept: settled;
    # layout still runs, and its repair (the doubled opener removed, as the
    # indentation says) equals it by the key and wins the tie
    result = services.repair("[[1, 2]\n", IncrementalGrammarOracle("json"))
    assert [r.text for r in result.repairs[:2]] == ["[1, 2]\n", "[[1, 2]]\n"]
    assert ran == ["redecode", "completion", "hints", "layout"]
    ran.clear()
    # two closers: not settled, every wanted generator runs
    result = services.repair('{"a": [1, 2', IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == '{"a": [1, 2]}'
    assert ran[-1] == "later"


def test_a_repair_that_divides_a_value_does_not_settle() -> None:
    # `TODO: check this value` inserts one character and keeps every token,
    # but divides a value: a later generator restores the comment marker
    text = 'image: "redoxer"\nTODO check this value\n\nstages:\n  - build\n'
    result = services.repair(text, IncrementalGrammarOracle("yaml"), top=10)
    texts = [r.text for r in result.repairs]
    assert text.replace("TODO", "TODO:") in texts
    assert text.replace("TODO", "# TODO") in texts


def test_a_list_cut_off_after_its_separator_is_closed_not_given_an_invented_element() -> None:
    oracle = IncrementalGrammarOracle("json")
    for text, expected in [
        ('{"id": 7, "tags": ["x", "y",', '{"id": 7, "tags": ["x", "y"]}'),
        ('{"id": 7,\n', '{"id": 7}\n'),  # not an invented `"": null` member
    ]:
        assert services.repair(text, oracle).repairs[0].text == expected
    # a value cut off after its key's colon gets the grammar's filler
    assert services.repair('{"id":', oracle).repairs[0].text == '{"id":null}'


def test_an_incorrect_input_is_searched_until_a_repair_does_the_data_no_harm() -> None:
    oracle = IncrementalGrammarOracle("json")
    result = services.repair('{"a": 1 "b": 2}', oracle, top=10)
    assert result.repairs[0].distance == 1  # a comma
    # FSynth's comma keeps every token: hybrid ddmax (which deletes) is not
    # run; completion drops no rest of data (`"b": 2` is over the loss limit)
    assert {r.algorithm for r in result.repairs} == {"fsynth"}
    # a stray bracket: no repair found before it keeps every character, so
    # hybrid ddmax runs (with `1 2`, FSynth's `12` keeps them all, and it does not)
    harmed = services.repair('{"a": 1 ] "b": 2}', oracle, top=50)
    assert "ddmax-hybrid" in {r.algorithm for r in harmed.repairs}


def test_a_string_closed_at_the_end_is_not_taken_for_a_completion() -> None:
    oracle = IncrementalGrammarOracle("dot")
    text = 'digraph G {\n  a -> b [label="x]\n  b -> c;\n}\n'
    result = services.repair(text, oracle)
    # the lost closing quote goes back where the value ends, not after the
    # last line (which would swallow two statements into the label)
    assert result.repairs[0].text == text.replace('"x]', '"x"]')


def _ran(monkeypatch: pytest.MonkeyPatch, text: str, grammar: str) -> tuple[list[str], str]:
    """The auto generators that ran on ``text``, and its top repair."""
    ran: list[str] = []

    def recorded(generator: Generator) -> Generator:
        def run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
            ran.append(generator.name)
            return generator.run(context, found, budget)

        return replace(generator, run=run)

    auto = services.REPAIR_ALGORITHMS["auto"]
    recording = replace(auto, generators=tuple(map(recorded, auto.generators)))
    monkeypatch.setitem(services.REPAIR_ALGORITHMS, "auto", recording)
    result = services.repair(text, IncrementalGrammarOracle(grammar))
    return ran, result.repairs[0].text


def test_after_a_completion_only_what_may_still_help_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # cut off with two brackets open: one bracket edit (layout) cannot finish
    # it, and a search cannot keep more than the completion
    cut = '{"rows": [\n  {"id": 1, "tags": ["a", "b"]},\n  {"id": 2, "tags": ["c'
    ran, top = _ran(monkeypatch, cut, "json")
    assert ran == ["redecode", "completion", "hints"]
    assert top == cut + '"]}]}'
    # the last word may be foreign syntax that completion kept: a name and a
    # value without = between them (the hints look at the last lines)
    ran, top = _ran(monkeypatch, "[colors]\nback  #EDEDED", "ini")
    assert top == "[colors]\nback = #EDEDED"
    # a string run on over lines to the end: the hints look for its quote,
    # lost lines before
    lost = '(define (greet)\n  (print (concat hello" "world"))\n  (print "done"))\n\n(greet)\n'
    _, top = _ran(monkeypatch, lost, "sexp")
    assert top == lost.replace('hello"', '"hello"')
    # one closer missing, on lines: the layout puts it where the indentation
    # says (the closer's line after the last, which closes what lines above
    # opened, is tried too)
    lost = "(defun f (x)\n  (g x)\n\n(defun h (y)\n  (k y))\n"
    ran, top = _ran(monkeypatch, lost, "sexp")
    assert ran == ["redecode", "completion", "hints", "closer-line", "layout"]
    assert top == lost.replace("(g x)", "(g x))")


def test_a_stray_letter_between_a_key_and_its_value_is_not_read_as_inner_quotes() -> None:
    # not the key `width" q "40` (unescaped quotes) with an invented value
    text = '{ "sizes" : [ { "unit" : "cm" , "width" q "40" } ] }'
    result = services.repair(text, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == text.replace('" q "', '" : "')
    # without blanks: a lone quote glued to letters could be an inner one
    text = '{"unit":"cm","width"q"40"}'
    result = services.repair(text, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == text.replace('"q"', '":"')


def test_inner_quotes_glued_to_the_text_around_them_are_escaped() -> None:
    # quotes around a word in an address, and one inside a word: every
    # character kept, rather than the quotes deleted as stray
    text = '{"author": "Jo <"jo"@x.org>", "license": "M"IT"}'
    result = services.repair(text, IncrementalGrammarOracle("json"))
    assert json.loads(result.repairs[0].text) == {"author": 'Jo <"jo"@x.org>', "license": 'M"IT'}


def test_a_quote_lost_before_the_closing_brackets_goes_back_before_them() -> None:
    text = '{ "name" : "x" , "tags" : [ " ] }'
    result = services.repair(text, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == text.replace('" ]', '"" ]')


def test_a_garbled_tail_is_dropped_but_not_the_final_newline() -> None:
    oracle = IncrementalGrammarOracle("json")
    result = services.repair('{"a": 1 @@ x\n', oracle, algorithm="completion")
    assert {repair.text for repair in result.repairs} == {'{"a": 1 }\n', '{"a": null}\n'}


def test_a_lost_delimiter_that_needs_two_edits_beats_overwriting_a_value() -> None:
    oracle = IncrementalGrammarOracle("json")
    result = services.repair("[1 2 3]\n", oracle)
    # one edit could make it valid only by overwriting `2` with a comma
    assert result.repairs[0].text == "[1, 2, 3]\n"
    assert result.repairs[0].data_lost == 0


def test_an_inserted_comma_goes_where_a_person_types_it() -> None:
    oracle = IncrementalGrammarOracle("json")
    text = '{\n  "name": "Dave"\n  "age": 42\n}\n'
    best = services.repair(text, oracle).repairs[0]
    assert best.text == text.replace('"Dave"', '"Dave",')
    one_line = services.repair('{ "name": "Dave" "age": 42 }', oracle).repairs[0]
    assert one_line.text == '{ "name": "Dave", "age": 42 }'


def test_an_end_tag_from_the_name_stack_is_completed_and_invents_nothing() -> None:
    oracle = IncrementalGrammarOracle("xml")
    cut = '<?xml version="1.0"?>\n<catalog>\n  <plant zone="4">Columbine'
    completed = services.repair(cut, oracle)
    assert completed.repairs[0].text == cut + "</plant>\n</catalog>"
    assert {r.algorithm for r in completed.repairs} <= {"completion", "hints", "layout"}
    # an element left open inside the document: the hints close it with its own
    # name, which is no made-up data, so no search runs after them
    text = "<catalog>\n  <plant>Columbine\n  <plant>Yarrow</plant>\n</catalog>\n"
    result = services.repair(text, oracle)
    assert result.repairs[0].text == text.replace("Columbine", "Columbine</plant>")
    assert not {"fsynth", "ddmax-hybrid"} & {r.algorithm for r in result.repairs}
    assert result.stats.tests < 50


def test_a_quote_closed_at_the_end_of_a_table_leaves_no_short_record() -> None:
    text = 'id,name,score\n1,Ann,90\n2,"Bob,85\n3,Cy,70\n'
    result = services.repair(text, IncrementalGrammarOracle("csv"))
    rows = list(csv.reader(io.StringIO(result.repairs[0].text)))
    # closing the quote at the end would make `2,"Bob,85\n3,Cy,70"` one
    # record of two fields: every record keeps the header's three
    assert {len(row) for row in rows} == {3}


def test_a_field_with_inner_quotes_is_kept_whole_not_split_into_two_records() -> None:
    text = 'name,quote\nAnn,"He said "hi""\nBob,ok\n'
    top = services.repair(text, IncrementalGrammarOracle("csv")).repairs[0]
    assert top.text == 'name,quote\nAnn,"He said ""hi"""\nBob,ok\n'


def test_leading_zeros_are_kept_as_a_string_not_read_as_an_exponent() -> None:
    oracle = IncrementalGrammarOracle("json")
    assert services.repair('{"id": 0042}', oracle).repairs[0].text == '{"id": "0042"}'


@pytest.mark.parametrize(
    ("damaged", "expected"),
    [
        ('{"a": 1, "i": , "j": 2}', '{"a": 1, "i": null, "j": 2}'),
        ('{"a": [1, 2], "b": }', '{"a": [1, 2], "b": null}'),
    ],
)
def test_a_missing_value_is_filled_with_the_grammars_filler(damaged: str, expected: str) -> None:
    result = services.repair(damaged, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == expected


def test_a_program_oracle_s_guide_reads_the_input_once_per_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bundled grammar that guides a program's repairs scans the input
    once for all generators (completion, hints, layout, ranking)."""
    import json

    from inputmend.oracles.python import CallableOracle
    from inputmend.oracles.wrappers import GuidedOracle

    made: list[object] = []

    class Counted(IncrementalGrammarOracle):
        def __init__(self, *args: object, **kwargs: object) -> None:
            made.append(self)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "IncrementalGrammarOracle", Counted)
    oracle = GuidedOracle(CallableOracle(json.loads), "json")
    result = services.repair('{"a": [1, 2,', oracle)
    assert result.repairs[0].text == '{"a": [1, 2]}'
    assert len(made) == 1


@pytest.mark.parametrize(
    ("damaged", "original"),
    [
        # the opening quote of a phrase lost: the phrase is the string's text
        (
            '(defun greet ()\n  (write-line Good morning all"))\n',
            '(defun greet ()\n  (write-line "Good morning all"))\n',
        ),
        # the closing quote of a text that ends in a bracket lost at the line's end
        (
            '(defun show (x)\n  (format t "(~a)\n          x)\n  (format t "[~a]" x))\n',
            '(defun show (x)\n  (format t "(~a)"\n          x)\n  (format t "[~a]" x))\n',
        ),
    ],
)
def test_a_lost_quote_in_lisp_goes_back_where_the_text_begins_or_ends(
    damaged: str, original: str
) -> None:
    result = services.repair(damaged, IncrementalGrammarOracle("sexp"))
    assert result.repairs[0].text == original


@pytest.mark.parametrize("grammar", ["dot", "jsonc", "json", "tinyc"])
def test_a_comment_that_lost_its_end_ends_with_its_line_not_the_text(grammar: str) -> None:
    # a completion's `*/` at the end would turn the lines after it into comment
    body = {
        "dot": ("digraph {\n  a -> b; /* old", "\n  c -> d;\n}\n"),
        "jsonc": ('{\n  "a": 1, /* old', '\n  "b": 2\n}\n'),
        "json": ('{\n  "a": 1, /* old', '\n  "b": 2\n}\n'),
        "tinyc": ("{ x = 1; /* old", "\n  y = 2;\n}\n"),
    }
    head, rest = body[grammar]
    top = services.repair(head + rest, IncrementalGrammarOracle(grammar)).repairs[0]
    assert top.text.endswith(rest)
    assert top.text[: -len(rest)] in (head + " */", head.removesuffix(" /* old"))


@pytest.mark.parametrize(
    ("grammar", "cut", "completed"),
    [
        # a grammar that reads line breaks as tokens: the closer still goes
        # before the final line break, where the line ends
        ("toml", "a = [1, 2\n", "a = [1, 2]\n"),
        ("json", '{"a": [1, 2\n', '{"a": [1, 2]}\n'),
        ("sexp", "(defun f (x)\n  (+ x y\n", "(defun f (x)\n  (+ x y))\n"),
        # cut after a separator (and the next line's indentation): the
        # separator goes, the closers go under the lines that opened them
        ("json", '[\n  {\n    "ts": "2024",\n ', '[\n  {\n    "ts": "2024"\n  }\n]\n'),
        ("json", '{\n  "a": [\n    {"x": 1,\n', '{\n  "a": [\n    {"x": 1}\n  ]\n}\n'),
    ],
)
def test_closers_of_the_last_line_end_it(grammar: str, cut: str, completed: str) -> None:
    assert services.repair(cut, IncrementalGrammarOracle(grammar)).repairs[0].text == completed


def test_time_the_caller_spent_first_counts_against_the_budget() -> None:
    text = '{"a": [1, 2'
    result = services.repair(
        text, IncrementalGrammarOracle("json"), budget=Budget(timeout_s=5), spent_s=5.0
    )
    assert result.repairs == ()
    assert result.stats.stop_reason == TIME_CAP_REACHED
    assert services.repair(text, IncrementalGrammarOracle("json"), spent_s=5.0).repairs


@pytest.mark.parametrize(
    ("grammar", "damaged", "repaired"),
    [
        # items left out of shortened output: the ellipsis goes with its comma
        ("json", "[1, 2, 3, ...]\n", "[1, 2, 3]\n"),
        ("json", '{\n  "a": 1,\n  ...\n}\n', '{\n  "a": 1\n}\n'),
        ("json", "[1, 2, ...\n", "[1, 2]\n"),
        # an inline table that lost its `}` before the line's blanks: they stay
        ("toml", 'b = { key = "U" \n', 'b = { key = "U" }\n'),
        # a tab typed in a string is kept, as its escape
        ("json", '{"a": "x\ty"}\n', '{"a": "x\\ty"}\n'),
        ("yaml", "user: @admin\n", 'user: "@admin"\n'),
        # a value completed after a key, spaced as the file writes it
        ("json", '{"a": 1, "b"}\n', '{"a": 1, "b": null}\n'),
        ("json", "[1, 2, , 3]\n", "[1, 2, 3]\n"),
        # a block that lost its opener gets it where its header line ends
        ("dot", "digraph G\n  a -> b;\n}\n", "digraph G {\n  a -> b;\n}\n"),
        # an end tag that lost its slash
        (
            "xml",
            "<list>\n  <i>one<i>\n  <i>two</i>\n</list>\n",
            "<list>\n  <i>one</i>\n  <i>two</i>\n</list>\n",
        ),
        # a comment after the data goes with the blanks before it
        ("json", "[1, 2, 3] // end\n", "[1, 2, 3]\n"),
        # a list item that lost its indentation is no key above its block
        (
            "yaml",
            'python:\n- "3.9"\n  - "3.10"\n  - "3.11"\n',
            'python:\n  - "3.9"\n  - "3.10"\n  - "3.11"\n',
        ),
        # one line that lost its opening quote: the quote goes before the phrase
        ("sexp", '(write-line Hello World")\n', '(write-line "Hello World")\n'),
        # a block scalar's first line that lost its indentation is no key
        (
            "yaml",
            "steps:\n  - run: |\n    pip install x\n      pytest -q\n",
            "steps:\n  - run: |\n      pip install x\n      pytest -q\n",
        ),
        # a word after the data goes, the final line break stays
        ("json", '{"a": 1}\nundefined\n', '{"a": 1}\n'),
    ],
)
def test_invented_damage_gets_the_repair_a_person_would_choose(
    grammar: str, damaged: str, repaired: str
) -> None:
    assert services.repair(damaged, IncrementalGrammarOracle(grammar)).repairs[0].text == repaired


def test_a_string_cut_off_after_its_line_break_ends_with_it_again() -> None:
    oracle = IncrementalGrammarOracle("toml")
    for cut in ('doc = """\nhello\n', "doc = '''\nhello\n"):
        top = services.repair(cut, oracle).repairs[0]
        assert top.text == cut + cut[6:9] + "\n"  # not `"""` as the file's last line, unended


def test_a_string_cut_off_after_a_backslash_keeps_it() -> None:
    json = IncrementalGrammarOracle("json")
    assert services.repair('{"a": "dir\\', json).repairs[0].text == '{"a": "dir\\\\"}'


def test_a_short_document_escaped_as_a_string_is_read_back_whole() -> None:
    # FSynth's `{"a\"": 1}` removes one escape fewer, but reads the next
    # `\"` as the key's text: the same escape read two ways
    result = services.repair('{\\"a\\": 1}', IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == '{"a": 1}'
    assert result.repairs[0].algorithm == "unescape"


def test_a_quote_that_lost_its_backslash_gets_it_back_rather_than_going() -> None:
    text = '{"test": "echo "Error: no test specified\\" && exit 1", "n": 1}'
    result = services.repair(text, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == text.replace('echo "', 'echo \\"')
