"""Which characters can follow a valid prefix (FSynth's alphabet at the boundary)."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.scan import ScanState

CACHE_SIZE = 4096  # answers kept (for pieces of at most CACHEABLE characters)
CACHEABLE = 256

Probe = Callable[[str], bool]  # may this character follow the prefix? (a real scan)


def _plainness(char: str) -> tuple[int, str]:
    """Order of preference for a class representative: letters, digits, space."""
    if "a" <= char <= "z":
        return (0, char)
    if "0" <= char <= "9":
        return (1, char)
    if char == " ":
        return (2, char)
    if "A" <= char <= "Z":
        return (3, char)
    return (4, char)


def _layout_kind(char: str) -> str:
    """What a layout may tell apart beyond the terminals: each ASCII
    character that is not a letter or a digit (blanks, line breaks and
    indicators), and the others by kind."""
    if char.isascii() and not char.isalnum():
        return char
    return "a" if char.isalpha() else "0" if char.isdigit() else "other"


_CACHES: weakref.WeakKeyDictionary[CompiledGrammar, dict[tuple[object, ...], str]] = (
    weakref.WeakKeyDictionary()
)


def _cache_of(grammar: CompiledGrammar) -> dict[tuple[object, ...], str]:
    """The answers kept for ``grammar``, shared by its oracles: an answer
    depends on the grammar and the key alone, and a library call builds a
    new oracle for each small text, which would learn them anew."""
    found = _CACHES.get(grammar)
    if found is None:
        found = _CACHES[grammar] = {}
    return found


class Continuations:
    """The characters of an alphabet that can follow a prefix without making
    it incorrect there, with a cache of recent answers."""

    def __init__(self, grammar: CompiledGrammar) -> None:
        self.grammar = grammar
        self._cache = _cache_of(grammar)

    def __call__(
        self,
        prefix: str,
        end: ScanState,
        alphabet: str,
        *,
        distinct: bool,
        probe: Probe | None = None,
    ) -> str:
        """The characters of ``alphabet`` that can follow ``prefix``, a valid
        prefix whose scan stopped at ``end`` (a filter for repair candidates:
        it may keep a few that fail later, it drops none that could succeed).

        With ``distinct``, only the first character of each class of characters
        that every terminal treats alike here (the same partial or full match for
        each): inside a string or a free-text value all letters are one class,
        while the letters that can start a keyword each stand alone.

        The grammar's name checks narrow it: after ``</`` only the name of the
        element to close can follow.  A grammar with a layout decides more
        than its terminals do (a line break may close blocks, a tab is never a
        blank in YAML): there ``probe`` scans the prefix with one character of
        each class and keeps the classes it does not make incorrect.
        """
        tables, patterns = self.grammar.tables, self.grammar.patterns
        checks = self.grammar.checks
        check_state = end.extra[1]
        if probe is None:
            starts = [(end.position, tables.acceptable(end.stack) | self.grammar.ignored)]
            if end.last_end == end.position and end.last_start < end.position:
                starts.append((end.last_start, tables.acceptable(end.before)))
        else:  # what the layout puts before the next token may make any terminal acceptable
            everything = frozenset(patterns)
            starts = [(end.position, everything)]
            if end.last_end == end.position and end.last_start < end.position:
                starts.append((end.last_start, everything))
        pieces: list[tuple[str, tuple[str, ...]]] = []
        for start, names in starts:
            piece = prefix[start:]
            # only terminals that the piece can still be the start of
            alive = tuple(
                sorted(
                    name
                    for name in names
                    if name in patterns
                    and (not piece or patterns[name].fullmatch(piece, partial=True) is not None)
                )
            )
            if alive:
                pieces.append((piece, alive))
        key = (tuple(pieces), alphabet, distinct, check_state, probe is None)
        cacheable = probe is None and all(len(piece) <= CACHEABLE for piece, _ in pieces)
        cached = self._cache.get(key) if cacheable else None
        if cached is not None:
            return cached
        classes: dict[tuple[object, ...], list[str]] = {}
        for char in alphabet:
            signature: list[object] = [] if probe is None else [_layout_kind(char)]
            for piece, alive in pieces:
                candidate = piece + char
                for name in alive:
                    match = patterns[name].fullmatch(candidate, partial=True)
                    if (
                        match is not None
                        and checks is not None
                        and checks.limit(check_state, name, candidate) < len(candidate)
                    ):
                        match = None
                    signature.append(0 if match is None else 1 if match.partial else 2)
            if any(signature[0 if probe is None else 1 :]):
                classes.setdefault(tuple(signature), []).append(char)
        if probe is not None:
            classes = {
                signature: members
                for signature, members in classes.items()
                if probe(min(members, key=_plainness))
            }
        if distinct:
            # one per class, in the order classes first appear; the representative
            # is the plainest member (it may end up in a repair the user sees)
            result = "".join(min(members, key=_plainness) for members in classes.values())
        else:
            result = "".join(char for members in classes.values() for char in members)
            result = "".join(sorted(result, key=alphabet.index))
        if cacheable:
            if len(self._cache) > CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = result
        return result
