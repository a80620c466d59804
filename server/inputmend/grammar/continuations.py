"""Which characters can follow a valid prefix (FSynth's alphabet at the boundary)."""

from __future__ import annotations

from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.scan import ScanState

CACHE_SIZE = 4096  # answers kept (for pieces of at most CACHEABLE characters)
CACHEABLE = 256


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


class Continuations:
    """The characters of an alphabet that can follow a prefix without making
    it incorrect there, with a cache of recent answers."""

    def __init__(self, grammar: CompiledGrammar) -> None:
        self.grammar = grammar
        self._cache: dict[tuple[object, ...], str] = {}

    def __call__(self, prefix: str, end: ScanState, alphabet: str, *, distinct: bool) -> str:
        """The characters of ``alphabet`` that can follow ``prefix``, a valid
        prefix whose scan stopped at ``end`` (a filter for repair candidates:
        it may keep a few that fail later, it drops none that could succeed).

        With ``distinct``, only the first character of each class of characters
        that every terminal treats alike here (the same partial or full match for
        each): inside a string or a free-text value all letters are one class,
        while the letters that can start a keyword each stand alone.
        """
        tables, patterns = self.grammar.tables, self.grammar.patterns
        starts = [(end.position, tables.acceptable(end.stack) | self.grammar.ignored)]
        if end.last_end == end.position and end.last_start < end.position:
            starts.append((end.last_start, tables.acceptable(end.before)))
        checks: list[tuple[str, tuple[str, ...]]] = []
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
                checks.append((piece, alive))
        key = (tuple(checks), alphabet, distinct)
        cacheable = all(len(piece) <= CACHEABLE for piece, _ in checks)
        cached = self._cache.get(key) if cacheable else None
        if cached is not None:
            return cached
        classes: dict[tuple[int, ...], list[str]] = {}
        for char in alphabet:
            signature = []
            for piece, alive in checks:
                candidate = piece + char
                for name in alive:
                    match = patterns[name].fullmatch(candidate, partial=True)
                    signature.append(0 if match is None else 1 if match.partial else 2)
            if any(signature):
                classes.setdefault(tuple(signature), []).append(char)
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
