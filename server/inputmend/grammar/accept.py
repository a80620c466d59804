"""Fast accept checks: C-speed code that accepts part of what a grammar accepts.

Checking a valid text with the grammar costs a scan in Python (or the C
loop with Python around it); most texts a program writes are valid, and
for some formats the standard library reads them at C speed.  A grammar
header names such a check (``// accept: json``): a text the check accepts is
one the grammar accepts, for sure; a text it refuses may still be valid and
goes to the grammar.  The check may refuse more than the grammar, never
less, so the verdict of a grammar with an accept check never changes:
``tests/grammars/test_accept.py`` holds every check to its grammars on
thousands of texts near the edges of both languages.

The JSON check has a second form in C (``json_lines`` of the extension,
:mod:`inputmend.grammar.native`) for record mode: it reads the lines of a
partition's bytes in one call, as strict UTF-8 and RFC 8259, and builds no
value; it accepts a line only when the C decoder accepts it decoded.

Only the checks listed here can be named, and only the bundled grammars'
headers are honoured (:func:`accept_check`): a grammar of one's own that
named one could accept what it does not describe.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inputmend.grammar import native

_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


_JSON = json.JSONDecoder(parse_constant=_no_constant)
_SCAN: Callable[[str, int], tuple[object, int]] = _JSON.scan_once  # type: ignore[attr-defined]
C_JSON = getattr(json.scanner, "c_make_scanner", None) is not None
"""The JSON check relies on the C decoder (the pure-Python one reads any
Unicode digit as a digit); without it there is no JSON accept check."""


def json_accepts(text: str) -> bool:
    """Python's C JSON decoder with ``NaN``/``Infinity`` refused: it reads
    exactly RFC 8259 otherwise (the same four whitespace characters around
    and between tokens, the same string escapes, escaped lone surrogates
    accepted, control characters refused in strings, ASCII digits only).
    It refuses some texts the grammar accepts (integers of more than 4300
    digits, nesting deeper than the recursion limit): they go to the
    grammar.  Texts with raw surrogates (undecodable bytes) always do."""
    if not text.isascii() and _SURROGATE.search(text) is not None:
        return False
    try:
        _JSON.decode(text)
    except (ValueError, RecursionError):
        return False
    return True


def json_unsure(texts: Sequence[str]) -> list[int]:
    """The indices of ``texts`` that :func:`json_accepts` does not accept,
    with one call of the C scanner per text that starts with its value and
    ends with it (the decoder's whitespace skipping is Python code)."""
    scan = _SCAN
    unsure: list[int] = []
    for index, text in enumerate(texts):
        try:
            if scan(text, 0)[1] == len(text) and (
                text.isascii() or _SURROGATE.search(text) is None
            ):
                continue
        except (StopIteration, ValueError, RecursionError):
            pass
        if not json_accepts(text):
            unsure.append(index)
    return unsure


@dataclass(frozen=True)
class AcceptCheck:
    """An accept check: one text, or many at once (the indices it does not
    accept, in order).  ``lines`` (when there is one) takes a run of UTF-8
    bytes and a size limit, and gives the indices of the lines (cut at each
    line feed; nothing after the last one is a line) that it does not accept
    or that are longer than the limit, without decoding them: the check of
    a partition of records, one per line, in one call."""

    name: str
    accepts: Callable[[str], bool]
    unsure: Callable[[Sequence[str]], list[int]]
    available: bool = True
    lines: Callable[[bytes, int], list[int]] | None = None


ACCEPT_CHECKS: dict[str, AcceptCheck] = {
    check.name: check
    for check in (AcceptCheck("json", json_accepts, json_unsure, C_JSON, native.json_lines),)
}
"""The accept checks a grammar header can name, by name."""


def accept_check(name: str | None) -> AcceptCheck | None:
    """The available check called ``name`` (None: none, or not available)."""
    check = ACCEPT_CHECKS.get(name) if name is not None else None
    return check if check is not None and check.available else None
