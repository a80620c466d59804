"""The corpora of the newer formats (``tests/corpus/FORMAT/``).

At least 30 real-looking valid files per format (TOML, YAML, XML, JSONC); every
one must be valid for the format's reference parser (``references.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grammars import references

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FORMATS = ("toml", "yaml", "xml", "jsonc")


def corpus_files(fmt: str) -> list[Path]:
    return sorted(path for path in (CORPUS / fmt).iterdir() if path.is_file())


@pytest.mark.parametrize("fmt", FORMATS)
def test_corpus_has_enough_real_looking_files(fmt: str) -> None:
    files = corpus_files(fmt)
    assert len(files) >= 30
    assert len({path.read_bytes() for path in files}) == len(files)
    assert any(b"\r\n" in path.read_bytes() for path in files), "a CRLF file"
    assert any(not path.read_bytes().endswith(b"\n") for path in files), "no final newline"


@pytest.mark.parametrize(
    ("fmt", "path"),
    [(fmt, path) for fmt in FORMATS for path in corpus_files(fmt)],
    ids=lambda value: value.name if isinstance(value, Path) else str(value),
)
def test_corpus_file_is_valid_for_the_reference_parser(fmt: str, path: Path) -> None:
    assert references.VALID[fmt](path.read_bytes())


def test_references_reject_what_is_not_utf8_and_ignore_a_bom() -> None:
    for fmt in FORMATS:
        data = corpus_files(fmt)[0].read_bytes()
        assert references.VALID[fmt](b"\xef\xbb\xbf" + data)
        assert not references.VALID[fmt](data + b"\xff")
