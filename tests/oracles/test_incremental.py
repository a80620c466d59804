"""The incremental grammar oracle agrees with a from-scratch parse, and reuses work."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError, Verdict
from inputmend.core.text import decode_bytes
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import (
    CHECKPOINT_EVERY,
    LAYOUT_CHECKPOINT_EVERY,
    IncrementalGrammarOracle,
)
from tests.conftest import CORPUS, ROOT

SAMPLES = ROOT / "tests" / "grammars" / "samples"
FORMAT_CORPUS = ROOT / "tests" / "corpus"
CORPUS_FORMATS = {"json", "ini", "sexp", "tinyc"}


@pytest.mark.parametrize(
    ("text", "verdict", "offset"),
    [
        ('{"a": tr', Verdict.INCOMPLETE, 8),
        ('{"a": "ab', Verdict.INCOMPLETE, 9),
        ("-", Verdict.INCOMPLETE, 1),
        ("[1, 2", Verdict.INCOMPLETE, 5),
        ("[1.", Verdict.INCOMPLETE, 3),
        ("", Verdict.INCOMPLETE, 0),
        ("[1.x]", Verdict.INCORRECT, 3),
        ('{"a": trux}', Verdict.INCORRECT, 9),
        ('{"a": truex}', Verdict.INCORRECT, 10),
        ('{"a" 1}', Verdict.INCORRECT, 5),
        ('{ "item": "Apple", "price": **3.45 }', Verdict.INCORRECT, 28),
        ("[1, 2] x", Verdict.INCORRECT, 7),
        ("[1, \udcff]", Verdict.INCORRECT, 4),
        ('"a\udcffb"', Verdict.INCORRECT, 2),
        ("[1,2]", Verdict.COMPLETE, None),
        ("[1,\r\n 2]\r\n", Verdict.COMPLETE, None),
    ],
)
def test_three_way_verdicts(text: str, verdict: Verdict, offset: int | None) -> None:
    for oracle in (IncrementalGrammarOracle("json"), ReferenceGrammarOracle("json")):
        feedback = oracle.check(text)
        assert (feedback.verdict, feedback.error_offset) == (verdict, offset), oracle.describe()


@pytest.mark.parametrize(
    ("prefix", "start"),
    [
        ('{"a": 1', 6),  # the number
        ('{"a": "bc"', 6),  # the whole string
        ('{"a": "bc', 4),  # the `:` before an unfinished string
        ('{"a"  ', 1),  # the key; trailing blanks are not a token
        ("", 0),
        ("{]", None),  # not a valid prefix
    ],
)
def test_last_token_start(prefix: str, start: int | None) -> None:
    assert IncrementalGrammarOracle("json").last_token_start(prefix) == start


def test_messages_name_what_was_found_and_expected() -> None:
    oracle = IncrementalGrammarOracle("json")
    assert oracle.check('{"a" 1}').message == "unexpected `1`; expected `:`"
    assert oracle.check('{"a": trux}').message == "unexpected `x` after `tru`"
    assert oracle.check("[1,").message == "unexpected end of input"


def _texts(name: str) -> list[str]:
    name = {"cjson": "json"}.get(name, name)  # the lenient dialect shares JSON's samples
    texts = []
    if name in CORPUS_FORMATS and CORPUS.is_dir():
        for path in sorted(CORPUS.glob(f"{name}-*/*"))[::3]:
            text, _ = decode_bytes(path.read_bytes())
            if len(text) <= 2500:
                texts.append(text)
    for path in sorted((SAMPLES / name).glob("*")):
        texts.append(decode_bytes(path.read_bytes())[0])
    for path in sorted((FORMAT_CORPUS / name).glob("*")):
        text, _ = decode_bytes(path.read_bytes())
        if len(text) <= 2500:
            texts.append(text)
    return texts


def _mutate(rng: random.Random, text: str) -> tuple[int, int, str]:
    alphabet = text + "{}[](),:;\"'\\ \n\r\t=#*/-+.<>|0123456789abcxyz\udcff"
    start = rng.randint(0, len(text))
    end = min(len(text), start + rng.choice([0, 0, 1, 1, 2, 5]))
    insert = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 1, 2, 3])))
    return start, end, insert


@pytest.mark.parametrize("name", sorted(registry.bundled()))
def test_random_prefixes_and_edits_agree_with_a_from_scratch_parse(name: str) -> None:
    rng = random.Random(f"incremental-{name}")
    compiled = CompiledGrammar.load(name)
    reference = ReferenceGrammarOracle(compiled)
    oracle = IncrementalGrammarOracle(compiled, checkpoint_every=rng.choice([1, 2, 4, 16]))
    texts = _texts(name)
    assert texts
    per_text = max(8, 1500 // len(texts))
    checks = 0
    for text in texts:
        current = oracle.scan(text)
        for _ in range(per_text):
            choice = rng.random()
            if choice < 0.3:
                end = rng.randint(0, current.length)
                candidate = current.text[:end]
                feedback = oracle.prefix(current, end)
            elif choice < 0.7:
                start, stop, insert = _mutate(rng, current.text)
                candidate = current.text[:start] + insert + current.text[stop:]
                scan = oracle.edit(current, start, stop, insert)
                assert scan.text == candidate
                feedback = scan.feedback
                if rng.random() < 0.3:
                    current = scan  # edit the edited text further
            else:
                start, stop, insert = _mutate(rng, current.text)
                candidate = current.text[:start] + insert + current.text[stop:]
                feedback = oracle.check(candidate)
            expected = reference.check(candidate)
            assert (feedback.verdict, feedback.error_offset) == (
                expected.verdict,
                expected.error_offset,
            ), f"{name}: {candidate!r}"
            checks += 1
    assert checks >= 1000


def test_an_edit_before_a_long_multiline_string() -> None:
    # At the opening ''' the longer alternative (a multi-line string) fails on
    # the part of the text read so far, which ends inside the string, so '' (an
    # empty literal string) would match: the token is lexed again on the whole text.
    text = "a = 1\n" * 40 + "s = '''\n" + "line of text\n" * 40 + "'''\n"
    oracle = IncrementalGrammarOracle("toml")
    base = oracle.scan(text)
    assert base.feedback.valid
    before_string = text.index("'''") - 1
    assert oracle.edit(base, before_string, before_string + 1, " ").feedback.valid


def test_an_edit_after_the_error_keeps_the_boundary() -> None:
    # The base is incorrect at `x` (the boundary extends through `1.`); its last
    # checkpoint is right after the token `1`.  An edit after the error that
    # resumed there would not know the token before: it starts one checkpoint earlier.
    text = "[1.x, " + "2, " * 30 + "3]"
    oracle = IncrementalGrammarOracle("json", checkpoint_every=1)
    base = oracle.scan(text)
    assert base.feedback.error_offset == 3
    end = len(text) - 1
    assert oracle.edit(base, end, end, "4").feedback.error_offset == 3


def _document(size: int) -> str:
    items = []
    total = 0
    index = 0
    while total < size:
        item = json.dumps({"id": index, "name": f"item {index}", "tags": ["a", index * 1.5]})
        items.append(item)
        total += len(item) + 2
        index += 1
    return "[\n" + ",\n".join(items) + "\n]\n"


def test_an_edit_rescans_only_near_the_edit() -> None:
    text = _document(200_000)
    oracle = IncrementalGrammarOracle("json")
    base = oracle.scan(text)
    assert oracle.scanned_chars == len(text)
    rng = random.Random(1)
    for _ in range(50):
        position = rng.randrange(len(text))
        before = oracle.scanned_chars
        oracle.edit(base, position, position + 1, " ")
        assert oracle.scanned_chars - before < 2000
        before = oracle.scanned_chars
        oracle.prefix(base, position)
        assert oracle.scanned_chars - before < 2000
    before = oracle.scanned_chars
    edited = text[:100_000] + "x" + text[100_000:]
    assert oracle.check(edited).verdict is ReferenceGrammarOracle("json").check(edited).verdict
    assert oracle.scanned_chars - before < 2000


def test_a_repair_of_a_corrupting_edit_rejoins_the_valid_text_after_short_scans() -> None:
    # an editor's last valid version, then the corrupting edit, then a
    # search's fresh scans of short texts (the hints read pieces alone)
    text = _document(200_000)
    oracle = IncrementalGrammarOracle("json")
    assert oracle.check(text).valid
    gap = text.index(",\n", len(text) // 2)
    corrupt = text[:gap] + " " + text[gap + 1 :]
    assert not oracle.check(corrupt).valid
    for piece in ("x1", "y2", "z3", "w4", "v5"):  # nothing in common with the rest
        oracle.check(piece)
    oracle.check("v5!")  # and edits of them
    oracle.check("v5?")
    before = oracle.scanned_chars
    assert oracle.check(corrupt[:gap] + "," + corrupt[gap:]).valid
    # read near the edit, then joined with the valid text: not its rest again
    assert oracle.scanned_chars - before < 2000


def test_equal_stacks_are_the_same_object() -> None:
    text = _document(20_000)
    oracle = IncrementalGrammarOracle("json", checkpoint_every=4)
    first = oracle.scan(text)
    # Insert and delete a space far from the end: the edited scan joins the
    # original at the first checkpoint after the edit, by identity.
    scan = oracle.edit(first, 5000, 5000, " ")
    assert scan.feedback.valid
    assert oracle.scanned_chars < len(text) + 1000
    shifted = {p - 1: s for p, s in zip(scan.positions, scan.stacks, strict=True) if p > 5100}
    common = [i for i, p in enumerate(first.positions) if p in shifted]
    assert common
    assert all(first.stacks[i] is shifted[first.positions[i]] for i in common)


def test_deep_nesting_and_large_inputs() -> None:
    oracle = IncrementalGrammarOracle("json")
    deep = "[" * 100_000 + "]" * 100_000
    assert oracle.check(deep).valid
    assert oracle.check("[" * 100_000).verdict is Verdict.INCOMPLETE
    broken = "[" * 50_000 + "x" + "[" * 50_000
    assert oracle.check(broken).error_offset == 50_000
    big = _document(2_000_000)
    assert oracle.check(big).valid
    assert oracle.check(big[:-3] + "," + big[-3:]).verdict is Verdict.INCORRECT


def test_tokens_and_tree() -> None:
    oracle = IncrementalGrammarOracle("json")
    tokens = oracle.tokens('{"a": [1, tru')
    assert [(t.type, t.start, t.end) for t in tokens] == [
        ("LBRACE", 0, 1),
        ("STRING", 1, 4),
        ("COLON", 4, 5),
        ("LSQB", 6, 7),
        ("NUMBER", 7, 8),
        ("COMMA", 8, 9),
    ]
    tree = oracle.tree('{"a": [1]}')
    assert tree is not None and tree.meta.start_pos == 0 and tree.meta.end_pos == 10
    assert oracle.tree("[1,") is None


def test_user_grammar_conflicts_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.lark"
    path.write_text('start: a | b\na: "x"\nb: "x"\n')
    with pytest.raises(OracleConfigError, match="Reduce/Reduce collision"):
        IncrementalGrammarOracle(str(path))
    path.write_text("start: (\n")
    with pytest.raises(OracleConfigError, match="not a valid lark grammar"):
        IncrementalGrammarOracle(str(path))


def test_a_user_grammar_works(tmp_path: Path) -> None:
    path = tmp_path / "pairs.lark"
    path.write_text(
        'start: pair*\npair: KEY "=" VALUE ";"\nKEY: /[a-z]+/\nVALUE: /[0-9]+/\n%ignore /[ \\n]+/\n'
    )
    oracle = IncrementalGrammarOracle(str(path))
    assert oracle.check("a = 1; bb = 22;").valid
    assert oracle.check("a = 1; bb = ").verdict is Verdict.INCOMPLETE
    assert oracle.check("a = 1; bb == 2;").error_offset == 11


def test_tokens_cut_by_the_edge_of_a_partial_window_are_read_whole() -> None:
    # An edit scan lexes a window of the new text that grows on demand; a token
    # the window edge cuts (`1.` of `1.5`) must be read with more text.
    text = "[" + ", ".join(["1.5"] * 410) + "]"
    oracle = IncrementalGrammarOracle("json")
    oracle.check(text[:1] + "x" + text[2:])
    assert oracle.check(text).valid
    reference = ReferenceGrammarOracle("json")
    rng = random.Random(3)
    numbers = (
        "["
        + ", ".join(
            f"{rng.randint(0, 999)}.{rng.randint(0, 99)}e{rng.randint(1, 9)}" for _ in range(600)
        )
        + "]"
    )
    base = oracle.scan(numbers)
    for _ in range(150):
        start = rng.randrange(len(numbers))
        insert = rng.choice(["", "1", ".", "e", "-", " ", "x"])
        end = min(len(numbers), start + rng.choice([0, 1]))
        candidate = numbers[:start] + insert + numbers[end:]
        got = oracle.edit(base, start, end, insert).feedback
        expected = reference.check(candidate)
        assert (got.verdict, got.error_offset) == (expected.verdict, expected.error_offset)
        undo = oracle.check(numbers)
        assert undo.valid


class _Stopped(Exception):
    pass


def test_a_stop_hook_abandons_long_scans() -> None:
    stopping = True

    def stop() -> None:
        if stopping:
            raise _Stopped

    text = _document(100_000)
    oracle = IncrementalGrammarOracle("json", stop=stop)
    with pytest.raises(_Stopped):
        oracle.check(text)
    assert oracle.check(text[:1000]).verdict is Verdict.INCOMPLETE  # short scans are not stopped
    stopping = False
    assert oracle.check(text).valid


def test_checkpoints_are_denser_with_a_layout() -> None:
    # Each token of a layout grammar costs the layout's work too: its scans
    # keep a checkpoint every LAYOUT_CHECKPOINT_EVERY tokens, others every
    # CHECKPOINT_EVERY, unless the caller says otherwise.
    for name, text, every in [
        ("json", _document(2_000), CHECKPOINT_EVERY),
        ("yaml", "items:\n" + "  - name: a\n    size: [1, 2]\n" * 40, LAYOUT_CHECKPOINT_EVERY),
    ]:
        positions = IncrementalGrammarOracle(name).scan(text).positions
        assert (
            positions == IncrementalGrammarOracle(name, checkpoint_every=every).scan(text).positions
        )
        assert (
            positions
            != IncrementalGrammarOracle(name, checkpoint_every=every + 1).scan(text).positions
        )


def test_a_resumed_scan_agrees_with_a_scan_of_the_edited_text() -> None:
    """Resuming from a checkpoint past an edit, on the unedited rest of the
    text, gives the verdict and offsets of scanning the edited text whole."""
    original = json.dumps([{"a": i, "b": [i, "x"]} for i in range(300)], indent=1)
    rng = random.Random(2)
    oracle = IncrementalGrammarOracle("json")
    for _ in range(20):
        at = rng.randrange(len(original) // 2)
        insert = rng.choice(["", " ", "7", ","])
        cut = rng.choice([0, 1])
        edited_scan = oracle.edit(oracle.scan(original), at, at + cut, insert)
        edited = original[:at] + insert + original[at + cut :]
        shift = len(insert) - cut
        past = [i for i, p in enumerate(edited_scan.positions) if p >= at + len(insert)]
        if not past:
            continue
        damaged = original[: len(original) * 3 // 4] + "@" + original[len(original) * 3 // 4 :]
        for text, whole in ((original, edited), (damaged, None)):
            resumed = oracle.resume(text, edited_scan, past[0], shift=-shift, bad=[])
            if whole is None:
                expected = oracle.check(text[:at] + insert + text[at + cut :]).error_offset
                assert resumed.feedback.error_offset == (
                    None if expected is None else expected - shift
                )
            else:
                assert resumed.feedback.verdict == oracle.check(whole).verdict


def test_last_token_start_in_a_scan_agrees_with_the_prefix() -> None:
    text = json.dumps({"key": [1, 22, "three"], "more": {"x": None}})
    oracle = IncrementalGrammarOracle("json")
    base = oracle.scan(text)
    for end in range(len(text) + 1):
        assert oracle.last_token_start_in(base, end) == oracle.last_token_start(text[:end])
