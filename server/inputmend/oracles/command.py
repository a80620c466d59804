"""External program oracle: run any program (never through a shell) on the input.

The input goes to the program's stdin, or to a temporary file whose path
replaces ``{file}`` in the arguments, as bytes in the encoding of the file it
came from (:class:`~inputmend.core.text.Encoding`, UTF-8 by default): the
bytes the program would read from that file.  The exit code maps to a verdict
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
from dataclasses import dataclass
from pathlib import Path

from inputmend.config import defaults
from inputmend.core.oracle import Feedback, OracleConfigError, Verdict
from inputmend.core.text import UTF8, EncodeError, Encoding, encode, snippet
from inputmend.oracles.children import end_group, exit_with_this_process, program_environment
from inputmend.oracles.guard import forget_group, watch_group

FILE_PLACEHOLDER = "{file}"
_OUTPUT_LIMIT = 1 << 20  # bytes of stdout/stderr kept for pattern matching
MESSAGE_LINES = 2
"""Lines of a rejecting program's output quoted in its verdict's message."""
MESSAGE_CHARS = 200


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


@dataclass(frozen=True)
class ProgramRun:
    """What one run of a program did."""

    code: int | None  # exit code, negative for a signal; None if it did not finish
    output: str = ""  # the start of stdout and stderr, when captured
    problem: str | None = None  # "timed out after 2s", "could not start command: ..."

    @property
    def crash(self) -> str | None:
        return (
            f"crashed ({_signal_name(-self.code)})"
            if self.code is not None and self.code < 0
            else None
        )


class Program:
    """A program that reads an input on stdin, or from a temporary file named by
    ``{file}`` in its arguments; never run through a shell.

    Each run has a timeout, after which the program and everything it started
    (its own session) are killed; whatever it started is also killed when it
    ends, so nothing outlives the run.  If this process dies, even by
    ``kill -9``, the program dies with it (a parent-death signal) and so does
    its process group (its guard, :mod:`~inputmend.oracles.guard`).  Output
    is read from a temporary file, so a flood of output costs disk, not
    memory, and only its start is kept.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout_s: float,
        capture: bool = False,
        suffix: str = "",
        cwd: str | Path | None = None,
        encoding: Encoding = UTF8,
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
        self.capture = capture
        self.uses_file = any(FILE_PLACEHOLDER in arg for arg in self.argv)
        self.suffix = suffix
        self.cwd = str(cwd) if cwd is not None else None
        self.encoding = encoding
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        self.runs = 0

    @property
    def input_description(self) -> str:
        where = "a temporary file" if self.uses_file else "stdin"
        encoding = self.encoding.describe()
        return where if encoding == "utf-8" else f"{where}, {encoding}"

    def run(self, text: str) -> ProgramRun:
        self.runs += 1
        try:
            data = encode(text, self.encoding)
        except EncodeError as error:  # no file in this encoding can hold the text
            return ProgramRun(None, problem=str(error))
        if not self.uses_file:
            return self._execute(self.argv, data)
        if self._tempdir is None:
            self._tempdir = tempfile.TemporaryDirectory(prefix="inputmend-")
        path = Path(self._tempdir.name) / f"input{self.suffix}"
        try:
            path.write_bytes(data)
            argv = [arg.replace(FILE_PLACEHOLDER, str(path)) for arg in self.argv]
            return self._execute(argv, None)
        finally:
            path.unlink(missing_ok=True)

    def _execute(self, argv: list[str], stdin_data: bytes | None) -> ProgramRun:
        with tempfile.TemporaryFile() as output:
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                    stdout=output if self.capture else subprocess.DEVNULL,
                    stderr=output if self.capture else subprocess.DEVNULL,
                    cwd=self.cwd,
                    env=program_environment(),
                    start_new_session=True,
                    preexec_fn=exit_with_this_process(),
                )
            except OSError as error:
                return ProgramRun(None, problem=f"could not start command: {error}")
            watch_group(process.pid)
            try:
                process.communicate(stdin_data, timeout=self.timeout_s)
            except subprocess.TimeoutExpired:
                _kill(process)
                return ProgramRun(None, problem=f"timed out after {self.timeout_s:g}s")
            except BrokenPipeError:
                process.wait()
            finally:
                # the program may be done while what it started is not
                end_group(process.pid)
                if process.poll() is None:
                    _kill(process)
                forget_group(process.pid)
            head = ""
            if self.capture:
                output.seek(0)
                head = output.read(_OUTPUT_LIMIT).decode("utf-8", "replace")
            return ProgramRun(process.returncode, head)

    def close(self) -> None:
        if getattr(self, "_tempdir", None) is not None:
            assert self._tempdir is not None
            self._tempdir.cleanup()
            self._tempdir = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and everything it started (its own session)."""
    end_group(process.pid)
    with contextlib.suppress(OSError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def _first_words(output: str) -> str:
    """What a rejecting program said: the first lines of its output (of a
    Python traceback, the last line, which names the error)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if lines and lines[0].startswith("Traceback (most recent call last)"):
        lines = lines[-1:]
    return snippet(" / ".join(lines[:MESSAGE_LINES]), MESSAGE_CHARS)


class CommandOracle:
    """Judges inputs by running a program."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout_s: float = defaults.TEST_TIMEOUT_S,
        exit_codes: Mapping[int, Verdict] | None = None,
        incomplete_exit: int | None = defaults.INCOMPLETE_EXIT,
        incomplete_pattern: str | None = None,
        suffix: str = "",
        cwd: str | Path | None = None,
        encoding: Encoding = UTF8,
    ) -> None:
        self.incomplete_regex = compile_pattern(incomplete_pattern, "incomplete-pattern")
        self.program = Program(
            command,
            timeout_s=timeout_s,
            capture=True,
            suffix=suffix,
            cwd=cwd,
            encoding=encoding,
        )
        self.exit_codes: dict[int, Verdict] = {0: Verdict.COMPLETE}
        if incomplete_exit is not None:
            self.exit_codes[incomplete_exit] = Verdict.INCOMPLETE
        self.exit_codes.update(exit_codes or {})

    @property
    def argv(self) -> list[str]:
        return self.program.argv

    @property
    def runs(self) -> int:
        return self.program.runs

    def describe(self) -> str:
        codes = ", ".join(f"{code}={verdict.value}" for code, verdict in self.exit_codes.items())
        extra = ""
        if self.incomplete_regex is not None:
            extra = f", incomplete if output matches /{self.incomplete_regex.pattern}/"
        return (
            f"command {shlex.join(self.argv)} (input on {self.program.input_description}, "
            f"timeout {self.program.timeout_s:g}s, exit {codes}, others=incorrect{extra})"
        )

    def check(self, text: str) -> Feedback:
        run = self.program.run(text)
        if run.code is None:
            return Feedback(Verdict.INCORRECT, None, run.problem or "did not finish")
        if run.crash is not None:
            return Feedback(Verdict.INCORRECT, None, run.crash)
        verdict = self.exit_codes.get(run.code, Verdict.INCORRECT)
        if verdict is Verdict.COMPLETE:
            return Feedback(verdict)
        message = f"exit code {run.code}"
        if self.incomplete_regex is not None and self.incomplete_regex.search(run.output):
            verdict = Verdict.INCOMPLETE
            message += ", output marks the input as incomplete"
        said = _first_words(run.output)
        if said:
            message += ": " + said
        offset = len(text) if verdict is Verdict.INCOMPLETE else None
        return Feedback(verdict, offset, message)

    def close(self) -> None:
        self.program.close()
