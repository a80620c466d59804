"""``--output-format sarif``: one SARIF 2.1.0 log for all the files of a run.

Code-scanning services (GitHub code scanning, Azure DevOps) and editors'
SARIF viewers read it.  One run, whose tool is inputmend with one
rule per kind of invalid input (the oracle's verdicts); one result per
invalid file, located at the parse boundary; ``repair``'s ranked repairs as
the result's ``fixes``, each a set of replacements of the original text.
Files that could not be processed are the invocation's notifications.

Positions count Unicode code points (``columnKind``), as the rest of
inputmend does: ``charOffset`` and columns are those of the decoded text.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from inputmend import __version__
from inputmend.core.oracle import Verdict

VERSION = "2.1.0"
SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
RULES = {
    Verdict.INCORRECT.value: "The input is not valid: the character marked cannot follow "
    "what precedes it.",
    Verdict.INCOMPLETE.value: "The input ends too early: what precedes the end is the "
    "beginning of a valid input.",
}
"""The rules: one per verdict of an invalid input."""
RULE_IDS = list(RULES)


def uri(name: str) -> str:
    """A file name as a URI reference: a relative path stays relative
    (code-scanning services resolve it against the checkout), an absolute
    one becomes a ``file:`` URI."""
    path = Path(name)
    if path.is_absolute():
        return path.as_uri()
    return quote(name.replace(os.sep, "/"))


def _region(region: dict[str, int]) -> dict[str, int]:
    return {
        "startLine": region["line"],
        "startColumn": region["column"],
        "endLine": region["end_line"],
        "endColumn": region["end_column"],
        "charOffset": region["offset"],
        "charLength": region["length"],
    }


def _location(name: str, region: dict[str, int] | None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri(name)}}
    if region is not None:
        physical["region"] = _region(region)
    return {"physicalLocation": physical}


def _fix(name: str, repair: dict[str, Any], regions: list[dict[str, int]]) -> dict[str, Any]:
    lossy = " (lossy)" if repair["lossy"] else ""
    return {
        "description": {"text": f"{repair['summary']}{lossy}"},
        "artifactChanges": [
            {
                "artifactLocation": {"uri": uri(name)},
                "replacements": [
                    {"deletedRegion": _region(region), "insertedContent": {"text": edit["insert"]}}
                    for edit, region in zip(repair["edits"], regions, strict=True)
                ],
            }
        ],
    }


def _result(record: dict[str, Any]) -> dict[str, Any] | None:
    problem = record["_finding"]
    if problem is None:
        return None
    rule = problem["rule"]
    result: dict[str, Any] = {
        "ruleId": rule,
        "ruleIndex": RULE_IDS.index(rule),
        "level": "error",
        "message": {"text": problem["message"]},
        "locations": [_location(record["file"], problem["region"])],
    }
    if "repairs" in record:
        # a repair without edits changes nothing a viewer could apply
        fixes = [
            _fix(record["file"], repair, regions)
            for repair, regions in zip(record["repairs"], record["_regions"], strict=True)
            if repair["edits"]
        ]
        if fixes:
            result["fixes"] = fixes
        notes = list(record["notes"]) + ([record["written"]] if record["written"] else [])
        if notes:
            result["message"]["text"] += "".join(f"\nnote: {note}" for note in notes)
    return result


def _notification(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "level": "error",
        "message": {"text": record["problem"]},
        "locations": [_location(record["file"], None)],
    }


def log(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The SARIF log of a run's records."""
    problems = [record for record in records if "problem" in record]
    results = [
        result
        for record in records
        if "problem" not in record and (result := _result(record)) is not None
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not problems}
    if problems:
        invocation["toolExecutionNotifications"] = [_notification(r) for r in problems]
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "inputmend",
                        "version": __version__,
                        "rules": [
                            {
                                "id": rule,
                                "name": f"{rule.capitalize()}Input",
                                "shortDescription": {"text": text},
                                "defaultConfiguration": {"level": "error"},
                            }
                            for rule, text in RULES.items()
                        ],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "invocations": [invocation],
                "results": results,
            }
        ],
    }
