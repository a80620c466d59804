"""``--output-format github``: workflow commands that become annotations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inputmend.cli.github import command
from tests.cli.helpers import BROKEN_JSON, mixed_folder, run

_COMMAND = re.compile(r"^::(\w+) ([^:]*)::(.*)$")


def _parse(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command as GitHub reads it: name, properties, message (unescaped)."""
    match = _COMMAND.match(line)
    assert match is not None, line
    properties = dict(item.split("=", 1) for item in match[2].split(","))

    def unescape(text: str) -> str:
        for escaped, char in (("%3A", ":"), ("%2C", ","), ("%0A", "\n"), ("%0D", "\r")):
            text = text.replace(escaped, char)
        return text.replace("%25", "%")

    return match[1], {k: unescape(v) for k, v in properties.items()}, unescape(match[3])


def test_messages_and_properties_are_escaped_as_github_requires() -> None:
    line = command("error", "50% done\r\nnext: a, b", {"file": "a,b:c.json", "line": 3})
    assert line == "::error file=a%2Cb%3Ac.json,line=3::50%25 done%0D%0Anext: a, b"
    assert "\n" not in line
    assert _parse(line) == ("error", {"file": "a,b:c.json", "line": "3"}, "50% done\r\nnext: a, b")


def test_check_annotates_each_invalid_file_at_its_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mixed_folder(tmp_path)
    code, out, _ = run(capsys, "check", "--output-format", "github", str(tmp_path))
    assert code == 1
    commands = [_parse(line) for line in out.splitlines() if line.startswith("::")]
    assert len(commands) == 2
    by_file = {Path(props["file"]).name: (name, props, msg) for name, props, msg in commands}
    name, props, message = by_file["bad.json"]
    assert name == "error"
    assert (props["line"], props["col"], props["endLine"], props["endColumn"]) == (
        "2",
        "13",
        "2",
        "13",
    )
    assert props["title"] == "inputmend: incorrect input"
    assert message.startswith("unexpected `,`")
    _, props, _ = by_file["short.yaml"]
    assert props["title"] == "inputmend: incomplete input"
    assert "3 files: 1 valid, 2 invalid" in out


def test_repair_annotation_names_the_best_repair_and_shows_its_diff(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(BROKEN_JSON)
    code, out, _ = run(capsys, "repair", "--output-format", "github", "--top", "2", str(bad))
    assert code == 0
    [line] = out.splitlines()
    _, props, message = _parse(line)
    assert props["line"] == "2"
    assert "Repair 1 (distance 1, at 2:13): Remove extra `,` after `2`" in message
    assert '+ "b": [1, 2, 3]}' in message
    assert "Repair 2 " in message


def test_a_file_that_cannot_be_read_is_annotated_without_a_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.json"
    code, out, err = run(capsys, "check", "--output-format", "github", str(missing))
    assert code == 2
    [(name, props, message)] = [_parse(line) for line in out.splitlines()]
    assert name == "error" and props["file"] == str(missing) and "line" not in props
    assert props["title"] == "inputmend: not processed"
    assert message in err


def test_messages_cannot_inject_escape_sequences(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """GitHub's log viewer renders terminal colours: a file name (here in the
    message that it cannot be read) shows with its control characters escaped."""
    missing = tmp_path / "\x1b[31mred\x1b[0m.json"
    code, out, _ = run(capsys, "check", "--output-format", "github", str(missing))
    assert code == 2
    _, _, message = _parse(out.splitlines()[0])
    assert "\x1b" not in message and "\\x1b[31mred" in message
