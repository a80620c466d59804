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

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from inputmend.config import defaults
from inputmend.core.oracle import Outcome
from inputmend.core.text import UTF8, Encoding
from inputmend.oracles.command import Program, compile_pattern
from inputmend.oracles.python import ChildFunction


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


class CommandPredicate(_Calibrated):
    """Run a program on each input: exit 0 PASS, the original's failure FAIL."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        original: str | None = None,
        fail_pattern: str | None = None,
        timeout_s: float = defaults.TEST_TIMEOUT_S,
        suffix: str = "",
        cwd: str | Path | None = None,
        encoding: Encoding = UTF8,
    ) -> None:
        self.pattern = compile_pattern(fail_pattern, "fail-pattern")
        self.program = Program(
            command,
            timeout_s=timeout_s,
            capture=self.pattern is not None,
            suffix=suffix,
            cwd=cwd,
            encoding=encoding,
        )
        self.failure = None
        if original is not None:
            self.calibrate(original)

    def describe(self) -> str:
        failure = self.failure.describe() if self.failure else "not calibrated yet"
        extra = f" and output matching /{self.pattern.pattern}/" if self.pattern else ""
        return (
            f"command {' '.join(self.program.argv)} (input on {self.program.input_description}, "
            f"timeout {self.program.timeout_s:g}s; "
            f"FAIL = {failure}{extra}, PASS = exit 0, else UNRESOLVED)"
        )

    def _run(self, text: str) -> tuple[Failure | None, str, bool]:
        run = self.program.run(text)
        if run.code is None:
            return None, run.problem or "did not finish", False
        if run.code == 0:
            return None, run.output, True
        if run.code < 0:
            return Failure("signal", str(-run.code)), run.output, True
        return Failure("exit", str(run.code)), run.output, True

    def close(self) -> None:
        self.program.close()


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


def outcome_answer(function: Callable[[str], object], text: str) -> tuple[str, str, str]:
    """What a predicate's child sends back: returned, or which exception."""
    try:
        function(text)
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as error:  # noqa: BLE001 - any exception is a verdict
        kind = type(error)
        return "raised", f"{kind.__module__}.{kind.__qualname__}", str(error)
    return "ok", "", ""


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
        timeout_s: float = defaults.TEST_TIMEOUT_S,
        base_dir: str | None = None,
        module_dir: str | None = None,
    ) -> None:
        self.spec = spec
        self.timeout_s = timeout_s
        self.pattern = compile_pattern(message_pattern, "message-pattern")
        self.failure = None
        self.child = ChildFunction(
            spec,
            answer=outcome_answer,
            base_dir=base_dir,
            module_dir=module_dir,
            timeout_s=timeout_s,
            what="python predicate",
        )
        if original is not None:
            self.calibrate(original)

    def describe(self) -> str:
        failure = self.failure.describe() if self.failure else "not calibrated yet"
        return f"python {self.spec} (child process, timeout {self.timeout_s:g}s; FAIL = {failure})"

    def _run(self, text: str) -> tuple[Failure | None, str, bool]:
        kind, answer = self.child.call(text)
        if kind == "timeout":
            return None, f"timed out after {self.timeout_s:g}s", False
        if kind == "crashed":
            return None, f"the function crashed the interpreter (exit {answer})", False
        status, code, message = answer
        if status == "ok":
            return None, "", True
        short = code.rsplit(".", 1)[-1]
        return Failure("exception", code, message), f"{short}: {message}", True

    def close(self) -> None:
        self.child.close()


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
