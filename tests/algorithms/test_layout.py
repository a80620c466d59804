"""Layout-guided structural repairs: brackets where the indentation says."""

from __future__ import annotations

import json

import pytest

from inputmend import services
from inputmend.algorithms.layout import (
    POLL_LINES,
    _closing_breaks,
    layout_agreement,
    layout_edits,
    layout_of,
    layout_repairs,
    quote_edits,
)
from inputmend.core.budget import Budget, BudgetExhausted
from inputmend.core.model import Edit, apply_edits
from inputmend.core.oracle import Feedback, Verdict
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.syntax import brackets_of
from inputmend.oracles.incremental import IncrementalGrammarOracle

LISP = """\
(defun foo (x)
  (let ((a 1))
    (bar a x)))

(defun baz (y)
  "a docstring
(with a parenthesis)"
  (when y
    (print y)))
"""

DOCUMENT = json.dumps(
    {"name": "app", "scripts": {"test": "jest", "build": "tsc"}, "tags": ["a", "b"], "n": 1},
    indent=2,
)


def test_bracket_pairs_come_from_the_grammar() -> None:
    pairs = {
        name: brackets_of(CompiledGrammar.load(name)) for name in ("json", "sexp", "dot", "ini")
    }
    assert pairs["json"] is not None and set(pairs["json"].openers) == {"{", "["}
    assert pairs["sexp"] is not None and set(pairs["sexp"].openers) == {"(", "#("}
    assert pairs["dot"] is not None and pairs["dot"].openers == ("{",)  # not [attributes]
    assert pairs["ini"] is None  # a [section] header does not nest


def test_lines_know_their_depth_and_skip_strings() -> None:
    brackets = brackets_of(CompiledGrammar.load("sexp"))
    assert brackets is not None
    lines = layout_of(LISP, brackets).lines
    assert [(line.indent, line.depth) for line in lines] == [
        (0, 0),
        (2, 1),
        (4, 2),
        (0, 0),
        (2, 1),  # the docstring; its second line starts inside it and is left out
        (2, 1),
        (4, 2),
        (0, 0),  # the end of the text
    ]
    assert layout_agreement(LISP, brackets) == 0
    assert layout_agreement(LISP.replace("(defun baz", "defun baz"), brackets) < 0


def test_a_token_cut_off_on_the_last_line_hides_its_brackets() -> None:
    brackets = brackets_of(CompiledGrammar.load("sexp"))
    assert brackets is not None
    text = '(defun f (x)\n  (print "see (x) and [y'
    layout = layout_of(text, brackets, unfinished=text.index('"see'))
    assert [bracket for _, bracket in layout.brackets] == ["(", "(", ")", "("]
    assert len(layout_of(text, brackets).brackets) == 6  # read as a whole: its `(x)` count


def test_brackets_between_brackets_are_read_as_the_rules_inside_them_read() -> None:
    # a YAML plain scalar holds `]` and `,` in a block (`a[0]`), not in `[...]`
    brackets = brackets_of(CompiledGrammar.load("yaml"))
    assert brackets is not None
    text = "x: a[0]\nports: [80, 443]\nenv: {a: [1, 2], b: c}\nnext: 1\n"
    found = [m.group() for m in brackets.finditer(text) if m.lastgroup != "s"]
    assert found == ["[", "]", "{", "[", "]", "}"]
    assert layout_agreement(text, brackets) == 0
    # where the rules inside read as those outside, one pattern does
    json_brackets = brackets_of(CompiledGrammar.load("json"))
    assert json_brackets is not None and json_brackets.inside is None


def test_a_yaml_flow_sequence_is_closed_on_its_line() -> None:
    text = "a: 1\nb: [1, 2\n"
    top = services.repair(text, IncrementalGrammarOracle("yaml")).repairs[0]
    assert top.text == "a: 1\nb: [1, 2]\n"


def test_a_lost_opener_is_put_back_where_the_layout_says() -> None:
    oracle = IncrementalGrammarOracle("sexp")
    broken = LISP.replace("(defun baz", "defun baz")
    result = services.repair(broken, oracle)
    assert result.repairs[0].text == LISP
    brackets = brackets_of(oracle.grammar)
    assert brackets is not None
    found = layout_repairs(broken, oracle, brackets=brackets)
    assert LISP in [repair.text for repair in found.repairs]


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda text: text.replace('"tsc"\n  }', '"tsc"\n  ', 1), "a closer lost mid-document"),
        (lambda text: text.replace('"tags": [', '"tags": [[', 1), "a doubled opener"),
    ],
)
def test_json_nesting_follows_the_indentation(damage: object, why: str) -> None:
    oracle = IncrementalGrammarOracle("json")
    broken = damage(DOCUMENT)  # type: ignore[operator]
    assert not oracle.check(broken).valid, why
    result = services.repair(broken, oracle)
    assert json.loads(result.repairs[0].text) == json.loads(DOCUMENT), why


def test_one_line_documents_have_no_layout_to_follow() -> None:
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None
    assert layout_agreement('{"a": [1, {"b": 2}]}', brackets) == 0


def _top(text: str, grammar: str) -> str:
    result = services.repair(text, IncrementalGrammarOracle(grammar))
    assert result.repairs
    return result.repairs[0].text


LISP_FORMS = """\
(defun evens (nums)
  (remove-if-not #'evenp nums))

(defun odds (nums)
  (remove-if #'evenp nums))
"""


def test_lisp_closers_follow_the_indentation() -> None:
    # the body is indented under `(defun`: the line before may not close it
    broken = LISP_FORMS.replace("odds (nums)", "odds nums)")
    assert _top(broken, "sexp") == LISP_FORMS
    brackets = brackets_of(CompiledGrammar.load("sexp"))
    assert brackets is not None
    misplaced = LISP_FORMS.replace("(defun odds (nums)", "((defun odds nums)")
    assert layout_agreement(LISP_FORMS, brackets) > layout_agreement(misplaced, brackets)


def test_indented_braces_and_brackets_agree_with_their_layout() -> None:
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None
    nested = '{\n  "a": [1, 2,\n        3],\n  "b": {"c": [\n    4\n  ]}\n}\n'
    assert _closing_breaks(nested, layout_of(nested, brackets), brackets) == []


LISP_CALLS = """\
(defun total (xs)
  (reduce #'+ xs))

(print (total '(1 2 3)))
(print (total '(4 5 6)))
(print (total '(7 8 9)))
(print (total '(1 1 1)))
"""


def test_a_lost_opener_goes_before_the_word_that_heads_its_other_forms() -> None:
    broken = LISP_CALLS.replace("(print (total '(7", "(print total '(7")
    assert _top(broken, "sexp") == LISP_CALLS


LISP_STRINGS = """\
(defun report (xs)
  (format t "~a items~%" (length xs))
  (dolist (x xs)
    (print x)))

(defun settings ()
  (list (cons "name" user-name)
        (cons "client-id" secret)
        (cons "scope" "read")))
"""


@pytest.mark.parametrize(
    ("lost", "why"),
    [
        ('items~%"', "a closing quote, with code after it on the line"),
        ('"client-id', "an opening quote, the string's next quote lines away"),
    ],
)
def test_a_lost_quote_goes_back_on_its_line(lost: str, why: str) -> None:
    broken = LISP_STRINGS.replace(lost, lost.replace('"', ""))
    assert _top(broken, "sexp") == LISP_STRINGS, why


def test_quotes_are_put_back_only_where_strings_may_span_lines() -> None:
    json_brackets = brackets_of(CompiledGrammar.load("json"))
    sexp_brackets = brackets_of(CompiledGrammar.load("sexp"))
    assert json_brackets is not None and sexp_brackets is not None
    assert json_brackets.quotes == () and sexp_brackets.quotes == ('"',)
    assert list(quote_edits('{"a": "b}', json_brackets)) == []
    places = {edit.offset for edit in quote_edits('(f "a b)\n(g "c")\n', sexp_brackets)}
    assert {5, 7} <= places  # after `a`, after `b`


def test_words_keep_their_usual_place_at_the_start_of_brackets() -> None:
    brackets = brackets_of(CompiledGrammar.load("sexp"))
    assert brackets is not None
    usual = "(f (car a) (car b) (car c))\n(cond ((eq a 1) x) ((eq b 2) y) ((eq c 3) z))\n"
    for astray in (
        usual.replace("(car c)", "((car c))"),  # a doubled opener
        usual.replace("((eq b 2) y)", "(eq b 2) y"),  # a cond clause lost its brackets
        usual.replace("(car b)", "car b"),  # a head lost its opener
    ):
        assert layout_agreement(usual, brackets) > layout_agreement(astray, brackets), astray


def test_a_closer_lost_before_a_line_ends_in_its_separator_goes_before_it() -> None:
    # JSONC allows `"jest",]`, so only the layout tells that `]` was lost
    # before the comma, not after it
    original = (
        '{\n  "compilerOptions": {\n    "types": ["node", "jest"],\n'
        '    // "strict": true,\n    "outDir": "dist"\n  }\n}\n'
    )
    damaged = original.replace('"jest"]', '"jest"')
    assert _top(damaged, "jsonc") == original


@pytest.mark.parametrize(
    ("doubled", "grammar"),
    [
        ('((display "ready")\n', "sexp"),
        ("{{x=1;y=2;}", "tinyc"),
        ("(define (area r)\n  (* r r))\n((area 2)\n", "sexp"),
    ],
)
def test_a_doubled_opener_left_open_at_the_end_is_removed(doubled: str, grammar: str) -> None:
    # the text reads as cut off, but the bracket it leaves open is written
    # twice: the twin goes, rather than a closer wrapping the form in a
    # one-element list (or block)
    single = doubled.replace("((", "(").replace("{{", "{")
    assert _top(doubled, grammar) == single


def test_an_opener_left_open_that_holds_more_than_its_twin_is_closed_at_the_end() -> None:
    # `(let` lost its last `)`: deleting an opener of `((a 1))` would move
    # `(print a)` out of the `let`
    lost = "(let ((a 1)) (print a)\n"
    assert _top(lost, "sexp") == "(let ((a 1)) (print a))\n"
    # `y` is in the bracket left open: deleting it would move `y` out
    assert _top("((f x) y\n", "sexp") == "((f x) y)\n"
    assert _top("{{a=1;}{b=2;}", "tinyc") == "{{a=1;}{b=2;}}"


def test_a_text_that_does_not_indent_what_it_nests_gets_no_edits_from_its_indentation() -> None:
    """One unindented record per line inside an array: every line sits at
    column 0 although it is nested, so the indentation tells nothing."""
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None
    records = "".join(f'{{"id": {i}, "tags": ["a", "b"]}},\n' for i in range(40))
    text = "[\n" + records + '{"id": 40, "tags": ["a"'
    assert len(list(layout_edits(text, brackets, openers=False))) < 10


def test_a_head_word_left_inside_its_list_gets_its_opener_back() -> None:
    # the file uses `define` once: the hints say it comes first in its list
    damaged = "(= (progn define a 10) (define b 20) (+ a b)) 30)\n"
    top = services.repair(damaged, IncrementalGrammarOracle("sexp")).repairs[0].text
    assert top == "(= (progn (define a 10) (define b 20) (+ a b)) 30)\n"


def test_the_analysis_of_a_long_text_looks_at_the_budget() -> None:
    # every POLL_LINES lines of each whole-text reading; a poll that raises
    # (a spent budget) stops the analysis before it proposes anything
    forms = "".join(f"(defun f{n} (x)\n  (print x))\n" for n in range(5000))
    text = forms.replace("(print x))", "(print x)", 1)
    brackets = brackets_of(IncrementalGrammarOracle("sexp").grammar)
    assert brackets is not None
    looks: list[int] = []
    edits = list(layout_edits(text, brackets, poll=lambda: looks.append(1)))
    assert edits and len(looks) >= 3 * (text.count("\n") // POLL_LINES)

    def spent() -> None:
        raise BudgetExhausted("spent")

    with pytest.raises(BudgetExhausted):
        next(iter(layout_edits(text, brackets, poll=spent)))


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # the line `  },` lost whole: the closer and the comma after it, on a
        # line of their own as the indentation says
        (
            '{\n  "a": {\n    "b": 1\n  "c": 2\n}\n',
            '{\n  "a": {\n    "b": 1\n  },\n  "c": 2\n}\n',
        ),
        (
            '{\n  "list": [\n    1,\n    2\n  "x": 1\n}\n',
            '{\n  "list": [\n    1,\n    2\n  ],\n  "x": 1\n}\n',
        ),
    ],
)
def test_a_closer_lost_with_its_separator_comes_back_with_it(damaged: str, repaired: str) -> None:
    # not `"b": 1,` and a `}` at the end, which would move "c" into "a"
    result = services.repair(damaged, IncrementalGrammarOracle("json"))
    assert result.repairs[0].text == repaired


def test_reading_the_brackets_of_a_long_line_asks_the_budget() -> None:
    """A one-line document of a million brackets is read with the stop hook
    asked every few thousand brackets, not only once per line."""
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None
    text = "[" * 500_000 + "]" * 500_000
    polls = 0

    def poll() -> None:
        nonlocal polls
        polls += 1

    layout_of(text, brackets, poll)
    assert polls >= 1_000_000 // 4096


def test_a_bracket_written_twice_is_tried_before_the_edges_of_later_lines() -> None:
    # the doubled `[` makes every later line disagree with its indentation:
    # the deletion of the twin comes before the many edits at those lines'
    # edges, so a budget of a few checks still reaches it
    records = [{"name": f"item {i}", "tags": ["a", "b"], "size": i} for i in range(12)]
    original = json.dumps({"keywords": ["x", "y", "z"], "records": records}, indent=4)
    damaged = original.replace('"keywords": [', '"keywords": [[', 1)
    twin = damaged.index("[[") + 1
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None
    edits = list(layout_edits(damaged, brackets))
    deletion = edits.index(Edit(twin, 1, ""))
    assert deletion < 5 < len(edits)
    found = layout_repairs(
        damaged,
        IncrementalGrammarOracle("json"),
        brackets=brackets,
        budget=Budget(max_tests=deletion + 1),
    )
    assert original in [repair.text for repair in found.repairs]


class _Counting:
    """The JSON grammar's oracle, counting its runs."""

    def __init__(self) -> None:
        self.inner = IncrementalGrammarOracle("json")
        self.texts: set[str] = set()

    def check(self, text: str) -> Feedback:
        self.texts.add(text)
        return self.inner.check(text)

    def describe(self) -> str:
        return "counting"

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize(
    "broken",
    [
        '{"a": [1, {"b": 2, "c": [3, 4]], "d": {"e": 5}, "f": [6, 7]}',
        DOCUMENT.replace('"tags": [', '"tags": [[', 1),
    ],
)
def test_edits_after_the_parse_boundary_are_not_checked(broken: str) -> None:
    """They keep the prefix the oracle rejects whatever follows: the same
    repairs, for fewer oracle runs."""
    brackets = brackets_of(CompiledGrammar.load("json"))
    assert brackets is not None
    every, bounded = _Counting(), _Counting()
    boundary = every.inner.check(broken).error_offset
    assert boundary is not None
    assert every.inner.check(broken[: boundary + 1]).verdict is Verdict.INCORRECT
    found = layout_repairs(broken, every, brackets=brackets)
    fewer = layout_repairs(broken, bounded, brackets=brackets, boundary=boundary)
    assert [r.text for r in fewer.repairs] == [r.text for r in found.repairs]
    edits = list(layout_edits(broken, brackets))
    before = {apply_edits(broken, (e,)) for e in edits if e.offset <= boundary}
    after = {apply_edits(broken, (e,)) for e in edits if e.offset > boundary} - before
    assert after
    assert after <= every.texts
    assert not after & bounded.texts
    assert fewer.stats.tests == len(bounded.texts) < len(every.texts)
