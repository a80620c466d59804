"""Delta-debugging configurations as sorted, disjoint index ranges.

A configuration is a subset of the element indices ``0..size-1`` of an input
(characters, lines or tokens).  Representing it as ranges instead of sets
means candidate inputs are assembled by slicing whole runs of the input, and
set operations cost O(number of runs), not O(number of elements).
"""

from __future__ import annotations

from collections.abc import Sequence

Ranges = tuple[tuple[int, int], ...]
"""Sorted, disjoint, non-adjacent half-open ranges ``(start, end)``."""

EMPTY: Ranges = ()


def whole(size: int) -> Ranges:
    return ((0, size),) if size > 0 else EMPTY


def count(ranges: Ranges) -> int:
    return sum(end - start for start, end in ranges)


def normalize(pairs: Sequence[tuple[int, int]]) -> Ranges:
    """Sort, drop empty and merge touching ranges."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(p for p in pairs if p[1] > p[0]):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)


def union(a: Ranges, b: Ranges) -> Ranges:
    return normalize(a + b)


def difference(a: Ranges, b: Ranges) -> Ranges:
    """Elements of ``a`` that are not in ``b``."""
    result: list[tuple[int, int]] = []
    j = 0
    for start, end in a:
        cursor = start
        while j < len(b) and b[j][1] <= cursor:
            j += 1
        k = j
        while k < len(b) and b[k][0] < end:
            if b[k][0] > cursor:
                result.append((cursor, b[k][0]))
            cursor = max(cursor, b[k][1])
            k += 1
        if cursor < end:
            result.append((cursor, end))
    return tuple(result)


def split(ranges: Ranges, parts: int) -> list[Ranges]:
    """Split into ``parts`` consecutive pieces whose sizes differ by at most one."""
    total = count(ranges)
    parts = max(1, min(parts, total))
    base, extra = divmod(total, parts)
    pieces: list[Ranges] = []
    current: list[tuple[int, int]] = []
    want = base + (1 if extra > 0 else 0)
    for start, end in ranges:
        while start < end:
            take = min(want, end - start)
            current.append((start, start + take))
            start += take
            want -= take
            if want == 0:
                pieces.append(tuple(current))
                current = []
                index = len(pieces)
                want = base + (1 if index < extra else 0)
    if current:
        pieces.append(tuple(current))
    return pieces


def assemble_text(text: str, ranges: Ranges, bounds: Sequence[int] | None = None) -> str:
    """The text kept by ``ranges``; with ``bounds``, elements are the slices
    ``text[bounds[i]:bounds[i+1]]`` (lines, tokens), otherwise characters."""
    if bounds is None:
        return "".join([text[start:end] for start, end in ranges])
    return "".join([text[bounds[start] : bounds[end]] for start, end in ranges])


def to_offsets(ranges: Ranges, bounds: Sequence[int] | None) -> Ranges:
    """Element ranges to character ranges."""
    if bounds is None:
        return ranges
    return normalize([(bounds[start], bounds[end]) for start, end in ranges])
