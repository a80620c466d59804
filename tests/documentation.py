"""The documentation as the tests read it: README.md and the pages of docs/.

Tests that check what the documentation says, or run its examples, read it
through here, so that an example moved from one page to another is still
found and still run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT

DOCS = ROOT / "docs"
PAGES = (ROOT / "README.md", *sorted(DOCS.glob("*.md")))


@dataclass(frozen=True)
class Block:
    """One fenced code block: the page it is on, its language and its text."""

    page: Path
    language: str
    text: str


def page(name: str) -> str:
    """The text of ``docs/NAME``."""
    return (DOCS / name).read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """From the heading line that starts with ``heading`` to the next heading
    of the same or a higher level (fenced code is not read for headings)."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.split("\n")
    start = next(n for n, line in enumerate(lines) if line.startswith(heading))
    fenced = False
    for end in range(start + 1, len(lines)):
        line = lines[end]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        hashes = len(line) - len(line.lstrip("#"))
        if not fenced and 0 < hashes <= level and line[hashes : hashes + 1] == " ":
            return "\n".join(lines[start:end])
    return "\n".join(lines[start:])


def fenced(text: str, language: str) -> list[str]:
    """The fenced blocks in ``language`` of ``text`` (a page or a section), in order."""
    found = re.finditer(r"^ *```(\w*)\n(.*?)^ *```", text, re.M | re.S)
    return [match[2] for match in found if match[1] == language]


def blocks(language: str) -> list[Block]:
    """Every fenced block in ``language``, README first, then the pages by name."""
    return [
        Block(path, language, text)
        for path in PAGES
        for text in fenced(path.read_text(encoding="utf-8"), language)
    ]


def everything() -> str:
    """README.md and every page, one after another."""
    return "\n".join(path.read_text(encoding="utf-8") for path in PAGES)
