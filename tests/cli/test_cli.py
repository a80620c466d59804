"""The CLI contract on real files: exit codes, output, writing, encodings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inputmend.cli import main
from inputmend.grammar.scan import Scan
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.cli.helpers import run
from tests.clock import work_clock

APPLE = '{ "item": "Apple", "price": **3.45 }'  # Fig. 1 of the ddmax paper


@pytest.fixture
def apple(tmp_path: Path) -> Path:
    path = tmp_path / "apple.json"
    path.write_text(APPLE)
    return path


def test_check_exit_codes_and_location(
    capsys: pytest.CaptureFixture[str], apple: Path, tmp_path: Path
) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"a": [1, 2]}')
    assert run(capsys, "check", str(good))[0] == 0
    code, out, _ = run(capsys, "check", str(good), str(apple))
    assert code == 1
    assert f"{good}: valid" in out
    assert f"{apple}:1:29: error: unexpected `*`" in out


def test_check_json_output(capsys: pytest.CaptureFixture[str], apple: Path) -> None:
    code, out, _ = run(capsys, "check", "--json", str(apple))
    assert code == 1
    data = json.loads(out)
    assert data["valid"] is False
    assert data["error"]["line"] == 1 and data["error"]["column"] == 29


def test_repair_prints_ranked_diffs_and_leaves_the_file_alone(
    capsys: pytest.CaptureFixture[str], apple: Path
) -> None:
    code, out, _ = run(capsys, "repair", str(apple))
    assert code == 0
    assert "Repair 1 (fsynth, distance 2, at 1:29): Remove `**` before `3.45`" in out
    assert '+{ "item": "Apple", "price": 3.45 }' in out
    assert apple.read_text() == APPLE


def test_repair_json_contract(capsys: pytest.CaptureFixture[str], apple: Path) -> None:
    code, out, _ = run(capsys, "repair", "--json", "--algorithm", "ddmax", str(apple))
    assert code == 0
    data = json.loads(out)
    assert data["valid"] is False
    best = data["repairs"][0]
    assert best["text"] == '{ "item": "Apple", "price": 3.45 }'
    assert best["edits"] == [{"offset": 28, "delete": 2, "insert": ""}]
    assert best["distance"] == 2
    assert isinstance(data["tests"], int) and data["tests"] > 0
    assert isinstance(data["elapsed_s"], float)
    assert data["budget_exhausted"] is False


def test_repair_in_place_keeps_a_backup(capsys: pytest.CaptureFixture[str], apple: Path) -> None:
    code, out, _ = run(capsys, "repair", "--in-place", str(apple))
    assert code == 0
    assert apple.read_text() == '{ "item": "Apple", "price": 3.45 }'
    backup = apple.with_name("apple.json.orig")
    assert backup.read_text() == APPLE
    assert "original kept as" in out
    apple.write_text(APPLE)
    run(capsys, "repair", "--in-place", str(apple))
    assert apple.with_name("apple.json.orig.1").read_text() == APPLE, "never overwrite a backup"


def test_repair_to_output(capsys: pytest.CaptureFixture[str], apple: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "fixed.json"
    assert run(capsys, "repair", "-o", str(out_file), str(apple))[0] == 0
    assert json.loads(out_file.read_text()) == {"item": "Apple", "price": 3.45}
    assert apple.read_text() == APPLE
    code, _, err = run(capsys, "repair", "-o", str(apple), str(apple))
    assert code == 2 and "--in-place" in err


def test_bom_crlf_and_undecodable_bytes_survive(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "data.json"
    original = b'\xef\xbb\xbf{\r\n  "name": "M\xc3\xbcller",\r\n  "age": 4\xff2\r\n}\r\n'
    path.write_bytes(original)
    code, out, _ = run(capsys, "repair", "--in-place", str(path))
    assert code == 0, out
    assert path.read_bytes() == original.replace(b"\xff", b"")
    assert (tmp_path / "data.json.orig").read_bytes() == original


def test_explain_ddmax_spans(capsys: pytest.CaptureFixture[str], apple: Path) -> None:
    code, out, _ = run(capsys, "explain", "--json", str(apple))
    assert code == 0
    data = json.loads(out)
    assert data["spans"] == [{"start": 28, "end": 30, "text": "**", "line": 1, "column": 29}]
    code, out, _ = run(capsys, "explain", str(apple))
    assert "ddmax-hybrid: 1 failure-inducing span(s), 2 character(s)" in out
    assert f"{apple}:1:29: `**`" in out
    code, out, _ = run(capsys, "explain", "--algorithm", "ddmax", str(apple))
    assert "ddmax: 1 failure-inducing span(s), 2 character(s)" in out


@pytest.mark.parametrize(("algorithm", "spans"), [("ddmin", ["{"]), ("dd", ["*"])])
def test_explain_other_algorithms(
    capsys: pytest.CaptureFixture[str], apple: Path, algorithm: str, spans: list[str]
) -> None:
    code, out, _ = run(capsys, "explain", "--json", "--algorithm", algorithm, str(apple))
    assert code == 0
    assert [span["text"] for span in json.loads(out)["spans"]] == spans


def test_valid_file_needs_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text("[]")
    assert run(capsys, "repair", str(path))[1].strip().endswith("valid; nothing to repair")
    assert "nothing to explain" in run(capsys, "explain", str(path))[1]


def test_empty_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1 and "end of input" in out
    code, out, _ = run(capsys, "repair", "--json", str(path))
    assert code == 0  # FSynth inserts a value: the smallest valid JSON text
    best = json.loads(out)["repairs"][0]
    assert json.loads(best["text"]) is not None or best["text"] == "null"
    assert best["distance"] <= 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "/no/such/file.json"], "no such file"),
        (["check", "--grammar", "nosuchgrammar", "{f}"], "unknown grammar 'nosuchgrammar'"),
        (["check", "--command", "no-such-program-xyz", "{f}"], "command not found"),
        (["check", "--command", "cat", "--incomplete-pattern", "(", "{f}"], "bad incomplete"),
        (["check", "--python", "nosuchmodule_xyz:f", "{f}"], "cannot import"),
        (["check", "{e}"], "no files to process"),
        (["check", "{u}"], "no oracle for this file"),
    ],
)
def test_errors_are_one_line_with_exit_2(
    capsys: pytest.CaptureFixture[str], apple: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    unknown = tmp_path / "file.unknownext"
    unknown.write_text("x")
    empty = tmp_path / "empty-folder"
    empty.mkdir()
    filled = [a.format(f=apple, e=empty, u=unknown) for a in args]
    code, out, err = run(capsys, *filled)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and err.startswith("inputmend: error: ")
    assert "Traceback" not in err + out


def test_binary_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "image.json"
    path.write_bytes(bytes(range(256)) * 40)
    code, _, err = run(capsys, "repair", str(path))
    assert code == 2 and "binary" in err


def test_command_oracle_from_the_command_line(
    capsys: pytest.CaptureFixture[str], apple: Path
) -> None:
    checker = f'{sys.executable} -c "import json,sys; json.loads(sys.stdin.read())"'
    code, out, _ = run(capsys, "repair", "--json", "--command", checker, str(apple))
    assert code == 0
    assert json.loads(out)["repairs"][0]["text"].startswith('{ "item": "Apple", "price": 3.45')


def test_python_oracle_from_the_command_line(
    capsys: pytest.CaptureFixture[str], apple: Path
) -> None:
    code, out, _ = run(capsys, "check", "--python", "json:loads", str(apple))
    assert code == 1 and "Expecting value" in out


def test_budget_is_reported(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text("[" + ", ".join(str(i) for i in range(300)) + ", ** ]")
    _, out, _ = run(
        capsys, "repair", "--json", "--max-tests", "3", "--algorithm", "ddmax", str(path)
    )
    data = json.loads(out)
    assert data["budget_exhausted"] is True and data["time_capped"] is False
    assert data["stop_reason"] == "test budget of 3 oracle runs used up"
    assert data["tests"] <= 4


def test_config_file_maps_globs_to_oracles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a project, its configuration at the top
    (tmp_path / ".inputmend.toml").write_text(
        '[defaults]\ntimeout = 5\n\n[[oracle]]\nfiles = ["data/*.txt"]\npython = "json:loads"\n'
    )
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "a.txt"
    path.write_text("[1, 2,]")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1 and "Expecting value" in out
    (tmp_path / ".inputmend.toml").write_text('[[oracle]]\nfiles = "*.txt"\nbogus = 1\n')
    code, _, err = run(capsys, "check", str(path))
    assert code == 2 and "unknown key(s) bogus" in err


def test_grammars_lists_the_bundled_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "grammars")
    assert code == 0
    assert "json" in out and ".json" in out


def test_python_dash_m_and_console_script(apple: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "inputmend", "check", str(apple)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "unexpected `*`" in result.stdout


def _corpus_like_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    (folder / "sub").mkdir(parents=True)
    (folder / "ok.json").write_text('{"a": 1}\n')
    (folder / "bad.json").write_text('{"a": 1 "b": 2}\n')
    (folder / "sub" / "broken.json").write_text("[1, 2, **3, 4, 5, 6, 7, 8, 9, 10]\n")
    (folder / "sub" / "notes.txt").write_text("not a known format\n")
    (folder / ".hidden.json").write_text("{{{")
    return folder


def test_check_many_files_and_folders_in_parallel(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = _corpus_like_folder(tmp_path)
    code, out, _ = run(capsys, "check", "--jobs", "2", str(folder))
    assert code == 1
    assert "3 files: 1 valid, 2 invalid" in out
    assert "notes.txt" not in out and ".hidden" not in out


def test_repair_many_files_json_lines_and_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = _corpus_like_folder(tmp_path)
    missing = tmp_path / "missing.json"
    code, out, err = run(capsys, "repair", "--json", "--jobs", "2", str(folder), str(missing))
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 4
    by_name = {Path(r["file"]).name: r for r in records}
    assert by_name["ok.json"]["valid"] is True
    assert by_name["broken.json"]["repairs"][0]["text"] == "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
    assert "no such file" in by_name["missing.json"]["problem"]
    assert "4 files:" in err and "1 already valid" in err and "1 not processed" in err
    assert code == 2  # one file could not be processed, the others were


def test_repair_many_files_in_place(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = _corpus_like_folder(tmp_path)
    code, out, _ = run(capsys, "repair", "--in-place", "--jobs", "1", str(folder))
    assert "3 files: 2 repaired, 1 already valid, 0 not repaired" in out
    assert code == 0
    assert (folder / "sub" / "broken.json").read_text() == "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
    assert (
        folder / "sub" / "broken.json.orig"
    ).read_text() == "[1, 2, **3, 4, 5, 6, 7, 8, 9, 10]\n"
    assert not (folder / "ok.json.orig").exists()
    code, _, err = run(capsys, "repair", "-o", str(tmp_path / "x"), str(folder))
    assert code == 2 and "-o takes one input file" in err


@pytest.mark.parametrize("algorithm", ["auto", "fsynth"])
def test_repair_inserts_what_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, algorithm: str
) -> None:
    path = tmp_path / "dave.json"
    path.write_text('{ "name": "Dave" "age": 42 }')
    code, out, _ = run(capsys, "repair", "--json", "--algorithm", algorithm, str(path))
    assert code == 0
    best = json.loads(out)["repairs"][0]
    assert best["distance"] == 1 and best["algorithm"] == "fsynth"
    assert json.loads(best["text"]) == {"name": "Dave", "age": 42}
    assert best["edits"][0]["insert"] == ","


@pytest.mark.parametrize("algorithm", ["ddmax-syntactic", "ddmax-hybrid"])
def test_token_level_ddmax_from_the_cli(
    capsys: pytest.CaptureFixture[str], apple: Path, algorithm: str
) -> None:
    code, out, _ = run(capsys, "explain", "--json", "--algorithm", algorithm, str(apple))
    assert code == 0
    spans = json.loads(out)["spans"]
    assert spans and any("*" in span["text"] for span in spans)
    code, out, _ = run(capsys, "repair", "--json", "--algorithm", algorithm, str(apple))
    assert code == 0 and json.loads(out)["repairs"][0]["algorithm"] == algorithm


def test_partial_repair_is_reported_when_the_budget_runs_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "long.json"
    path.write_text("[" + "1 " * 50 + "]")
    code, out, _ = run(
        capsys, "repair", "--json", "--algorithm", "fsynth", "--max-tests", "20", str(path)
    )
    data = json.loads(out)
    assert code == 1 and data["repairs"] == [] and data["budget_exhausted"]
    assert data["partial"]["complete"] is False
    assert data["partial"]["text"]  # never the empty string


CALCULATOR_BUG = (
    f'{sys.executable} -c "import re, sys; '
    "sys.exit(1 if re.search(r'\\(\\(.*\\)\\)', sys.stdin.read()) else 0)\""
)


def test_explain_ddset_with_a_command_predicate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "calc.expr"
    path.write_text("1 + ((2 * 3 / 4))\n")
    args = ["explain", "--algorithm", "ddset", "--command", CALCULATOR_BUG, str(path)]
    code, out, _ = run(capsys, *args, "--json", "--verify", "10", "--seed", "3")
    assert code == 0
    data = json.loads(out)
    assert data["pattern"].strip() == "((<expr>))"
    assert data["reduced"].count("(") == 2
    assert data["tests"] < 100
    assert len(data["instances"]) == 5
    assert data["verify"]["failing"] == data["verify"]["resolved"] == 10
    code, out, _ = run(capsys, *args)
    assert "((<expr>))" in out and "predicate runs" in out


def test_explain_ddset_needs_a_failing_program(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "calc.expr"
    path.write_text("1 + 2\n")
    code, _, err = run(
        capsys, "explain", "--algorithm", "ddset", "--command", CALCULATOR_BUG, str(path)
    )
    assert code == 2 and "does not fail" in err
    code, _, err = run(capsys, "explain", "--algorithm", "ddset", str(path))
    assert code == 2 and "--command or --python" in err


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--test-timeout", "nan"),
        ("--test-timeout", "inf"),
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--test-timeout", "-1"),
        ("--timeout", "0"),
    ],
)
def test_timeouts_that_are_not_positive_finite_numbers_are_usage_errors(
    capsys: pytest.CaptureFixture[str], apple: Path, option: str, value: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["repair", option, value, str(apple)])
    assert stopped.value.code == 2
    assert "positive number of seconds" in capsys.readouterr().err


def test_messages_escape_control_characters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    named = tmp_path / "x\x1b[2Jy.json"
    named.write_text('{"a": \x00\x1b[31m}')
    code, out, _ = run(capsys, "check", str(named))
    assert code == 1
    assert "x\\x1b[2Jy.json:1:7: error: unexpected `\\x00`" in out
    assert "\x00" not in out and "\x1b" not in out
    code, _, err = run(capsys, "check", str(tmp_path / "gone\x07.json"))
    assert code == 2 and "gone\\x07.json: no such file" in err and "\x07" not in err


# ------------------------------------------------------- as a new user meets it
def test_check_quotes_what_the_validator_said(
    capsys: pytest.CaptureFixture[str], apple: Path
) -> None:
    script = "import sys; print('bad price at 1:29', file=sys.stderr); sys.exit(3)"
    code, out, _ = run(capsys, "check", "--command", f'{sys.executable} -c "{script}"', str(apple))
    assert code == 1 and out.strip().endswith("error: exit code 3: bad price at 1:29")
    loads = f'{sys.executable} -c "import json,sys; json.loads(sys.stdin.read())"'
    code, out, _ = run(capsys, "check", "--command", loads, str(apple))
    assert "JSONDecodeError: Expecting value" in out, "a traceback's last line names the error"


JQ_MESSAGES = (  # jq 1.6 and 1.7 on truncated input
    "parse error: Unfinished JSON term at EOF at line 2, column 0",
    "jq: error (at <stdin>:1): Unfinished string at EOF at line 1, column 8",
    "parse error: Unfinished abandoned text at EOF at line 1, column 4",
)


def test_the_documented_jq_patterns_cover_jqs_messages_at_eof() -> None:
    import re

    from tests.documentation import everything

    patterns = re.findall(r'--incomplete-pattern "([^"]+)"', everything())
    assert patterns and all(re.search(p, m) for p in patterns for m in JQ_MESSAGES)
    assert not any(re.search(p, "parse error: Expected separator between values") for p in patterns)


def test_explain_points_at_a_trailing_comma(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "t.json"
    path.write_text('{"a": [1, 2],\n "b": {"c": 3,\n  "d": 4,\n },\n "e": 5}\n')
    code, out, _ = run(capsys, "explain", "--json", str(path))
    assert code == 0
    assert [span["text"] for span in json.loads(out)["spans"]] == [","]
    assert json.loads(out)["spans"][0]["line"] == 3


def _inputmend(
    *args: str, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "inputmend", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=120,
    )


def test_standard_input_and_output() -> None:
    data = APPLE.encode()
    checked = _inputmend("check", "--grammar", "json", "-", stdin=data)
    assert checked.returncode == 1
    assert checked.stdout.decode().startswith("<stdin>:1:29: error: unexpected `*`")
    repaired = _inputmend("repair", "--grammar", "json", "-", "-o", "-", stdin=data)
    assert repaired.returncode == 0
    assert repaired.stdout == b'{ "item": "Apple", "price": 3.45 }', "only the repair on stdout"
    assert "Remove `**` before `3.45`" in repaired.stderr.decode()
    bom = _inputmend("repair", "--grammar", "json", "-", "-o", "-", stdin=b'\xef\xbb\xbf{"a" 1}')
    assert bom.stdout.startswith(b"\xef\xbb\xbf") and json.loads(bom.stdout[3:]) == {"a": 1}
    explained = _inputmend("explain", "--grammar", "json", "-", stdin=data)
    assert "<stdin>:1:29: `**`" in explained.stdout.decode()
    alone = _inputmend("check", "--grammar", "json", "-", "other.json", stdin=data)
    assert alone.returncode == 2 and b"standard input" in alone.stderr
    in_place = _inputmend("repair", "--grammar", "json", "-", "--in-place", stdin=data)
    assert in_place.returncode == 2 and b"--in-place" in in_place.stderr
    unknown = _inputmend("check", "-", stdin=data)
    assert unknown.returncode == 2 and b"--grammar" in unknown.stderr


def test_json_repairs_carry_their_titles(capsys: pytest.CaptureFixture[str], apple: Path) -> None:
    code, out, _ = run(capsys, "repair", "--json", str(apple))
    data = json.loads(out)
    assert code == 0 and data["repairs"][0]["summary"] == "Remove `**` before `3.45`"
    assert isinstance(data["total_s"], float) and data["total_s"] >= data["elapsed_s"]
    texts = [r["text"] for r in data["repairs"]]
    assert '{ "item": "Apple", "price": 3.45 }' in texts
    assert '{ "item": "Apple", "price":  3.45 }' not in texts, "the same but for a space"


def test_diffs_show_only_the_lines_around_the_edits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [f'  "k{i}": {i},' for i in range(50_000)]
    middle = len(lines) // 2
    lines[middle] = lines[middle].replace(",", "")  # a missing comma
    path = tmp_path / "big.json"
    path.write_text("{\n" + "\n".join(lines) + '\n  "end": 0\n}\n')
    code, out, _ = run(capsys, "repair", "--top", "1", str(path))
    assert code == 0
    hunk = out[out.index("@@") :].splitlines()
    changed = middle + 2  # the line that lost its comma (line 1 is the `{`)
    # the comma goes at its end or before the next line's key: 3 lines of context
    assert hunk[0] in (
        f"@@ -{changed - 3},7 +{changed - 3},7 @@",
        f"@@ -{changed - 2},7 +{changed - 2},7 @@",
    )
    assert len([line for line in hunk if line[:1] in ("-", "+")]) == 2
    assert len(out.splitlines()) < 20 and "total time" in out


def test_a_long_line_is_cut_around_the_change(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    items = [f'{{"k": {i}, "v": "{"x" * 20}"}}' for i in range(20_000)]
    items[10_000] = items[10_000].replace(", ", " ", 1)
    path = tmp_path / "one-line.json"
    path.write_text("[" + ",".join(items) + "]")
    code, out, _ = run(capsys, "repair", "--top", "1", str(path))
    assert code == 0
    changed = [
        line
        for line in out.splitlines()
        if line.startswith(("-", "+")) and not line.startswith(("---", "+++"))
    ]
    assert len(changed) == 2 and all(len(line) <= 170 for line in changed)
    assert '{"k": 10000 "v"' in changed[0] and '{"k": 10000, "v"' in changed[1]


def test_the_documented_ddset_examples_run_as_written() -> None:
    import shlex

    from tests.documentation import blocks

    examples = [block for block in blocks("sh") if "--algorithm ddset" in block.text]
    assert examples, "the DDSET example left the documentation"
    for block in examples:
        argv = shlex.split(block.text.replace("\\\n", " ").strip())
        assert argv[0] == ".venv/bin/inputmend", block.page
        done = _inputmend(*argv[1:], cwd=Path(__file__).resolve().parents[2])
        assert done.returncode == 0, done.stderr
        assert "((<expr>))" in done.stdout.decode()


def test_make_demo_runs_clean_and_says_how_to_run_the_command() -> None:
    import shutil

    root = Path(__file__).resolve().parents[2]
    if shutil.which("make") is None or not (root / ".venv" / "bin" / "inputmend").exists():
        pytest.skip("needs make and the checkout's .venv (make demo or make test creates it)")
    done = subprocess.run(
        ["make", "-o", ".venv/.installed", "demo"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Error" not in output and "ignored" not in output
    assert "run it as .venv/bin/inputmend" in output
    assert f"interpreter is {root / '.venv' / 'bin' / 'python'}" in output


JUNK = "{ a = 1; }" + " @@@" * 30 + "\n"  # TinyC: only deleting the junk (90 characters) helps


def test_a_lossy_repair_is_shown_but_not_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "junk.tinyc"
    path.write_text(JUNK)
    out_path = tmp_path / "out.tinyc"
    code, out, _ = run(capsys, "repair", "--json", "-o", str(out_path), str(path))
    data = json.loads(out)
    assert data["repairs"] and data["repairs"][0]["lossy"] is True
    assert data["written"] == "nothing written: the best repair is lossy"
    assert not out_path.exists() and code == 1
    assert any("not repaired (lossy)" in note and "--allow-loss" in note for note in data["notes"])
    code, out, _ = run(capsys, "repair", "--allow-loss", "-o", str(out_path), str(path))
    assert code == 0 and out_path.read_text().rstrip() == "{ a = 1; }"
    code, _, _ = run(capsys, "repair", "--max-loss", "100%,100", "-o", str(out_path), str(path))
    assert code == 0
    code, _, err = run(capsys, "repair", "--max-loss", "lots", str(path))
    assert code == 2 and "--max-loss" in err


def test_a_batch_counts_lossy_files_as_not_repaired(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = _corpus_like_folder(tmp_path)
    (folder / "junk.tinyc").write_text(JUNK)
    code, out, _ = run(capsys, "repair", "--in-place", "--jobs", "1", str(folder))
    assert "4 files: 2 repaired, 1 already valid, 0 not repaired, 1 not repaired (lossy)" in out
    assert "junk.tinyc: not repaired (lossy): the best repair loses 90 of" in out
    assert code == 1 and (folder / "junk.tinyc").read_text() == JUNK
    (folder / ".inputmend.toml").write_text("[defaults]\nallow-loss = true\n")
    code, out, _ = run(capsys, "repair", "--in-place", "--jobs", "1", str(folder / "junk.tinyc"))
    assert code == 0 and (folder / "junk.tinyc").read_text().rstrip() == "{ a = 1; }"
    (folder / ".inputmend.toml").write_text('[defaults]\nmax-loss = "1%,5"\n')
    again = folder / "sub" / "again.json"
    again.write_text("[1, 2, **3, 4, 5, 6, 7, 8, 9, 10]\n")
    code, out, _ = run(capsys, "repair", "--json", str(again))
    lossy = {r["text"]: r["lossy"] for r in json.loads(out)["repairs"]}
    assert lossy["[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"] is True  # 2 of 24 is more than 1%


def test_undecodable_bytes_are_reread_and_shown_as_bytes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "people.json"
    path.write_bytes(b'{"name": "Ren\xe9e"}\n')
    code, out, _ = run(capsys, "repair", "--encoding", "utf-8", str(path))
    assert code == 0
    assert '-{"name": "Ren\\xe9e"}' in out and '+{"name": "Renée"}' in out  # the diff
    assert "Replace `\\xe9` with `é`" in out and "\\udce9" not in out
    run(capsys, "repair", "--encoding", "utf-8", "--in-place", str(path))
    assert path.read_bytes() == '{"name": "Renée"}\n'.encode()


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("dup.toml", "a = 1\nb = 2\na = 3\n", "3:6: error: rejected by tomllib: Cannot overwrite"),
        ("table.csv", "name,age\nann,3\nbob,4,5\n", "3:6: error: rejected by csv: a record with 3"),
        (
            "entity.xml",
            '<!DOCTYPE a [<!ENTITY e "<b>">]>\n<a>&e;</a>\n',
            "2:4: error: rejected by expat: asynchronous entity",
        ),
    ],
)
def test_the_formats_loader_has_the_last_word(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str, message: str
) -> None:
    """A file the grammar accepts and the format's loader refuses is invalid
    where the loader says, and gets repairs that the loader accepts."""
    path = tmp_path / name
    path.write_text(text)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert f"{path}:{message}" in out
    _, out, _ = run(capsys, "repair", "--json", "--allow-loss", str(path))
    assert json.loads(out)["repairs"]


def test_a_long_one_line_document_stops_at_its_budget_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2 MB one-line document with one comma too many: the repair stops
    when its time budget is used up and reports that (no run past the budget
    stopped by the CPU watchdog, blamed on a grammar terminal).  Time moves by
    work: each grammar scan costs a quarter of the budget, on any machine."""
    clock = work_clock(monkeypatch)
    scan = IncrementalGrammarOracle.scan

    def costly(self: IncrementalGrammarOracle, text: str) -> Scan:
        clock.advance(0.25)
        return scan(self, text)

    monkeypatch.setattr(IncrementalGrammarOracle, "scan", costly)
    items = [
        {"id": i, "name": f"item {i}", "tags": ["a", "b"], "v": i * 1.5} for i in range(30_000)
    ]
    text = json.dumps(items)
    comma = text.index("}, {", len(text) // 2) + 1
    path = tmp_path / "long.json"
    path.write_text(text[:comma] + "," + text[comma:])
    code, out, err = run(capsys, "repair", str(path), "--timeout", "1", "--test-timeout", "5")
    assert code == 1, err
    assert "stopped early: time cap reached: the answer may differ from run to run" in out
    assert "terminal" not in out + err and "CPU time" not in err


@pytest.mark.parametrize("name", ["huge.lark", ".inputmend.toml"])
def test_a_huge_grammar_or_configuration_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """A 6 GB sparse grammar or configuration file: a one-line error, exit
    2, never a MemoryError."""
    with (tmp_path / name).open("wb") as stream:
        stream.truncate(6 << 30)
    data = tmp_path / "a.json"
    data.write_text("[1]")
    options = ["--grammar", str(tmp_path / name)] if name.endswith(".lark") else []
    code, _, err = run(capsys, "check", *options, str(data))
    assert code == 2 and "too large (6442450944 bytes" in err and err.count("\n") == 1, err
