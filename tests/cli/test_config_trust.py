"""Whom the command line obeys: configuration files that run programs only
when they are the user's and lie where the user pointed; Python validators
never imported from the working directory."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import run

ROOT = os.geteuid() == 0


def _config(folder: Path, mark: Path) -> Path:
    """A configuration whose validator leaves ``mark`` when it runs (and rejects)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = f"open({str(mark)!r}, 'w').close(); raise SystemExit(3)"
    config = folder / ".inputmend.toml"
    config.write_text(
        f'[[oracle]]\nfiles = "*.json"\ncommand = ["{sys.executable}", "-c", "{script}"]\n'
    )
    return config


def _valid(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "a.json"
    path.write_text("[1]")
    return path


def test_a_configuration_above_the_checked_folders_is_ignored_with_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = tmp_path / "ran"
    config = _config(tmp_path / "shared", mark)
    data = _valid(tmp_path / "shared" / "mine")
    monkeypatch.chdir(_valid(tmp_path / "elsewhere").parent)
    code, out, err = run(capsys, "check", str(data))
    assert code == 0 and "valid" in out, "judged by the bundled JSON grammar"
    assert f"warning: ignored {config}" in err and "outside the folders being checked" in err
    assert not mark.exists()


def test_a_configuration_needs_trust_only_for_the_files_its_validators_judge(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its rule for ``*.json`` runs a program; a CSV file beside it gets no
    such rule, so nothing of the configuration runs for it and nothing is
    said about trust."""
    mark = tmp_path / "ran"
    config = _config(tmp_path / "shared", mark)
    table = tmp_path / "shared" / "mine" / "t.csv"
    table.parent.mkdir(parents=True)
    table.write_text("a,b\n1,2\n")
    monkeypatch.chdir(_valid(tmp_path / "elsewhere").parent)
    code, out, err = run(capsys, "check", str(table))
    assert (code, out.strip(), err) == (0, f"{table}: valid", "")
    code, _, err = run(capsys, "check", str(_valid(table.parent)))
    assert code == 0 and f"warning: ignored {config}" in err
    assert not mark.exists()


def test_a_configuration_in_the_checked_folder_is_obeyed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = tmp_path / "ran"
    _config(tmp_path / "project", mark)
    data = _valid(tmp_path / "project")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "check", str(data))[0] == 1 and mark.exists()


def test_the_users_own_configuration_is_obeyed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark, home = tmp_path / "ran", tmp_path / "home"
    _config(home, mark)
    monkeypatch.setenv("HOME", str(home))
    data = _valid(home / "deep" / "down")
    monkeypatch.chdir(_valid(tmp_path / "elsewhere").parent)
    assert run(capsys, "check", str(data))[0] == 1 and mark.exists()


@pytest.mark.skipif(not ROOT, reason="changing owners needs root")
def test_a_configuration_owned_by_someone_else_is_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = tmp_path / "ran"
    config = _config(tmp_path, mark)
    os.chown(config, 65534, 65534)
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "check", str(_valid(tmp_path)))
    assert code == 0 and "owned by another user (uid 65534)" in err
    assert not mark.exists()


def test_python_validators_are_never_imported_from_the_working_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = tmp_path / "ran"
    project = tmp_path / "project"
    project.mkdir()
    for name in ("plistlib", "localcheck"):
        (project / f"{name}.py").write_text(
            f"open({str(mark)!r}, 'w').close()\ndef loads(text): pass\ncheck = loads\n"
        )
    monkeypatch.chdir(project)
    data = _valid(project)
    code = run(capsys, "check", "--python", "plistlib:loads", str(data))[0]
    assert code == 1, "the real plistlib rejects the text"
    code, _, err = run(capsys, "check", "--python", "localcheck:check", str(data))
    assert code == 2 and "cannot import 'localcheck'" in err
    assert not mark.exists()
    assert run(capsys, "check", "--python", "./localcheck.py:check", str(data))[0] == 0
    assert mark.exists(), "a file named as a path is the user's explicit choice"


ENTRY_POINTS = {
    "check": (["check", "sub/dir/a.json"], None),
    "repair": (["repair", "sub/dir/a.json"], None),
    "explain": (["explain", "sub/dir/a.json"], None),
    "records lines": (["check", "--records", "lines", "sub/dir/a.txt"], None),
    "records csv": (["repair", "--records", "csv", "sub/dir/a.csv"], None),
    "automatic record mode": (["check", "sub/dir/a.jsonl"], None),
    "standard input": (["check", "-"], b"[1]"),
}
"""Every way the command line reads a configuration file: arguments and standard input."""


def _everything_config(folder: Path, mark: Path) -> Path:
    """A configuration for every file name whose validator leaves ``mark``, and
    files of each kind below ``folder`` in ``sub/dir``."""
    script = f"open({str(mark)!r}, 'w').close(); raise SystemExit(3)"
    config = folder / ".inputmend.toml"
    config.write_text(
        f'[[oracle]]\nfiles = ["*"]\ncommand = ["{sys.executable}", "-c", "{script}"]\n'
    )
    data = folder / "sub" / "dir"
    data.mkdir(parents=True)
    for name, text in (("a.json", "[1]"), ("a.txt", "[1]\n"), ("a.jsonl", "[1]\n")):
        (data / name).write_text(text)
    (data / "a.csv").write_text("a,b\n1,2\n")
    return config


@pytest.mark.parametrize("owner", ["mine", "someone else's"])
@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_entry_point_obeys_only_the_users_own_configuration(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    entry: str,
    owner: str,
) -> None:
    """Mine runs (so the configuration is one that would run); someone
    else's is ignored with a warning."""
    mark = tmp_path / "ran"
    config = _everything_config(tmp_path, mark)
    if owner != "mine":
        if not ROOT:
            pytest.skip("changing owners needs root")
        os.chown(config, 65534, 65534)
    monkeypatch.chdir(tmp_path)
    args, stdin = ENTRY_POINTS[entry]
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    err = run(capsys, *args)[2]
    if owner == "mine":
        assert mark.exists()
    else:
        assert "owned by another user (uid 65534)" in err
        assert not mark.exists()


@pytest.mark.parametrize("validator", ["validators.py:check", "validators:check"])
def test_a_linked_configuration_finds_its_validators_in_its_own_folder(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    validator: str,
) -> None:
    """A link to the user's configuration, planted beside a file in someone
    else's folder, must not make that folder the one its relative paths and
    modules come from: the planter's ``validators.py`` would run."""
    mark = tmp_path / "ran"
    project = tmp_path / "project"
    project.mkdir()
    (project / ".inputmend.toml").write_text(
        f'[[oracle]]\nfiles = "*.data"\npython = "{validator}"\n'
    )
    (project / "validators.py").write_text("def check(text):\n    return True\n")
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / ".inputmend.toml").symlink_to(project / ".inputmend.toml")
    (planted / "validators.py").write_text(
        f"def check(text):\n    open({str(mark)!r}, 'w').close()\n    return True\n"
    )
    (planted / "x.data").write_text("hello")
    monkeypatch.chdir(project)
    code, out, err = run(capsys, "check", str(planted / "x.data"))
    assert code == 0 and "valid" in out and "Traceback" not in err
    assert not mark.exists()
