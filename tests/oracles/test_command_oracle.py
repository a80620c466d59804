"""The command oracle against real external programs (python3 -c ...)."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError, Verdict
from inputmend.core.text import decode
from inputmend.oracles.command import CommandOracle

PY = sys.executable


def script(body: str) -> list[str]:
    return [PY, "-c", body]


JSON_CHECKER = script(
    "import json, sys\n"
    "data = sys.stdin.read()\n"
    "try:\n"
    "    json.loads(data)\n"
    "except json.JSONDecodeError as e:\n"
    "    sys.exit(255 if e.pos >= len(data) else 1)\n"
)


def test_exit_codes_map_to_the_three_verdicts() -> None:
    oracle = CommandOracle(JSON_CHECKER)
    assert oracle.check("[1, 2]").verdict is Verdict.COMPLETE
    incomplete = oracle.check("[1, 2")
    assert incomplete.verdict is Verdict.INCOMPLETE and incomplete.error_offset == 5
    assert oracle.check("[1, *]").verdict is Verdict.INCORRECT
    assert oracle.runs == 3


def test_configurable_exit_codes() -> None:
    oracle = CommandOracle(
        script("import sys; sys.exit(len(sys.stdin.read()))"),
        incomplete_exit=3,
        exit_codes={5: Verdict.COMPLETE},
    )
    assert oracle.check("").verdict is Verdict.COMPLETE
    assert oracle.check("abc").verdict is Verdict.INCOMPLETE
    assert oracle.check("abcde").verdict is Verdict.COMPLETE
    assert oracle.check("ab").verdict is Verdict.INCORRECT


def test_input_through_a_temporary_file_that_is_cleaned_up(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    oracle = CommandOracle(
        [
            *script(
                "import sys, pathlib\n"
                f"pathlib.Path({str(seen)!r}).write_text(sys.argv[1])\n"
                "sys.exit(0 if pathlib.Path(sys.argv[1]).read_bytes() == b'ok\\xff' else 1)"
            ),
            "{file}",
        ],
        suffix=".json",
    )
    assert oracle.check("ok\udcff").verdict is Verdict.COMPLETE  # exact bytes reach the program
    used = Path(seen.read_text())
    assert used.suffix == ".json"
    assert not used.exists(), "the input file is deleted after each run"
    folder = used.parent
    oracle.close()
    assert not folder.exists(), "the temporary folder is removed on close"


def test_a_hanging_program_times_out_and_is_killed() -> None:
    marker = Path(tempfile.mkdtemp()) / "child-still-alive"
    oracle = CommandOracle(
        script(
            "import subprocess, sys, time\n"
            f"subprocess.Popen([sys.executable, '-c', \"import time, pathlib; time.sleep(2); "
            f"pathlib.Path('{marker}').touch()\"])\n"
            "time.sleep(60)"
        ),
        timeout_s=0.5,
    )
    feedback = oracle.check("x")  # it sleeps 60 s: only the timeout says "timed out"
    assert feedback.verdict is Verdict.INCORRECT
    assert "timed out" in feedback.message
    time.sleep(2.5)
    assert not marker.exists(), "grandchildren of the program are killed too"


def test_a_crash_is_a_verdict() -> None:
    oracle = CommandOracle(script("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"))
    feedback = oracle.check("x")
    assert feedback.verdict is Verdict.INCORRECT
    assert "SIGSEGV" in feedback.message


def test_incomplete_pattern_over_output() -> None:
    oracle = CommandOracle(
        script(
            "import sys\n"
            "data = sys.stdin.read()\n"
            "print('Unfinished JSON term at EOF' if data.endswith(',') else 'syntax error', "
            "file=sys.stderr)\n"
            "sys.exit(2)"
        ),
        incomplete_pattern=r"Unfinished JSON term",
    )
    assert oracle.check("[1,").verdict is Verdict.INCOMPLETE
    wrong = oracle.check("[1;")
    assert wrong.verdict is Verdict.INCORRECT
    assert "syntax error" in wrong.message


def test_a_flood_of_output_does_not_hurt() -> None:
    oracle = CommandOracle(
        script("import sys\nfor _ in range(2000): sys.stdout.write('x' * 10000)\nsys.exit(1)"),
        incomplete_pattern="never",
    )
    assert oracle.check("x").verdict is Verdict.INCORRECT


def test_a_program_that_ignores_stdin() -> None:
    oracle = CommandOracle(script("import sys; sys.exit(0)"))
    assert oracle.check("x" * 1_000_000).verdict is Verdict.COMPLETE


def test_configuration_errors_are_clear() -> None:
    with pytest.raises(OracleConfigError, match="command not found: no-such-program-xyz"):
        CommandOracle("no-such-program-xyz --flag")
    with pytest.raises(OracleConfigError, match="bad incomplete-pattern regex"):
        CommandOracle([PY, "-c", "pass"], incomplete_pattern="(unclosed")
    with pytest.raises(OracleConfigError, match="cannot parse command"):
        CommandOracle('python3 -c "unterminated')
    with pytest.raises(OracleConfigError, match="empty"):
        CommandOracle("   ")


def test_never_runs_through_a_shell(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    oracle = CommandOracle([PY, "-c", "import sys; sys.exit(0)", f"; touch {target}"])
    oracle.check("x")
    assert not target.exists()
    assert "sh" not in os.path.basename(oracle.argv[0])


# Accepts exactly the bytes of UTF-16LE JSON with a byte-order mark, as
# Windows PowerShell writes it: what the program would read from the file.
UTF16_JSON_CHECKER = script(
    "import json, sys\n"
    "data = sys.stdin.buffer.read() if len(sys.argv) < 2 else open(sys.argv[1], 'rb').read()\n"
    "if not data.startswith(b'\\xff\\xfe'):\n"
    "    sys.exit(1)\n"
    "try:\n"
    "    json.loads(data[2:].decode('utf-16-le'))\n"
    "except ValueError:\n"
    "    sys.exit(1)\n"
)


@pytest.mark.parametrize("placeholder", [[], ["{file}"]])
def test_the_program_reads_the_input_in_the_files_encoding(placeholder: list[str]) -> None:
    utf16 = decode(b"\xff\xfe[\x00]\x00").encoding
    oracle = CommandOracle([*UTF16_JSON_CHECKER, *placeholder], encoding=utf16)
    assert oracle.check('["é"]').verdict is Verdict.COMPLETE
    assert oracle.check("[").verdict is Verdict.INCORRECT
    assert "utf-16-le with BOM" in oracle.describe()
    assert CommandOracle([*UTF16_JSON_CHECKER, *placeholder]).check("[]").verdict is (
        Verdict.INCORRECT  # UTF-8 bytes by default
    )


def test_a_text_the_files_encoding_cannot_hold_is_incorrect() -> None:
    oracle = CommandOracle(script("pass"), encoding=decode(b"x", encoding="cp1252").encoding)
    assert oracle.check("café €").verdict is Verdict.COMPLETE
    feedback = oracle.check("Ω")
    assert feedback.verdict is Verdict.INCORRECT
    assert feedback.message == "cp1252 cannot represent 'Ω' (U+03A9)"
    assert oracle.runs == 2
