"""Which configuration applies to a file: nearest file, globs, extension."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.config.discovery import find_config, glob_matches, load_config, settings_for
from inputmend.config.schema import NoOracleError, OracleSpec
from inputmend.config.trust import Trust
from inputmend.core.oracle import OracleConfigError

TRUST = Trust(roots=())
"""No folder trusted: these configurations name no validators."""


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.json", "a/b/c.json", True),
        ("*.json", "c.json5", False),
        ("config/*.conf", "config/x.conf", True),
        ("config/*.conf", "other/config/x.conf", False),
        ("config/**/*.conf", "config/a/b/x.conf", True),
        ("config/**/*.conf", "config/x.conf", True),
        ("/top.txt", "top.txt", True),
        ("file?.[ch]", "file1.c", True),
        ("file[!0-9].c", "file1.c", False),
    ],
)
def test_globs(pattern: str, path: str, matches: bool) -> None:
    assert glob_matches(pattern, path) is matches


def _config(folder: Path, text: str) -> Path:
    path = folder / ".inputmend.toml"
    path.write_text(text)
    return path


def test_the_nearest_configuration_wins(tmp_path: Path) -> None:
    outer = _config(tmp_path, '[[oracle]]\nfiles = "*.data"\ngrammar = "json"\n')
    inner_folder = tmp_path / "sub"
    inner_folder.mkdir()
    inner = _config(inner_folder, '[[oracle]]\nfiles = "*.data"\ngrammar = "csv"\n')
    assert find_config(inner_folder / "x.data") == inner
    assert find_config(tmp_path / "x.data") == outer
    assert settings_for(inner_folder / "x.data", trust=TRUST).spec.grammar == "csv"


def test_a_configuration_file_sets_rules_and_limits(tmp_path: Path) -> None:
    path = _config(
        tmp_path,
        "[defaults]\ntimeout = 3\nmax-tests = 50\ntest-timeout = 2\n"
        '[[oracle]]\nfiles = ["conf/**/*.x"]\ncommand = "prog {file}"\n',
    )
    config = load_config(path)
    assert (config.limits.timeout_s, config.limits.max_tests) == (3.0, 50)
    spec = config.spec_for(tmp_path / "conf" / "a" / "f.x")
    assert spec is not None
    assert spec.test_timeout_s == 2.0 and spec.base_dir == tmp_path
    assert spec.source == f"{path} [[oracle]] #1"
    assert config.spec_for(tmp_path / "f.x") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[oops", "invalid TOML"),
        ("[other]\n", r"unknown section\(s\) other"),
        ("[defaults]\nspeed = 1\n", r"\[defaults\]: unknown key\(s\) speed"),
        ("oracle = 3\n", "must be a list"),
    ],
)
def test_configuration_mistakes_are_one_line_errors(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(OracleConfigError, match=message):
        load_config(_config(tmp_path, text))


def test_flags_win_and_the_extension_is_the_fallback(tmp_path: Path) -> None:
    _config(tmp_path, '[[oracle]]\nfiles = "*.data"\ngrammar = "json"\n')
    flags = OracleSpec(grammar="csv")
    assert settings_for(tmp_path / "x.data", flags, trust=TRUST).spec is flags
    timeout = OracleSpec(test_timeout_s=3.0)
    by_extension = settings_for(tmp_path / "x.ini", timeout, trust=TRUST).spec
    assert (by_extension.grammar, by_extension.test_timeout_s) == ("ini", 3.0)
    with pytest.raises(NoOracleError, match="no oracle for this file"):
        settings_for(tmp_path / "x.unknown", trust=TRUST)


def test_a_bundled_grammar_can_be_chosen_by_file_name(tmp_path: Path) -> None:
    by_name = settings_for(tmp_path / "web" / "tsconfig.json", trust=TRUST).spec
    assert (by_name.grammar, by_name.source) == ("jsonc", "file name tsconfig.json")
    vscode = settings_for(tmp_path / ".vscode" / "settings.json", trust=TRUST).spec
    assert vscode.grammar == "jsonc"
    by_extension = settings_for(tmp_path / "package.json", trust=TRUST).spec
    assert (by_extension.grammar, by_extension.source) == ("json", "extension .json")


def test_a_configuration_with_validators_is_obeyed_only_when_trusted(tmp_path: Path) -> None:
    _config(tmp_path, '[[oracle]]\nfiles = "*.data"\ngrammar = "csv"\ncommand = ["true"]\n')
    trusted = settings_for(tmp_path / "x.data", trust=Trust((tmp_path,)))
    assert (trusted.spec.grammar, trusted.spec.command, trusted.warning) == ("csv", ("true",), None)
    with pytest.raises(NoOracleError) as refused:
        settings_for(tmp_path / "x.data", trust=Trust((tmp_path,), refusal="not today"))
    assert refused.value.warning is not None and refused.value.warning.endswith("not today")
    with pytest.raises(NoOracleError) as outside:
        settings_for(tmp_path / "x.data", trust=Trust((tmp_path / "elsewhere",)))
    assert "lies outside the folders being checked" in str(outside.value.warning)
    # no rule of it judges x.json: nothing of it runs there, nothing to trust
    other = settings_for(tmp_path / "x.json", trust=Trust((tmp_path / "elsewhere",)))
    assert (other.spec.grammar, other.warning) == ("json", None)
