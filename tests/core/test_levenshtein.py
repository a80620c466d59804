"""The Python Levenshtein functions give the compiled module's answers."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from inputmend.core import levenshtein, model

compiled = pytest.importorskip("Levenshtein")

ALPHABETS = ("ab", "abc", "abcdef ", 'xyz{}[],:"0123', "é€😀a")


def _pairs(seed: int, count: int, longest: int) -> list[tuple[str, str]]:
    """Random pairs, half of them a string and an edited copy of it (few
    alphabets and small sizes, so that many minimal scripts tie)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        alphabet = rng.choice(ALPHABETS)
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))
        if rng.random() < 0.5:
            b = a[: rng.randint(0, len(a))] + b[: rng.randint(0, 4)] + a[rng.randint(0, len(a)) :]
        pairs.append((a, b))
    return pairs


@pytest.mark.parametrize(("seed", "count", "longest"), [(1, 6000, 10), (2, 1500, 60), (3, 60, 400)])
def test_python_answers_equal_the_compiled_ones(seed: int, count: int, longest: int) -> None:
    for a, b in _pairs(seed, count, longest):
        assert levenshtein.pure_distance(a, b) == compiled.distance(a, b), (a, b)
        assert levenshtein.pure_editops(a, b) == list(map(tuple, compiled.editops(a, b))), (a, b)
        assert levenshtein.pure_opcodes(a, b) == list(map(tuple, compiled.opcodes(a, b))), (a, b)


def test_long_texts_with_spread_edits() -> None:
    """The diagonal search and the bit vectors agree with the compiled module
    where the distance is small against the length, and where it is not."""
    rng = random.Random(4)
    text = "".join(rng.choice('abcdefgh{}:,"') for _ in range(20_000))
    for edits in (3, 300):
        edited = list(text)
        for _ in range(edits):
            edited[rng.randrange(len(edited))] = "Z"
        other = "".join(edited)
        assert levenshtein.pure_distance(text, other) == compiled.distance(text, other)
    shuffled = "".join(rng.sample(text[:3000], 3000))
    assert levenshtein.pure_distance(text[:3000], shuffled) == compiled.distance(
        text[:3000], shuffled
    )


def test_without_the_compiled_module_the_python_versions_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(levenshtein, "_compiled_module", lambda: None)
    assert not levenshtein.compiled()
    assert levenshtein.distance("kitten", "sitting") == 3
    assert levenshtein.editops("qabxcd", "abycdf") == [
        ("delete", 0, 0),
        ("replace", 3, 2),
        ("insert", 6, 5),
    ]
    assert levenshtein.opcodes("abcdef", "axcyyf") == [
        ("equal", 0, 1, 0, 1),
        ("replace", 1, 2, 1, 2),
        ("equal", 2, 3, 2, 3),
        ("replace", 3, 5, 3, 5),
        ("equal", 5, 6, 5, 6),
    ]


def _edited(seed: int, count: int) -> list[tuple[str, list[model.Edit]]]:
    """Random texts, each with random non-overlapping edits (small alphabets,
    so that an edit often undoes another nearby)."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        alphabet = rng.choice(ALPHABETS)
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        offsets = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 6))))
        edits = []
        end = 0
        for offset in offsets:
            if offset < end:
                continue
            delete = rng.randint(0, min(3, len(text) - offset))
            insert = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
            if delete or insert:
                edits.append(model.Edit(offset, delete, insert))
                end = offset + delete
        cases.append((text, edits))
    return cases


def test_the_distance_read_from_the_edits_is_the_distance() -> None:
    for original, edits in _edited(4, 4000):
        text = model.apply_edits(original, edits)
        assert model.edited_distance(original, edits, text) == compiled.distance(original, text), (
            original,
            edits,
        )


def test_edits_that_undo_each_other_are_compared_whole() -> None:
    """A character moved: its two edits sum to two, the counts of characters
    to nothing, and the distance is the whole texts' (none at all across a
    periodic stretch)."""
    original = "x" + "ab" * 20
    edits = [model.Edit(0, 1, ""), model.Edit(len(original), 0, "x")]
    text = model.apply_edits(original, edits)
    assert model.edited_distance(original, edits, text) == compiled.distance(original, text) == 2
    moved = [model.Edit(0, 1, ""), model.Edit(1, 0, "x")]
    assert model.edited_distance(original, moved, "axb" + "ab" * 19) == 2
    periodic = "x" * 40
    cycled = [model.Edit(0, 1, ""), model.Edit(len(periodic), 0, "x")]
    assert model.edited_distance(periodic, cycled, periodic) == 0


def test_small_pairs_do_not_import_the_compiled_module(monkeypatch: pytest.MonkeyPatch) -> None:
    imported: list[bool] = []

    def importing() -> Any:
        imported.append(True)
        return compiled

    monkeypatch.delitem(sys.modules, "Levenshtein")
    monkeypatch.setattr(levenshtein, "_compiled_module", importing)
    small = ("kitten", "sitting")
    assert levenshtein.distance(*small) == 3
    assert levenshtein.editops(*small) == list(map(tuple, compiled.editops(*small)))
    assert levenshtein.opcodes(*small) == list(map(tuple, compiled.opcodes(*small)))
    assert not imported
    large = ("a" * 300, "b" * 300)
    assert levenshtein.distance(*large) == 300
    assert imported
