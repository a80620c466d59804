"""The corpora of ``tests/corpus/<format>/``, their fresh mutations, and
reference parsers to judge them.

:func:`mutants` makes mutations with the FSynth study's protocol, with the
repair benchmark's ``mutate`` (random byte insertions, deletions and flips;
half of them one mutation, half 2 to 16), seeded by the file's name.

Each ``*_valid`` function takes a file's bytes and says whether the format's
reference implementation accepts it, as inputmend would see the file: bytes
that are not UTF-8 make it invalid, and a UTF-8 byte-order mark is set aside
first (``inputmend.text.decode_bytes``), so the references read the text
without it.

* TOML: Python's ``tomllib``; :func:`toml_error` also returns its message, so
  that the tests can tell syntax errors from the semantic ones the grammar
  leaves to tomllib.
* JSONC: an independent checker of VS Code's dialect (:func:`jsonc_to_json`:
  comments and jsonc-parser's extra whitespace become spaces, trailing commas
  are dropped), then ``json.loads`` without NaN/Infinity.
* YAML: PyYAML's ``safe_load_all`` (every document of the stream);
  :func:`yaml_error` also says whether PyYAML failed to read the text
  (scanner, parser, composer: syntax, anchors and aliases) or only to build
  Python data from it (the constructor: tags, dates, ...), which the grammar
  leaves alone.
* XML: expat (``xml.parsers.expat``) and ``xml.etree.ElementTree``, which
  also checks namespace prefixes and rejects undefined entities;
  :func:`xml_error` returns the message.
"""

from __future__ import annotations

import json
import random
import tomllib
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import NamedTuple
from xml.parsers import expat

import yaml
from bench.repair_corpus import mutate

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MUTANTS_PER_FILE = 24
_BOM = "\ufeff"

# jsonc-parser's isWhiteSpace and isLineBreak (VS Code's JSON scanner)
JSONC_WHITESPACE = frozenset(
    " \t\r\n\x0b\x0c\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"
    + "".join(chr(code) for code in range(0x2000, 0x200C))
)
JSONC_LINE_BREAKS = frozenset("\r\n\u2028\u2029")


def corpus_files(fmt: str) -> list[Path]:
    return sorted(path for path in (CORPUS / fmt).iterdir() if path.is_file())


def mutants(path: Path) -> list[bytes]:
    data = path.read_bytes()
    rng = random.Random(f"reference-{path.name}")
    return [
        mutate(data, 1 if index % 2 else rng.randint(2, 16), rng)
        for index in range(MUTANTS_PER_FILE)
    ]


def _text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text.removeprefix(_BOM)


def toml_error(data: bytes) -> str | None:
    """tomllib's error message, ``None`` when the file is valid TOML."""
    text = _text(data)
    if text is None:
        return "not UTF-8"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return str(error)
    return None


def toml_valid(data: bytes) -> bool:
    return toml_error(data) is None


def jsonc_to_json(text: str) -> str | None:
    """Strict JSON for a JSONC text, ``None`` when a block comment is unterminated.

    Outside strings: comments and whitespace become one space each, and a comma
    whose next significant character closes an object or array is dropped unless
    it follows an opening bracket or another comma (``[,]`` and ``[1,,]`` stay
    invalid, as in VS Code).  Strings are copied as they are; one that runs past
    a line break is invalid JSON anyway."""
    out: list[str] = []
    significant: list[int] = []  # indices in ``out`` of non-space pieces
    position, length = 0, len(text)
    while position < length:
        char = text[position]
        if char == '"':
            end = position + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            piece = text[position : end + 1]
            position = end + 1
        elif text.startswith("//", position):
            while position < length and text[position] not in JSONC_LINE_BREAKS:
                position += 1
            out.append(" ")
            continue
        elif text.startswith("/*", position):
            end = text.find("*/", position + 2)
            if end < 0:
                return None
            position = end + 2
            out.append(" ")
            continue
        elif char in JSONC_WHITESPACE:
            position += 1
            out.append(" ")
            continue
        else:
            piece = char
            position += 1
            if char in "]}" and significant and out[significant[-1]] == ",":
                before = out[significant[-2]][-1] if len(significant) > 1 else ""
                if before not in ("[", "{", ",", ""):
                    out[significant.pop()] = " "
        significant.append(len(out))
        out.append(piece)
    return "".join(out)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def jsonc_valid(data: bytes) -> bool:
    text = _text(data)
    if text is None:
        return False
    converted = jsonc_to_json(text)
    if converted is None:
        return False
    if not converted.strip(" "):
        return True  # empty, or comments only
    try:
        json.loads(converted, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False
    return True


class YamlError(NamedTuple):
    """Why PyYAML refused a text: while reading it (``constructing`` False)
    or while building the data."""

    message: str
    constructing: bool


def yaml_error(data: bytes) -> YamlError | None:
    """PyYAML's objection to a file, ``None`` when safe_load_all reads it.

    Any exception counts (an escape beyond U+10FFFF raises ValueError,
    an impossible date too)."""
    text = _text(data)
    if text is None:
        return YamlError("not UTF-8", False)
    try:
        for _ in yaml.compose_all(text):
            pass
    except Exception as error:  # noqa: BLE001 - PyYAML raises more than YAMLError
        return YamlError(f"{type(error).__name__}: {error}", False)
    try:
        for _ in yaml.safe_load_all(text):
            pass
    except Exception as error:  # noqa: BLE001
        return YamlError(f"{type(error).__name__}: {error}", True)
    return None


def yaml_valid(data: bytes) -> bool:
    return yaml_error(data) is None


def xml_error(data: bytes) -> str | None:
    """expat's or ElementTree's error message, ``None`` when the file is well-formed."""
    text = _text(data)
    if text is None:
        return "not UTF-8"
    encoded = text.encode("utf-8")
    parser = expat.ParserCreate()
    try:
        parser.Parse(encoded, True)
        ElementTree.fromstring(encoded)
    except (expat.ExpatError, ElementTree.ParseError) as error:
        return str(error)
    except LookupError as error:  # an encoding declaration Python does not know
        return str(error)
    return None


def xml_valid(data: bytes) -> bool:
    return xml_error(data) is None


VALID = {"toml": toml_valid, "jsonc": jsonc_valid, "yaml": yaml_valid, "xml": xml_valid}
