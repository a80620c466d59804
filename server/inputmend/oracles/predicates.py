"""Test predicates for DDSET and friends: PASS, FAIL (the original failure) or UNRESOLVED.

A predicate is calibrated on the *original* failing input: what failure did
it show?  Later inputs FAIL only when they reproduce that same failure; they
PASS when the program accepts them; anything else (another exit code or
exception, a timeout, a crash) is UNRESOLVED.

- :class:`CommandPredicate` runs a program (argv list, never a shell; input
  on stdin or in a temporary file named by ``{file}``, as
  :class:`~inputmend.oracles.command.CommandOracle` does).
- :class:`PythonPredicate` calls ``module:function`` in a child process with a
  per-test timeout; :class:`CallablePredicate` calls a function in-process.

Calibration happens with ``original=`` or on the first call (the first text
a tool tests is its original input); an original that does not fail raises
``ValueError("the input does not fail: ...")``.  :class:`CachedPredicate`
remembers outcomes by text.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from inputmend.oracles.base import OracleConfigError, Outcome
from inputmend.oracles.command import FILE_PLACEHOLDER, compile_pattern, parse_command
from inputmend.oracles.python import load_validator

_OUTPUT_LIMIT = 1 << 20


@runtime_checkable
class Predicate(Protocol):
    def __call__(self, text: str) -> Outcome: ...


@dataclass(frozen=True)
class Failure:
    """What a failing run looked like: an exit code or an exception, plus a detail."""

    kind: str  # "exit", "signal" or "exception"
    code: str  # exit code, signal number or exception type (module.qualname)
    detail: str = ""

    def describe(self) -> str:
        if self.kind == "exit":
            return f"exit code {self.code}"
        if self.kind == "signal":
            return f"crash by signal {self.code}"
        return f"exception {self.code}" + (f": {self.detail}" if self.detail else "")


class _Calibrated:
    """Shared calibration logic: remember the original failure, compare later ones."""

    pattern: re.Pattern[str] | None
    failure: Failure | None

    def _run(self, text: str) -> tuple[Failure | None, str, bool]:
        """(failure or None when accepted, captured output, resolved?)"""
        raise NotImplementedError

    def calibrate(self, original: str) -> Failure:
        failure, output, resolved = self._run(original)
        if not resolved:
            raise ValueError(f"the input does not fail: the run was unresolved ({output})")
        if failure is None:
            raise ValueError("the input does not fail: the program accepts it")
        if self.pattern is not None and not self.pattern.search(output):
            raise ValueError(
                f"the input does not fail: {failure.describe()}, but the output does not "
                f"match /{self.pattern.pattern}/"
            )
        self.failure = failure
        return failure

    def __call__(self, text: str) -> Outcome:
        if self.failure is None:
            self.calibrate(text)
            return Outcome.FAIL
        failure, output, resolved = self._run(text)
        if not resolved:
            return Outcome.UNRESOLVED
        if failure is None:
            return Outcome.PASS
        if (failure.kind, failure.code) != (self.failure.kind, self.failure.code):
            return Outcome.UNRESOLVED
        if self.pattern is not None and not self.pattern.search(output):
            return Outcome.UNRESOLVED
        return Outcome.FAIL


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


class CommandPredicate(_Calibrated):
    """Run a program on each input: exit 0 PASS, the original's failure FAIL."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        original: str | None = None,
        fail_pattern: str | None = None,
        timeout_s: float = 10.0,
        suffix: str = "",
        cwd: str | Path | None = None,
    ) -> None:
        self.argv = parse_command(command)
        program = self.argv[0]
        resolved = shutil.which(program)
        if resolved is None and cwd is not None and (Path(cwd) / program).is_file():
            resolved = str(Path(cwd) / program)
        if resolved is None:
            raise OracleConfigError(f"command not found: {program}")
        if timeout_s <= 0:
            raise OracleConfigError("the test timeout must be positive")
        self.timeout_s = timeout_s
        self.pattern = compile_pattern(fail_pattern, "fail-pattern")
        self.uses_file = any(FILE_PLACEHOLDER in arg for arg in self.argv)
        self.suffix = suffix
        self.cwd = str(cwd) if cwd is not None else None
        self.failure = None
        self.runs = 0
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        if original is not None:
            self.calibrate(original)

    def describe(self) -> str:
        where = "a temporary file" if self.uses_file else "stdin"
        failure = self.failure.describe() if self.failure else "not calibrated yet"
        extra = f" and output matching /{self.pattern.pattern}/" if self.pattern else ""
        return (
            f"command {' '.join(self.argv)} (input on {where}, timeout {self.timeout_s:g}s; "
            f"FAIL = {failure}{extra}, PASS = exit 0, else UNRESOLVED)"
        )

    def _run(self, text: str) -> tuple[Failure | None, str, bool]:
        self.runs += 1
        data = text.encode("utf-8", "surrogateescape")
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

    def _execute(self, argv: list[str], data: bytes | None) -> tuple[Failure | None, str, bool]:
        capture = self.pattern is not None
        with tempfile.TemporaryFile() as output:
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                    stdout=output if capture else subprocess.DEVNULL,
                    stderr=output if capture else subprocess.DEVNULL,
                    cwd=self.cwd,
                    start_new_session=True,
                )
            except OSError as error:
                return None, f"could not start command: {error}", False
            try:
                process.communicate(data, timeout=self.timeout_s)
            except subprocess.TimeoutExpired:
                _kill_group(process)
                return None, f"timed out after {self.timeout_s:g}s", False
            except BrokenPipeError:
                process.wait()
            finally:
                if process.poll() is None:
                    _kill_group(process)
            code = process.returncode
            text = ""
            if capture:
                output.seek(0)
                text = output.read(_OUTPUT_LIMIT).decode("utf-8", "replace")
        if code == 0:
            return None, text, True
        if code < 0:
            return Failure("signal", str(-code)), text, True
        return Failure("exit", str(code)), text, True

    def close(self) -> None:
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _exception_failure(error: BaseException) -> Failure:
    kind = type(error)
    return Failure("exception", f"{kind.__module__}.{kind.__qualname__}", str(error))


class CallablePredicate(_Calibrated):
    """A Python function called in this process (library use; no timeout).

    The function accepts by returning and fails by raising; it may also
    return an :class:`Outcome` itself, which is used as is."""

    def __init__(
        self,
        function: Callable[[str], object],
        *,
        original: str | None = None,
        message_pattern: str | None = None,
        name: str | None = None,
    ) -> None:
        self.function = function
        self.name = name or getattr(function, "__qualname__", repr(function))
        self.pattern = compile_pattern(message_pattern, "message-pattern")
        self.failure = None
        self._direct: Outcome | None = None
        if original is not None:
            self.calibrate(original)

    def describe(self) -> str:
        failure = self.failure.describe() if self.failure else "not calibrated yet"
        return f"python callable {self.name} (FAIL = {failure})"

    def __call__(self, text: str) -> Outcome:
        try:
            result = self.function(text)
        except (KeyboardInterrupt, GeneratorExit):
            raise
        except BaseException as error:  # noqa: BLE001 - any exception is a verdict
            return self._judge_exception(text, error)
        if isinstance(result, Outcome):
            if self.failure is None and result is not Outcome.FAIL:
                raise ValueError(f"the input does not fail: the predicate says {result.value}")
            if self.failure is None:
                self.failure = Failure("outcome", "FAIL")
            return result
        if self.failure is None:
            raise ValueError("the input does not fail: the function returns normally")
        return Outcome.PASS

    def _judge_exception(self, text: str, error: BaseException) -> Outcome:
        failure = _exception_failure(error)
        message = f"{type(error).__name__}: {error}"
        if self.failure is None:
            if self.pattern is not None and not self.pattern.search(message):
                raise ValueError(
                    f"the input does not fail: {failure.describe()} does not match "
                    f"/{self.pattern.pattern}/"
                )
            self.failure = failure
            return Outcome.FAIL
        if failure.code != self.failure.code:
            return Outcome.UNRESOLVED
        if self.pattern is not None and not self.pattern.search(message):
            return Outcome.UNRESOLVED
        return Outcome.FAIL

    def _forget(self) -> None:
        self.failure = None

    def calibrate(self, original: str) -> Failure:
        self._forget()
        outcome = self(original)
        if outcome is not Outcome.FAIL or self.failure is None:
            raise ValueError(f"the input does not fail: the predicate says {outcome.value}")
        return self.failure

    def close(self) -> None:
        pass


def _worker(spec: str, base_dir: str, connection: Connection) -> None:
    """Child process: load the function, then run texts until the pipe closes."""
    os.dup2(2, 1)  # stray prints must not reach our stdout
    sys.stdout = sys.stderr
    if base_dir not in sys.path:
        sys.path.insert(0, base_dir)
    try:
        function = load_validator(spec, base_dir=base_dir)
    except OracleConfigError as error:
        connection.send(("error", str(error), ""))
        return
    connection.send(("ready", "", ""))
    while True:
        try:
            text = connection.recv()
        except (EOFError, OSError):
            return
        try:
            function(text)
        except (KeyboardInterrupt, GeneratorExit):
            raise
        except BaseException as error:  # noqa: BLE001 - any exception is a verdict
            kind = type(error)
            connection.send(("raised", f"{kind.__module__}.{kind.__qualname__}", str(error)))
            continue
        connection.send(("ok", "", ""))


class PythonPredicate(_Calibrated):
    """``module:function`` (or ``file.py:function``) run in a child process.

    Returning is PASS; raising the original's exception type (and message
    pattern) is FAIL; another exception, a timeout or a crash is UNRESOLVED."""

    def __init__(
        self,
        spec: str,
        *,
        original: str | None = None,
        message_pattern: str | None = None,
        timeout_s: float = 10.0,
        base_dir: str | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise OracleConfigError("the test timeout must be positive")
        self.spec = spec
        self.timeout_s = timeout_s
        self.base_dir = os.path.abspath(base_dir or os.getcwd())
        self.pattern = compile_pattern(message_pattern, "message-pattern")
        self.failure = None
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._connection: Connection | None = None
        self._start()
        if original is not None:
            self.calibrate(original)

    def describe(self) -> str:
        failure = self.failure.describe() if self.failure else "not calibrated yet"
        return f"python {self.spec} (child process, timeout {self.timeout_s:g}s; FAIL = {failure})"

    def _start(self) -> None:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker, args=(self.spec, self.base_dir, child), daemon=True
        )
        process.start()
        child.close()
        if not parent.poll(max(30.0, self.timeout_s)):
            process.kill()
            raise OracleConfigError(f"python predicate {self.spec!r} did not load within 30s")
        try:
            status, detail, _ = parent.recv()
        except (EOFError, OSError):
            process.join(1)
            raise OracleConfigError(
                f"python predicate {self.spec!r} crashed while loading (exit {process.exitcode})"
            ) from None
        if status != "ready":
            process.join(1)
            raise OracleConfigError(detail)
        self._process, self._connection = process, parent

    def _stop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(5)
            self._process = None

    def _run(self, text: str) -> tuple[Failure | None, str, bool]:
        if self._connection is None:
            self._start()
        connection = self._connection
        assert connection is not None
        try:
            connection.send(text)
            if not connection.poll(self.timeout_s):
                self._stop()
                return None, f"timed out after {self.timeout_s:g}s", False
            status, code, message = connection.recv()
        except (EOFError, OSError):
            exit_code = self._process.exitcode if self._process is not None else None
            self._stop()
            return None, f"the function crashed the interpreter (exit {exit_code})", False
        if status == "ok":
            return None, "", True
        short = code.rsplit(".", 1)[-1]
        return Failure("exception", code, message), f"{short}: {message}", True

    def close(self) -> None:
        self._stop()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._stop()


class CachedPredicate:
    """Remembers each text's outcome, so a repeated text costs no run."""

    def __init__(self, inner: Callable[[str], Outcome]) -> None:
        self.inner = inner
        self.cache: dict[str, Outcome] = {}
        self.runs = 0

    def __call__(self, text: str) -> Outcome:
        known = self.cache.get(text)
        if known is None:
            self.runs += 1
            known = self.inner(text)
            self.cache[text] = known
        return known

    def describe(self) -> str:
        describe = getattr(self.inner, "describe", None)
        return f"cached {describe() if callable(describe) else self.inner!r}"
