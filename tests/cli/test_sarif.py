"""``--output-format sarif``: a SARIF 2.1.0 log, valid by the official schema,
with each problem's region and repairs as fixes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from inputmend.cli.sarif import uri
from tests.cli.helpers import BROKEN_JSON, mixed_folder, run

SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)


def _valid_log(out: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    return log


def _apply(text: str, replacements: list[dict[str, Any]]) -> str:
    """The text with a fix's replacements applied (by their character offsets)."""
    for item in sorted(replacements, key=lambda r: -r["deletedRegion"]["charOffset"]):
        start = item["deletedRegion"]["charOffset"]
        end = start + item["deletedRegion"]["charLength"]
        text = text[:start] + item["insertedContent"]["text"] + text[end:]
    return text


def test_the_schema_rejects_what_sarif_forbids() -> None:
    """The vendored schema is the real one: it refuses a log without runs."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate({"version": "2.1.0"})


def test_check_of_a_folder_is_one_valid_log(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mixed_folder(tmp_path)
    (tmp_path / "ü.toml").write_text('x = "ü" = 2\n')
    code, out, err = run(capsys, "check", "--output-format", "sarif", "--jobs", "2", str(tmp_path))
    assert code == 1
    assert "4 files: 1 valid, 3 invalid" in err
    log = _valid_log(out)
    [sarif_run] = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "inputmend" and driver["version"]
    rule_ids = [rule["id"] for rule in driver["rules"]]
    results = sarif_run["results"]
    assert [
        Path(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).name for r in results
    ] == ["bad.json", "short.yaml", "%C3%BC.toml"]
    for result in results:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert "fixes" not in result
    bad = results[0]["locations"][0]["physicalLocation"]["region"]
    assert bad == {
        "startLine": 2,
        "startColumn": 13,
        "endLine": 2,
        "endColumn": 14,
        "charOffset": 21,
        "charLength": 1,
    }
    assert results[1]["ruleId"] == "incomplete"
    toml = results[2]["locations"][0]["physicalLocation"]["region"]
    assert (toml["startColumn"], toml["charOffset"]) == (9, 8)  # code points: ü is one
    assert sarif_run["columnKind"] == "unicodeCodePoints"
    assert sarif_run["invocations"] == [{"executionSuccessful": True}]


def test_repairs_are_fixes_that_give_the_repaired_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = BROKEN_JSON
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    (tmp_path / "good.json").write_text("[]\n")
    code, out, _ = run(capsys, "repair", "--output-format", "sarif", "--top", "3", str(tmp_path))
    assert code == 0
    [result] = _valid_log(out)["runs"][0]["results"]
    fixes = result["fixes"]
    assert len(fixes) == 3
    assert fixes[0]["description"]["text"] == "Remove extra `,` after `2`"
    [change] = fixes[0]["artifactChanges"]
    assert change["artifactLocation"]["uri"].endswith("bad.json")
    assert _apply(text, change["replacements"]) == '{"a": 1,\n "b": [1, 2, 3]}\n'
    code, repaired, _ = run(capsys, "repair", "--json", "--top", "3", str(bad))
    for fix, repair in zip(fixes, json.loads(repaired)["repairs"], strict=True):
        assert _apply(text, fix["artifactChanges"][0]["replacements"]) == repair["text"]


def test_a_file_not_processed_is_a_notification(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = tmp_path / "good.json"
    good.write_text("{}")
    code, out, _ = run(
        capsys, "repair", "--output-format", "sarif", str(good), str(tmp_path / "none.json")
    )
    assert code == 2
    [invocation] = _valid_log(out)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert "none.json" in note["message"]["text"]


def test_file_names_become_uri_references(tmp_path: Path) -> None:
    assert uri("dir/a b#1.json") == "dir/a%20b%231.json"
    assert uri(str(tmp_path / "x.json")) == (tmp_path / "x.json").as_uri()


@pytest.mark.parametrize("fmt", ["sarif", "github", "gitlab"])
def test_record_mode_refuses_the_whole_file_formats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
) -> None:
    lines = tmp_path / "a.jsonl"
    lines.write_text('{"a": 1}\n{"b": \n')
    code, out, err = run(capsys, "check", "--output-format", fmt, str(lines))
    assert code == 2 and out == ""
    assert f"--output-format {fmt} reports whole files" in err


def test_json_is_an_alias_of_output_format_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1,]")
    assert run(capsys, "check", "--json", str(bad)) == run(
        capsys, "check", "--output-format", "json", str(bad)
    )
