"""Text encodings end to end: every encoding with check, repair, ``-o``,
``--in-place`` and a folder run, written back byte for byte; command oracles
read the original bytes."""

from __future__ import annotations

import codecs
import json
import sys
from pathlib import Path

import pytest

from inputmend.cli import main

from ..conftest import CORPUS

INI = "[général]\r\nclé=valeur à voir\r\n[cassé\r\nnom=Müller\r\n"
FIXED = INI.replace("[cassé", "[cassé]")
ERROR_OFFSET = INI.index("\r\nnom")

# name: (byte-order mark, codec, how it is detected, extra options)
ENCODINGS: dict[str, tuple[bytes, str, str, list[str]]] = {
    "utf-8": (b"", "utf-8", "utf-8", []),
    "utf-8-bom": (codecs.BOM_UTF8, "utf-8", "bom", []),
    "utf-16-le-bom": (codecs.BOM_UTF16_LE, "utf-16-le", "bom", []),
    "utf-16-be-bom": (codecs.BOM_UTF16_BE, "utf-16-be", "bom", []),
    "utf-32-le-bom": (codecs.BOM_UTF32_LE, "utf-32-le", "bom", []),
    "utf-32-be-bom": (codecs.BOM_UTF32_BE, "utf-32-be", "bom", []),
    "utf-16-le": (b"", "utf-16-le", "zero-bytes", []),
    "utf-16-be": (b"", "utf-16-be", "zero-bytes", []),
    "cp1252": (b"", "cp1252", "legacy", []),
    "latin-1": (b"", "iso8859-1", "forced", ["--encoding", "latin-1"]),
}


def described(name: str) -> dict[str, object]:
    """The ``encoding`` of the ``--json`` output."""
    bom, codec, detected, _ = ENCODINGS[name]
    return {"name": codec, "bom": bool(bom), "detected": detected}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def encoded(name: str, text: str) -> bytes:
    """The bytes a Windows or Unix program writes: Python's own codecs, not ours."""
    bom, codec, _, _ = ENCODINGS[name]
    return bom + text.encode(codec)


def write(folder: Path, name: str) -> Path:
    path = folder / f"{name}.ini"
    path.write_bytes(encoded(name, INI))
    return path


@pytest.mark.parametrize("name", ENCODINGS)
def test_check_reads_every_encoding_and_says_which(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = write(tmp_path, name)
    options = ENCODINGS[name][3]
    code, out, _ = run(capsys, "check", *options, str(path))
    assert code == 1
    assert out.startswith(f"{path}:3:7: error: unexpected `\\r`; expected `]`")
    code, out, _ = run(capsys, "check", "--json", *options, str(path))
    record = json.loads(out)
    assert record["encoding"] == described(name)
    assert record["error"]["offset"] == ERROR_OFFSET  # characters, not bytes


@pytest.mark.parametrize("name", ENCODINGS)
def test_repair_in_place_writes_the_files_encoding_byte_for_byte(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = write(tmp_path, name)
    code, out, _ = run(capsys, "repair", "--in-place", *ENCODINGS[name][3], str(path))
    assert code == 0, out
    assert path.read_bytes() == encoded(name, FIXED)
    assert (tmp_path / f"{name}.ini.orig").read_bytes() == encoded(name, INI)


@pytest.mark.parametrize("name", ENCODINGS)
def test_repair_to_another_file_and_as_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = write(tmp_path, name)
    target = tmp_path / "fixed.ini"
    options = ENCODINGS[name][3]
    code, out, _ = run(capsys, "repair", "--json", "-o", str(target), *options, str(path))
    assert code == 0
    record = json.loads(out)
    assert record["encoding"] == described(name)
    best = record["repairs"][0]
    assert best["text"] == FIXED
    assert best["edits"] == [{"offset": ERROR_OFFSET, "delete": 0, "insert": "]"}]
    assert target.read_bytes() == encoded(name, FIXED)
    assert path.read_bytes() == encoded(name, INI)


def test_explain_spans_are_character_offsets(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "utf-16-be-bom")
    code, out, _ = run(capsys, "explain", "--json", str(path))
    record = json.loads(out)
    assert code == 0 and record["encoding"] == described("utf-16-be-bom")
    assert record["spans"]
    assert all(INI[span["start"] : span["end"]] == span["text"] for span in record["spans"])


def test_a_folder_of_every_encoding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    detected = [name for name in ENCODINGS if not ENCODINGS[name][3]]
    for name in detected:
        write(tmp_path, name)
    code, out, _ = run(capsys, "check", "--jobs", "2", str(tmp_path))
    assert code == 1 and f"{len(detected)} files: 0 valid, {len(detected)} invalid" in out
    code, out, _ = run(capsys, "repair", "--in-place", "--jobs", "2", str(tmp_path))
    assert code == 0 and f"{len(detected)} repaired" in out
    for name in detected:
        assert (tmp_path / f"{name}.ini").read_bytes() == encoded(name, FIXED)
        assert (tmp_path / f"{name}.ini.orig").read_bytes() == encoded(name, INI)
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 0 and f"{len(detected)} valid" in out


POWERSHELL_JSON = codecs.BOM_UTF16_LE + '{"a": [1, 2,, 3]}\r\n'.encode("utf-16-le")
CHECKER = """\
import json, sys
data = open(sys.argv[1], "rb").read() if len(sys.argv) > 1 else sys.stdin.buffer.read()
if not data.startswith(b"\\xff\\xfe"):
    sys.exit(1)
try:
    json.loads(data[2:].decode("utf-16-le"))
except ValueError:
    sys.exit(1)
"""


@pytest.mark.parametrize("placeholder", ["", " {file}"])
def test_a_command_oracle_reads_the_bytes_of_the_files_encoding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, placeholder: str
) -> None:
    """The checker accepts only UTF-16LE with a BOM (as PowerShell writes it)."""
    checker = tmp_path / "checker.py"
    checker.write_text(CHECKER)
    path = tmp_path / "out.json"
    path.write_bytes(POWERSHELL_JSON)
    command = ["--command", f"{sys.executable} {checker}{placeholder}"]
    assert run(capsys, "check", *command, str(path))[0] == 1
    target = tmp_path / "fixed.json"
    code, out, _ = run(capsys, "repair", *command, "-o", str(target), str(path))
    assert code == 0, out
    assert target.read_bytes() == codecs.BOM_UTF16_LE + '{"a": [1, 2, 3]}\r\n'.encode("utf-16-le")
    assert run(capsys, "check", *command, str(target))[0] == 0


def test_a_python_oracle_judges_the_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "out.json"
    path.write_bytes(POWERSHELL_JSON)
    code, out, _ = run(capsys, "repair", "--python", "json:loads", "--in-place", str(path))
    assert code == 0, out
    written = path.read_bytes()
    assert written.startswith(codecs.BOM_UTF16_LE)
    assert json.loads(written[2:].decode("utf-16-le"))["a"][0] == 1
    assert written.endswith("\r\n".encode("utf-16-le"))


def test_a_forced_encoding_overrides_detection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "names.json"
    path.write_bytes('["Müller", "Jürgen"]'.encode("cp1252"))
    code, out, _ = run(capsys, "check", "--json", str(path))
    assert code == 0 and json.loads(out)["encoding"]["name"] == "cp1252"
    code, out, _ = run(capsys, "check", "--json", "--encoding", "utf-8", str(path))
    assert code == 1 and json.loads(out)["error"]["offset"] == 3  # the undecodable byte


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (b"[]", ["--encoding", "no-such"], "--encoding: unknown text encoding 'no-such'"),
        (b"[]", ["--encoding", "punycode"], "--encoding: 'punycode' cannot be used to read"),
        (b"[]", ["--encoding", "idna"], "--encoding: 'idna' cannot be used to read"),
        (b"[]", ["--encoding", "undefined"], "--encoding: 'undefined' cannot be used to read"),
        (b"\xff\xfe[\x00]", [], "utf-16-le with BOM text ends inside a character"),
    ],
)
def test_encoding_problems_are_one_line_with_exit_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: bytes,
    args: list[str],
    message: str,
) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(content)
    for command in ("check", "repair", "explain"):
        code, _, err = run(capsys, command, *args, str(path))
        assert code == 2 and message in err and err.count("\n") == 1, (command, err)


def _utf16_corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(
        path
        for path in CORPUS.glob("ini-*/*")
        if path.is_file() and path.read_bytes().startswith(codecs.BOM_UTF16_LE)
    )


def test_the_studys_utf16_ini_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The FSynth study's UTF-16LE INI file (a program's language file), used in place."""
    files = _utf16_corpus_files()
    if not files:
        pytest.skip(f"no UTF-16LE INI file (BOM FF FE) in {CORPUS}/ini-*")
    for path in files:
        code, out, err = run(capsys, "repair", "--json", "-o", str(tmp_path / "out.ini"), str(path))
        assert code in (0, 1) and "binary" not in err, err
        record = json.loads(out)
        assert record["encoding"] == {"name": "utf-16-le", "bom": True, "detected": "bom"}
        if record["valid"]:
            continue
        assert code == 0, record["notes"]
        written = (tmp_path / "out.ini").read_bytes()
        assert written == codecs.BOM_UTF16_LE + record["repairs"][0]["text"].encode("utf-16-le")


def test_a_lone_surrogate_of_utf16_is_reported_as_itself_never_reread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """In UTF-16 a lone surrogate is the file's own code unit: shown as
    ``\\udce9`` with its bytes, never as the byte ``\\xe9``, and never re-read
    as the cp1252 letter ``é`` (which is what byte 0xE9 of a UTF-8 file is)."""
    path = tmp_path / "name.json"
    text = '{"name": "Ren\udce9e"}'
    path.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le", "surrogatepass"))
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert "lone surrogate \\udce9 (bytes e9 dc) is not valid utf-16-le" in out
    code, out, _ = run(capsys, "repair", str(path))
    assert "\\udce9" in out and "\\xe9e" not in out.split("\n---")[1]
    code, out, _ = run(capsys, "repair", "--json", str(path))
    repairs = json.loads(out)["repairs"]
    assert repairs and all(r["algorithm"] != "redecode" for r in repairs)
    assert all("é" not in r["text"] for r in repairs)
