"""Oracles for one record, and the C-speed pre-checks that spare them.

* :class:`SingleLine` (JSON Lines): a record is one line, so a repair may
  never put a line break into it.
* :class:`CsvRowOracle`: one CSV row of RFC 4180 with as many fields as the
  header.  The bundled ``csv`` grammar reads the quoting but cannot count
  fields; this oracle adds the count: a row with fewer fields is a valid
  *prefix* (incomplete, so FSynth can append the missing ones), the comma
  that starts one field too many is where the row becomes incorrect.

A pre-check (:class:`FastCheck`) answers "valid for sure" for the common
case without the oracle, and "ask the oracle" otherwise, one record at a time
or a partition's records at once.  It must never accept a record the oracle
rejects; ``tests/records/test_oracles.py`` checks that on random texts.
There are two kinds:

* :class:`LineAccept`: the accept check a bundled grammar names in its
  header (``// accept: json``, :mod:`inputmend.grammar.accept`), for an
  oracle that is that grammar alone, and no line break in the record.
* :class:`CsvFastCheck` for the row oracle on the bundled CSV grammar: one
  regular expression that is the grammar's ``record`` rule, and a field
  count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from inputmend.core.oracle import COMPLETE, Feedback, Oracle, Verdict
from inputmend.grammar import registry
from inputmend.grammar.accept import AcceptCheck, accept_check
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.loader import LoaderOracle
from inputmend.oracles.wrappers import AllOf
from inputmend.records.model import Format


class FastCheck(Protocol):
    """True: the oracle accepts the record for sure; False: ask the oracle."""

    def __call__(self, text: str) -> bool: ...

    def unsure(self, texts: Sequence[str]) -> list[int]:
        """The indices of ``texts`` (records decoded from UTF-8 without
        errors) this check does not accept, in order."""
        ...

    def unsure_lines(self, data: bytes, limit: int) -> list[int] | None:
        """The indices of the lines of ``data`` (a partition of records, one
        per line) this check does not accept or that are longer than
        ``limit`` bytes, in order, read from the bytes in one pass; None
        when it cannot tell that way (ask :meth:`unsure`)."""
        ...


_SURROGATE = re.compile("[\ud800-\udfff]")


class LineAccept:
    """A grammar's accept check on one line: a record with a line break is
    left to the oracle (which refuses it, see :class:`SingleLine`)."""

    def __init__(self, check: AcceptCheck) -> None:
        self.check = check

    def __call__(self, text: str) -> bool:
        return "\n" not in text and self.check.accepts(text)

    def unsure(self, texts: Sequence[str]) -> list[int]:
        if any("\n" in text for text in texts):
            return [index for index, text in enumerate(texts) if not self(text)]
        return self.check.unsure(texts)

    def unsure_lines(self, data: bytes, limit: int) -> list[int] | None:
        """The check's own pass over lines (:attr:`AcceptCheck.lines
        <inputmend.grammar.accept.AcceptCheck.lines>`), when it has one and
        the lines it cuts at line feeds are those of
        :class:`~inputmend.records.split.Lines`: every carriage return is
        part of a ``\\r\\n`` (a lone one may end a line too).  The
        ``\\r`` of a line's ending is a blank after its value to the
        check, as it is to the decoder."""
        if self.check.lines is None:
            return None
        if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
            return None
        return self.check.lines(data, limit)


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


class CsvFastCheck:
    """Is ``text`` one CSV row with ``columns`` fields, for sure?

    The row's expression repeats the field ``columns - 1`` times after the
    first, built once per stream (the header fixes the count): one match
    answers for the grammar and the count together (a field holds no comma
    outside quotes, so a row has one reading)."""

    def __init__(self, columns: int | None) -> None:
        self.columns = columns
        counted = _CSV_ROW if columns is None else _fields(columns)
        self._row = counted.fullmatch

    def __call__(self, text: str) -> bool:
        if not text or self._row(text) is None:
            return False
        return text.isascii() or _SURROGATE.search(text) is None

    def unsure(self, texts: Sequence[str]) -> list[int]:
        row = self._row
        return [index for index, text in enumerate(texts) if not text or row(text) is None]

    def unsure_lines(self, data: bytes, limit: int) -> list[int] | None:
        """None: a row may span lines."""
        return None


def _fields(columns: int) -> re.Pattern[str]:
    """A row of the grammar with exactly ``columns`` fields."""
    return re.compile(rf"{_FIELD}(?:,{_FIELD}){{{max(0, columns - 1)}}}")


_GRAMMAR_ROW = CsvFastCheck(None)
"""Is a text one row of the bundled CSV grammar, of any number of fields, for sure?"""


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
        # a row the pre-check takes is one the grammar takes: no scan for it
        # (most rows a search tries are, with a field too few or too many)
        grammar = COMPLETE if _GRAMMAR_ROW(text) else self.inner.check(text)
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


def _csv_with_its_loader(oracle: Oracle) -> bool:
    """Is ``oracle`` the bundled CSV grammar and its loader (as a ``.csv``
    file is checked)?  The loader's one rule, as many fields as the header,
    is what the row oracle checks against the stream's header."""
    if not isinstance(oracle, AllOf) or len(oracle.parts) != 2:
        return False
    grammar, loader = oracle.parts
    return (
        is_bundled(grammar, "csv")
        and isinstance(loader, LoaderOracle)
        and loader.loader.name == "csv"
    )


def grammar_accept_check(oracle: Oracle) -> AcceptCheck | None:
    """The accept check of the grammar ``oracle`` is, when it is a bundled
    grammar alone (nothing combined) whose header names one."""
    if not isinstance(oracle, IncrementalGrammarOracle | ReferenceGrammarOracle):
        return None
    name = oracle.grammar.info.name
    return accept_check(oracle.grammar.info.accept) if is_bundled(oracle, name) else None


def record_oracle(
    fmt: Format, base: Oracle | None, *, columns: int | None = None
) -> tuple[Oracle, FastCheck | None]:
    """The oracle for one record of ``fmt``, built on the configured ``base``
    (``None``: the format's default, JSON for lines), and its pre-check."""
    if fmt == "lines":
        inner = base if base is not None else IncrementalGrammarOracle("json")
        check = grammar_accept_check(inner)
        return SingleLine(inner), LineAccept(check) if check is not None else None
    if base is None or is_bundled(base, "csv") or _csv_with_its_loader(base):
        return CsvRowOracle(columns), CsvFastCheck(columns)
    return CsvRowOracle(columns, extra=base), None
