from __future__ import annotations

import random

from inputmend.algorithms.configurations import (
    count,
    difference,
    normalize,
    split,
    union,
    whole,
)


def as_set(ranges: tuple[tuple[int, int], ...]) -> set[int]:
    return {i for start, end in ranges for i in range(start, end)}


def test_split_sizes_differ_by_at_most_one_and_cover_everything() -> None:
    ranges = ((0, 3), (5, 9), (12, 20))
    for parts in range(1, 16):
        pieces = split(ranges, parts)
        assert len(pieces) == min(parts, count(ranges))
        sizes = [count(piece) for piece in pieces]
        assert max(sizes) - min(sizes) <= 1
        assert union(*pieces[:1], *pieces[1:2]) if len(pieces) > 1 else True
        covered: set[int] = set()
        for piece in pieces:
            assert not covered & as_set(piece)
            covered |= as_set(piece)
        assert covered == as_set(ranges)
        flat = [i for piece in pieces for i in sorted(as_set(piece))]
        assert flat == sorted(flat), "pieces must be consecutive"


def test_set_operations_match_python_sets() -> None:
    rng = random.Random(7)
    for _ in range(300):
        a = normalize([(s, s + rng.randint(0, 6)) for s in rng.sample(range(60), 5)])
        b = normalize([(s, s + rng.randint(0, 6)) for s in rng.sample(range(60), 5)])
        assert as_set(union(a, b)) == as_set(a) | as_set(b)
        assert as_set(difference(a, b)) == as_set(a) - as_set(b)
        assert union(a, b) == normalize(list(union(a, b)))


def test_whole_and_empty() -> None:
    assert whole(0) == ()
    assert whole(4) == ((0, 4),)
    assert split((), 3) == []
