"""The ranking's features and score: what is counted, how ties are broken,
and the weights file."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from inputmend.algorithms.features import (
    NAMES,
    Features,
    Weights,
    WeightsError,
    bundled_weights,
    features_of,
    lines_touched,
    load_weights,
    parse_weights,
)
from inputmend.algorithms.judgement import Judge, Judgement
from inputmend.algorithms.ranking import rank, scored
from inputmend.core.model import Edit, Repair, apply_edits, distance, edits_between
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import hints_beside
from inputmend.grammar.tolerant import GenericLexer, GrammarLexer, TolerantLexer
from inputmend.repairs.generators.unescape import unescaping


@pytest.fixture(scope="module")
def json() -> TolerantLexer:
    return GrammarLexer(CompiledGrammar.load("json"), hints_beside(registry.bundled()["json"].path))


def _to(original: str, text: str, algorithm: str = "fsynth") -> Repair:
    return Repair(text, edits_between(original, text), algorithm, True, distance(original, text))


def _features(
    original: str, text: str, lexer: TolerantLexer, algorithm: str = "fsynth"
) -> Features:
    (found,) = scored(original, [_to(original, text, algorithm)], 1, lexer=lexer)
    return found.features


def test_deleting_a_value_counts_data_lost_and_a_made_up_value_counts_invented(
    json: TolerantLexer,
) -> None:
    damaged = "[1, 2,, 3]"
    deleted = _features(damaged, "[1, 2]", json)  # ", 3" and a comma gone
    assert deleted.data_lost == 1 and deleted.invented == 0
    made_up = _features(damaged, "[1, 2,0, 3]", json)
    assert made_up.invented == 1 and made_up.data_lost == 0
    kept = _features(damaged, "[1, 2, 3]", json)
    assert (kept.data_lost, kept.invented, kept.changed, kept.edits) == (0, 0, 0, 1)


def test_a_document_swallowed_into_a_string_counts_its_tokens_changed(json: TolerantLexer) -> None:
    features = _features("{'a': 2}", "\"{'a': 2}\"", json)
    assert features.changed > 0 and features.data_lost == 0


def test_flags_read_the_repair_and_the_input() -> None:
    hinted = _features("[1,]\n", "[1]", GenericLexer(), algorithm="hints")
    assert hinted.hinted == 1 and hinted.break_lost == 1
    kept = _features("[1,]\n", "[1]\n", GenericLexer())
    assert kept.hinted == 0 and kept.break_lost == 0


def test_lines_touched_counts_each_line_an_edit_reaches_once() -> None:
    original = "a\nb\nc\nd\n"
    repair = Repair("", (Edit(0, 1, "x"), Edit(2, 3, ""), Edit(6, 0, "y")), "fsynth", True, 5)
    # line 0; lines 1 and 2 (the deleted "b\nc" spans them); line 3
    assert lines_touched(original, repair) == 4
    assert lines_touched(original, Repair("", (), "fsynth", True, 0)) == 0


def test_the_score_is_the_weighted_sum_in_feature_order() -> None:
    weights = Weights(tuple(float(i + 1) for i in range(len(NAMES))))
    features = Features(changed=2, inserted=3)
    expected = 2 * (NAMES.index("changed") + 1) + 3 * (NAMES.index("inserted") + 1)
    assert weights.score(features) == expected
    assert features.vector()[NAMES.index("inserted")] == 3


def test_equal_scores_are_ordered_by_fewer_edits_then_the_order_found() -> None:
    original = "[1 2]"
    zero = Weights((0.0,) * len(NAMES))  # every repair scores 0
    one = _to(original, "[1, 2]")
    two = Repair("[1,2,]", (Edit(2, 1, ","), Edit(4, 0, ",")), "fsynth", True, 2)
    three = _to(original, "[1,2]")
    for order in ([two, one, three], [three, two, one]):
        ranked = rank(original, order, 3, weights=zero)
        single = [r.text for r in order if len(r.edits) == 1]
        assert [r.text for r in ranked] == [*single, "[1,2,]"]


def test_the_loader_is_asked_about_the_top_only_and_its_verdict_weighs() -> None:
    original = "[1 2]"
    candidates = [_to(original, text) for text in ("[1, 2]", "[1]", "[2]", "[]")]
    asked: list[str] = []

    def rejects(text: str) -> bool:
        asked.append(text)
        return text == "[1, 2]"

    ranked = rank(original, candidates, 1, rejects=rejects)
    assert ranked[0].text != "[1, 2]"
    assert len(asked) == 2  # the first, rejected; then the next, accepted
    found = scored(original, candidates, 1, rejects=rejects)
    assert [s.repair.text for s in found if s.features.loader_rejects] == ["[1, 2]"]


def test_the_bundled_weights_name_every_feature() -> None:
    assert len(bundled_weights().default.values) == len(fields(Features))


def test_a_missing_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="cannot read the ranking weights"):
        load_weights(tmp_path / "ranking.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[weights\n", "not valid TOML"),
        ("[other]\n", "unknown table"),
        ("", "no \\[weights\\] table"),
        ("[weights]\nlossy = 1\n", "no weight for the feature"),
        ("[weights]\n" + "\n".join(f"{n} = 'x'" for n in NAMES), "not a finite number"),
        ("[weights]\n" + "\n".join(f"{n} = inf" for n in NAMES), "not a finite number"),
        ("[weights]\nnonsense = 1\n", "unknown feature"),
    ],
)
def test_a_corrupt_weights_file_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(WeightsError, match=message):
        parse_weights(text)


def test_a_format_overrides_only_the_weights_it_names() -> None:
    default = "\n".join(f"{name} = 1" for name in NAMES)
    sets = parse_weights(f"[weights]\n{default}\n[formats.csv]\nmisshapen = 5\n")
    assert sets.of("csv").as_dict()["misshapen"] == 5.0
    assert sets.of("csv").as_dict()["changed"] == 1.0
    assert sets.of("json") == sets.default == sets.of(None)


def test_lines_touched_reads_edits_in_any_order() -> None:
    """The edits are counted in offset order, each count starting where the
    last stopped: the same lines as counting each edit from the start."""
    original = "".join(f"line {i}\n" for i in range(50))
    edits = (Edit(70, 10, ""), Edit(3, 0, ","), Edit(140, 1, "x"), Edit(70, 0, "!"))
    expected: set[int] = set()
    for edit in edits:
        first = original.count("\n", 0, edit.offset)
        expected.update(range(first, first + original.count("\n", edit.offset, edit.end) + 1))
    assert lines_touched(original, Repair("", edits, "sweep", True, 12)) == len(expected)


def _lexer(name: str) -> TolerantLexer:
    return GrammarLexer(CompiledGrammar.load(name), hints_beside(registry.bundled()[name].path))


def test_text_turned_into_a_comment_counts_commented_not_data_lost() -> None:
    ini = _lexer("ini")
    damaged = "[s]\nThis line explains the section\na = 1\n"
    restored = _features(damaged, damaged.replace("This", "; This"), ini)
    assert restored.commented == len("Thislineexplainsthesection")
    assert (restored.data_lost, restored.changed) == (0, 0)
    yaml = _lexer("yaml")
    prose = "a: 1\nThis is prose\nb: 2\n"
    hidden = _features(prose, prose.replace("This", "# This"), yaml)
    assert (hidden.commented, hidden.data_lost, hidden.changed) == (len("Thisisprose"), 0, 0)
    # deleting the line instead loses its text
    deleted = _features(prose, "a: 1\nb: 2\n", yaml)
    assert deleted.commented == 0 and deleted.data_lost == len("Thisisprose")


def test_backslashes_of_escapes_removed_count_escapes_removed_not_data_lost(
    json: TolerantLexer,
) -> None:
    damaged = '{\\"a\\": 1, \\"b\\": \\"x\\"}'
    unescaped = _features(damaged, '{"a": 1, "b": "x"}', json)
    assert (unescaped.escapes_removed, unescaped.data_lost) == (6, 0)
    # a backslash deleted with the character it escaped is data lost
    damaged = '{"a": "x\\\\y"}'
    both = _features(damaged, '{"a": "xy"}', json)
    assert both.escapes_removed == 0 and both.data_lost > 0


def test_characters_written_as_code_points_and_read_back_are_escapes_removed(
    json: TolerantLexer,
) -> None:
    damaged = '{\\"name\\": \\"caf\\u00e9 \\ud83d\\ude00\\"}'
    edits = tuple(unescaping(damaged) or ())  # one edit per escape, as unescape reads them
    text = apply_edits(damaged, edits)
    assert text == '{"name": "caf\u00e9 \U0001f600"}'
    repair = Repair(text, edits, "unescape", True, distance(damaged, text))
    (found,) = scored(damaged, [repair], 1, lexer=json)
    read = found.features
    assert (read.escapes_removed, read.data_lost, read.invented) == (6, 0, 0)


def test_escapes_kept_beside_the_same_escape_removed_count_escapes_kept(
    json: TolerantLexer,
) -> None:
    damaged = '{\\"a\\": 1}'
    # one \" read as the key's opening quote, the next kept as its text
    mixed = _features(damaged, '{"a\\"": 1}', json)
    assert (mixed.escapes_removed, mixed.escapes_kept) == (1, 1)
    unescaped = _features(damaged, '{"a": 1}', json)
    assert (unescaped.escapes_removed, unescaped.escapes_kept) == (2, 0)
    # an escape of another kind kept is no escape read two ways
    other = '{"a": "x\\ny", \\"b": 1}'
    assert _features(other, '{"a": "x\\ny", "b\\": 1}', json).escapes_kept == 0


def test_a_name_and_brackets_around_a_kept_value_count_one_wrapper_removed(
    json: TolerantLexer,
) -> None:
    damaged = '{"_id": ObjectId("5f1d"), "n": 1}'
    unwrapped = _features(damaged, '{"_id": "5f1d", "n": 1}', json)
    assert (unwrapped.wrapper_removed, unwrapped.data_lost) == (1, 0)
    # the value deleted too: data lost, no wrapper
    dropped = _features(damaged, '{"_id": null, "n": 1}', json)
    assert dropped.wrapper_removed == 0 and dropped.data_lost > 0
    # the closing bracket kept: not a wrapper removed
    half = _features(damaged, '{"_id": "5f1d"), "n": 1}', json)
    assert half.wrapper_removed == 0


def test_punctuation_quoted_into_one_string_counts_quoted(json: TolerantLexer) -> None:
    damaged = '{\\"a\\": 1, \\"b\\": \\"x\\"}'
    wrapped = _features(damaged, '"' + damaged + '"', json)
    assert wrapped.quoted > 0 and wrapped.escapes_removed == 0
    assert _features(damaged, '{"a": 1, "b": "x"}', json).quoted == 0


def test_brackets_in_pairs_inside_a_quoted_text_are_text() -> None:
    yaml = _lexer("yaml")
    damaged = "a: 1\nurl: *{{ host }}\nb: 2\n"
    template = _features(damaged, damaged.replace("*{{ host }}", '"*{{ host }}"'), yaml)
    assert template.quoted == 0
    # a collection that opens the value is structure made a string
    flow = "a: 1\nurl: {b: c}, d\nb: 2\n"
    assert _features(flow, flow.replace("{b: c}, d", '"{b: c}, d"'), yaml).quoted > 0
    # an escaped document is structure, also after an escaped line break
    escaped = '\\n{\\"a\\": [1]}'
    assert _features(escaped, '"' + escaped + '"', _lexer("json")).quoted > 0


def test_punctuation_put_between_a_values_words_counts_divided() -> None:
    yaml = _lexer("yaml")
    prose = "a: 1\nThis is prose\nb: 2\n"
    keyed = _features(prose, prose.replace("This", "This:"), yaml)
    assert keyed.divided == 1 and keyed.commented == 0
    # punctuation inside a word splits the word (invented), not between words
    assert _features(prose, prose.replace("prose", "pro:se"), yaml).divided == 0


def test_the_words_after_a_divided_value_s_punctuation_count_phrase() -> None:
    yaml = _lexer("yaml")
    prose = "a: 1\nTODO check this value\nb: 2\n"
    keyed = _features(prose, prose.replace("TODO", "TODO:"), yaml)
    assert (keyed.divided, keyed.phrase) == (1, 2)
    lost = "a: 1\nruns-on ubuntu-latest\nb: 2\n"
    restored = _features(lost, lost.replace("runs-on", "runs-on:"), yaml)
    assert (restored.divided, restored.phrase) == (1, 0)
    # INI reads a line's first word as a name in context: the same holds
    ini = _lexer("ini")
    prose = "[s]\na = 1\nkeep in sync with production\nb = 2\n"
    keyed = _features(prose, prose.replace("keep", "keep ="), ini)
    assert (keyed.divided, keyed.phrase) == (1, 3)
    lost = "[s]\na = 1\nport 8080\nb = 2\n"
    assert _features(lost, lost.replace("port", "port ="), ini).phrase == 0


def test_a_line_commented_out_among_entries_it_reads_like_counts_entry_commented() -> None:
    yaml = _lexer("yaml")
    lost = 'comment:\n  layout "header, diff"\n  behavior: default\n  require_changes: no\n'
    hidden = _features(lost, lost.replace("  layout", "  # layout"), yaml)
    assert hidden.entry_commented == 2  # `"header,` and `diff"`
    assert _features(lost, lost.replace("layout", "layout:"), yaml).entry_commented == 0
    listed = "a: 1\ncomponents rustfmt, clippy\nb: 2\n"
    hidden = _features(listed, listed.replace("components", "# components"), yaml)
    assert hidden.entry_commented == 2
    # words that need no quotes are no evidence: a phrase or a value alike
    prose = "a: 1\nsee issue 42\nb: 2\n"
    assert _features(prose, prose.replace("see", "# see"), yaml).entry_commented == 0
    # a name written otherwise than the names beside it
    capital = 'a: 1\nReplace "your name"\nb: 2\n'
    assert _features(capital, capital.replace("Replace", "# Replace"), yaml).entry_commented == 0
    # a comment beside the line, or the names of blocks around it
    block = "a: 1\n# the ports\nports 80, 443\nb: 2\n"
    assert _features(block, block.replace("ports 80", "# ports 80"), yaml).entry_commented == 0
    between = "env:\n  A: 1\nports 80, 443\njobs:\n  b: 2\n"
    assert _features(between, between.replace("ports", "# ports"), yaml).entry_commented == 0
    # the block ends at a line indented less: the entries of another are no evidence
    nested = "a:\n  b: 1\nc: 2\n  ports 80, 443\n"
    assert _features(nested, nested.replace("  ports", "  # ports"), yaml).entry_commented == 0
    ini = _lexer("ini")
    lost = "[s]\na = 1\nports 80, 443\nb = 2\n"
    assert _features(lost, lost.replace("ports", "; ports"), ini).entry_commented == 2
    # the nearest names are the evidence: `Ports` uses capitals, they do not
    other = "[s]\nfollow_imports = silent\nPorts 80, 443\nstrict_optional = True\n"
    assert _features(other, other.replace("Ports", "; Ports"), ini).entry_commented == 0
    # a word is written as `validate_certs` is: of lower-case letters
    state = 'a:\n  validate_certs: "{{ x }}"\n  state "{{ y }}"\nb: 1\n'
    assert _features(state, state.replace("  state", "  # state"), yaml).entry_commented == 3
    # the marker put before the line's blanks comments it out as well
    assert _features(state, state.replace("  state", "#   state"), yaml).entry_commented == 3


def test_a_comment_whose_text_a_repair_makes_data_counts_changed() -> None:
    ini = _lexer("ini")
    damaged = "[s]\na = 1\n/* keep in sync */\nb = 2\n"
    keyed = _features(damaged, damaged.replace("/* ", "/* = "), ini)
    assert keyed.changed == 1
    restored = _features(damaged, damaged.replace("/*", "; /*"), ini)
    assert (restored.changed, restored.data_lost) == (0, 0)


def test_a_comment_after_text_on_its_line_counts_tail_commented() -> None:
    yaml = _lexer("yaml")
    damaged = "a:\n  version: *0.1\n  b: 2\n"
    cut = _features(damaged, damaged.replace("*0.1", "#*0.1"), yaml)
    assert cut.commented > 0 and cut.tail_commented == cut.commented
    prose = "a: 1\nThis is prose\nb: 2\n"
    whole = _features(prose, prose.replace("This", "# This"), yaml)
    assert whole.commented == len("Thisisprose") and whole.tail_commented == 0
    # YAML's layout lexeme takes in the line break after `a: 1` and the
    # comment lines after it: the new comment still has its line to itself
    noted = "a: 1\n# note\nThis is prose\nb: 2\n"
    below = _features(noted, noted.replace("This", "# This"), yaml)
    assert below.commented == len("Thisisprose") and below.tail_commented == 0


def test_a_comment_that_takes_in_the_inputs_comment_on_its_line_hides_its_head() -> None:
    toml = _lexer("toml")
    # the input writes where the line's comment begins: before it is data
    item = 'a = [\n    "x",\n    param #1,\n    "y",\n]\n'
    hidden = _features(item, item.replace("param", "# param"), toml)
    assert hidden.commented == len("param") and hidden.tail_commented == hidden.commented
    quoted = _features(item, item.replace("param #1", '"param #1"'), toml)
    assert quoted.commented == 0 and quoted.tail_commented == 0
    # a line with no comment of its own is prose that lost its marker
    prose = "a = 1\nTODO check this value\nb = 2\n"
    whole = _features(prose, prose.replace("TODO", "# TODO"), toml)
    assert whole.commented == len("TODOcheckthisvalue") and whole.tail_commented == 0


def test_punctuation_inserted_into_a_value_counts_punctuated_not_its_quotes() -> None:
    yaml = _lexer("yaml")
    damaged = "a:\n  python: *3.12\n  b: 2\n"
    for prefix in ("-", "$", ":"):
        spliced = _features(damaged, damaged.replace("*3.12", prefix + "*3.12"), yaml)
        assert (spliced.punctuated, spliced.invented) == (1, 0)
    for quote in "\"'":
        quoted = _features(damaged, damaged.replace("*3.12", f"{quote}*3.12{quote}"), yaml)
        assert quoted.punctuated == 0
    listed = "a:\n  - *x/y\n  - 'v*\n  - '{{ c }}\n"
    assert _features(listed, listed.replace("*x/y", '"*x/y"'), yaml).punctuated == 0
    assert _features(listed, listed.replace("'v*", "'v*'"), yaml).punctuated == 0
    assert _features(listed, listed.replace("}}", "}}'"), yaml).punctuated == 0
    # inside the value, not where a quote may open it
    assert _features(listed, listed.replace("x/y", "x/'y"), yaml).punctuated == 1
    slashed = _features("d: &/\n", "d: /&/\n", yaml)  # a slash is no quote
    assert slashed.punctuated == 1
    json = _lexer("json")
    escaped = _features('{"a": "say "hi""}', '{"a": "say \\"hi\\""}', json)
    closed = _features('{"a": "abc}', '{"a": "abc"}', json)
    assert escaped.punctuated == closed.punctuated == 0
    assert _features("['it's']", "['it''s']", _lexer("yaml")).punctuated == 0
    header = "section]\na = 1\n"  # read as one token, in its own brackets
    assert _features(header, "[" + header, _lexer("ini")).punctuated == 0
    flow = "a: 1\nb: [1, 2\n"  # `1, 2]` read as one plain scalar
    assert _features(flow, "a: 1\nb: [1, 2]\n", yaml).punctuated == 0


def test_adjacent_fields_quoted_as_one_count_joined_once_not_quoted() -> None:
    csv = _lexer("csv")
    joined = _features("5,Eve,6,7\n", '5,Eve,"6,7"\n', csv)
    assert (joined.joined, joined.quoted) == (1, 0)
    merged = _features("5,Eve,6,7\n", "5,Eve,67\n", csv)
    weights = bundled_weights().of("csv")
    assert weights.score(joined) < weights.score(merged)


CARS = "make,mpg,cyl\nMazda RX4,21.0,6\nDatsun 710,22.8,4\nValiant,18.1,6\n"


def test_values_back_under_their_columns_count_below_zero_misplaced() -> None:
    csv = _lexer("csv")
    damaged = CARS + "Honda, Civic,30.4,4\n"
    quoted = _features(damaged, CARS + '"Honda, Civic",30.4,4\n', csv)
    assert quoted.misplaced < 0  # ` Civic` was text in the number column
    elsewhere = _features(damaged, CARS + 'Honda, Civic,"30.4,4"\n', csv)
    assert elsewhere.misplaced >= 0
    weights = bundled_weights().of("csv")
    assert weights.score(quoted) < weights.score(elsewhere)


def test_an_empty_field_put_where_the_value_was_lost_keeps_the_columns() -> None:
    csv = _lexer("csv")
    damaged = CARS + "Honda Civic,4\n"
    right = _features(damaged, CARS + "Honda Civic,,4\n", csv).misplaced
    assert right == -1  # 4 was read as mpg, a decimal; now it is cyl, an integer
    assert _features(damaged, CARS + "Honda Civic,4,\n", csv).misplaced == 0  # 4 as mpg still
    assert _features(damaged, CARS + ",Honda Civic,4\n", csv).misplaced == 0  # a name as mpg


def test_values_that_meet_their_column_s_value_in_the_records_beside_are_in_place() -> None:
    csv = _lexer("csv")
    rows = "id,a,b,c\n1,0.51,0.23,0.40\n2,0.72,0.25,0.40\n"
    below = "4,0.64,0.27,0.40\n"
    damaged = rows + "3,0.93,0.40\n" + below  # a value of a or b lost: every shape alike
    right = _features(damaged, rows + "3,0.93,,0.40\n" + below, csv).misplaced
    assert right < 0  # 0.40 under c again, as in the records beside
    assert _features(damaged, rows + "3,,0.93,0.40\n" + below, csv).misplaced == right
    assert _features(damaged, rows + "3,0.93,0.40,\n" + below, csv).misplaced == 0


def test_records_kept_both_are_not_compared_with_each_other() -> None:
    csv = _lexer("csv")
    rows = "id,a,b\n1,5,x\n"
    damaged = rows + "<<<<<<< HEAD\n2,5,x\n=======\n2,6,x\n>>>>>>> other\n3,7,y\n"
    both = _features(damaged, rows + "2,5,x\n2,6,x\n3,7,y\n", csv, algorithm="conflicts")
    ours = _features(damaged, rows + "2,5,x\n3,7,y\n", csv, algorithm="conflicts")
    assert both.misplaced == ours.misplaced  # alike rows, not a record's columns


def test_a_number_with_another_count_of_digits_than_its_column_s_is_misplaced() -> None:
    csv = _lexer("csv")
    rows = "year,births,rate\n1958,4255000,24.3\n1959,4245000,24.0\n1960,4257850,23.7\n"
    damaged = rows + "4268326,23.3\n"  # the year lost: both values are integers
    right = _features(damaged, rows + ",4268326,23.3\n", csv).misplaced
    wrong = _features(damaged, rows + "4268326,,23.3\n", csv).misplaced
    assert right < wrong  # seven digits are no year


def test_words_after_a_blank_are_another_shape_than_a_columns_words() -> None:
    csv = _lexer("csv")
    rows = "code,name,slug\nao,Angola,angola\nar,Argentina,argentina\nat,Austria,austria\n"
    damaged = rows + "ag,Antigua, and Barbuda,antigua-and-barbuda\n"
    meant = _features(damaged, rows + 'ag,"Antigua, and Barbuda",antigua-and-barbuda\n', csv)
    other = _features(damaged, rows + '"ag,Antigua", and Barbuda,antigua-and-barbuda\n', csv)
    assert meant.misplaced < other.misplaced  # ` and Barbuda` is no slug


def test_without_fields_hints_nothing_is_misplaced() -> None:
    yaml = _lexer("yaml")
    assert _features("a: 1\nb: x\n", "a: 1\nb: 'x'\n", yaml).misplaced == 0


def test_lines_inserted_on_their_own_rewrite_no_line_and_their_layout_is_no_distance() -> None:
    text = "<a>\n  <b>\n    <c/>\n</a>\n"
    own = apply_edits(text, (Edit(text.index("</a>"), 0, "  </b>\n"),))
    end_of_line = apply_edits(text, (Edit(text.index("\n</a>"), 0, "</b>"),))
    features = [
        features_of(
            text, _to(text, repaired), Judgement(), lossy=False, resolved=False, hinted=False
        )
        for repaired in (own, end_of_line)
    ]
    assert [f.rewritten for f in features] == [0, 1]
    assert [f.lines for f in features] == [1, 1]
    assert features[0].distance == features[1].distance == len("</b>")


def test_whole_lines_deleted_and_blank_lines_filled_rewrite_only_lines_with_text() -> None:
    text = "prose\n{}\n  \n"
    deleted = _to(text, text.removeprefix("prose\n"))
    filled = _to(text, text.replace("  \n", "  x\n"))
    assert lines_touched(text, deleted, whole_lines=False) == 1
    assert lines_touched(text, filled, whole_lines=False) == 0
    assert lines_touched(text, deleted) == 2


def test_a_line_break_replaced_between_two_lines_of_text_rewrites_both() -> None:
    text = "[db]\nFIXME\nport = 1\n"
    joined = _to(text, "[db]\nFIXME.port = 1\n")
    commented = _to(text, "[db]\n#FIXME\nport = 1\n")
    assert lines_touched(text, joined, whole_lines=False) == 2
    assert lines_touched(text, commented, whole_lines=False) == 1
    # a line deleted whole, or its tail with the line break, leaves the next one
    assert lines_touched(text, _to(text, "[db]\nport = 1\n"), whole_lines=False) == 1
    tail = _to("a = 1 junk\n\nb = 2\n", "a = 1\nb = 2\n")
    assert lines_touched("a = 1 junk\n\nb = 2\n", tail, whole_lines=False) == 1


def test_a_value_of_a_form_its_column_never_had_is_misplaced() -> None:
    csv = _lexer("csv")
    rows = "a,b,c\n" + "".join(f"0.0{n}21,{7 * n}.1{n}553,{3 * n}.3{n}\n" for n in range(5))
    damaged = rows + "0.0821,1.38\n"  # b lost: decimals, no digits pattern shared by 9 in 10
    right = _features(damaged, rows + "0.0821,,1.38\n", csv).misplaced
    wrong = _features(damaged, rows + "0.0821,1.38,\n", csv).misplaced
    assert right < wrong  # two places after the point are c's, not b's


def test_only_a_record_of_the_tables_width_is_judged_by_forms() -> None:
    csv = _lexer("csv")
    rows = "a,b,c\n" + "".join(f"x{n},AB,{n}.5\n" for n in range(5))
    judge = Judge(rows + "y7,line one\n", csv)
    judge.column_shapes()  # reads the columns' forms
    assert judge.misfits(["y7", "line one", "1.5"]) == 1  # words where only codes stood
    # cut short or a field lost: which column a value stands in is the question
    assert judge.misfits(["y7", "line one"]) == 0


def test_of_places_alike_for_a_lost_field_the_one_where_values_fit_their_columns_wins() -> None:
    csv = _lexer("csv")
    pairs = zip("0032013", "4456456", strict=True)
    rows = "".join(f"2020-01-0{i + 1} 00:00,{s},{n}\n" for i, (s, n) in enumerate(pairs))
    damaged = "time,solar,load\n" + rows + "2020-01-09 00:00,2\n"
    lost_load = _features(damaged, damaged[:-1] + ",\n", csv)
    lost_solar = _features(damaged, damaged.replace("00,2\n", "00,,2\n"), csv)
    assert lost_load.misplaced == lost_solar.misplaced  # no shape tells them apart
    assert 0 < lost_load.unaligned < lost_solar.unaligned  # 2 is among the solar values
    weights = bundled_weights().of("csv")
    assert weights.score(lost_load) < weights.score(lost_solar)


def test_which_field_is_dropped_is_the_columns_question_before_its_length() -> None:
    csv = _lexer("csv")
    rows = "a,b,c\n" + "".join(f"{n},{2 * n},{n % 2}\n" for n in range(8))
    damaged = rows + "8,16,N/A,0\n"  # a junk value put into the record
    junk = _features(damaged, rows + "8,16,0\n", csv)
    value = _features(damaged, rows + "8,16,N/A\n", csv)  # one character dropped, not three
    assert (junk.dropped, junk.data_lost) == (value.dropped, value.data_lost) == (1, 0)
    assert junk.misplaced < value.misplaced and junk.distance > value.distance
