"""Grammars, hints and configuration files are read only up to a size limit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inputmend.grammar.hints import HintsError, load_hints
from inputmend.grammar.small_files import MAX_SMALL_FILE_BYTES, FileTooLarge, read_small_text


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on disk (a hole)."""
    with path.open("wb") as stream:
        stream.truncate(size)
    return path


def test_a_small_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.lark"
    path.write_text("start: 'é'\n", encoding="utf-8")
    assert read_small_text(path) == "start: 'é'\n"
    path.write_bytes(b"x" * MAX_SMALL_FILE_BYTES)
    assert len(read_small_text(path)) == MAX_SMALL_FILE_BYTES


def test_a_huge_sparse_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = _sparse(tmp_path / "huge.lark", 6 << 30)
    with pytest.raises(FileTooLarge, match=r"huge.lark is too large \(6442450944 bytes, more"):
        read_small_text(path)
    with pytest.raises(FileTooLarge, match="too large"):
        read_small_text(_sparse(tmp_path / "just.lark", MAX_SMALL_FILE_BYTES + 1))


def test_a_device_is_refused_before_it_is_read(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    with pytest.raises(FileTooLarge, match="not a regular file"):
        read_small_text(Path("/dev/zero"))


def test_a_huge_hints_file_is_a_hints_error(tmp_path: Path) -> None:
    path = _sparse(tmp_path / "big.hints.toml", 6 << 30)
    with pytest.raises(HintsError, match="too large"):
        load_hints(path)
