"""``--output-format gitlab``: a GitLab code quality report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import mixed_folder, run

REQUIRED = {"description", "check_name", "fingerprint", "severity", "location"}


def test_each_invalid_file_is_an_issue_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mixed_folder(tmp_path)
    code, out, err = run(capsys, "check", "--output-format", "gitlab", "--jobs", "2", str(tmp_path))
    assert code == 1 and "3 files: 1 valid, 2 invalid" in err
    issues = json.loads(out)
    assert [Path(i["location"]["path"]).name for i in issues] == ["bad.json", "short.yaml"]
    for issue in issues:
        assert set(issue) == REQUIRED and issue["severity"] == "major"
    assert issues[0]["location"]["lines"] == {"begin": 2}
    assert issues[0]["check_name"] == "incorrect" and issues[1]["check_name"] == "incomplete"
    assert issues[0]["description"].startswith("unexpected `,`")
    assert len({issue["fingerprint"] for issue in issues}) == 2


def test_fingerprints_follow_the_problem_not_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An issue that only moves down a line keeps its fingerprint (GitLab
    would otherwise report it as fixed and a new one as found)."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"b": [1, 2,, 3]}\n')
    before = json.loads(run(capsys, "repair", "--output-format", "gitlab", str(bad))[1])
    bad.write_text('\n{"b": [1, 2,, 3]}\n')
    after = json.loads(run(capsys, "repair", "--output-format", "gitlab", str(bad))[1])
    assert (before[0]["location"]["lines"], after[0]["location"]["lines"]) == (
        {"begin": 1},
        {"begin": 2},
    )
    assert before[0]["fingerprint"] == after[0]["fingerprint"]
    assert "(best repair: Remove extra `,` after `2`)" in after[0]["description"]


def test_a_file_not_processed_is_an_issue(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.json"
    code, out, _ = run(capsys, "check", "--output-format", "gitlab", str(missing))
    assert code == 2
    [issue] = json.loads(out)
    assert issue["check_name"] == "not-processed" and issue["location"]["path"] == str(missing)
