"""The fetch script: which files it reads as which format, its Debian batches (apt-get is
faked: no network) and its atomic corpus file."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from bench.realcorpus.fetch import (
    Document,
    Package,
    accepts,
    classify,
    load_documents,
    prefetch,
    write_documents,
)


class FakeApt:
    """Records each apt-get call and writes NAME_1.0-1_amd64.deb for each name it knows."""

    def __init__(self, known: set[str]) -> None:
        self.known = known
        self.calls: list[list[str]] = []

    def __call__(self, command: list[str], *, cwd: str, **_: Any) -> None:
        self.calls.append(command)
        names = [spec.split("=")[0] for spec in command[3:]]
        if not set(names) <= self.known:  # apt-get fails the whole call
            raise subprocess.CalledProcessError(100, command, b"", b"E: Unable to locate package")
        for name in names:
            (Path(cwd) / f"{name}_1.0-1_amd64.deb").write_bytes(name.encode())


def test_debian_archives_come_in_batches_into_their_packages_folders(tmp_path: Path) -> None:
    packages = [Package("deb", f"pkg{n}", "") for n in range(5)] + [Package("pypi", "six", "1.0")]
    apt = FakeApt({f"pkg{n}" for n in range(5)})
    assert prefetch(packages, tmp_path, batch={"deb": 2}, run=apt) == 5
    assert len(apt.calls) == 3  # 2 + 2 + 1 names; the PyPI package is not apt's
    archive = tmp_path / "archives" / "deb" / "pkg3-" / "pkg3_1.0-1_amd64.deb"
    assert archive.read_bytes() == b"pkg3"
    assert sorted(p.name for p in (tmp_path / "archives").iterdir()) == ["deb"]  # no staging left


class FakeNpm:
    """Records each npm call and packs each NAME@VERSION as npm names it: scope-name-VER.tgz."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, command: list[str], *, cwd: str, **_: Any) -> None:
        self.calls.append(command)
        for spec in command[3:]:
            name, version = spec.rsplit("@", 1)
            tarball = f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
            (Path(cwd) / tarball).write_bytes(spec.encode())


def test_npm_tarballs_come_in_batches_and_scoped_names_find_their_folders(tmp_path: Path) -> None:
    packages = [Package("npm", "@tsconfig/node20", "20.1.4"), Package("npm", "tslib", "2.8.1")]
    packages += [Package("npm", f"create-app{n}", "1.0.0") for n in range(3)]
    npm = FakeNpm()
    assert prefetch(packages, tmp_path, batch={"npm": 2}, run=npm) == 5
    assert [call[:3] for call in npm.calls] == [["npm", "pack", "--silent"]] * 3
    assert npm.calls[0][3:] == ["@tsconfig/node20@20.1.4", "tslib@2.8.1"]
    folder = tmp_path / "archives" / "npm" / "@tsconfig+node20-20.1.4"
    archive = folder / "tsconfig-node20-20.1.4.tgz"
    assert archive.read_bytes() == b"@tsconfig/node20@20.1.4"


def test_a_failed_batch_is_left_to_the_one_by_one_download(tmp_path: Path) -> None:
    packages = [
        Package("deb", name, version)
        for name, version in (("good", "2.0"), ("missing", ""), ("ok", ""))
    ]
    apt = FakeApt({"good", "ok"})
    assert prefetch(packages, tmp_path, batch={"deb": 2}, run=apt) == 1
    assert apt.calls[0][3:] == ["good=2.0", "missing"]
    assert not (tmp_path / "archives" / "deb" / "good-2.0").exists()
    assert (tmp_path / "archives" / "deb" / "ok-").is_dir()


def test_archives_in_the_cache_are_not_downloaded_again(tmp_path: Path) -> None:
    (tmp_path / "archives" / "deb" / "pkg-1.0").mkdir(parents=True)
    apt = FakeApt({"pkg"})
    assert prefetch([Package("deb", "pkg", "1.0")], tmp_path, run=apt) == 0
    assert apt.calls == []


def test_the_corpus_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "documents.jsonl"
    path.write_text("old, half-written", encoding="utf-8")
    documents = [Document("json", '{"é": 1}', "pypi", "demo", "1.0", "a.json")]
    write_documents(documents, path)
    assert load_documents(tmp_path) == documents
    assert [p.name for p in tmp_path.iterdir()] == ["documents.jsonl"]


def test_json_with_comments_is_found_by_its_tools_file_names() -> None:
    for path in (
        "tsconfig.base.json",
        "pkg/.eslintrc",
        "pkg/.jshintrc",
        "dict/cspell-ext.json",
        "app/.vscode/launch.json",
        "project.code-workspace",
        "snippets/go.code-snippets",
        "syntaxes/language-configuration.json",
        "Default.sublime-keymap",
        "settings.jsonc",
    ):
        assert classify(path, "{}") == "jsonc", path
    assert classify("pkg/package.json", '{"name": "x"}') == "json"
    assert classify("pkg/vscode.json.txt", "{}") is None


def test_a_json_file_that_json_rejects_is_a_jsonc_candidate_kept_only_if_jsonc_reads_it() -> None:
    commented = '{\n  // the port\n  "port": 8080,\n}\n'
    assert classify("conf/server.json", commented) == "jsonc"
    assert accepts("jsonc", commented)
    templated = '{"name": {{ name }}}\n'
    assert classify("template/package.json", templated) == "jsonc"
    assert not accepts("jsonc", templated)
