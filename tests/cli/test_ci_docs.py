"""docs/ci.md's examples stay true: its YAML parses, the hooks it names
exist, and each inputmend command line in it is one the parser accepts."""

from __future__ import annotations

import re
import shlex

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
