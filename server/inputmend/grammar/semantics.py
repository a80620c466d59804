"""Rules of a format that are not syntax, checked by the standard library.

A grammar says which texts are well formed; some formats have rules beyond
that (TOML forbids defining a key or table twice).  A grammar header may name
one of the checks here (``// semantics: tomllib``); the language server runs
it, in its own process, on documents the grammar accepts and reports what it
rejects as a validator diagnostic.  Only the checks listed here can be named:
they are standard-library code, so a grammar file (which may come from an
untrusted workspace) never makes inputmend run code of its own choosing.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable

from inputmend.core.text import LineIndex
from inputmend.oracles.base import COMPLETE, Feedback, Verdict

_TOMLLIB_PLACE = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")


def check_tomllib(text: str) -> Feedback:
    """Python's ``tomllib``: COMPLETE, or INCORRECT at the place it names."""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        place = _TOMLLIB_PLACE.search(message)
        if place is None:
            return Feedback(Verdict.INCORRECT, None, message)
        offset = len(text)
        if place.group(1) is not None:
            offset = LineIndex(text).offset(int(place.group(1)) - 1, int(place.group(2)) - 1)
        return Feedback(Verdict.INCORRECT, offset, message[: place.start()])
    return COMPLETE


CHECKS: dict[str, Callable[[str], Feedback]] = {"tomllib": check_tomllib}
"""The checks a grammar header can name, by name."""
