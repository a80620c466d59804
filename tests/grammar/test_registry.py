"""Finding and building grammars (the bundled ones are tested in tests/grammars)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar import registry


def test_unknown_names_list_the_bundled_grammars() -> None:
    with pytest.raises(OracleConfigError, match=r"unknown grammar 'nope' \(bundled: .*json"):
        registry.resolve("nope")


def test_paths_are_relative_to_the_base_folder(tmp_path: Path) -> None:
    (tmp_path / "mine.lark").write_text('// title: Mine\nstart: "x"\n')
    info = registry.resolve("mine.lark", base_dir=tmp_path)
    assert (info.name, info.title, info.start) == ("mine", "Mine", "start")
    with pytest.raises(OracleConfigError, match="grammar file not found"):
        registry.resolve("other.lark", base_dir=tmp_path)


def test_an_edited_grammar_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "g.lark"
    path.write_text('start: "a"\n')
    first = registry.build_parser(registry.resolve(str(path)))
    assert registry.build_parser(registry.resolve(str(path))) is first
    path.write_text('start: "b"\n')
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = registry.build_parser(registry.resolve(str(path)))
    assert second is not first
    assert second.parse("b") is not None


def test_broken_grammars_get_one_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.lark"
    path.write_text("start: (\n")
    with pytest.raises(OracleConfigError, match="not a valid lark grammar") as error:
        registry.build_parser(registry.resolve(str(path)))
    assert "\n" not in str(error.value)
    path.write_text('start: a | b\na: "x"\nb: "x"\n')
    with pytest.raises(OracleConfigError, match="cannot be built as an LALR"):
        registry.build_parser(registry.resolve(str(path)))


def test_files_globs_name_files_before_their_extension(tmp_path: Path) -> None:
    path = tmp_path / "conf.lark"
    path.write_text(
        "// title: Conf\n// extensions: .conf\n// files: app.json settings/*.json *.cfg.json\n"
        'start: "x"\n'
    )
    info = registry.read_info(path)
    assert info.files == ("app.json", "settings/*.json", "*.cfg.json")
    assert info.names("app.json") and info.names("deep/down/app.json")
    assert info.names("proj/settings/a.json") and info.names("settings/b.json")
    assert info.names("x.cfg.json")
    assert not info.names("settings.json") and not info.names("settings/sub/a.json")
    assert not info.names("App.json")  # globs are case-sensitive, as file names


def test_for_path_prefers_a_file_name_then_falls_back_to_the_extension() -> None:
    jsonc, json = registry.resolve("jsonc"), registry.resolve("json")
    assert registry.for_path("proj/tsconfig.json") == jsonc
    assert registry.for_path("proj/.vscode/settings.json") == jsonc
    assert registry.for_path("proj/settings.json") == json
    assert registry.for_path("proj/data.JSON") == json
    assert registry.for_path("notes.txt") is None
