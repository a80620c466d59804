"""Oracles for one record, and the C-speed pre-checks that spare them.

* :class:`SingleLine` (JSON Lines): a record is one line, so a repair may
  never put a line break into it.
* :class:`CsvRowOracle`: one CSV row of RFC 4180 with as many fields as the
  header.  The bundled ``csv`` grammar reads the quoting but cannot count
  fields; this oracle adds the count: a row with fewer fields is a valid
  *prefix* (incomplete, so FSynth can append the missing ones), the comma
  that starts one field too many is where the row becomes incorrect.

A pre-check (:data:`FastCheck`) answers "valid for sure" for the common case
without the oracle, and "ask the oracle" otherwise.  It must never accept a
record the oracle rejects; ``tests/records/test_oracles.py`` checks that on
random texts.  There are two:

* :func:`json_fast_check` for the bundled JSON grammar: Python's C JSON
  decoder with ``NaN``/``Infinity`` refused.  The C decoder reads exactly
  RFC 8259 otherwise: the same four whitespace characters around and between
  tokens, the same string escapes, control characters refused in strings,
  ASCII digits only.  It refuses some texts the grammar accepts (integers of
  more than 4300 digits, nesting deeper than the recursion limit); those go
  to the oracle.  Texts with surrogates (undecodable bytes) always go to the
  oracle, which treats them as damage.
* :class:`CsvFastCheck` for the bundled CSV grammar: one regular expression
  that is the grammar's ``record`` rule, and a field count.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable

from inputmend.core.oracle import COMPLETE, Feedback, Oracle, Verdict
from inputmend.grammar import registry
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.records.model import Format

FastCheck = Callable[[str], bool]
"""True: the oracle accepts the record for sure; False: ask the oracle."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


_JSON = json.JSONDecoder(parse_constant=_no_constant)
_C_JSON = getattr(json.scanner, "c_make_scanner", None) is not None
"""The pre-check relies on the C decoder (the pure-Python one reads any
Unicode digit as a digit)."""


def json_fast_check(text: str) -> bool:
    """Does the bundled JSON grammar accept ``text`` for sure?"""
    if not text.isascii() and _SURROGATE.search(text) is not None:
        return False
    try:
        _JSON.decode(text)
    except (ValueError, RecursionError):
        return False
    return True


# The grammar's ``record`` rule: fields of quoted text (quotes doubled inside,
# line breaks allowed) or unquoted text without quotes, commas or line breaks.
_QUOTED = r'"(?:[^"]|"")*"'
_FIELD = rf'(?:{_QUOTED}|[^,"\r\n]*)'
_CSV_ROW = re.compile(rf"{_FIELD}(?:,{_FIELD})*")
_QUOTED_FIELD = re.compile(_QUOTED)
# what separates or breaks fields: a quoted run (maybe unterminated), a comma, a line break
_CSV_STRUCTURE = re.compile(r'"(?:[^"]|"")*"?|[,\r\n]')


def csv_fields(row: str) -> int:
    """The number of fields of a valid CSV row."""
    unquoted = _QUOTED_FIELD.sub("", row) if '"' in row else row
    return unquoted.count(",") + 1


def json_line_fast_check(text: str) -> bool:
    """Is ``text`` one line of JSON the bundled grammar accepts, for sure?"""
    return "\n" not in text and json_fast_check(text)


class CsvFastCheck:
    """Is ``text`` one CSV row with ``columns`` fields, for sure?"""

    def __init__(self, columns: int | None) -> None:
        self.columns = columns

    def __call__(self, text: str) -> bool:
        if not text or _CSV_ROW.fullmatch(text) is None:
            return False
        if not text.isascii() and _SURROGATE.search(text) is not None:
            return False
        return self.columns is None or csv_fields(text) == self.columns


class SingleLine:
    """A record of a line-based format: ``inner`` judges it, and a line break
    in it is an error (a repair must not split a record in two)."""

    def __init__(self, inner: Oracle) -> None:
        self.inner = inner

    def check(self, text: str) -> Feedback:
        newline = text.find("\n")
        if newline < 0:
            return self.inner.check(text)
        before = self.inner.check(text[:newline])
        if before.verdict is Verdict.INCORRECT:
            return before
        return Feedback(Verdict.INCORRECT, newline, "a line break inside a record")

    def describe(self) -> str:
        return f"{self.inner.describe()}, one record per line"

    def close(self) -> None:
        self.inner.close()


class CsvRowOracle:
    """One CSV row (RFC 4180) with ``columns`` fields (any number when ``None``,
    as for the header), and then ``extra`` when given."""

    def __init__(self, columns: int | None, extra: Oracle | None = None) -> None:
        self.inner = IncrementalGrammarOracle("csv")
        self.columns = columns
        self.extra = extra

    def check(self, text: str) -> Feedback:
        feedback = self._row(text)
        if feedback.valid and self.extra is not None:
            return self.extra.check(text)
        return feedback

    def _row(self, text: str) -> Feedback:
        if not text:
            return Feedback(Verdict.INCOMPLETE, 0, "empty record")
        grammar = self.inner.check(text)
        read = len(text)
        if grammar.verdict is Verdict.INCORRECT and grammar.error_offset is not None:
            read = grammar.error_offset
        commas = 0
        for match in _CSV_STRUCTURE.finditer(text, 0, read):
            found = match.group()
            if found in "\r\n":
                return Feedback(Verdict.INCORRECT, match.start(), "a line break outside quotes")
            if found == ",":
                commas += 1
                if self.columns is not None and commas == self.columns:
                    message = f"more fields than the header's {self.columns}"
                    return Feedback(Verdict.INCORRECT, match.start(), message)
        if not grammar.valid:
            return grammar
        if self.columns is not None and commas + 1 < self.columns:
            message = f"{commas + 1} field(s); the header has {self.columns}"
            return Feedback(Verdict.INCOMPLETE, len(text), message)
        return COMPLETE

    def describe(self) -> str:
        fields = "any number of" if self.columns is None else str(self.columns)
        extra = f" and {self.extra.describe()}" if self.extra is not None else ""
        return f"a CSV row (RFC 4180) with {fields} fields{extra}"

    def close(self) -> None:
        self.inner.close()
        if self.extra is not None:
            self.extra.close()


def is_bundled(oracle: Oracle, name: str) -> bool:
    """Is ``oracle`` exactly the bundled grammar ``name`` (nothing combined)?"""
    if not isinstance(oracle, IncrementalGrammarOracle | ReferenceGrammarOracle):
        return False
    info = registry.bundled().get(name)
    return info is not None and oracle.grammar.info.path == info.path


def record_oracle(
    fmt: Format, base: Oracle | None, *, columns: int | None = None
) -> tuple[Oracle, FastCheck | None]:
    """The oracle for one record of ``fmt``, built on the configured ``base``
    (``None``: the format's default, JSON for lines), and its pre-check."""
    if fmt == "lines":
        inner = base if base is not None else IncrementalGrammarOracle("json")
        fast = json_line_fast_check if is_bundled(inner, "json") and _C_JSON else None
        return SingleLine(inner), fast
    if base is None or is_bundled(base, "csv"):
        return CsvRowOracle(columns), CsvFastCheck(columns)
    return CsvRowOracle(columns, extra=base), None
