"""Each format's own loader, the last word on what a grammar accepts.

A grammar says which texts are well formed, but most formats have rules a
context-free grammar cannot state (TOML forbids defining a key or table
twice, a CSV table has as many fields in every record as in its header, XML
entities must be declared, an INI name is defined once in its section) or
the format's reference loader reads a little differently (Python reads no
INI name before the first section header).  A grammar header
names the loader of its format (``// semantics: tomllib``): every oracle
built for that grammar asks the loader once the grammar accepts a text, and
a text the loader refuses is incorrect at the place the loader names (see
:class:`~inputmend.oracles.loader.LoaderOracle`).  The grammar proposes and
locates; the loader confirms.

Only the loaders listed here can be named: they are standard-library code or
PyYAML's safe loader, so a grammar file (which may come from an untrusted
workspace) never makes inputmend run code of its own choosing.  A loader
whose library is not installed (PyYAML is an optional extra) is
*unavailable*: the check is then the grammar's alone, and says so.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.parsers import expat

from inputmend.core.oracle import COMPLETE, Feedback, Verdict
from inputmend.core.text import LineIndex, offset_of

if TYPE_CHECKING:
    import configparser

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


def check_csv_columns(text: str) -> Feedback:
    """Python's ``csv`` reader, RFC 4180's rule the grammar cannot count:
    every record has as many fields as the first (the header).  A record
    with another number is incorrect at its start (fewer fields) or at the
    separator that starts its first field too many; a last record that the
    end of the text cuts short (fewer fields, no line break after it) is an
    unfinished prefix, as a cut-off file is: incomplete."""
    index = LineIndex(text)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    expected: int | None = None
    line = 0  # physical lines read before the current record
    try:
        for row in reader:
            start = index.offset(line, 0)
            line = reader.line_num
            if not row:  # an empty line holds no record
                continue
            if expected is None:
                expected = len(row)
                continue
            if len(row) == expected:
                continue
            found = len(row)
            cut_short = not text.endswith(("\n", "\r")) and next(reader, None) is None
            if found < expected and cut_short:
                return Feedback(Verdict.INCOMPLETE, len(text), "the last record is cut short")
            where = start if found < expected else _separator(text, start, expected)
            noun = "field" if expected == 1 else "fields"
            return Feedback(
                Verdict.INCORRECT,
                where,
                f"a record with {found} fields where the header has {expected} {noun}",
            )
    except csv.Error as error:
        return Feedback(Verdict.INCORRECT, index.offset(reader.line_num - 1, 0), str(error))
    return COMPLETE


def _separator(text: str, start: int, fields: int) -> int:
    """The offset of the separator after the first ``fields`` fields of the
    record at ``start`` (quoted commas skipped)."""
    quoted = False
    seen = 0
    for offset in range(start, len(text)):
        char = text[offset]
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            seen += 1
            if seen == fields:
                return offset
    return start


def check_expat(text: str) -> Feedback:
    """Python's expat: well-formedness as it reads it (entities declared,
    attributes unique, one root element); no external entity is loaded."""
    parser = expat.ParserCreate()
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        # expat counts columns in characters, as Python does
        offset = LineIndex(text).offset(error.lineno - 1, error.offset)
        return Feedback(Verdict.INCORRECT, offset, expat.ErrorString(error.code) or str(error))
    return COMPLETE


def check_yaml(text: str) -> Feedback:
    """PyYAML's safe loader (all documents of the stream)."""
    import yaml  # an optional extra: see LOADERS["yaml"].available

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        for _ in yaml.load_all(text, Loader=loader):
            pass
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        offset = None if mark is None else LineIndex(text).offset(mark.line, mark.column)
        message = " ".join(part for part in (error.context, error.problem) if part)
        return Feedback(Verdict.INCORRECT, offset, message or "rejected")
    except yaml.YAMLError as error:
        return Feedback(Verdict.INCORRECT, None, str(error))
    except RecursionError:
        return Feedback(Verdict.INCORRECT, None, "nested too deeply for the YAML loader")
    return COMPLETE


def check_configparser(text: str) -> Feedback:
    """Python's ``configparser`` set up as the bundled INI grammar reads INI
    (``=`` and ``:`` as delimiters, ``#`` and ``;`` starting a comment line,
    ``;`` after a blank starting an inline comment, indented lines continuing
    a value, no name without a value) and strict: it refuses a section, or a
    name in a section, defined twice (names compare as configparser compares
    them, case-insensitively), an empty name (``=x``), and a name before the
    first section header, which inih reads and Python does not (a line of
    prose before the data, ``Here is the file:``, reads as such a name).
    Incorrect at the first character of the line it names."""
    import configparser  # only where INI is checked: a check of JSON never loads it

    parser = configparser.RawConfigParser(
        delimiters=("=", ":"),
        comment_prefixes=("#", ";"),
        inline_comment_prefixes=(";",),
        strict=True,
        empty_lines_in_values=True,
        allow_no_value=False,
    )
    try:
        parser.read_file(io.StringIO(text), "<text>")
    except configparser.Error as error:
        # a duplicate or a name before any section stops it at its line; a
        # line it cannot read does not, and it lists them all at the end
        line = getattr(error, "lineno", None)
        if line is None:
            errors = getattr(error, "errors", None) or [(1, "")]
            line = errors[0][0]
        return Feedback(Verdict.INCORRECT, _line_start(text, line), _ini_message(error))
    return COMPLETE


_INI_HEADER = re.compile(r"[ \t\f\v]*\[")
_INI_COMMENT = re.compile(r"[ \t\f\v]*[;#]")
_INI_PAIR = re.compile(r"[^=:]*[=:][ \t\f\v]*(?P<value>[^\r]*)")
# a name line whose text ends in `]` after a name, with no `[` before it
_INI_BRACKETLESS_LINE = r"[^\[\r\n]*[^\[\]\s=:]\][ \t\f\v]*\r?"
_INI_BRACKETLESS = re.compile(_INI_BRACKETLESS_LINE)
# a line that may be an empty name or a name line ending in `]`
_INI_SUSPECT = re.compile(rf"^[ \t\f\v]*[=:]|^{_INI_BRACKETLESS_LINE}$", re.MULTILINE)


def check_inih(text: str) -> Feedback:
    """inih's reading (the grammar's), less three kinds of line it reads as
    a name and that no INI file writes as one (none of the corpus's INI
    documents has one, outside its section headers and continuation lines):

    - a line of prose above the data: in a document that puts its names in
      sections, when every line before the first ``[section]`` header that
      inih reads as a name has no value (no text after its ``=`` or ``:``,
      no continuation line), that name is a line of prose (``Here is the
      file:``), not inih's global name.  A document without a header is
      inih's alone: nothing then tells a name without a value from prose;
    - an empty name (``=src``): a continuation line that lost its
      indentation (``package_dir =`` then ``    =src``);
    - a name line that ends in ``]`` after a name and has no ``[``
      (``testenv:docs]``): a section header that lost its ``[``, which inih
      reads as the name ``testenv`` and its value ``docs]``.

    Refused at the start of that line.  Only texts the grammar accepts are
    asked, so every line is blank, a comment, a header, a pair or a
    continuation."""
    # without a suspect line, nothing is left to read once prose is ruled out
    suspect = _INI_SUSPECT.search(text) is not None
    valueless: int | None = None  # the first name without a value, while no name has one
    prose = True  # every name so far is before the first header and has no value
    named = False  # after a pair with a name: an indented line continues its value
    offset = 0
    for line in text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        body = line.rstrip("\r\n")
        if not body.strip() or _INI_COMMENT.match(body):
            continue
        if named and body[:1] in " \t\f\v":
            if not suspect:
                return COMPLETE  # a continuation line: the name before has a value after all
            prose = False
            continue
        if _INI_HEADER.match(body):
            if prose and valueless is not None:
                return _refused(
                    text,
                    valueless,
                    "a name without a value, and no name with one, before the first "
                    "[section] header: a line of prose?",
                )
            if not suspect:
                return COMPLETE
            prose = named = False
            continue
        pair = _INI_PAIR.match(body)
        if pair is None:
            continue
        indent = len(body) - len(body.lstrip(" \t\f\v"))
        if body[indent] in "=:":
            return _refused(
                text,
                start + indent,
                "an empty name: a continuation line that lost its indentation?",
            )
        if _INI_BRACKETLESS.fullmatch(body):
            return _refused(
                text,
                start + indent,
                "a name line ending in ']': a [section] header without its '['?",
            )
        named = True
        if prose and pair.group("value").strip():
            if not suspect:
                return COMPLETE
            prose = False
        elif prose and valueless is None:
            valueless = start
    return COMPLETE


def _refused(text: str, offset: int, message: str) -> Feedback:
    """Incorrect at the first non-blank character of the line ``offset`` is on."""
    return Feedback(Verdict.INCORRECT, _line_start(text, text.count("\n", 0, offset) + 1), message)


def _ini_message(error: configparser.Error) -> str:
    """What ``error`` says, in one line without the file's name."""
    import configparser

    if isinstance(error, configparser.MissingSectionHeaderError):
        return "a name before the first [section] header"
    if isinstance(error, configparser.DuplicateSectionError):
        return f"section {error.section!r} defined twice"
    if isinstance(error, configparser.DuplicateOptionError):
        return f"name {error.option!r} defined twice in section {error.section!r}"
    if isinstance(error, configparser.ParsingError):
        return "not a section header, a comment, nor a name with a value"
    return str(error).splitlines()[0]


def _line_start(text: str, line: int) -> int:
    """The offset of the first non-blank character of the 1-based ``line``
    of ``text`` (lines end at ``\\n``, as configparser counts them)."""
    start = offset_of(text, line, 1)
    while start < len(text) and text[start] in " \t\f\v":
        start += 1
    return start


@dataclass(frozen=True)
class Loader:
    """A format's reference loader: its check, and the module it needs."""

    name: str
    check: Callable[[str], Feedback]
    module: str  # the library the check imports
    extra: str | None = None  # the inputmend extra that installs it, when optional

    @property
    def available(self) -> bool:
        """Is its library installed?"""
        return importlib.util.find_spec(self.module) is not None

    @property
    def missing(self) -> str:
        """What to say when it is not available."""
        install = f" (install inputmend[{self.extra}])" if self.extra else ""
        return f"checked by the grammar only: {self.module} is not installed{install}"


LOADERS: dict[str, Loader] = {
    loader.name: loader
    for loader in (
        Loader("tomllib", check_tomllib, "tomllib"),
        Loader("csv", check_csv_columns, "csv"),
        Loader("expat", check_expat, "xml.parsers.expat"),
        Loader("yaml", check_yaml, "yaml", extra="yaml"),
        Loader("configparser", check_configparser, "configparser"),
        Loader("inih", check_inih, "re"),
    )
}
"""The loaders a grammar header can name, by name."""
