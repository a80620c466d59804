"""Nothing lost, nothing exposed: backups, concurrent changes, symbolic and
hard links, modes and owners, special files, what folders give."""

from __future__ import annotations

import os
import socket
import stat
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inputmend.cli.errors import InputError
from inputmend.cli.files import (
    AtomicFile,
    FileChanged,
    expand,
    read_input,
    write_in_place,
)
from tests.cli.helpers import held_open, run

BROKEN, REPAIRED = '{"item": "Apple", "price": **3.45}', '{"item": "Apple", "price": 3.45}'
ROOT = os.geteuid() == 0
OTHER_UID = 65534  # nobody


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "data.json"
    path.write_text(BROKEN)
    return path


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


# ----------------------------------------------------------------- backups
def test_the_backup_keeps_the_originals_mode(broken: Path, umask_022: None) -> None:
    broken.chmod(0o600)
    write_in_place(read_input(broken), REPAIRED)
    assert _mode(broken.with_name("data.json.orig")) == 0o600
    assert _mode(broken) == 0o600 and broken.read_text() == REPAIRED


@pytest.mark.skipif(not ROOT, reason="changing owners needs root")
def test_the_backup_and_the_repair_keep_the_owner(broken: Path) -> None:
    os.chown(broken, OTHER_UID, OTHER_UID)
    write_in_place(read_input(broken), REPAIRED)
    for path in (broken, broken.with_name("data.json.orig")):
        assert (path.stat().st_uid, path.stat().st_gid) == (OTHER_UID, OTHER_UID)


@pytest.mark.parametrize("points_to", ["victim", "missing"])
def test_a_backup_name_taken_by_a_symlink_is_never_written_through(
    broken: Path, tmp_path: Path, points_to: str
) -> None:
    victim = tmp_path / points_to
    if points_to == "victim":
        victim.write_text("secret")
        victim.chmod(0o600)
    broken.with_name("data.json.orig").symlink_to(victim)
    message = write_in_place(read_input(broken), REPAIRED)
    assert message.endswith("data.json.orig.1)")
    assert broken.with_name("data.json.orig.1").read_text() == BROKEN
    if points_to == "victim":
        assert victim.read_text() == "secret"
    else:
        assert not victim.exists()


# -------------------------------------------------------- concurrent change
@pytest.mark.parametrize("how", ["content", "same size and time", "an identical copy"])
def test_a_file_changed_since_it_was_read_is_not_replaced(broken: Path, how: str) -> None:
    source = read_input(broken)
    before = broken.stat()
    if how == "an identical copy":  # another program saved it: a new file, as it was
        copy = broken.with_name("copy")
        copy.write_text(BROKEN)
        os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
        copy.replace(broken)
    else:
        broken.write_text("[9, 9,]" if how == "same size and time" else "[1, 2, 3, 4,]")
    if how != "content":
        os.utime(broken, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(InputError, match="changed since it was read"):
        write_in_place(source, REPAIRED)
    assert broken.read_text() != REPAIRED, "the concurrent save is kept"


def test_a_file_appended_to_while_its_new_version_is_written_is_not_replaced(
    broken: Path,
) -> None:
    source = read_input(broken)
    new = AtomicFile(broken)
    new.write(REPAIRED.encode())
    with broken.open("a") as log:
        log.write("\nlate")
    with pytest.raises(FileChanged, match="changed since it was read"):
        new.commit(unchanged_since=source.state)
    assert broken.read_text() == BROKEN + "\nlate"
    assert sorted(p.name for p in broken.parent.iterdir()) == ["data.json"]


def test_a_file_another_process_writes_is_not_rewritten_in_place(
    capsys: pytest.CaptureFixture[str], broken: Path
) -> None:
    with held_open(broken, "a") as writer:
        code, _, err = run(capsys, "repair", "--in-place", str(broken))
    assert code == 2 and f"is open for writing by process {writer.pid} (python" in err
    assert broken.read_text() == BROKEN
    assert sorted(p.name for p in broken.parent.iterdir()) == ["data.json"]


# ------------------------------------------------ attributes and read-only files
def _acl(*entries: tuple[int, int, int]) -> bytes:
    """A ``system.posix_acl_access`` value: version 2, then (tag, permissions, id)."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)


_NOBODY_MAY_READ = _acl(
    (0x01, 6, 0xFFFFFFFF),  # owner rw
    (0x02, 4, OTHER_UID),  # user nobody r
    (0x04, 4, 0xFFFFFFFF),  # group r
    (0x10, 4, 0xFFFFFFFF),  # mask r
    (0x20, 0, 0xFFFFFFFF),  # others nothing
)


@pytest.mark.parametrize("mode", ["whole file", "records"])
def test_in_place_keeps_extended_attributes_and_acls(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str
) -> None:
    path = tmp_path / ("data.json" if mode == "whole file" else "data.jsonl")
    path.write_text(BROKEN if mode == "whole file" else '{"a": tru}\n')
    try:
        os.setxattr(path, "user.origin", b"camera 7")
        os.setxattr(path, "system.posix_acl_access", _NOBODY_MAY_READ)
    except OSError as error:
        pytest.skip(f"no extended attributes or ACLs here: {error}")
    before = {name: os.getxattr(path, name) for name in os.listxattr(path)}
    code, out, err = run(capsys, "repair", "--in-place", str(path))
    assert code == 0, out + err
    for kept in (path, path.with_name(path.name + ".orig")):
        assert {name: os.getxattr(kept, name) for name in os.listxattr(kept)} == before
        assert _mode(kept) == 0o640


@pytest.mark.parametrize("mode", ["whole file", "records"])
def test_a_read_only_file_is_rewritten_only_with_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str
) -> None:
    path = tmp_path / ("data.json" if mode == "whole file" else "data.jsonl")
    original = BROKEN if mode == "whole file" else '{"a": tru}\n'
    path.write_text(original)
    path.chmod(0o444)
    code, _, err = run(capsys, "repair", "--in-place", str(path))
    assert code == 2 and "is read-only (mode 0444)" in err and "--force" in err
    assert path.read_text() == original and [p.name for p in tmp_path.iterdir()] == [path.name]
    code, _, err = run(capsys, "repair", "--in-place", "--force", str(path))
    assert code == 0, err
    assert path.read_text() != original and _mode(path) == 0o444
    assert _mode(path.with_name(path.name + ".orig")) == 0o444


def test_a_read_only_output_is_replaced_only_with_force(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out.json"
    target.write_text("kept")
    target.chmod(0o444)
    code, _, err = run(capsys, "repair", str(broken), "-o", str(target))
    assert code == 2 and "is read-only" in err and target.read_text() == "kept"
    assert run(capsys, "repair", str(broken), "-o", str(target), "--force")[0] == 0
    assert target.read_text() == REPAIRED and _mode(target) == 0o444


# ------------------------------------------------------------------- links
def test_in_place_on_a_symlink_repairs_its_target_and_keeps_the_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    real = tmp_path / "real" / "data.json"
    real.parent.mkdir()
    real.write_text(BROKEN)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, out, _ = run(capsys, "repair", "--in-place", str(link))
    assert code == 0, out
    assert link.is_symlink() and link.resolve() == real
    assert real.read_text() == REPAIRED
    assert link.with_name("link.json.orig").read_text() == BROKEN


def test_in_place_keeps_hard_links(broken: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-name.json"
    os.link(broken, other)
    write_in_place(read_input(broken), REPAIRED)
    assert other.read_text() == REPAIRED and os.path.samefile(broken, other)
    assert broken.with_name("data.json.orig").read_text() == BROKEN


# ------------------------------------------------------------------ output
def _shared_folder(tmp_path: Path) -> Path:
    """A sticky world-writable folder, like ``/tmp``."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    return shared


def _foreign_link(link: Path, target: Path) -> Path:
    """A symbolic link to ``target`` planted by another user."""
    link.symlink_to(target)
    os.lchown(link, OTHER_UID, OTHER_UID)
    return link


@pytest.mark.skipif(not ROOT, reason="planting another user's link needs root")
@pytest.mark.parametrize("how", ["-o", "--in-place"])
def test_another_users_symlink_in_a_sticky_folder_is_not_followed(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path, how: str
) -> None:
    victim = tmp_path / "victim.json"
    victim.write_text(BROKEN if how == "--in-place" else "secret")
    link = _foreign_link(_shared_folder(tmp_path) / "out.json", victim)
    args = ["-o", str(link), str(broken)] if how == "-o" else ["--in-place", str(link)]
    code, _, err = run(capsys, "repair", *args)
    assert code == 2 and "Traceback" not in err
    assert f"{link}: refused" in err and "belongs to another user" in err
    assert victim.read_text() == (BROKEN if how == "--in-place" else "secret")
    assert sorted(p.name for p in link.parent.iterdir()) == ["out.json"]


@pytest.mark.skipif(not ROOT, reason="planting another user's file needs root")
@pytest.mark.parametrize("how", ["-o", "--reject"])
@pytest.mark.parametrize("links", [1, 2])
def test_another_users_file_in_a_sticky_folder_is_not_taken_over(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path, how: str, links: int
) -> None:
    """A file another user planted under the name about to be written stays
    theirs: replacing it would give them the output (its owner is kept), and
    writing into its inode (a hard-linked one) too; the rule of Linux's
    ``fs.protected_regular``."""
    planted = _shared_folder(tmp_path) / "out.json"
    planted.write_text("planted")
    planted.chmod(0o666)
    os.chown(planted, OTHER_UID, OTHER_UID)
    if links == 2:
        os.link(planted, planted.with_name("their-other-name"))
    extra = ["--records", "lines"] if how == "--reject" else []
    code, _, err = run(capsys, "repair", *extra, how, str(planted), str(broken))
    assert code == 2 and "Traceback" not in err
    assert f"{planted}: refused" in err and "belongs to another user" in err
    assert planted.read_text() == "planted" and planted.stat().st_uid == OTHER_UID


@pytest.mark.skipif(not ROOT, reason="planting another user's link needs root")
def test_in_place_on_another_users_folder_does_not_follow_their_links(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Their folder is theirs to fill: a link they put in it, among the
    files to repair, would have the user's own file rewritten."""
    victim = tmp_path / "victim.json"
    victim.write_text(BROKEN)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "b.json").write_text(BROKEN)
    _foreign_link(theirs / "a.json", victim)
    os.chown(theirs, OTHER_UID, OTHER_UID)
    code, _, err = run(capsys, "repair", "--in-place", str(theirs))
    assert code == 2 and "Traceback" not in err
    assert f"{theirs / 'a.json'}: refused" in err and "belongs to another user" in err
    assert victim.read_text() == BROKEN and not (theirs / "a.json.orig").exists()
    assert (theirs / "b.json").read_text() == REPAIRED


def test_a_symlink_in_a_sticky_folder_is_followed_when_its_owner_is_the_writer(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path
) -> None:
    target = tmp_path / "mine.json"
    link = _shared_folder(tmp_path) / "out.json"
    link.symlink_to(target)
    assert run(capsys, "repair", "-o", str(link), str(broken))[0] == 0
    assert link.is_symlink() and target.read_text() == REPAIRED


@pytest.mark.parametrize("name", ["hard link", "symbolic link", "same path"])
def test_an_output_naming_the_input_under_another_name_is_refused(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path, name: str
) -> None:
    other = tmp_path / "other.json"
    if name == "hard link":
        os.link(broken, other)
    elif name == "symbolic link":
        other.symlink_to(broken)
    else:
        other = tmp_path / "." / "data.json"
    code, _, err = run(capsys, "repair", str(broken), "-o", str(other))
    assert code == 2 and "-o names the input file" in err and "Traceback" not in err
    assert broken.read_text() == BROKEN
    assert not broken.with_name("data.json.orig").exists()


def test_output_files_get_the_umasks_mode(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path, umask_022: None
) -> None:
    target = tmp_path / "out.json"
    assert run(capsys, "repair", "-o", str(target), str(broken))[0] == 0
    assert target.read_text() == REPAIRED and _mode(target) == 0o644


def test_write_errors_name_the_users_file_not_a_temporary_one(
    capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path
) -> None:
    target = tmp_path / "no-such-folder" / "out.json"
    code, _, err = run(capsys, "repair", "-o", str(target), str(broken))
    assert code == 2
    assert str(target) in err and ".tmp" not in err and "tmp" not in err.replace(str(tmp_path), "")


def test_repairing_a_valid_file_to_an_output_says_nothing_was_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    valid = tmp_path / "valid.json"
    valid.write_text(REPAIRED)
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, "repair", str(valid), "-o", str(target))
    assert code == 0 and "nothing written: the file is already valid" in out
    assert not target.exists()


# ----------------------------------------------------------- special files
def _check_in_a_child(path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``inputmend check`` in a child process: a hang must fail the test, not stall it."""
    return subprocess.run(
        [sys.executable, "-m", "inputmend", "check", "--grammar", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    result = _check_in_a_child(fifo)
    assert result.returncode == 2 and "is a FIFO" in result.stderr


def test_a_character_device_is_refused_not_read_forever() -> None:
    result = _check_in_a_child(Path("/dev/zero"))
    assert result.returncode == 2 and "is a character device" in result.stderr


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        result = _check_in_a_child(path)
    finally:
        server.close()
    assert result.returncode == 2 and "is a socket" in result.stderr


def test_folders_skip_only_real_backups(tmp_path: Path) -> None:
    names = ["data.json", "data.original.json", "a.json.orig", "a.json.orig.3", "b.origin.json"]
    for name in names:
        (tmp_path / name).write_text("[]")
    os.mkfifo(tmp_path / "pipe.json")
    found = [Path(p).name for p in expand([str(tmp_path)], every_file=False)]
    assert found == ["b.origin.json", "data.json", "data.original.json"]
