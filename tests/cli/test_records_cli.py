"""Record mode on files: ``check``/``repair --records lines|csv``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inputmend.cli import records
from tests.cli.helpers import run

JSONL = (
    '{"id": 1, "tags": ["a"]}\n'
    '{"id": 2, "tags": ["a" "b"]}\r\n'
    "\n"
    '{"id": 3, "ok": tru}\n'
    '{"id": 4}@@@@@@@@@@@@\n'
    '{"id": 5, "name": "Zoë"}'
)
REPAIRED = (
    '{"id": 1, "tags": ["a"]}\n'
    '{"id": 2, "tags": ["a", "b"]}\r\n'
    "\n"
    '{"id": 3, "ok": true}\n'
    '{"id": 4}@@@@@@@@@@@@\n'
    '{"id": 5, "name": "Zoë"}'
)


@pytest.fixture
def events(tmp_path: Path) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_bytes(JSONL.encode())
    return path


def test_a_jsonl_file_is_repaired_record_by_record_and_left_alone(
    capsys: pytest.CaptureFixture[str], events: Path
) -> None:
    code, out, err = run(capsys, "repair", str(events))
    assert code == 1  # one record could not be repaired
    assert out.splitlines() == [
        f'{events}:2:24: repaired (fsynth): Insert missing `,` after `"a"`',
        f"{events}:4:20: repaired (completion): Replace `tru` with `true`",
        f"{events}:5:10: not repaired: only lossy repairs: the best loses 12 of 20 characters "
        "(limit 10% or 64 characters)",
    ]
    assert "5 records in " in err
    assert "2 valid, 2 repaired, 1 rejected (1 lossy), 1 blank line(s) kept" in err
    assert events.read_bytes() == JSONL.encode()


def test_the_output_has_every_line_in_order(
    capsys: pytest.CaptureFixture[str], events: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out.jsonl"
    code, out, err = run(capsys, "repair", str(events), "-o", str(target), "--jobs", "1")
    assert code == 1
    assert out == ""  # the records are written; the summary says how it went
    assert target.read_bytes() == REPAIRED.encode()
    assert f"wrote {target}" in err


def test_rejected_records_are_listed_and_can_be_left_out(
    capsys: pytest.CaptureFixture[str], events: Path, tmp_path: Path
) -> None:
    target, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    code, _, err = run(
        capsys,
        "repair",
        str(events),
        "-o",
        str(target),
        "--reject",
        str(rejects),
        "--drop-rejected",
    )
    assert code == 1
    assert target.read_bytes() == REPAIRED.replace('{"id": 4}@@@@@@@@@@@@\n', "").encode()
    (entry,) = [json.loads(line) for line in rejects.read_text().splitlines()]
    assert entry["line"] == 5 and entry["kind"] == "lossy"
    assert entry["text"] == '{"id": 4}@@@@@@@@@@@@'
    assert "loses 12 of 20 characters" in entry["reason"]
    assert f"records not repaired are listed in {rejects}" in err


def test_a_lossy_repair_is_written_only_when_allowed(
    capsys: pytest.CaptureFixture[str], events: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out.jsonl"
    assert run(capsys, "repair", str(events), "-o", str(target), "--allow-loss")[0] == 0
    assert '{"id": 4}\n' in target.read_text()
    assert run(capsys, "repair", str(events), "-o", str(target), "--max-loss", "70%")[0] == 0
    assert run(capsys, "repair", str(events), "-o", str(target), "--max-loss", "70%,3")[0] == 1


def test_json_lines_per_damaged_record(capsys: pytest.CaptureFixture[str], events: Path) -> None:
    _, out, _ = run(capsys, "repair", str(events), "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["line"], r["status"]) for r in records] == [
        (2, "repaired"),
        (4, "repaired"),
        (5, "rejected"),
    ]
    first = records[0]
    assert first["edits"] == [{"offset": 22, "delete": 0, "insert": ","}]
    assert first["output"] == '{"id": 2, "tags": ["a", "b"]}'
    assert first["data_lost"] == 0 and first["algorithm"] == "fsynth"
    assert first["error"]["line"] == 2 and first["error"]["column"] == 24
    assert records[2]["reason"].startswith("only lossy repairs")


def test_check_reports_each_invalid_record(
    capsys: pytest.CaptureFixture[str], events: Path, tmp_path: Path
) -> None:
    code, out, err = run(capsys, "check", str(events))
    assert code == 1
    assert out.splitlines()[0] == f'{events}:2:24: error: unexpected `"`; expected `,`, `]`'
    assert len(out.splitlines()) == 3
    assert "2 valid, 3 invalid" in err
    valid = tmp_path / "valid.jsonl"
    valid.write_text('{"a": 1}\n[2]\n')
    assert run(capsys, "check", str(valid))[0] == 0


def test_in_place_keeps_a_backup_and_leaves_valid_files_alone(
    capsys: pytest.CaptureFixture[str], events: Path, tmp_path: Path
) -> None:
    run(capsys, "repair", str(events), "--in-place")
    assert events.read_bytes() == REPAIRED.encode()
    assert (tmp_path / "events.jsonl.orig").read_bytes() == JSONL.encode()
    valid = tmp_path / "valid.jsonl"
    valid.write_text("[1]\n")
    _, _, err = run(capsys, "repair", str(valid), "--in-place")
    assert f"{valid} unchanged" in err
    assert not (tmp_path / "valid.jsonl.orig").exists()


def test_one_part_per_partition_in_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "many.jsonl"
    source.write_text("".join(f'{{"n": {n}}}\n' for n in range(300)) + '{"n": 300\n')
    folder = tmp_path / "parts"
    code, _, err = run(
        capsys, "repair", str(source), "-o", f"{folder}/", "--partition-bytes", "1000"
    )
    assert code == 0
    parts = sorted(folder.iterdir())
    assert len(parts) > 3 and all(p.name.startswith("part-") for p in parts)
    assert parts[0].name == "part-00000.jsonl"
    assert "".join(p.read_text() for p in parts) == source.read_text().replace(
        '{"n": 300\n', '{"n": 300}\n'
    )
    assert f"wrote {len(parts)} part(s) to {folder}" in err
    assert run(capsys, "repair", str(source), "-o", f"{folder}/")[0] == 2  # not over old parts


CSV = 'id,name,note\r\n1,Ann,ok\r\n2,Bob,"two\r\nlines"\r\n3,Cy\r\n4,"Dee,x\r\n5,Eve,,\r\n'


def test_csv_rows_are_judged_against_the_header(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source, target = tmp_path / "people.csv", tmp_path / "fixed.csv"
    source.write_bytes(CSV.encode())
    code, _, err = run(capsys, "repair", str(source), "--records", "csv", "-o", str(target))
    assert code == 0
    repaired = CSV.replace("3,Cy\r", "3,Cy,\r").replace('"Dee,x', '"Dee",x')
    assert target.read_bytes() == repaired.replace("5,Eve,,", "5,Eve,").encode()
    assert "5 records in" in err and "2 valid, 3 repaired" in err
    folder = tmp_path / "parts"
    run(
        capsys,
        "repair",
        str(source),
        "--records",
        "csv",
        "-o",
        f"{folder}/",
        "--partition-bytes",
        "8",
    )
    parts = [p.read_bytes() for p in sorted(folder.iterdir())]
    header = b"id,name,note\r\n"
    assert len(parts) >= 3 and all(part.startswith(header) for part in parts)
    assert header + b"".join(part.removeprefix(header) for part in parts) == target.read_bytes()


def test_a_csv_header_that_is_no_row_stops_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "bad.csv"
    source.write_text('id,"name\n1,2\n')
    code, _, err = run(capsys, "check", str(source), "--records", "csv")
    assert code == 2
    assert err.startswith(f"inputmend: error: {source}: line 1: the CSV header is not a valid row")


def test_a_record_over_the_size_limit_is_passed_through_and_listed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source, target, rejects = tmp_path / "big.jsonl", tmp_path / "o.jsonl", tmp_path / "r.jsonl"
    big = json.dumps(list(range(2000)))
    source.write_text(f"[1]\n{big}\n[2\n")
    run(
        capsys,
        "repair",
        str(source),
        "-o",
        str(target),
        "--reject",
        str(rejects),
        "--max-record-bytes",
        "100",
        "--partition-bytes",
        "50",
    )
    assert target.read_text() == f"[1]\n{big}\n[2]\n"
    entry = json.loads(rejects.read_text())
    assert entry["line"] == 2 and entry["kind"] == "too large" and entry["text"] is None
    assert entry["reason"] == f"{len(big)} bytes, more than the record size limit of 100"


def test_standard_input_to_standard_output(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "inputmend", "repair", "-", "--records", "lines", "-o", "-"],
        input=b'\xef\xbb\xbf{"a": 1}\n{"a": [1, 2\n',
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == b'\xef\xbb\xbf{"a": 1}\n{"a": [1, 2]}\n'
    assert b"-: 2 records in" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--drop-rejected"], "--drop-rejected needs --reject FILE"),
        (["--scheduler", "tcp://x:1"], "--scheduler needs --engine dask"),
        (["--max-loss", "lots"], "--max-loss: 'lots': give PERCENT%"),
        (["--max-tests", "0"], "--max-tests must be positive"),
        (["--partition-bytes", "0"], "--partition-bytes must be positive"),
        (["--encoding", "cp1252"], "record mode reads UTF-8; --encoding is for whole files"),
    ],
)
def test_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], events: Path, args: list[str], message: str
) -> None:
    code, _, err = run(capsys, "repair", str(events), *args)
    assert code == 2
    assert err.startswith(f"inputmend: error: {message}")


def test_record_options_are_refused_outside_record_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "a.json"
    source.write_text("[1]")
    code, _, err = run(capsys, "repair", str(source), "--reject", "r.jsonl", "--drop-rejected")
    assert code == 2
    assert "--reject, --drop-rejected: only in record mode (--records lines|csv)" in err
    code, _, err = run(capsys, "check", str(source), "--records", "none")
    assert code == 0


def test_unreadable_inputs_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "check", str(tmp_path), "--records", "lines")[2].startswith(
        f"inputmend: error: {tmp_path}: is a directory; record mode reads files"
    )
    assert "no such file" in run(capsys, "check", str(tmp_path / "x.jsonl"))[2]
    utf16 = tmp_path / "u.jsonl"
    utf16.write_bytes("[1]\n".encode("utf-16"))
    code, _, err = run(capsys, "check", str(utf16))
    assert code == 2 and "the input is UTF-16 text; record mode reads UTF-8" in err


def test_nothing_is_written_when_the_engine_cannot_start(
    capsys: pytest.CaptureFixture[str], events: Path, tmp_path: Path
) -> None:
    pytest.importorskip("distributed", reason="the Dask extra is not installed")
    target = tmp_path / "out.jsonl"
    code, _, err = run(
        capsys,
        "repair",
        str(events),
        "-o",
        str(target),
        "--engine",
        "dask",
        "--scheduler",
        "tcp://127.0.0.1:9",
    )
    assert code == 2 and "cannot start the dask engine on tcp://127.0.0.1:9" in err
    assert not target.exists() and list(tmp_path.iterdir()) == [events]


def _many(tmp_path: Path) -> Path:
    source = tmp_path / "many.jsonl"
    lines = []
    for n in range(2000):
        record = json.dumps({"n": n, "tags": ["x", "y"], "ok": n % 2 == 0})
        lines.append(record[:-1] if n % 97 == 0 else record)
    source.write_text("\n".join(lines) + "\n")
    return source


@pytest.mark.parametrize("engine", ["process pool", "own dask cluster", "given dask cluster"])
def test_every_engine_writes_the_same_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: str, request: Any
) -> None:
    source = _many(tmp_path)
    common = [str(source), "--partition-bytes", "4000", "--max-tests", "3000"]
    local = tmp_path / "local.jsonl"
    assert run(capsys, "repair", *common, "-o", str(local), "--jobs", "1")[0] == 0
    other = tmp_path / "other.jsonl"
    options = {
        "process pool": ["--jobs", "2"],
        "own dask cluster": ["--engine", "dask", "--jobs", "2"],
        "given dask cluster": ["--engine", "dask", "--scheduler", ""],
    }[engine]
    if engine != "process pool":
        pytest.importorskip("distributed", reason="the Dask extra is not installed")
    if engine == "given dask cluster":
        options[-1] = request.getfixturevalue("dask_cluster").scheduler_address
    code, _, err = run(capsys, "repair", *common, "-o", str(other), *options)
    assert code == 0, err
    assert other.read_bytes() == local.read_bytes()
    assert "2,000 records" in err and "21 repaired" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_on_a_terminal_only() -> None:
    terminal = _Terminal()
    progress = records.RecordProgress(1000, terminal)
    progress.show(5, 100)  # too soon after the start: not drawn
    assert terminal.getvalue() == ""
    progress.started -= 10.0
    progress.show(200_000, 500)
    drawn = terminal.getvalue()
    bar = r"\r\[#{12}-{12}\]  50% 200,000 records, (19,9\d\d|20,000) records/s +"
    assert re.fullmatch(bar, drawn)
    progress.clear()
    assert terminal.getvalue().endswith("\r" + " " * 79 + "\r")
    pipe = io.StringIO()
    quiet = records.RecordProgress(1000, pipe)
    quiet.started -= 10.0
    quiet.show(200_000, 500)
    assert pipe.getvalue() == ""


def test_each_record_stays_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A carriage return typed inside a string is escaped, not deleted;
    records separated by a lone carriage return stay apart; several values
    on one line become a record each, on lines of their own, never one
    array or object."""
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(b'{"a": "x\ry"}\n{"b": 1}\r{"c": 2,}\n{"d": 3} {"e": 4,}\n')
    target = tmp_path / "out.jsonl"
    code, out, err = run(capsys, "repair", str(source), "-o", str(target))
    assert code == 0, out + err
    assert target.read_bytes() == (b'{"a": "x\\ry"}\n{"b": 1}\r{"c": 2}\n{"d": 3}\n{"e": 4}\n')
    assert "4 records in " in err


@pytest.mark.parametrize("stream", ["/dev/stdout", "/dev/stderr"])
def test_rejected_records_can_go_to_standard_output_or_error(
    events: Path, tmp_path: Path, stream: str
) -> None:
    """Standard output or error (here pipes) is no file to put in place:
    the list is written to it as it comes."""
    target = tmp_path / "out.jsonl"
    options = ["-o", str(target), "--reject", stream, "--jobs", "1"]
    result = subprocess.run(
        [sys.executable, "-m", "inputmend", "repair", str(events), *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    listed = result.stdout if stream == "/dev/stdout" else result.stderr
    (entry,) = [json.loads(line) for line in listed.splitlines() if line.startswith("{")]
    assert entry["line"] == 5 and entry["kind"] == "lossy"
    assert target.read_bytes() == REPAIRED.encode()
