"""The incremental scan: checkpoints, edits that rejoin the base, far reads."""

from __future__ import annotations

import pytest

from inputmend.core.oracle import Verdict
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.scan import EditedText, Scanner, Window


@pytest.fixture
def scanner() -> Scanner:
    return Scanner(CompiledGrammar.load("json"), checkpoint_every=2, margin=4)


def test_a_fresh_scan_keeps_interned_checkpoints(scanner: Scanner) -> None:
    scan = scanner.fresh("[1, 2, 3, 4]")
    assert scan.feedback.valid
    assert scan.positions == [0, 2, 5, 8, 11]  # every second token
    again = Scanner.fresh(scanner, "[1, 2, 3, 4]")
    assert all(a is b for a, b in zip(scan.stacks, again.stacks, strict=True))
    assert scan.before(6) == 2


def test_an_edit_rejoins_the_base(scanner: Scanner) -> None:
    text = "[" + ", ".join(["1"] * 200) + "]"
    base = scanner.fresh(text)
    lexed = scanner.scanned_chars
    scan = scanner.edit(base, 100, 101, "2")
    assert scan.feedback.valid
    assert scanner.scanned_chars - lexed < 40  # from before the edit to the next checkpoint
    assert scan.text == text[:100] + "2" + text[101:]
    assert scan.positions == base.positions and scan.stacks == base.stacks
    shorter = scanner.edit(base, 100, 103, "")
    assert shorter.positions[-1] == base.positions[-1] - 3


def test_the_end_of_a_scan(scanner: Scanner) -> None:
    scan = scanner.fresh('{"a": tr')
    assert (scan.feedback.verdict, scan.feedback.error_offset) == (Verdict.INCOMPLETE, 8)
    assert scan.end is not None
    assert (scan.end.last_start, scan.end.last_end, scan.end.position) == (4, 5, 6)
    tables = scanner.tables
    assert tables.acceptable(scan.end.stack) >= {"TRUE", "STRING", "LSQB"}
    assert tables.acceptable(scan.end.before) == frozenset({"COLON"})
    incorrect = scanner.fresh('{"a" 1}')
    assert incorrect.feedback.message == "unexpected `1`; expected `:`"
    assert incorrect.end is None


def test_a_token_that_read_far_ahead_is_recorded() -> None:
    # OBJ: `12` is a vertex reference, but lark first tried `12/...` (VT)
    scanner = Scanner(CompiledGrammar.load("obj"), checkpoint_every=2, margin=0)
    text = "f 12/ 3/3 4/4\n"
    scan = scanner.fresh(text)
    assert [(read.start, read.reach) for read in scan.far] == [(2, 5)]
    # an edit right after the slash resumes before `12`, not at the edit
    edited = scanner.edit(scan, 5, 5, "3")
    assert edited.text == "f 12/3 3/3 4/4\n"
    assert edited.feedback == scanner.fresh(edited.text).feedback
    assert edited.feedback.valid


def test_stop_may_abort_a_long_scan(scanner: Scanner) -> None:
    class Stopped(Exception):
        pass

    def stop() -> None:
        raise Stopped

    short = "[" + "1," * 100 + "1]"
    assert scanner.fresh(short, stop=stop).feedback.valid  # fewer tokens than one stop period
    with pytest.raises(Stopped):
        scanner.fresh("[" + "1," * 5000 + "1]", stop=stop)


def test_windows_and_edited_texts() -> None:
    edited = EditedText("abcdef", 2, 4, "XYZ")
    assert edited.text() == "abXYZef" and edited.length == 7
    assert edited.slice(1, 6) == "bXYZe"
    window = Window(edited.slice, 1, edited.length)
    assert window.text == "bXYZef" and window.complete
    partial = Window(lambda a, b: "x" * (b - a), 0, 10_000)
    assert len(partial.text) == 256 and not partial.complete
    partial.reach(300)
    assert len(partial.text) == 512  # grows at least twofold


def test_texts_that_stop_alike_rebuild_the_stack_before_their_error_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    grammar = CompiledGrammar.load("json")
    scanner = Scanner(grammar, checkpoint_every=8, margin=4)
    record = '{"id": 7, "tags: ["a", "b"], "name": "Lee"}'  # a key that lost its quote
    error = record.index("a")
    # the plain steps a search tries at the error: the same tokens before it
    tried = [record[:error] + insert + record[error:] for insert in ",:;)]}"]
    tried.append(record[:error] + record[error + 1 :])
    shifts = 0
    real = grammar.tables.shift

    def counted(node: object, terminal: str) -> object:
        nonlocal shifts
        shifts += 1
        return real(node, terminal)  # type: ignore[arg-type]

    monkeypatch.setattr(grammar.tables, "shift", counted)
    first = [scanner.fresh(text).feedback for text in tried]
    once = shifts
    again = [scanner.fresh(text).feedback for text in tried]
    assert shifts == once > 0  # rebuilt for the first scans, not again
    # each as a scanner that never rebuilt a stack reports it
    assert (
        first
        == again
        == [Scanner(grammar, checkpoint_every=8, margin=4).fresh(text).feedback for text in tried]
    )
