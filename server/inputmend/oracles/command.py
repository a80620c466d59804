"""External program oracle: run any program (never through a shell) on the input.

The input goes to the program's stdin, or to a temporary file whose path
replaces ``{file}`` in the arguments.  The exit code maps to a verdict
(default: 0 complete, 255 incomplete as in the FSynth study, anything else
incorrect); an optional regex over the program's output marks incomplete
inputs.  A timeout, a crash or a flood of output is a verdict, never our crash.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from inputmend.oracles.base import Feedback, OracleConfigError, Verdict

FILE_PLACEHOLDER = "{file}"
_OUTPUT_LIMIT = 1 << 20  # bytes of stdout/stderr kept for pattern matching


def parse_command(command: str | Sequence[str]) -> list[str]:
    """An argv list from a string (split like a POSIX shell, but never run by one)."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise OracleConfigError(f"cannot parse command {command!r}: {error}") from None
    else:
        argv = [str(part) for part in command]
    if not argv:
        raise OracleConfigError("the command is empty")
    return argv


def compile_pattern(pattern: str | None, what: str) -> re.Pattern[str] | None:
    if pattern is None:
        return None
    try:
        return re.compile(pattern)
    except re.error as error:
        raise OracleConfigError(f"bad {what} regex {pattern!r}: {error}") from None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class CommandOracle:
    """Judges inputs by running a program."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout_s: float = 10.0,
        exit_codes: Mapping[int, Verdict] | None = None,
        incomplete_exit: int | None = 255,
        incomplete_pattern: str | None = None,
        suffix: str = "",
        cwd: str | Path | None = None,
    ) -> None:
        self.argv = parse_command(command)
        program = self.argv[0]
        resolved = shutil.which(program, path=os.environ.get("PATH"))
        if resolved is None and cwd is not None and (Path(cwd) / program).is_file():
            resolved = str(Path(cwd) / program)
        if resolved is None:
            raise OracleConfigError(f"command not found: {program}")
        if timeout_s <= 0:
            raise OracleConfigError("the test timeout must be positive")
        self.timeout_s = timeout_s
        self.exit_codes: dict[int, Verdict] = {0: Verdict.COMPLETE}
        if incomplete_exit is not None:
            self.exit_codes[incomplete_exit] = Verdict.INCOMPLETE
        self.exit_codes.update(exit_codes or {})
        self.incomplete_regex = compile_pattern(incomplete_pattern, "incomplete-pattern")
        self.uses_file = any(FILE_PLACEHOLDER in arg for arg in self.argv)
        self.suffix = suffix
        self.cwd = str(cwd) if cwd is not None else None
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        self.runs = 0

    def describe(self) -> str:
        codes = ", ".join(f"{code}={verdict.value}" for code, verdict in self.exit_codes.items())
        extra = (
            f", incomplete if output matches /{self.incomplete_regex.pattern}/"
            if (self.incomplete_regex)
            else ""
        )
        where = "a temporary file" if self.uses_file else "stdin"
        return (
            f"command {shlex.join(self.argv)} (input on {where}, timeout {self.timeout_s:g}s, "
            f"exit {codes}, others=incorrect{extra})"
        )

    def _input_file(self, data: bytes) -> Path:
        if self._tempdir is None:
            self._tempdir = tempfile.TemporaryDirectory(prefix="inputmend-")
        path = Path(self._tempdir.name) / f"input{self.suffix}"
        path.write_bytes(data)
        return path

    def check(self, text: str) -> Feedback:
        self.runs += 1
        data = text.encode("utf-8", "surrogateescape")
        file: Path | None = None
        try:
            if self.uses_file:
                file = self._input_file(data)
                argv = [arg.replace(FILE_PLACEHOLDER, str(file)) for arg in self.argv]
                return self._run(argv, None, len(text))
            return self._run(self.argv, data, len(text))
        finally:
            if file is not None:
                file.unlink(missing_ok=True)

    def _run(self, argv: list[str], stdin_data: bytes | None, length: int) -> Feedback:
        capture = self.incomplete_regex is not None
        with tempfile.TemporaryFile() as output:
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                    stdout=output if capture else subprocess.DEVNULL,
                    stderr=output if capture else subprocess.DEVNULL,
                    cwd=self.cwd,
                    start_new_session=True,
                )
            except OSError as error:
                return Feedback(Verdict.INCORRECT, None, f"could not start command: {error}")
            try:
                process.communicate(stdin_data, timeout=self.timeout_s)
            except subprocess.TimeoutExpired:
                self._kill(process)
                return Feedback(Verdict.INCORRECT, None, f"timed out after {self.timeout_s:g}s")
            except BrokenPipeError:
                process.wait()
            finally:
                if process.poll() is None:
                    self._kill(process)
            code = process.returncode
            if code < 0:
                return Feedback(Verdict.INCORRECT, None, f"crashed ({_signal_name(-code)})")
            verdict = self.exit_codes.get(code, Verdict.INCORRECT)
            message = f"exit code {code}"
            if verdict is not Verdict.COMPLETE and self.incomplete_regex is not None:
                output.seek(0)
                head = output.read(_OUTPUT_LIMIT).decode("utf-8", "replace")
                if self.incomplete_regex.search(head):
                    verdict = Verdict.INCOMPLETE
                    message += ", output marks the input as incomplete"
                else:
                    first = next((line for line in head.splitlines() if line.strip()), "")
                    if first:
                        message += f": {first.strip()[:200]}"
        offset = length if verdict is Verdict.INCOMPLETE else None
        return Feedback(verdict, offset, "" if verdict is Verdict.COMPLETE else message)

    @staticmethod
    def _kill(process: subprocess.Popen[bytes]) -> None:
        """Kill the program and everything it started (its own session)."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)

    def close(self) -> None:
        if getattr(self, "_tempdir", None) is not None:
            assert self._tempdir is not None
            self._tempdir.cleanup()
            self._tempdir = None

    def __del__(self) -> None:
        self.close()
