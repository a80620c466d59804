"""Layout scores of repairs read near their edits order them as whole texts do."""

from __future__ import annotations

import itertools

import pytest

from inputmend.algorithms import layout_window
from inputmend.algorithms.layout import layout_agreement
from inputmend.algorithms.layout_window import windowed_agreement
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.grammar.syntax import brackets_of
from inputmend.oracles.incremental import IncrementalGrammarOracle


def _form(n: int) -> str:
    return f"(defun f{n} (x)\n  (let ((y (* x {n})))\n    (print y)\n    (+ y 1)))\n"


def _candidates(grammar: str, text: str, closer: str, lines: range) -> list[Repair]:
    """Every valid repair inserting ``closer`` at the end of one of ``lines``
    (before its comma)."""
    oracle = IncrementalGrammarOracle(grammar)
    repairs = []
    ends = [i for i, char in enumerate(text) if char == "\n"]
    for line in lines:
        offset = ends[line] - text[: ends[line]].endswith(",")
        edits = (Edit(offset, 0, closer),)
        repaired = apply_edits(text, edits)
        if oracle.check(repaired).valid:
            repairs.append(Repair(repaired, edits, "layout", True, 1))
    return repairs


def _same_order(grammar: str, text: str, repairs: list[Repair]) -> None:
    grammar_brackets = brackets_of(IncrementalGrammarOracle(grammar).grammar)
    assert grammar_brackets is not None
    windowed = windowed_agreement(text, repairs, grammar_brackets)
    whole = {r.text: layout_agreement(r.text, grammar_brackets) for r in repairs}
    near = {r.text: windowed(r.text) for r in repairs}
    for a, b in itertools.combinations(repairs, 2):
        expected = (whole[a.text] > whole[b.text]) - (whole[a.text] < whole[b.text])
        assert (near[a.text] > near[b.text]) - (near[a.text] < near[b.text]) == expected


@pytest.mark.parametrize("margin", [3, 100])
def test_repairs_near_a_lost_bracket_keep_their_order_in_a_long_lisp_file(
    margin: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layout_window, "MARGIN_LINES", margin)
    forms = [_form(n) for n in range(80)]
    forms[40] = forms[40].replace("(print y)", "(print y", 1)
    text = "".join(forms)
    repairs = _candidates("sexp", text, ")", range(160, 172))
    assert len(repairs) > 3
    _same_order("sexp", text, repairs)


def test_repairs_read_below_brackets_opened_far_above(monkeypatch: pytest.MonkeyPatch) -> None:
    # the window starts inside `(progn (let (...)`: its context lines open them
    monkeypatch.setattr(layout_window, "MARGIN_LINES", 4)
    forms = ["  " + line for n in range(60) for line in _form(n).splitlines(keepends=True)]
    forms[162] = forms[162].replace("(print y)", "(print y", 1)
    text = "(progn\n (let ((z 1))\n" + "".join(forms) + "))\n"
    repairs = _candidates("sexp", text, ")", range(164, 176))
    assert len(repairs) > 3
    _same_order("sexp", text, repairs)


def test_context_lines_keep_only_the_brackets_still_open() -> None:
    brackets = brackets_of(IncrementalGrammarOracle("json").grammar)
    assert brackets is not None
    text = '{"a": [1, 2], "b": {\n  "c": "[not a bracket",\n  "d": [\n    1,\n    2\n  ]\n}}\n'
    start = text.index("    2")
    assert layout_window._context(text, start, brackets) == (
        start,
        '{"a":  1, 2 , "b": {\n  "d": [\n',
    )


def test_a_string_running_over_the_window_start_is_read_whole() -> None:
    brackets = brackets_of(IncrementalGrammarOracle("sexp").grammar)
    assert brackets is not None
    text = '(defun f ()\n  "a doc string\n  over ( lines"\n  (g))\n'
    start = text.index("  over")
    assert layout_window._context(text, start, brackets) == (text.index('  "a'), "(defun f   \n")


def test_a_long_text_on_one_line_is_not_read_for_its_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    brackets = brackets_of(IncrementalGrammarOracle("sexp").grammar)
    assert brackets is not None
    text = "(list " + "(f x) " * 20 + "(g y)"  # short: read
    repair = Repair(text + ")", (Edit(len(text), 0, ")"),), "layout", True, 1)
    assert windowed_agreement(text, [repair], brackets)(repair.text) == layout_agreement(
        repair.text, brackets
    )
    monkeypatch.setattr(layout_window, "MINIFIED", len(text) - 1)
    read: list[str] = []
    monkeypatch.setattr(layout_window, "layout_agreement", lambda t, b: read.append(t) or -1)
    assert windowed_agreement(text, [repair], brackets)(repair.text) == 0
    assert read == []
