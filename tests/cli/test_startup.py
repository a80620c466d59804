"""Start-up: each command imports only what it needs (checked on the modules
a fresh interpreter has loaded, not on time, which depends on the machine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

CHECK_NEVER_LOADS = (
    "pygls",
    "lsprotocol",
    "Levenshtein",
    "rapidfuzz",
    "dask",
    "distributed",
    "inputmend.services",
    "inputmend.algorithms",
    "inputmend.records",
    "inputmend.lsp",
    "ctypes",
    "concurrent",
    "multiprocessing",
    "configparser",
)
"""What ``check`` of one file has no use for: the language server's
libraries, the edit distance (it loads rapidfuzz's compiled modules), Dask,
the repair algorithms (DDSET, FSynth, ...), record mode, the machinery
of worker processes (a process pool; ctypes, for the parent-death signal),
and configparser (the Python oracles read the errors of a validator that
uses it)."""
CACHED_CHECK_NEVER_LOADS = ("lark", "regex", "logging")
"""What ``check`` of a valid file has no use for once its grammar is in the
cache (:mod:`inputmend.grammar.cache`): lark, the ``regex`` module (partial
matches of cut-off tokens, which a valid text has none of), and logging
(lark's; inputmend logs a configuration problem when there is one)."""
REPAIR_NEVER_LOADS = (
    "pygls",
    "lsprotocol",
    "dask",
    "distributed",
    "inputmend.lsp",
    "inputmend.algorithms.ddset",
)
"""What a repair has no use for: the language server's libraries, Dask, and
DDSET (the explanation as a pattern, which only ``explain --algorithm
ddset`` and the server's explanation run)."""
SMALL_REPAIR_NEVER_LOADS = ("Levenshtein", "rapidfuzz", "inputmend.oracles.command", "tempfile")
"""What a repair of a small file with a grammar has no use for: the compiled
edit distance (the Python one answers alike, and sooner than rapidfuzz's
compiled modules load), the command oracle, and ``tempfile`` (only a
write makes a temporary file)."""


def _loaded_after(code: str, cache_home: Path | None = None) -> list[str]:
    """The modules (top-level and two-level names, and every inputmend module) a fresh
    interpreter has loaded after running ``code`` (with its grammar cache
    in ``cache_home``, else turned off)."""
    script = (
        "import json, sys\n"
        f"{code}\n"
        "names = {n for m in sys.modules for n in (m.split('.')[0], '.'.join(m.split('.')[:2]))}\n"
        "names |= {m for m in sys.modules if m.startswith('inputmend.')}\n"
        "print(json.dumps(sorted(names)), file=sys.__stderr__)\n"
    )
    environment = {**os.environ, "INPUTMEND_CACHE": "1" if cache_home else "0"}
    if cache_home is not None:
        environment["XDG_CACHE_HOME"] = str(cache_home)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def _run(argv: list[str]) -> str:
    return (
        "from inputmend.cli.main import main\n"
        f"status = main({argv!r})\n"
        "assert status in (0, 1), status\n"
    )


@pytest.fixture(scope="module")
def small_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("startup")
    valid, broken = folder / "valid.json", folder / "broken.json"
    valid.write_text('{"a": [1, 2]}\n', encoding="utf-8")
    broken.write_text('{"a": [1, 2}\n', encoding="utf-8")
    return valid, broken


def test_importing_the_package_loads_no_grammar_machinery() -> None:
    loaded = _loaded_after("import inputmend")
    for name in ("lark", "inputmend.services", "inputmend.grammar", *CHECK_NEVER_LOADS):
        assert name not in loaded


def test_parsing_the_command_line_loads_no_subcommand() -> None:
    loaded = _loaded_after("import inputmend.cli.main")
    for name in ("lark", "inputmend.services", *CHECK_NEVER_LOADS):
        assert name not in loaded


@pytest.mark.parametrize("which", [0, 1], ids=["valid", "broken"])
def test_check_loads_only_what_checking_needs(small_files: tuple[Path, Path], which: int) -> None:
    loaded = _loaded_after(_run(["check", "--jobs", "1", str(small_files[which])]))
    assert "lark" in loaded  # the grammar is built: no cache
    assert [name for name in CHECK_NEVER_LOADS if name in loaded] == []


def test_check_with_its_grammar_in_the_cache_loads_no_lark(
    small_files: tuple[Path, Path], tmp_path: Path
) -> None:
    check = _run(["check", "--jobs", "1", str(small_files[0])])
    first = _loaded_after(check, tmp_path)
    assert "lark" in first  # built, then kept
    assert list((tmp_path / "inputmend" / "grammars").iterdir())
    again = _loaded_after(check, tmp_path)
    never = CHECK_NEVER_LOADS + CACHED_CHECK_NEVER_LOADS
    assert [name for name in never if name in again] == []


def test_repair_with_its_grammar_in_the_cache_loads_no_lark(
    small_files: tuple[Path, Path], tmp_path: Path
) -> None:
    repair = _run(["repair", "--jobs", "1", str(small_files[1])])
    assert "lark" in _loaded_after(repair, tmp_path)
    again = _loaded_after(repair, tmp_path)
    never = ("lark", *REPAIR_NEVER_LOADS, *SMALL_REPAIR_NEVER_LOADS)
    assert [name for name in never if name in again] == []


def test_repair_loads_no_language_server_and_no_dask(small_files: tuple[Path, Path]) -> None:
    loaded = _loaded_after(_run(["repair", "--jobs", "1", str(small_files[1])]))
    assert "inputmend.services" in loaded
    assert [name for name in REPAIR_NEVER_LOADS if name in loaded] == []


def test_every_subcommand_still_parses_its_options() -> None:
    """Only the chosen subcommand's options are built on a run: each, when
    chosen, has its own."""
    from inputmend.cli.main import SUBCOMMANDS, build_parser, chosen_subcommand

    full = build_parser()
    for name in SUBCOMMANDS:
        argv = [name, "x"] if name in ("check", "repair", "explain") else [name]
        assert chosen_subcommand(argv) == name
        assert vars(build_parser(name).parse_args(argv)) == vars(full.parse_args(argv))
    assert chosen_subcommand(["--version"]) is None
    assert chosen_subcommand(["nonsense", "x"]) is None
