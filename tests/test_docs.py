"""The documentation: its site builds, its map of the code is whole, its examples run."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from inputmend.algorithms.features import NAMES as FEATURE_NAMES
from inputmend.algorithms.judgement import Judgement
from inputmend.cli.main import build_parser
from inputmend.config.discovery import load_config
from inputmend.config.schema import LIMIT_FIELDS, ORACLE_FIELDS
from inputmend.grammar.hints import parse_hints
from inputmend.lsp.settings import SERVER_FIELDS
from tests.conftest import ROOT
from tests.documentation import PAGES, blocks, page

PACKAGE = ROOT / "server" / "inputmend"
DESCRIPTION_COLUMN = 27  # where the tree's descriptions start


def _architecture_tree() -> list[str]:
    """The files the tree of docs/architecture.md lists under server/inputmend/,
    as paths relative to the package (a folder's lines nest under it)."""
    text = page("architecture.md")
    tree = text[text.index("```\nserver/inputmend/") + 4 :].split("\n```", 1)[0]
    listed: list[str] = []
    folders: list[tuple[int, str]] = []
    for line in tree.split("\n")[1:]:
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            break  # the package's tree is over: grammars/, tests/, ...
        if indent >= DESCRIPTION_COLUMN:
            continue  # a description's second line
        name = line.split()[0]
        while folders and folders[-1][0] >= indent:
            folders.pop()
        path = "/".join([*(folder for _, folder in folders), name.rstrip("/")])
        if name.endswith("/"):
            folders.append((indent, name.rstrip("/")))
        else:
            listed.append(path)
    return listed


def test_the_architecture_page_lists_every_module_once_and_no_other() -> None:
    listed = _architecture_tree()
    assert len(listed) == len(set(listed)), "a module is listed twice"
    present = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*")
        if path.suffix in {".py", ".c"} and "__pycache__" not in path.parts
    }
    assert sorted(present - set(listed)) == [], "modules missing from docs/architecture.md"
    assert sorted(set(listed) - present) == [], "docs/architecture.md lists what is not there"


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """`mkdocs build --strict`: a broken link or anchor, or a page left out of
    the nav, fails the build."""
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (make test installs it)")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert {path.name for path in tmp_path.rglob("index.html")} == {"index.html"}
    built = {path.parent.name for path in tmp_path.glob("*/index.html")}
    pages = {path.stem for path in PAGES if path.parent.name == "docs"} - {"index"}
    assert built == pages


def test_every_python_example_is_python() -> None:
    found = blocks("python")
    assert len(found) >= 4
    for block in found:
        compile(block.text, str(block.page), "exec")


def _printed_as_commented(code: str) -> None:
    """Run ``code`` and check that each ``print(...)  # TEXT`` line printed TEXT."""
    expected = re.findall(r"^ *print\(.*\) +# (.*)$", code, re.M)
    assert expected, "no print with its expected output"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    assert printed.getvalue().splitlines() == expected


def test_the_readmes_library_example_prints_what_it_says() -> None:
    (example,) = [block for block in blocks("python") if block.page.name == "README.md"]
    _printed_as_commented(example.text)


def test_the_library_pages_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, files, services = [
        block.text for block in blocks("python") if block.page.name == "library.md"
    ]
    _printed_as_commented(first)
    _printed_as_commented(services)
    # the second goes on from the first, on a UTF-16 INI file whose section lost its `]`
    monkeypatch.chdir(tmp_path)
    original = "\ufeff[lang\r\nname = Deutsch\r\n".encode("utf-16-le")
    Path("lang.ini").write_bytes(original)
    exec(first + files, {})
    fixed = Path("lang.fixed.ini").read_bytes()
    assert fixed.startswith(b"\xff\xfe") and fixed != original
    assert fixed.decode("utf-16") == "[lang]\r\nname = Deutsch\r\n"


def test_no_example_uses_the_reference_oracle() -> None:
    """The from-scratch grammar oracle is the tests' reference: slow on large
    texts, so the documentation shows the one-call form and the factory."""
    for block in blocks("python"):
        assert "ReferenceGrammarOracle" not in block.text, block.page.name
        assert "oracles.grammar" not in block.text, block.page.name
    assert "ReferenceGrammarOracle" not in "\n".join(
        path.read_text(encoding="utf-8") for path in (ROOT / "examples").rglob("*.py")
    )


def test_the_configuration_example_is_a_valid_configuration(tmp_path: Path) -> None:
    (example,) = [block for block in blocks("toml") if block.page.name == "configuration.md"]
    path = tmp_path / ".inputmend.toml"
    path.write_text(example.text, encoding="utf-8")
    config = load_config(path)
    assert config.has_validators


def test_the_hints_example_is_a_valid_hints_file() -> None:
    (example,) = [block for block in blocks("toml") if block.page.name == "hints.md"]
    hints: Any = parse_hints(tomllib.loads(example.text), Path("example.hints.toml"))
    assert hints.filler == "null"


def _commands_and_output(text: str) -> list[tuple[str, list[str]]]:
    """The ``$ inputmend ...`` lines of a shell block, each with the lines shown under it."""
    shown: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            shown.append((line[2:], []))
        elif shown:
            shown[-1][1].append(line)
    return shown


def test_the_documented_commands_print_what_they_show(tmp_path: Path) -> None:
    """Each ``$ inputmend ...`` example, run from a copy of examples/, prints
    the lines shown under it, in that order (timings left out)."""
    shown_runs = [run for block in blocks("sh") for run in _commands_and_output(block.text)]
    assert len(shown_runs) >= 2
    (tmp_path / "examples").mkdir()
    for example in (ROOT / "examples").iterdir():
        (tmp_path / "examples" / example.name).write_bytes(example.read_bytes())
    command = Path(sys.executable).parent / "inputmend"
    for line, shown in shown_runs:
        argv = shlex.split(line)
        assert argv[0] == "inputmend", line
        done = subprocess.run(
            [str(command), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
        assert done.returncode in (0, 1), done.stderr
        printed = iter(done.stdout.splitlines())
        for expected in shown:
            assert any(got == expected for got in printed), f"{line}: {expected!r} not printed"


def test_the_ranking_page_states_every_feature_in_its_order() -> None:
    text = page("ranking.md")
    rows = re.findall(r"^\| `([a-z_]+)` \| ", text, re.M)
    assert rows == list(FEATURE_NAMES)
    # the hand order's criteria are the numbered list's
    assert re.search(r"^15\. ", text, re.M) and not re.search(r"^16\. ", text, re.M)


def test_the_ranking_page_names_every_field_of_the_judgement() -> None:
    text = page("ranking.md")
    for field in dataclasses.fields(Judgement):
        assert f"judgement.{field.name}" in text, field.name


def _options(parser: argparse.ArgumentParser) -> set[str]:
    """Every subcommand and option string of ``parser`` and its subparsers
    (argparse's own ``-h``/``--help`` left out)."""
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                found |= {f"inputmend {name}", *_options(subparser)}
        elif not isinstance(action, argparse._HelpAction):
            found.update(option for option in action.option_strings if option.startswith("--"))
    return found


def _mentioned(term: str, text: str) -> bool:
    """``term`` stands in ``text`` as a whole word (``--max-loss``, not ``--max-loss-x``)."""
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text) is not None


def test_the_command_line_page_names_every_subcommand_and_option() -> None:
    """docs/cli.md is where a reader looks an option up: each one the parser
    takes is named there (its details may live on the page of its topic)."""
    text = page("cli.md")
    options = _options(build_parser())
    assert {"inputmend lsp", "--records", "--tcp", "--output-format"} <= options
    assert sorted(term for term in options if not _mentioned(term, text)) == []


def test_the_editors_page_names_every_setting() -> None:
    """Each setting the server reads and each one the VS Code extension
    declares is named in docs/editors.md."""
    text = page("editors.md")
    server = {"oracles", *(key for f in SERVER_FIELDS if (key := f.client) is not None)}
    manifest = json.loads((ROOT / "client-vscode" / "package.json").read_text(encoding="utf-8"))
    declared = set(manifest["contributes"]["configuration"]["properties"])
    # a VS Code property is named in full, or by its server setting's name
    vscode_only = {name for name in declared if name.removeprefix("inputmend.") not in server}
    missing = sorted(name for name in server | vscode_only if not _mentioned(f"`{name}`", text))
    assert missing == []


def test_the_configuration_page_names_every_key() -> None:
    """Each key of `[defaults]` and `[[oracle]]` is set in the page's example file."""
    text = page("configuration.md")
    keys = {f.toml for f in (*ORACLE_FIELDS, *LIMIT_FIELDS) if f.toml is not None}
    assert sorted(key for key in keys if not re.search(rf"^{key} =", text, re.M)) == []


def _nav_pages() -> list[str]:
    """The pages of mkdocs.yml's navigation, in its order, Home left out."""
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    return [path for entry in nav for path in entry.values() if path != "index.md"]


def test_the_home_page_and_the_readme_list_the_pages_in_the_navigations_order() -> None:
    """A reader meets the pages in one order, on the site's home page, in its
    navigation and in the README's links."""
    linked = re.findall(r"^\* \[[^]]+\]\(([\w-]+\.md)\)", page("index.md"), re.M)
    assert linked == _nav_pages()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"^\* \[[^]]+\]\(docs/([\w-]+\.md)\)", readme, re.M) == _nav_pages()


def test_the_readme_fits_on_a_few_screens() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250
