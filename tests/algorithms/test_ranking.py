"""Ranking of repairs: what a person would choose first, then the file's own style."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import pairwise

import pytest

import inputmend
from inputmend.algorithms.ranking import StyleModel, rank, scored
from inputmend.core.loss import LossLimit
from inputmend.core.model import Edit, Repair, apply_edits, distance, edits_between
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import hints_beside
from inputmend.grammar.tolerant import GrammarLexer, TolerantLexer

LISP = "(defun f (x)\n  (g (h x)))\n\n(defun g (y)\n  (h (k y)))\n\n(print (f (g 1))\n"


def _lexer(name: str) -> TolerantLexer:
    """A bundled grammar's lexer, with its hints."""
    return GrammarLexer(CompiledGrammar.load(name), hints_beside(registry.bundled()[name].path))


@pytest.fixture(scope="module")
def json() -> TolerantLexer:
    return _lexer("json")


def _repair(original: str, *edits: Edit, algorithm: str = "fsynth") -> Repair:
    text = apply_edits(original, edits)
    return Repair(text, edits, algorithm, True, distance(original, text))


def _to(original: str, text: str, algorithm: str = "fsynth") -> Repair:
    return Repair(text, edits_between(original, text), algorithm, True, distance(original, text))


def _best(original: str, texts: list[str], lexer: TolerantLexer, hinted: str = "") -> str:
    def repairs(order: list[str]) -> list[Repair]:
        return [_to(original, text, "hints" if text == hinted else "fsynth") for text in order]

    ranked = rank(original, repairs(texts), 5, lexer=lexer)
    assert ranked == rank(original, repairs(texts[::-1]), 5, lexer=lexer)
    return ranked[0].text


@pytest.mark.parametrize(
    ("damaged", "wanted", "others"),
    [
        ("[1, 2,, 3]", "[1, 2, 3]", ["[1, 2,0, 3]", "[1, 20, 3]", "[1, 2]"]),
        ('{"a": [{"b": 1', '{"a": [{"b": 1}]}', ['{"a": []}', '{"a": [{"b": 1}]}  ']),
        ('["foo', '["foo"]', ['["fo"]', "[]"]),
        ("{'a': 2}", '{"a": 2}', ["{\"'a'\": 2}", "\"{'a': 2}\"", "{}"]),
        ("/* note */ {}", "{}", ['"/* note */ {}"', '"* note */ {"']),
        ('callback({"a": 1});', '{"a": 1}', ['"callback({a: 1});"', '"a" ']),
        ('Here is the data:\n{"a": 1}', '{"a": 1}', ['"Here is the data:{a: 1}"', '\n{"a": 1}']),
        ("[True, None]", "[true, null]", ['["True", "None"]', '"True, None"', "[ ]"]),
        ('{"a": }', '{"a": null}', ['{"a": 0}', '{"a": ""}', "{}"]),
    ],
)
def test_the_repair_that_keeps_the_data_comes_first(
    json: TolerantLexer, damaged: str, wanted: str, others: list[str]
) -> None:
    assert _best(damaged, [*others, wanted], json, hinted=wanted) == wanted


def test_a_lost_quote_and_a_trailing_comma_get_the_two_edit_fix(json: TolerantLexer) -> None:
    package = (
        '{\n  "name": "demo",\n  "scripts": {\n    "test": "jest,\n  },\n'
        '  "dependencies": {\n    "lodash": "4"\n  }\n}\n'
    )
    fixed = package.replace('"jest,', '"jest"')
    quoted = package.replace('"jest,', '"jest,"')  # a value changed
    moved = package.replace('"jest,\n  },', '"jest",').replace("  }\n}\n", "  }\n  }\n}\n")
    assert _best(package, [moved, quoted, fixed], json) == fixed


def test_ranked_repairs_carry_what_they_do_to_the_data(json: TolerantLexer) -> None:
    text = '{"a": [1, 2, 3], "b": "some longer text", "c": 4}}'
    keep, lose = _to(text, text[:-1]), _to(text, "{}")
    first, second = rank(text, [lose, keep], 5, lexer=json)
    assert first.text == text[:-1] and (first.data_lost, first.lossy) == (0, False)
    assert first.tokens_kept > 0
    assert second.text == "{}" and second.data_lost > 20 and second.lossy
    generous = rank(text, [lose], 1, lexer=json, limit=LossLimit(1.0, 1000))
    assert not generous[0].lossy


def test_a_lossy_repair_never_comes_first(json: TolerantLexer) -> None:
    text = '{"a": "x" "b": 1}'  # a lost comma; the wrapping changes more tokens
    lossy = _to(text, "{}")
    wrapped = _to(text, '{"a": "x\\" \\"b\\": 1"}')
    assert rank(text, [lossy, wrapped], 1, lexer=json)[0] is not lossy


def test_commenting_out_much_of_the_input_is_lossy() -> None:
    toml = _lexer("toml")
    text = "[pool]\nhosts = 'db1.example.org', 'db2.example.org', 'db3.example.org'\n"
    commented = _to(text, text.replace("hosts", "#hosts"))
    bracketed = _to(text, text.replace("= '", "= ['").replace("org'\n", "org']\n"))
    first, second = rank(text, [commented, bracketed], 2, lexer=toml)
    assert first.text == bracketed.text and not first.lossy
    assert second.data_lost > 40 and second.lossy


def test_a_line_of_prose_commented_whole_is_not_lossy_in_a_small_file() -> None:
    ini = _lexer("ini")
    text = "[server]\nthis is a comment\nport = 8080\n"
    commented = _to(text, "[server]\n; this is a comment\nport = 8080\n", "comment")
    divided = _to(text, "[server]\nthis = is a comment\nport = 8080\n", "hints")
    first, second = rank(text, [divided, commented], 2, lexer=ini)
    assert first.text == commented.text and (first.lossy, first.data_lost) == (False, 0)
    assert second.text == divided.text


def test_the_hints_proposal_comes_first_among_equals() -> None:
    ini = _lexer("ini")
    text = "[colors]\ncolor  #EDEDED\n"
    at_end = _to(text, "[colors]\ncolor  #EDEDED:\n")
    hinted = _to(text, "[colors]\ncolor = #EDEDED\n", "hints")
    assert rank(text, [at_end, hinted], 1, lexer=ini)[0].algorithm == "hints"


def test_the_column_count_decides_where_a_lost_quote_goes() -> None:
    csv = _lexer("csv")
    text = 'name,amount\n"Lee, Ann",1\nMüller, Zoë",2\n"Chen, Mei",3\n'
    right = text.replace("Müller", '"Müller')
    wrong = text.replace(' Zoë"', ' "Zoë"')
    assert _best(text, [wrong, right], csv) == right


@pytest.mark.parametrize(
    ("text", "wanted", "hinted", "others"),
    [
        # the whole phrase before the unpaired quote, not only its last word
        (
            '(say Good morning all")\n',
            '(say "Good morning all")\n',
            '(say Good morning "all")\n',
            ['(say Good morning all"")\n', '("say Good morning all")\n'],
        ),
        # but not back over a name: `nil` is code
        (
            '(format nil Sum: ~a" 3)\n',
            '(format nil "Sum: ~a" 3)\n',
            '(format nil Sum: "~a" 3)\n',
            ['(format "nil Sum: ~a" 3)\n'],
        ),
        # a lost closing quote: after the phrase, before the parameter
        (
            '(defun f (x)\n  (error "Bad value ~a x))\n',
            '(defun f (x)\n  (error "Bad value ~a" x))\n',
            '(defun f (x)\n  (error "Bad value ~a x"))\n',
            [
                '(defun f (x)\n  (error "Bad value" ~a x))\n',
                '(defun f (x)\n  (error "Bad" value ~a x))\n',
            ],
        ),
    ],
)
def test_a_lost_quote_goes_where_the_words_it_delimited_end(
    text: str, wanted: str, hinted: str, others: list[str]
) -> None:
    assert _best(text, [hinted, *others, wanted], _lexer("sexp"), hinted=hinted) == wanted


def test_a_long_line_is_read_from_a_token_start(json: TolerantLexer) -> None:
    pairs = ", ".join(f'"k{n}": "v {n}"' for n in range(60))  # blanks inside strings
    text = "{" + pairs + ', "z": None}'
    null, quoted = text.replace("None", "null"), text.replace("None", '"None"')
    starts = {text.index(f'"k{n}"') for n in range(60)}

    def token_start(offset: int) -> int | None:
        return max((s for s in starts if s <= offset), default=None)

    ranked = rank(
        text, [_to(text, quoted), _to(text, null)], 2, lexer=json, token_start=token_start
    )
    assert ranked[0].text == null and ranked[0].data_lost == 0


def test_a_text_the_hints_proposed_counts_as_hinted_whoever_found_it_first(
    json: TolerantLexer,
) -> None:
    text = '{"a": 1 "b": 2}'
    fixed = '{"a": 1, "b": 2}'
    found = [_to(text, fixed, "fsynth"), _to(text, fixed, "hints")]
    (only,) = scored(text, found, 5, lexer=json)
    assert only.repair.algorithm == "fsynth" and only.features.hinted == 1


def test_style_breaks_a_tie_in_favour_of_the_files_own_habits() -> None:
    end = len(LISP)
    after_newline = _repair(LISP, Edit(end, 0, ")"))
    before_newline = _repair(LISP, Edit(end - 1, 0, ")"))
    assert after_newline.distance == before_newline.distance == 1
    ranked = rank(LISP, [after_newline, before_newline], top=5)
    assert ranked[0].text.endswith("1)))\n")  # every form here ends on `))\n`
    assert ranked == rank(LISP, [before_newline, after_newline], top=5)  # order-independent


def test_a_habit_of_the_file_wins_over_the_order_found() -> None:
    text = '{"a" : 1 , "b" : 2 , "c" : 3 , "d" : 4 , "e" : 5 , "f" 6 }'
    colon = text.index('" 6') + 1
    spaced = _repair(text, Edit(colon + 1, 0, ": "))  # not a tie: distance 2
    tight = _repair(text, Edit(colon, 0, ":"))
    after_space = _repair(text, Edit(colon + 1, 0, ":"))
    ranked = rank(text, [tight, after_space, spaced], top=5)
    assert [r.text for r in ranked] == [
        text.replace('"f" 6', '"f" :6'),  # `" :` is how this file writes a pair
        text.replace('"f" 6', '"f": 6'),
        spaced.text,  # edit distance comes before style
    ]


def test_style_decides_only_among_equals() -> None:
    text = "(a b c) (d e) x)\n"
    closer = text.index(" x)") + 2
    model = StyleModel(text)
    drop = _repair(text, Edit(closer, 1))  # deletes a `)`: no stray copy
    keep = _repair(text, Edit(closer - 1, 0, "("))  # keeps it: `(x)`
    assert model.cost(text, drop.text, drop.edits) < model.cost(text, keep.text, keep.edits)
    assert rank(text, [drop, keep], top=1)[0].text == keep.text


def test_duplicates_are_removed_and_top_is_honoured() -> None:
    first = _repair(LISP, Edit(len(LISP), 0, ")"), algorithm="fsynth")
    again = _repair(LISP, Edit(len(LISP), 0, ")"), algorithm="ddmax")
    other = _repair(LISP, Edit(0, 1))
    ranked = rank(LISP, [first, again, other], top=5)
    assert [r.algorithm for r in ranked].count("ddmax") == 0
    assert len(ranked) == 2
    assert len(rank(LISP, [first, other], top=1)) == 1
    assert rank(LISP, [], top=3) == ()


def test_the_style_model_counts_every_trigram_bigram_and_character() -> None:
    rng = random.Random(6)
    for _ in range(500):
        text = "".join(rng.choice("()\n ab") for _ in range(rng.randrange(30)))
        model = StyleModel(text)
        assert model.trigrams == Counter(zip(text, text[1:], text[2:], strict=False))
        assert model.bigrams == Counter(pairwise(text)) and model.unigrams == Counter(text)
        assert model.alphabet == len(set(text)) + 1
        start = rng.randrange(len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        # each character after the (up to) two before it, in order
        one_by_one = 0.0
        for index in range(start, end):
            one_by_one += model._surprise_of(text[max(0, index - 2) : index + 1])
        assert model.surprise(text, start, end) == one_by_one


def test_cost_is_zero_without_edits_and_long_texts_are_sampled() -> None:
    model = StyleModel(LISP)
    assert model.cost(LISP, LISP, ()) == 0
    long_text = LISP * 2000  # 132 KB: the model is counted near the edits only
    edit = Edit(len(long_text), 0, ")")
    sampled = StyleModel.around(long_text, [edit])
    assert sampled.size < len(long_text)
    assert sampled.cost(long_text, long_text + ")", [edit]) > 0


def test_the_least_style_cost_is_at_most_the_cost() -> None:
    rng = random.Random(7)
    text = '{"name": "Ada", "tags": ["a", "b"], "age": 36}\n' * 3
    model = StyleModel(text)
    for _ in range(300):
        edits = sorted(
            (
                Edit(offset, rng.choice([0, 0, 1, 2]), rng.choice(["", '"', "}", ",", "xx", "]]"]))
                for offset in rng.sample(range(len(text) - 2), rng.randint(1, 3))
            ),
            key=lambda e: e.offset,
        )
        if any(a.end > b.offset for a, b in pairwise(edits)):
            continue
        repaired = apply_edits(text, edits)
        assert model.least_cost(text, edits) <= model.cost(text, repaired, edits)


def _counting(agreement: Callable[[str], int], counts: Counter[str]) -> Callable[[str], int]:
    """``agreement``, counting the texts it reads in ``counts``."""

    def layout(text: str) -> int:
        counts[text] += 1
        return agreement(text)

    return layout


def test_the_best_repairs_alone_are_the_whole_rankings_first() -> None:
    """Ranking only the best ``top`` reads the layout and style of a repair
    only where it may be among them, and gives the whole ranking's first
    ``top``, each with the same features and score."""
    from inputmend import services
    from inputmend.algorithms.features import bundled_weights
    from inputmend.algorithms.layout_window import windowed_agreement
    from inputmend.config.schema import OracleSpec
    from inputmend.grammar.syntax import syntax_of
    from inputmend.oracles.factory import build_oracle

    oracle = build_oracle(OracleSpec(grammar="json"))
    grammar = CompiledGrammar.load("json")
    lexer = _lexer("json")
    brackets = syntax_of(grammar).brackets
    weights = bundled_weights().of("json")
    assert brackets is not None
    rng = random.Random(3)
    records = [
        '{"id": 7, "name": "Ada Lovelace", "tags": ["math", "poetry"], "active": true}',
        '{"event": "login", "user": {"id": 12, "roles": ["admin"]}, "ok": false}',
        '[{"x": 1.5, "y": -2}, {"x": 3, "y": 4}, {"label": "origin"}]',
    ]
    compared = 0
    read = {True: 0, False: 0}
    for _ in range(12):
        record = rng.choice(records)
        at = rng.randrange(len(record))
        damaged = record[:at] + rng.choice(["", '"', ",", "}", "x"]) + record[at + 1 :]
        found = services.repair(damaged, oracle, top=10).repairs
        if len(found) < 3:
            continue
        for top in (1, 2):
            firsts = {}
            for only_top in (True, False):
                agreement = windowed_agreement(damaged, found, brackets)
                layouts = Counter[str]()
                firsts[only_top] = scored(
                    damaged,
                    found,
                    top,
                    lexer=lexer,
                    layout=_counting(agreement, layouts),
                    weights=weights,
                    only_top=only_top,
                )
                read[only_top] += layouts.total()
            assert firsts[True] == firsts[False][:top]
            compared += 1
    assert compared >= 6
    assert read[True] < read[False]


@pytest.mark.parametrize(
    ("fmt", "text", "kept"),
    [
        (
            "toml",
            '[tool.ruff]\nline-length = 100\ntarget-version = "py311"\nline-length = 100\n',
            '[tool.ruff]\nline-length = 100\ntarget-version = "py311"\n',
        ),
        (
            "xml",
            '<project>\n  <dep scope="test" optional="true" scope="test"/>\n</project>\n',
            '<project>\n  <dep scope="test" optional="true"/>\n</project>\n',
        ),
    ],
)
def test_a_definition_written_twice_loses_a_copy_not_a_letter_of_its_name(
    fmt: str, text: str, kept: str
) -> None:
    """A key or attribute defined twice: removing one copy loses nothing (the
    text keeps the other); renaming it (`ine-length`, `scopea`) invents a
    name, however small the edit; the later copy goes, so that the other
    stays where it stood."""
    result = inputmend.repair(text, grammar=fmt, top=3)
    assert result.repairs[0].text == kept
    assert not result.repairs[0].lossy
    assert result.repairs[1].algorithm == "repeated"


def test_a_repeated_line_is_data_where_the_syntax_refuses_the_text() -> None:
    """Only a rule beyond the syntax makes a repeated line a redefinition:
    two list items may hold the same entry, and a misindented one is
    indented back, not deleted."""
    text = "items:\n  - name: a\n    id: 1\n  - name: b\n     id: 1\n"
    top = inputmend.repair(text, grammar="yaml", top=1).repairs[0]
    assert top.text == "items:\n  - name: a\n    id: 1\n  - name: b\n    id: 1\n"
