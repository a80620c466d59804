"""The command line's file operations: one-line read errors, atomic writes, backups."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from inputmend.cli.errors import InputError
from inputmend.cli.files import (
    AtomicFile,
    backup_path,
    expand,
    read_input,
    replace_contents,
    write_in_place,
    write_output,
)


def test_reading_keeps_what_writing_needs(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"\xef\xbb\xbf[1,\xff]")
    source = read_input(path)
    assert source.encoding.bom and source.text == "[1,\udcff]"
    assert source.encode() == path.read_bytes()
    assert source.encode("[1]") == b"\xef\xbb\xbf[1]"
    path.write_bytes(b"\xff\xfe[\x001\x00,\x00]\x00")
    source = read_input(path)
    assert (source.text, source.encoding.name) == ("[1,]", "utf-16-le")
    assert source.encode("[1]") == b"\xff\xfe[\x001\x00]\x00"
    assert read_input(path, encoding="latin-1").text == "ÿþ[\x001\x00,\x00]\x00"


def test_undecodable_files_and_unknown_encodings_are_one_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"\xff\xfe[\x00]")
    with pytest.raises(InputError, match=f"^{path}: utf-16-le with BOM text ends inside"):
        read_input(path)
    with pytest.raises(InputError, match=f"^{path}: unknown text encoding 'nope'$"):
        read_input(path, encoding="nope")


def test_a_repair_the_encoding_cannot_hold_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "a.ini"
    path.write_bytes(b"k=caf\xe9\n")
    source = read_input(path, encoding="cp1252")
    message = f"^{path}: repair not written: cp1252 cannot represent 'Ω' \\(U\\+03A9\\) at 2:1$"
    with pytest.raises(InputError, match=message):
        write_in_place(source, "k=café\nΩ")
    with pytest.raises(InputError, match="cannot represent"):
        write_output(source, "Ω", tmp_path / "b.ini")
    assert [p.name for p in tmp_path.iterdir()] == ["a.ini"]  # no backup, no output
    assert path.read_bytes() == b"k=caf\xe9\n"


@pytest.mark.parametrize(("make", "message"), [(None, "no such file"), ("dir", "is a directory")])
def test_reading_problems_are_one_line(tmp_path: Path, make: str | None, message: str) -> None:
    path = tmp_path / "x"
    if make == "dir":
        path.mkdir()
    with pytest.raises(InputError, match=f"^{path}: {message}$"):
        read_input(path)


def test_atomic_writes_keep_the_mode_and_leave_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "script.sh"
    path.write_text("old")
    path.chmod(0o750)
    replace_contents(path, b"new")
    assert path.read_bytes() == b"new"
    assert path.stat().st_mode & 0o777 == 0o750
    assert [p.name for p in tmp_path.iterdir()] == ["script.sh"]


def test_a_file_written_in_pieces_appears_only_when_committed(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text("old")
    target = AtomicFile(path)
    target.write(b"new ")
    assert path.read_text() == "old"
    target.discard()
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    with AtomicFile(path) as target:
        target.write(b"new ")
        target.write(b"text")
    assert path.read_text() == "new text"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    with pytest.raises(RuntimeError), AtomicFile(path) as target:
        target.write(b"half")
        raise RuntimeError
    assert path.read_text() == "new text"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_a_file_written_in_pieces_follows_symlinks_and_keeps_hard_links(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("old")
    link, other = tmp_path / "link.jsonl", tmp_path / "other.jsonl"
    link.symlink_to(real)
    os.link(real, other)
    with AtomicFile(link) as target:
        target.write(b"new")
    assert link.is_symlink() and real.read_text() == "new"
    assert os.path.samefile(real, other)


def test_only_regular_files_are_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a FIFO, not a regular file"):
        AtomicFile(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_backups_are_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[1,]")
    assert backup_path(path).name == "a.json.orig"
    first = write_in_place(read_input(path), "[1]")
    second = write_in_place(read_input(path), "[2]")
    assert first.endswith("(original kept as " + str(tmp_path / "a.json.orig") + ")")
    assert second.endswith("a.json.orig.1)")
    assert (tmp_path / "a.json.orig").read_text() == "[1,]"
    assert (tmp_path / "a.json.orig.1").read_text() == "[1]"
    assert path.read_text() == "[2]"


def test_an_output_file_is_never_the_input(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[1,]")
    with pytest.raises(InputError, match="use --in-place"):
        write_output(read_input(path), "[1]", tmp_path / "." / "a.json")
    target = tmp_path / "b.json"
    assert write_output(read_input(path), "[1]", target) == f"wrote {target}"


def test_folders_give_their_files_with_an_oracle(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / ".hidden").mkdir()
    names = (
        "a.json",
        "sub/b.ini",
        "c.unknown",
        "a.json.orig",
        ".hidden/d.json",
        "w.code-workspace",
    )
    for name in names:
        (tmp_path / name).write_text("x")
    found = expand([str(tmp_path)], every_file=False)
    assert found == [
        str(tmp_path / "a.json"),
        str(tmp_path / "w.code-workspace"),  # named by the jsonc grammar's header
        str(tmp_path / "sub" / "b.ini"),
    ]
    every = expand([str(tmp_path)], every_file=True)
    assert str(tmp_path / "c.unknown") in every and str(tmp_path / "a.json.orig") not in every
    assert expand(["named.txt"], every_file=False) == ["named.txt"]
