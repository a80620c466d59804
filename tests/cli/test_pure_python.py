"""inputmend runs, and answers alike, without its compiled modules: the
``regex`` and ``Levenshtein`` packages and the C scan loop (the VS Code
extension's universal package carries none of them)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

CLI = "import sys\nfrom inputmend.cli.main import run\nsys.argv[0] = 'inputmend'\nsys.exit(run())\n"
# Each blocked module raises ImportError on import, as when it is not installed.
WITHOUT_COMPILED = (
    "import sys\nfor name in ('regex', 'Levenshtein', 'rapidfuzz'):\n    sys.modules[name] = None\n"
    + CLI
)
WITH_COMPILED = CLI

# Files whose grammars' hints ``re`` reads (or that have none): the same repairs.
SAME_REPAIRS = {
    "calc.expr": "1 + ((2 * 3 / 4)\n",
    "setup.ini": "[main]\nname = x\n[broken\nkey = 1\n",
    "tree.sexp": "(a (b c) (d e)\n",
}
# Files whose hints use look-behinds of varying width, which only ``regex``
# reads: the same diagnostics, and repairs without those hints, which says so.
FEWER_HINTS = {
    "order.json": '{ "item": "Apple", "price": **3.45, "tags": ["a" "b"] }\n',
    "config.toml": '[server]\nname = "x\nport = 80 80\n',
    "list.yaml": "items:\n  - a\n  - [b, c\n",
    "page.xml": "<a><b>text</a>\n",
}
REPAIR = ("--top", "3", "--max-tests", "1500")


def _inputmend(program: str, *args: str, cwd: Path, pure: bool) -> str:
    env = {**os.environ, "INPUTMEND_NATIVE": "0" if pure else "1"}
    done = subprocess.run(
        [sys.executable, "-c", program, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return re.sub(r"\d+\.\d+s\b", "(time)", f"exit {done.returncode}\n{done.stdout}")


@pytest.mark.parametrize("name", sorted(SAME_REPAIRS))
def test_check_and_repair_answer_alike_without_compiled_modules(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(SAME_REPAIRS[name], encoding="utf-8")
    for command, shows in ((["check", name], "error"), (["repair", name, *REPAIR], "Repair 1 ")):
        pure = _inputmend(WITHOUT_COMPILED, *command, cwd=tmp_path, pure=True)
        assert pure == _inputmend(WITH_COMPILED, *command, cwd=tmp_path, pure=False)
        assert shows in pure


@pytest.mark.parametrize("name", sorted(FEWER_HINTS))
def test_without_regex_hints_it_cannot_read_are_left_out_and_said_so(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / name).write_text(FEWER_HINTS[name], encoding="utf-8")
    check = ["check", name]
    pure = _inputmend(WITHOUT_COMPILED, *check, cwd=tmp_path, pure=True)
    assert pure == _inputmend(WITH_COMPILED, *check, cwd=tmp_path, pure=False)
    repaired = _inputmend(WITHOUT_COMPILED, "repair", name, *REPAIR, cwd=tmp_path, pure=True)
    assert "need the regex module, which is not installed; repaired without them" in repaired
    assert "Repair 1 " in repaired
