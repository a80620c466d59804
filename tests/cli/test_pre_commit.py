"""The pre-commit hooks (``.pre-commit-hooks.yaml``): their file patterns are
the bundled grammars', and the real pre-commit runs them from this repository
(``pre-commit try-repo``, which installs the repository's HEAD, with its
uncommitted changes, into a virtual environment of its own: the network to
the package index is needed)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from inputmend.grammar import registry
from tests.cli.helpers import BROKEN_JSON
from tests.conftest import ROOT

HOOKS = ROOT / ".pre-commit-hooks.yaml"
JUNK = "{ a = 1; }" + " @@@" * 30 + "\n"  # TinyC: only deleting the junk (lossy) repairs it
FIXABLE = BROKEN_JSON


def _glob_regex(glob: str) -> str:
    """A ``files`` glob of a grammar header as a regex (``*`` stays in a path part)."""
    return "".join("[^/]*" if char == "*" else re.escape(char) for char in glob.strip("/"))


def files_pattern() -> str:
    """The hooks' ``files``: the bundled grammars' extensions (in any case, as
    inputmend matches them) and the file names their headers list."""
    grammars = registry.bundled().values()
    extensions = sorted({ext.lstrip(".") for info in grammars for ext in info.extensions})
    names = sorted({glob for info in grammars for glob in info.files})
    return (
        r"(?i:\.(?:" + "|".join(map(re.escape, extensions)) + r"))$"
        r"|(?:^|/)(?:" + "|".join(map(_glob_regex, names)) + r")$"
    )


def _hooks() -> dict[str, dict[str, object]]:
    return {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}


def test_the_hooks_files_are_the_bundled_grammars() -> None:
    hooks = _hooks()
    assert set(hooks) == {"inputmend-check", "inputmend-repair"}
    expected = files_pattern()
    for hook in hooks.values():
        assert hook["files"] == expected, f"set files: '{expected}' in {HOOKS.name}"
        assert hook["language"] == "python"
    pattern = re.compile(expected)
    for info in registry.bundled().values():
        for extension in info.extensions:
            assert pattern.search(f"dir/a{extension}") and pattern.search(f"A{extension.upper()}")
            assert registry.for_path(f"dir/a{extension}") == info
    for name in (".clang-format", "src/web.config", ".vscode/settings.json", "x.code-workspace"):
        assert pattern.search(name) and registry.for_path(name) is not None
    for name in ("README.md", "data.jsonl", "web.config.bak", "a.json/readme", "x.py"):
        assert not pattern.search(name)


def _git(cwd: Path, *args: str, env: dict[str, str]) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _try_repo(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.timeout(1800)
def test_the_hooks_run_in_pre_commit(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of inputmend")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
        # an identity for commits (pre-commit passes GIT_CONFIG_* on to git)
        "GIT_CONFIG_COUNT": "3",
        "GIT_CONFIG_KEY_0": "user.name",
        "GIT_CONFIG_VALUE_0": "inputmend tests",
        "GIT_CONFIG_KEY_1": "user.email",
        "GIT_CONFIG_VALUE_1": "tests@inputmend.invalid",
        "GIT_CONFIG_KEY_2": "commit.gpgsign",
        "GIT_CONFIG_VALUE_2": "false",
    }
    repo = tmp_path / "project"
    repo.mkdir()
    (repo / "valid.json").write_text('{"a": 1}\n')
    (repo / "fixable.json").write_text(FIXABLE)
    (repo / "junk.tinyc").write_text(JUNK)
    (repo / "notes.md").write_text("not { a format inputmend checks\n")
    _git(repo, "init", "-q", env=env)
    _git(repo, "add", ".", env=env)
    _git(repo, "commit", "-q", "-m", "files", env=env)
    files = ("--files", "valid.json", "fixable.json", "notes.md")

    check = _try_repo(repo, env, "inputmend-check", *files)
    assert check.returncode == 1, check.stdout + check.stderr
    assert re.search(r"inputmend check\.+Failed", check.stdout)
    assert "fixable.json:2:13: error: unexpected `,`" in check.stdout
    assert "valid.json: valid" in check.stdout and "notes.md" not in check.stdout.split("===")[-1]

    repair = _try_repo(repo, env, "inputmend-repair", *files, "junk.tinyc")
    assert repair.returncode == 1, repair.stdout + repair.stderr
    assert "files were modified by this hook" in repair.stdout
    assert (repo / "fixable.json").read_text() == '{"a": 1,\n "b": [1, 2, 3]}\n'
    assert (repo / "fixable.json.orig").read_text() == FIXABLE
    assert (repo / "junk.tinyc").read_text() == JUNK
    assert "junk.tinyc: not repaired (lossy)" in repair.stdout

    # the repair staged, both hooks pass
    _git(repo, "add", "fixable.json", env=env)
    both = _try_repo(repo, env, *files)
    assert both.returncode == 0, both.stdout + both.stderr
    assert re.search(r"inputmend check\.+Passed", both.stdout)
    assert re.search(r"inputmend repair\.+Passed", both.stdout)
