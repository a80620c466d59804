"""Levenshtein distance and edit scripts: the compiled ``Levenshtein`` module
when it is installed, else the same answers computed in Python.

The VS Code extension's universal package carries only pure-Python code, so
the server must run without the compiled module.  The Python versions give
the compiled module's answers, not just equally short ones: ``editops`` walks
back through Hyyrö's bit-vector matrix with the same preferences as the
compiled module (delete, then insert, then replace), after the same removal of
the common prefix and suffix, so that a repair is described alike by either.
``tests/core/test_levenshtein.py`` compares both on many inputs.

Hyyrö, "A Bit-Vector Algorithm for Computing Levenshtein and Damerau Edit
Distances" (2003); Hyyrö, "A Note on Bit-Parallel Alignment Computation" (2004).
"""

from __future__ import annotations

import functools
import sys
from types import ModuleType
from typing import Literal

EditTag = Literal["delete", "insert", "replace"]
OpcodeTag = Literal["equal", "delete", "insert", "replace"]
Editop = tuple[EditTag, int, int]
Opcode = tuple[OpcodeTag, int, int, int, int]


@functools.cache
def _compiled_module() -> ModuleType | None:
    """The compiled module, imported on first use: it loads rapidfuzz's
    compiled modules, which a run that computes no distance (``check``)
    should not pay for."""
    try:
        import Levenshtein
    except ImportError:
        return None
    return Levenshtein


SMALL = 1 << 16
"""Pairs of texts whose lengths multiply to this or less are compared in
Python while the compiled module is not imported yet: its import (with
rapidfuzz's compiled modules) costs a process about 10 ms, more than the
Python versions take for such a pair, and a command on a small file
compares few pairs.  The answers are the same either way."""


def _module_for(a: str, b: str) -> ModuleType | None:
    """The compiled module for comparing ``a`` with ``b``, None for the
    Python versions: those without it, and a :data:`SMALL` pair before
    anything larger (or :func:`compiled`) has imported it."""
    if len(a) * len(b) <= SMALL and "Levenshtein" not in sys.modules:
        return None
    return _compiled_module()


def _common_affix(a: str, b: str) -> tuple[int, int]:
    """Lengths of the common prefix and of the common suffix (not overlapping it)."""
    limit = min(len(a), len(b))
    prefix = 0
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    return prefix, suffix


def _matrix(a: str, b: str) -> tuple[int, list[int], list[int]]:
    """The distance and, per character of ``b``, the vertical delta vectors
    (bit ``i``: ``D[i+1][j] - D[i][j]`` is +1 in VP, -1 in VN)."""
    size = len(a)
    everything = (1 << size) - 1
    last = 1 << (size - 1)
    positions: dict[str, int] = {}
    for index, char in enumerate(a):
        positions[char] = positions.get(char, 0) | (1 << index)
    up, down, distance = everything, 0, size
    ups: list[int] = []
    downs: list[int] = []
    for char in b:
        matches = positions.get(char, 0) | down
        diagonal = (((matches & up) + up) ^ up) | matches
        right = down | (~(diagonal | up) & everything)
        left = diagonal & up
        if right & last:
            distance += 1
        elif left & last:
            distance -= 1
        right = ((right << 1) | 1) & everything
        left = (left << 1) & everything
        up = left | (~(diagonal | right) & everything)
        down = right & diagonal
        ups.append(up)
        downs.append(down)
    return distance, ups, downs


def _slide(a: str, b: str, i: int, j: int) -> int:
    """How far ``a[i:]`` and ``b[j:]`` agree from the start: the end in ``a``
    (slices of doubling, then halving length compare the runs at C speed)."""
    step = 8
    while True:
        piece = a[i : i + step]
        if not piece or piece != b[j : j + step]:
            break
        i, j, step = i + len(piece), j + len(piece), 2 * step
    while step > 1:
        step //= 2
        piece = a[i : i + step]
        if piece and piece == b[j : j + step]:
            i, j = i + len(piece), j + len(piece)
    return i


def _diagonal_distance(a: str, b: str, limit: int) -> int | None:
    """The distance by furthest reach on diagonals (Landau and Vishkin): work
    about the distance squared, plus the runs compared; None above ``limit``.
    ``reach[k]``: the furthest position in ``a`` on diagonal ``k = j - i``."""
    size_a, size_b = len(a), len(b)
    goal = size_b - size_a
    reach = {0: _slide(a, b, 0, 0)}
    if goal == 0 and reach[0] >= size_a:
        return 0
    for edits in range(1, limit + 1):
        following: dict[int, int] = {}
        for diagonal in range(max(-size_a, -edits), min(size_b, edits) + 1):
            start = max(
                reach.get(diagonal, -2) + 1,  # replace
                reach.get(diagonal + 1, -2) + 1,  # delete from a
                reach.get(diagonal - 1, -1),  # insert from b
            )
            start = min(start, size_a, size_b - diagonal)
            if start < 0:
                continue
            following[diagonal] = _slide(a, b, start, start + diagonal)
        reach = following
        if reach.get(goal, -1) >= size_a:
            return edits
    return None


def pure_distance(a: str, b: str) -> int:
    """The Levenshtein distance (unit costs), in Python: on diagonals while the
    distance is small against the lengths, else with bit vectors."""
    prefix, suffix = _common_affix(a, b)
    a, b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    if not a or not b:
        return len(a) + len(b)
    if len(a) < len(b):  # the shorter string makes the narrower bit vectors
        a, b = b, a
    limit = int((len(a) * max(len(b), 64) / 1024) ** 0.5) + 16
    found = _diagonal_distance(a, b, limit)
    return found if found is not None else _matrix(b, a)[0]


def pure_editops(a: str, b: str) -> list[Editop]:
    """The edit operations turning ``a`` into ``b``, as the compiled module
    chooses them among the minimal ones: ``(tag, position in a, position in b)``."""
    prefix, suffix = _common_affix(a, b)
    a, b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    column, row = len(a), len(b)
    ups: list[int] = []
    downs: list[int] = []
    distance = column + row
    if a and b:
        distance, ups, downs = _matrix(a, b)
    found: list[Editop] = []
    while row and column:
        bit = 1 << (column - 1)
        if ups[row - 1] & bit:
            column -= 1
            found.append(("delete", column + prefix, row + prefix))
            continue
        row -= 1
        if row and downs[row - 1] & bit:
            found.append(("insert", column + prefix, row + prefix))
            continue
        column -= 1
        if a[column] != b[row]:
            found.append(("replace", column + prefix, row + prefix))
    while column:
        column -= 1
        found.append(("delete", column + prefix, row + prefix))
    while row:
        row -= 1
        found.append(("insert", column + prefix, row + prefix))
    assert len(found) == distance, "the walk back takes one step per unit of distance"
    found.reverse()
    return found


def opcodes_of(editops: list[Editop], source_length: int, target_length: int) -> list[Opcode]:
    """Edit operations as blocks (``difflib`` style): runs of one operation on
    adjacent characters become one block, and ``equal`` blocks fill the gaps."""
    blocks: list[Opcode] = []
    source = target = 0
    index = 0
    while index < len(editops):
        tag, at_source, at_target = editops[index]
        if at_source > source or at_target > target:
            blocks.append(("equal", source, at_source, target, at_target))
        source, target = at_source, at_target
        start_source, start_target = source, target
        while index < len(editops) and editops[index] == (tag, source, target):
            source += tag != "insert"
            target += tag != "delete"
            index += 1
        blocks.append((tag, start_source, source, start_target, target))
    if source < source_length or target < target_length:
        blocks.append(("equal", source, source_length, target, target_length))
    return blocks


def pure_opcodes(a: str, b: str) -> list[Opcode]:
    """:func:`pure_editops` as blocks, the compiled module's ``opcodes``."""
    return opcodes_of(pure_editops(a, b), len(a), len(b))


def distance(a: str, b: str) -> int:
    """The Levenshtein distance.  The compiled module is given a hint (a
    distance about the difference in length) that makes it grow a band from
    there: exact, and for a megabyte with 20,000 edits spread over it 0.4 s
    rather than 25 s."""
    compiled_module = _module_for(a, b)
    if compiled_module is None:
        return pure_distance(a, b)
    return int(compiled_module.distance(a, b, score_hint=abs(len(a) - len(b)) + 64))


def editops(a: str, b: str) -> list[Editop]:
    """The edit operations turning ``a`` into ``b`` (see :func:`pure_editops`)."""
    compiled_module = _module_for(a, b)
    if compiled_module is None:
        return pure_editops(a, b)
    return [(tag, i, j) for tag, i, j in compiled_module.editops(a, b)]


def opcodes(a: str, b: str) -> list[Opcode]:
    """The edit operations turning ``a`` into ``b`` as blocks, ``equal`` ones included."""
    compiled_module = _module_for(a, b)
    if compiled_module is None:
        return pure_opcodes(a, b)
    return [(tag, i1, i2, j1, j2) for tag, i1, i2, j1, j2 in compiled_module.opcodes(a, b)]


def compiled() -> bool:
    """Is the compiled module in use?"""
    return _compiled_module() is not None
