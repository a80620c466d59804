"""`make bench`: the tables of bench/README.md rewritten between their markers."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest
from bench.run_all import Benchmark, rewrite, table, tables_in

from bench import run_all

README = """# Benchmarks

Intro.

<!-- table: first -->
old first
<!-- end table -->

Between the tables: kept.

<!-- table: second -->
old second
<!-- end table -->
"""


def test_a_table_is_replaced_and_nothing_else() -> None:
    rewritten = rewrite(README, "second", "new second\n")
    assert rewritten == README.replace("old second", "new second")
    assert tables_in(rewritten) == ["first", "second"]
    # rewriting again with the same content changes nothing
    assert rewrite(rewritten, "second", "new second") == rewritten


def test_a_missing_or_doubled_table_is_refused() -> None:
    with pytest.raises(ValueError, match="0 tables named 'third'"):
        rewrite(README, "third", "x")
    doubled = README + "<!-- table: first -->\nagain\n<!-- end table -->\n"
    with pytest.raises(ValueError, match="2 tables named 'first'"):
        rewrite(doubled, "first", "x")


def test_a_table_says_where_and_how_it_was_measured() -> None:
    benchmark = Benchmark("toy", "toy.py", ("--cuts", "3"), {"INPUTMEND_NATIVE": "0"})
    output = "## Title\n\n| a |\n|---|\n| 1 |\n\n```\n# not a heading\n```\n"
    content = table(benchmark, output, "a machine")
    assert content.startswith(
        "Measured on: a machine.\n`INPUTMEND_NATIVE=0 .venv/bin/python bench/toy.py --cuts 3`\n"
    )
    assert "\n#### Title\n" in content  # under the README's own headings
    assert "\n# not a heading\n" in content


def test_every_benchmark_has_its_table_and_every_table_its_benchmark() -> None:
    readme = run_all.README.read_text(encoding="utf-8")
    assert tables_in(readme) == [benchmark.name for benchmark in run_all.BENCHMARKS]
    for benchmark in run_all.BENCHMARKS:
        assert (run_all.HERE / benchmark.script).is_file(), benchmark.script


def test_the_machine_is_described() -> None:
    described = run_all.machine()
    assert f"Python {platform.python_version()}" in described
    assert " cores (" in described


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return str(path)  # run_all joins it to bench/: an absolute path stays itself


def test_a_run_writes_what_succeeded_and_keeps_what_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(README, encoding="utf-8")
    printing = _script(tmp_path, "ok.py", "print('## Result\\n\\n| n |\\n|---|\\n| 42 |')\n")
    failing = _script(tmp_path, "bad.py", "print('| half |'); raise SystemExit(3)\n")
    benchmarks = (Benchmark("first", printing), Benchmark("second", failing))
    monkeypatch.setattr(run_all, "BENCHMARKS", benchmarks)
    monkeypatch.setattr(run_all, "README", readme)
    monkeypatch.setattr(run_all, "machine", lambda: "a test machine")
    assert run_all.main([]) == 1
    written = readme.read_text(encoding="utf-8")
    assert "Measured on: a test machine.\n" in written
    assert "#### Result\n\n| n |\n|---|\n| 42 |\n<!-- end table -->" in written
    assert "old second" in written and "| half |" not in written
    assert "second failed (exit status 3)" in capsys.readouterr().out
    # --only reruns one; --no-write leaves the file alone
    assert run_all.main(["--only", "first", "--no-write"]) == 0
    assert readme.read_text(encoding="utf-8") == written
    with pytest.raises(SystemExit):
        run_all.main(["--only", "nonesuch"])
