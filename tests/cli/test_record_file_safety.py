"""Record mode writes under the rules of every write: backups never
overwrite anything, a file changed during the run is not replaced, links
are kept, special files are refused, no list or output replaces the input."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from inputmend.cli.errors import InputError
from inputmend.cli.files import StreamedInput
from inputmend.cli.record_output import open_output
from tests.cli.helpers import held_open, run

BROKEN = '{"a": 1}\n{"a": tru}\n'
REPAIRED = '{"a": 1}\n{"a": true}\n'


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text(BROKEN)
    return path


def test_in_place_on_a_symlink_repairs_its_target_and_keeps_the_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    real = tmp_path / "real" / "data.jsonl"
    real.parent.mkdir()
    real.write_text(BROKEN)
    real.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    code, _, err = run(capsys, "repair", "--in-place", str(link))
    assert code == 0, err
    assert link.is_symlink() and real.read_text() == REPAIRED
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert link.with_name("link.jsonl.orig").read_text() == BROKEN


def test_in_place_keeps_hard_links_and_never_writes_through_a_backup_symlink(
    capsys: pytest.CaptureFixture[str], records: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.jsonl"
    os.link(records, other)
    victim = tmp_path / "victim"
    victim.write_text("secret")
    records.with_name("data.jsonl.orig").symlink_to(victim)
    code, _, err = run(capsys, "repair", "--in-place", str(records))
    assert code == 0, err
    assert "original kept as" in err and err.rstrip().endswith("data.jsonl.orig.1)")
    assert other.read_text() == REPAIRED and os.path.samefile(records, other)
    assert records.with_name("data.jsonl.orig.1").read_text() == BROKEN
    assert victim.read_text() == "secret"


def test_a_file_changed_during_the_run_is_not_replaced(records: Path) -> None:
    source = StreamedInput(records)
    output = open_output(None, source=source, in_place=True, suffix=".jsonl", prefix=b"")
    while source.read(4):
        pass
    output.write(REPAIRED.encode(), 0)
    records.write_text('{"someone": "else"}\n')
    with pytest.raises(InputError, match="changed since it was read"):
        output.commit(changed=True)
    source.close()
    assert records.read_text() == '{"someone": "else"}\n'
    assert sorted(p.name for p in records.parent.iterdir()) == ["data.jsonl"]


def test_a_file_another_process_writes_is_not_rewritten_in_place(
    capsys: pytest.CaptureFixture[str], records: Path
) -> None:
    # this process's own handle does not count
    with records.open("a"), held_open(records, "r+") as writer:
        code, _, err = run(capsys, "repair", "--in-place", str(records))
    assert code == 2 and f"open for writing by process {writer.pid}" in err
    assert records.read_text() == BROKEN
    assert sorted(p.name for p in records.parent.iterdir()) == ["data.jsonl"]


def test_a_fifo_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "check", str(fifo))
    assert code == 2 and "is a FIFO, not a regular file" in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--reject", "{input}"], "--reject names the input file"),
        (["--reject", "{other}", "-o", "{other}"], "-o and --reject name the same file"),
        (["-o", "{input}"], "-o names the input file"),
    ],
)
def test_no_list_or_output_replaces_the_input(
    capsys: pytest.CaptureFixture[str], records: Path, options: list[str], message: str
) -> None:
    names = {"input": str(records), "other": str(records.with_name("other.jsonl"))}
    args = [option.format(**names) for option in options]
    code, _, err = run(capsys, "repair", str(records), *args)
    assert code == 2 and message in err
    assert records.read_text() == BROKEN
    assert sorted(p.name for p in records.parent.iterdir()) == ["data.jsonl"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--reject", "{link}"], "--reject names the input file"),
        (["-o", "{link}"], "-o names the input file"),
        (["-o", "{other}", "--reject", "{other_link}"], "-o and --reject name the same file"),
    ],
)
def test_hard_links_count_as_the_same_file(
    capsys: pytest.CaptureFixture[str], records: Path, options: list[str], message: str
) -> None:
    link, other = records.with_name("link.jsonl"), records.with_name("other.jsonl")
    os.link(records, link)
    other.write_text("keep\n")
    os.link(other, records.with_name("other-link.jsonl"))
    names = {
        "link": str(link),
        "other": str(other),
        "other_link": str(records.with_name("other-link.jsonl")),
    }
    args = [option.format(**names) for option in options]
    code, _, err = run(capsys, "repair", str(records), *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert records.read_text() == BROKEN and other.read_text() == "keep\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's link needs root")
@pytest.mark.parametrize("flag", ["-o", "--reject", "-o FOLDER"])
def test_another_users_symlink_in_a_sticky_folder_is_not_followed(
    capsys: pytest.CaptureFixture[str], records: Path, tmp_path: Path, flag: str
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim"
    if flag == "-o FOLDER":
        victim.mkdir()
    else:
        victim.write_text("secret")
    link = shared / "planted"
    link.symlink_to(victim)
    os.lchown(link, 65534, 65534)
    option = [flag, str(link)] if flag != "-o FOLDER" else ["-o", f"{link}/"]
    code, _, err = run(capsys, "repair", str(records), *option)
    assert code == 2 and "belongs to another user" in err and "Traceback" not in err
    if flag == "-o FOLDER":
        assert list(victim.iterdir()) == []
    else:
        assert victim.read_text() == "secret"


def test_outputs_get_the_umasks_mode(
    capsys: pytest.CaptureFixture[str], records: Path, tmp_path: Path
) -> None:
    previous = os.umask(0o022)
    try:
        target, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
        code, _, err = run(
            capsys, "repair", str(records), "-o", str(target), "--reject", str(rejects)
        )
    finally:
        os.umask(previous)
    assert code == 0, err
    assert target.read_text() == REPAIRED
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert stat.S_IMODE(rejects.stat().st_mode) == 0o644
