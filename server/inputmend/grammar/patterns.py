"""Compiled regular expressions with partial matching: the ``regex`` module
when it is installed, else ``re`` with a second pattern for the prefixes.

Partial matching tells whether a text cut off at its end can still grow into a
match (a string token whose closing quote is not typed yet).  ``regex`` does
it in C; the VS Code extension's universal package carries only pure-Python
code, so without ``regex`` a :class:`PrefixPattern` answers ``fullmatch(...,
partial=True)`` with two ``re`` patterns: the pattern itself and one whose
matches are its prefixes (:func:`inputmend.grammar.regex.prefix_source`), and
``finditer(..., overlapped=True)`` by searching again from each match's start.
``tests/grammar/test_patterns.py`` compares both on the bundled grammars'
terminals and on many generated patterns and texts.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from inputmend.grammar.regex import UnsupportedRegex, prefix_source


def _compiled_module() -> ModuleType | None:
    try:
        import regex
    except ImportError:
        return None
    module: ModuleType = regex
    return module


_UNKNOWN: Any = object()
_COMPILED: Any = _UNKNOWN  # the ``regex`` module, None without it; imported on first use


def _module() -> ModuleType | None:
    """The ``regex`` module if it is installed (imported when a pattern is
    first compiled: a command that compiles none does not wait for it)."""
    global _COMPILED
    if _COMPILED is _UNKNOWN:
        _COMPILED = _compiled_module()
    module: ModuleType | None = _COMPILED
    return module


def errors() -> tuple[type[Exception], ...]:
    """What compiling a bad pattern raises."""
    module = _module()
    return (re.error,) if module is None else (re.error, module.error)


@dataclass(frozen=True)
class PartialMatch:
    """The answer of :meth:`PrefixPattern.fullmatch` with ``partial=True``:
    the text matched from ``pos`` to ``endpos``, fully or as a prefix."""

    begin: int
    finish: int
    partial: bool

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.finish

    def span(self) -> tuple[int, int]:
        return self.begin, self.finish


class PrefixPattern:
    """An ``re`` pattern that also answers ``fullmatch(..., partial=True)``;
    everything else is the ``re`` pattern's own."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.compiled = re.compile(pattern, flags)
        self._prefixes: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"PrefixPattern({self.compiled.pattern!r})"

    def _prefix_pattern(self) -> re.Pattern[str]:
        if self._prefixes is None:
            try:
                source, flags = prefix_source(self.compiled.pattern, self.compiled.flags)
                self._prefixes = re.compile(source, flags)
            except (UnsupportedRegex, re.error, RecursionError):
                # read every text as a possible prefix: never cut a token short
                self._prefixes = re.compile(r"(?s:.*)")
        return self._prefixes

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize, *, partial: bool = False
    ) -> Any:
        """``re``'s ``fullmatch``; with ``partial``, also a :class:`PartialMatch`
        when ``string[pos:endpos]`` can still grow into a match."""
        found = self.compiled.fullmatch(string, pos, endpos)
        if not partial:
            return found
        if found is not None:
            return PartialMatch(found.start(), found.end(), partial=False)
        grows = self._prefix_pattern().fullmatch(string, pos, endpos)
        return None if grows is None else PartialMatch(grows.start(), grows.end(), partial=True)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize, *, overlapped: bool = False
    ) -> Iterator[re.Match[str]]:
        """``re``'s ``finditer``; with ``overlapped``, as ``regex`` finds
        overlapping matches: the leftmost one from each start on."""
        if overlapped:
            return _overlapped(self.compiled, string, pos, endpos)
        return self.compiled.finditer(string, pos, endpos)


def _overlapped(
    pattern: re.Pattern[str], string: str, pos: int, endpos: int
) -> Iterator[re.Match[str]]:
    """The leftmost match from each start on, one start past the last one's."""
    while pos <= min(endpos, len(string)):
        found = pattern.search(string, pos, endpos)
        if found is None:
            return
        yield found
        pos = found.start() + 1


def compile(pattern: str, flags: int = 0) -> Any:
    """``pattern`` compiled for partial matching (``regex``, else :class:`PrefixPattern`)."""
    module = _module()
    if module is None:
        return PrefixPattern(pattern, flags)
    return module.compile(pattern, flags)


def compiled() -> bool:
    """Is the ``regex`` module in use?"""
    return _module() is not None


Source = tuple[str, int]
"""A pattern and its flags, as :func:`compile` takes them."""


def keepable() -> bool:
    """Can compiled patterns be kept as plain data (:func:`to_plain`)? Only
    ``regex`` patterns, which hand out the code their engine was given."""
    module = _module()
    return module is not None and hasattr(module.Pattern, "_pickled_data")


def engine_parts() -> list[bytes]:
    """What the engine's code of a ``regex`` pattern depends on besides the
    pattern: the module's version and its compiled file, and this module's
    code, which makes and reads it (nothing without the module, whose
    patterns are never kept)."""
    module = _module()
    if module is None:
        return [b"no regex"]
    from inputmend.grammar import cache

    return [
        module.__version__.encode(),
        cache.stamp(Path(module._regex.__file__)),
        cache.stamp(Path(__file__)),
    ]


def to_plain(compiled: Mapping[Source, Any]) -> tuple[Any, ...]:
    """``regex`` patterns as plain data: each source with the code its
    engine was handed (what pickling a ``regex`` pattern keeps), so that
    :func:`from_plain` makes them again without parsing and compiling them,
    which the ``regex`` module does in Python."""
    return tuple(
        (source, int(flags), tuple(pattern._pickled_data))
        for (source, flags), pattern in compiled.items()
    )


def from_plain(plain: Any) -> dict[Source, Any]:
    """The patterns :func:`to_plain` made ``plain`` of; ValueError where it
    is not of that shape or not the code of its pattern."""
    module = _module()
    if module is None or not keepable() or type(plain) is not tuple:
        raise ValueError("not the code of regex patterns")
    found: dict[Source, Any] = {}
    for entry in plain:
        if type(entry) is not tuple or len(entry) != 3:
            raise ValueError("not the code of a regex pattern")
        source, flags, data = entry
        if type(source) is not str or type(flags) is not int or type(data) is not tuple:
            raise ValueError("not the code of a regex pattern")
        if not data or data[0] != source:
            raise ValueError("the code of another pattern")
        try:
            pattern = module._regex.compile(*data)
        except (TypeError, ValueError, OverflowError, RuntimeError, module.error) as error:
            raise ValueError(f"not the code of a regex pattern: {error}") from None
        found[source, flags] = pattern
    return found


def compile_all(sources: Sequence[Source]) -> tuple[Any, ...]:
    """Each of ``sources`` compiled as :func:`compile` does; with the
    ``regex`` module, their engine's code is kept in the grammar cache
    (:func:`inputmend.grammar.cache.cached`): compiling takes that module
    longer than a small file takes to repair."""
    if not keepable():
        return tuple(compile(source, flags) for source, flags in sources)
    from inputmend.grammar import cache

    unique = tuple(dict.fromkeys(sources))
    parts = [b"regex code", *engine_parts(), repr(unique).encode("utf-8", "surrogatepass")]

    def build() -> dict[Source, Any]:
        return {(source, flags): compile(source, flags) for source, flags in unique}

    def decode(plain: Any) -> dict[Source, Any]:
        found = from_plain(plain)
        if tuple(found) != unique:
            raise ValueError("the code of other patterns")
        return found

    compiled = cache.cached(parts, build, to_plain, decode)
    return tuple(compiled[source] for source in sources)
