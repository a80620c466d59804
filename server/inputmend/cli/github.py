"""``--output-format github``: GitHub Actions workflow commands.

Each invalid file becomes one ``::error`` command, which a workflow run shows
as an annotation on the file's line (and on a pull request's diff).  The
message says what is wrong and, for ``repair``, what the best repair changes
(with its diff) and what was written.  A file that could not be processed is
an annotation on the file without a position.

GitHub reads a command up to the end of its line: in the message ``%``,
``\\r`` and ``\\n`` are percent-encoded, in the properties ``,`` and ``:``
as well (they separate properties and end the list).  What the validator
said is shown as the text output shows it: control characters (a terminal's
escape sequences) as backslash escapes.
"""

from __future__ import annotations

from typing import Any

from inputmend.core.text import printable

TITLE = "inputmend"
_DATA_ESCAPES = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY_ESCAPES = {**_DATA_ESCAPES, ":": "%3A", ",": "%2C"}


def _escape(text: str, escapes: dict[str, str]) -> str:
    return "".join(escapes.get(char, char) for char in text)


def command(name: str, message: str, properties: dict[str, str | int]) -> str:
    """``::NAME key=value,…::MESSAGE``, escaped as GitHub requires."""
    listed = ",".join(
        f"{key}={_escape(str(value), _PROPERTY_ESCAPES)}" for key, value in properties.items()
    )
    return f"::{name} {listed}::{_escape(message, _DATA_ESCAPES)}"


def _position(region: dict[str, int] | None) -> dict[str, str | int]:
    """The annotation's lines and columns (the end column is the last
    character's, GitHub's columns being inclusive)."""
    if region is None:
        return {}
    return {
        "line": region["line"],
        "col": region["column"],
        "endLine": region["end_line"],
        "endColumn": max(region["column"], region["end_column"] - 1)
        if region["end_line"] == region["line"]
        else region["end_column"],
    }


def _repairs(record: dict[str, Any]) -> list[str]:
    """What ``repair`` adds to the message: the best repair with its diff,
    the others in a line each, the notes and what was written."""
    lines: list[str] = []
    for rank, (repair, where) in enumerate(zip(record["repairs"], record["_where"], strict=True)):
        lossy = ", lossy" if repair["lossy"] else ""
        lines.append(
            f"Repair {rank + 1} (distance {repair['distance']}{lossy}, at {where}): "
            f"{printable(repair['summary'])}"
        )
        if rank == 0:
            lines.append(record["_diffs"][0].rstrip("\n"))
    if not record["repairs"]:
        lines.append("No repair found.")
    lines += [f"note: {printable(note)}" for note in record["notes"]]
    if record["written"]:
        lines.append(record["written"])
    return lines


def workflow_commands(record: dict[str, Any]) -> list[str]:
    """The workflow commands of one file's record (none for a valid file)."""
    if "problem" in record:
        return [
            command(
                "error",
                printable(record["problem"]),
                {"file": record["file"], "title": f"{TITLE}: not processed"},
            )
        ]
    problem = record["_finding"]
    if problem is None:
        return []
    message = [printable(problem["message"])]
    if "repairs" in record:
        message += ["", *_repairs(record)]
    properties: dict[str, str | int] = {
        "file": record["file"],
        **_position(problem["region"]),
        "title": f"{TITLE}: {problem['rule']} input",
    }
    return [command("error", "\n".join(message), properties)]
