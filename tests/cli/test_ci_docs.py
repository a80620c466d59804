"""docs/ci.md's examples stay true: its YAML parses, the hooks it names
exist, and each inputmend command line in it is one the parser accepts."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from inputmend.cli.main import OUTPUT_FORMATS, build_parser
from tests.conftest import ROOT
from tests.documentation import blocks, page

HOOKS = ROOT / ".pre-commit-hooks.yaml"


def _blocks() -> list[str]:
    return [block.text for block in blocks("yaml") if block.page.name == "ci.md"]


def _command_lines(node: object) -> list[str]:
    """The ``inputmend …`` commands in the values of a YAML document."""
    if isinstance(node, dict):
        return [line for value in node.values() for line in _command_lines(value)]
    if isinstance(node, list):
        return [line for item in node for line in _command_lines(item)]
    if isinstance(node, str) and node.startswith("inputmend "):
        return [node]
    return []


def test_the_yaml_examples_parse_and_name_real_hooks() -> None:
    blocks = _blocks()
    assert len(blocks) >= 5
    shipped = {hook["id"] for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}
    named = set()
    for block in blocks:
        yaml.safe_load(block)
        named |= set(re.findall(r"id: (inputmend-[\w-]+)", block))
    assert named and named <= shipped


def test_the_command_lines_are_accepted() -> None:
    lines = [line for block in _blocks() for line in _command_lines(yaml.safe_load(block))]
    assert len(lines) >= 3
    parser = build_parser()
    for line in lines:
        words = shlex.split(line.split(">")[0].split("|")[0])
        # a hook's entry gets its files from pre-commit: one more file
        parser.parse_args([*words[1:], "staged.json"])  # exits on an unknown option


def test_every_output_format_is_described() -> None:
    text = page("ci.md")
    for fmt in OUTPUT_FORMATS:
        assert f"| `{fmt}` |" in text


def _pre_commit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_each_example_is_a_whole_file_to_copy(tmp_path: Path) -> None:
    """Every YAML block is a whole file: a pre-commit configuration that
    pre-commit itself accepts, a GitHub workflow, or a GitLab CI job; never a
    fragment a reader has to fit into something else."""
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (make test installs it)")
    kinds = set()
    for number, block in enumerate(_blocks()):
        document = yaml.safe_load(block)
        assert isinstance(document, dict), block
        if "repos" in document:
            config = tmp_path / f"config-{number}.yaml"
            config.write_text(block, encoding="utf-8")
            done = _pre_commit("validate-config", str(config), cwd=tmp_path)
            assert done.returncode == 0, block + done.stdout + done.stderr
            kinds.add("pre-commit")
        elif "jobs" in document:
            # PyYAML reads the key `on` as True (YAML 1.1)
            assert {True, "name"} <= set(document), block
            for job in document["jobs"].values():
                assert job["runs-on"] and job["steps"][0]["uses"].startswith("actions/checkout@")
            kinds.add("github")
        else:
            for job in document.values():
                assert job["image"] and job["script"], block
            kinds.add("gitlab")
    assert kinds == {"pre-commit", "github", "gitlab"}


def test_the_shipped_hooks_are_a_valid_manifest() -> None:
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (make test installs it)")
    done = _pre_commit("validate-manifest", str(HOOKS), cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
