"""``--output-format gitlab``: a GitLab code quality report.

GitLab shows a job's ``artifacts:reports:codequality`` file in its merge
requests' widget and diff: a JSON array of issues, each with a description,
a check name, a severity, a location (path and line) and a fingerprint that
identifies the issue from one pipeline to the next.  Each invalid file is one
issue at its error's line (with the best repair in the description for
``repair``); a file that could not be processed is one at its first line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

NOT_PROCESSED = "not-processed"


def _fingerprint(*parts: str) -> str:
    """The same for the same problem in the same file, whatever its line:
    an issue that only moves is not reported as fixed and new."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _issue(record: dict[str, Any]) -> dict[str, Any] | None:
    name = record["file"]
    if "problem" in record:
        check, description, line = NOT_PROCESSED, record["problem"], 1
    else:
        problem = record["_finding"]
        if problem is None:
            return None
        check, description = problem["rule"], problem["message"]
        line = problem["region"]["line"] if problem["region"] else 1
        if record.get("repairs"):
            description += f" (best repair: {record['repairs'][0]['summary']})"
    return {
        "description": description,
        "check_name": check,
        "fingerprint": _fingerprint(check, name, description),
        "severity": "major",
        "location": {"path": name, "lines": {"begin": line}},
    }


def report(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The issues of a run's records."""
    return [issue for record in records if (issue := _issue(record)) is not None]
