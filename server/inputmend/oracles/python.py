"""Python oracles: a function that accepts the text (returns) or rejects it (raises).

``CallableOracle`` calls a function in this process (library use).
``PythonOracle`` loads ``module:function`` (or ``path/to/file.py:function``)
in a child process, so a validator that hangs, crashes the interpreter,
prints or exits is a verdict with a clear message, never our hang or crash.

For the exceptions of known parsers (json, tomllib, configparser, SyntaxError
from ``ast``/``compile``, lark) the error position is read from the exception,
and an error that only says "the input ended too early" becomes INCOMPLETE.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import json
import os
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inputmend.config import defaults
from inputmend.core.oracle import COMPLETE, Feedback, OracleConfigError, Verdict
from inputmend.core.text import offset_of, printable
from inputmend.grammar import patterns
from inputmend.oracles.children import (
    become_subreaper,
    die_with_parent,
    end_descendants,
    end_group,
)
from inputmend.oracles.guard import forget_group, watch_group

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Validator = Callable[[str], object]


@functools.cache
def _json_partial() -> Any:
    """A JSON token, for partial matches (compiled on first use)."""
    return patterns.compile(
        r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"'
        r"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
        r"|true|false|null"
    )


_NUMBER_CHARS = "0123456789.eE+-"
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def _at(text: str, offset: int, message: str) -> Feedback:
    if offset >= len(text):
        return Feedback(Verdict.INCOMPLETE, len(text), message)
    return Feedback(Verdict.INCORRECT, max(offset, 0), message)


def _json_feedback(error: json.JSONDecodeError, text: str) -> Feedback:
    position = error.pos
    message = error.msg
    if position >= len(text):
        return Feedback(Verdict.INCOMPLETE, len(text), message)
    starts = []
    if message.startswith(("Expecting value", "Unterminated string", "Expecting property name")):
        starts.append(position)  # a value (or key) may start here: is it a partial one?
    start = position
    while start > 0 and text[start - 1] in _NUMBER_CHARS:
        start -= 1
    if start < position:
        starts.append(start)  # a number cut short, like ``1.`` or ``-``
    for begin in starts:
        match = _json_partial().fullmatch(text, pos=begin, partial=True)
        if match is not None and match.partial:
            return Feedback(Verdict.INCOMPLETE, len(text), message)
    return Feedback(Verdict.INCORRECT, position, message)


def classify_exception(error: BaseException, text: str) -> Feedback:
    """Turn a validator's exception into feedback, using what known parsers report."""
    message = f"{type(error).__name__}: {error}".strip()
    if isinstance(error, json.JSONDecodeError):
        return _json_feedback(error, text)
    if isinstance(error, tomllib.TOMLDecodeError):
        if "(at end of document)" in str(error):
            return Feedback(Verdict.INCOMPLETE, len(text), message)
        match = _TOML_POSITION.search(str(error))
        if match:
            return _at(text, offset_of(text, int(match[1]), int(match[2])), message)
        return Feedback(Verdict.INCORRECT, None, message)
    # only a validator that imported configparser raises its errors
    configparser = sys.modules.get("configparser")
    if configparser is not None and isinstance(error, configparser.Error):
        line = getattr(error, "lineno", None)
        errors = getattr(error, "errors", None)
        if line is None and errors:
            line = errors[0][0]
        if isinstance(line, int):
            offset = offset_of(text, line, 1)
            last_line_open = not text.endswith(("\n", "\r")) and "\n" not in text[offset:]
            if last_line_open:
                return Feedback(Verdict.INCOMPLETE, len(text), message)
            return Feedback(Verdict.INCORRECT, offset, message)
        return Feedback(Verdict.INCORRECT, None, message)
    if isinstance(error, SyntaxError):
        text_message = str(error.msg or "")
        if "never closed" in text_message or "EOF" in text_message:
            return Feedback(Verdict.INCOMPLETE, len(text), message)
        if error.lineno:
            return _at(text, offset_of(text, error.lineno, error.offset or 1), message)
        return Feedback(Verdict.INCORRECT, None, message)
    lark_position = getattr(error, "pos_in_stream", None)
    if type(error).__module__.startswith("lark"):
        if type(error).__name__ == "UnexpectedEOF":
            return Feedback(Verdict.INCOMPLETE, len(text), message)
        if isinstance(lark_position, int):
            return _at(text, lark_position, message)
    return Feedback(Verdict.INCORRECT, None, message)


def judge(validator: Validator, text: str) -> Feedback:
    """Call a validator: returning means valid, raising means invalid."""
    try:
        validator(text)
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as error:  # noqa: BLE001 - any failure of the validator is a verdict
        feedback = classify_exception(error, text)
        return dataclasses.replace(feedback, message=printable(feedback.message))
    return COMPLETE


def load_validator(spec: str, *, base_dir: str | None = None) -> Validator:
    """Load ``module:function`` (from the modules on ``sys.path``) or
    ``file.py:function`` (a path, relative to ``base_dir``)."""
    module_name, sep, function_name = spec.rpartition(":")
    if not sep or not module_name or not function_name:
        raise OracleConfigError(f"python oracle must be MODULE:FUNCTION, got {spec!r}")
    try:
        if module_name.endswith(".py"):
            path = validator_file(module_name, base_dir)
            module_spec = importlib.util.spec_from_file_location(path.stem, path)
            if module_spec is None or module_spec.loader is None or not path.is_file():
                raise OracleConfigError(f"python oracle file not found: {path}")
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except OracleConfigError:
        raise
    except BaseException as error:  # noqa: BLE001 - report any import failure as config error
        raise OracleConfigError(
            f"cannot import {module_name!r} for python oracle: {type(error).__name__}: {error}"
        ) from None
    validator = getattr(module, function_name, None)
    if not callable(validator):
        raise OracleConfigError(f"{module_name!r} has no callable {function_name!r}")
    return validator  # type: ignore[no-any-return]


def validator_file(name: str, base_dir: str | None) -> Path:
    """The file of a ``file.py:function`` validator."""
    path = Path(name)
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    return path


def import_path(spec: str, *, base_dir: str | None, module_dir: str | None) -> list[str]:
    """``sys.path`` for a validator's process: the installed environment
    without the working directory (``''`` or its path: a ``json.py`` there
    must not shadow the real one), then, *after* it, the validator file's own
    folder (for the modules next to it) or ``module_dir`` (a trusted
    configuration file's folder), which can add modules but never replace one."""
    here = os.getcwd()
    path = [entry for entry in sys.path if entry not in ("", ".", here)]
    module_name = spec.rpartition(":")[0]
    extra = (
        str(validator_file(module_name, base_dir).resolve().parent)
        if module_name.endswith(".py")
        else module_dir
    )
    if extra is not None and extra not in path:
        path.append(extra)
    return path


class CallableOracle:
    """A Python callable used in this process."""

    def __init__(self, validator: Validator, name: str | None = None) -> None:
        self.validator = validator
        self.name = name or getattr(validator, "__qualname__", repr(validator))

    def check(self, text: str) -> Feedback:
        return judge(self.validator, text)

    def describe(self) -> str:
        return f"python callable {self.name}"

    def close(self) -> None:
        pass


Answer = Callable[[Validator, str], object]


class ValidatorInterrupted(Exception):
    """A validator in its child process raised :class:`KeyboardInterrupt`.

    The child leads its own process group, so no Ctrl-C of the user reaches
    it: an interruption there is the validator's own, a failure like any
    other exception (the answers re-raise :class:`KeyboardInterrupt`, which
    in this process is the user's, and would end the child with a
    traceback on the terminal)."""


def _in_child(validator: Validator) -> Validator:
    """``validator`` as its child process calls it (see :class:`ValidatorInterrupted`)."""

    def call(text: str) -> object:
        try:
            return validator(text)
        except KeyboardInterrupt:
            raise ValidatorInterrupted("the validator raised KeyboardInterrupt") from None

    return call


def _serve(
    spec: str,
    base_dir: str,
    search: list[str],
    parent: int,
    connection: Connection,
    answer: Answer,
) -> None:
    """Child process: load the function, then answer texts until the pipe
    closes.  The process dies with its parent, leads its own process group
    (so that closing the oracle ends everything the validator started), and
    ends whatever the validator started after every call."""
    die_with_parent(parent)
    os.setpgid(0, 0)
    become_subreaper()
    os.dup2(2, 1)  # a stray print must never reach our stdout (the LSP channel)
    sys.stdout = sys.stderr
    sys.path[:] = search
    try:
        validator = _in_child(load_validator(spec, base_dir=base_dir))
    except OracleConfigError as error:
        connection.send(("error", str(error)))
        return
    finally:
        end_descendants()
    connection.send(("ready", ""))
    while True:
        try:
            text = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply = answer(validator, text)
        finally:
            end_descendants()
        connection.send(reply)


def feedback_answer(validator: Validator, text: str) -> tuple[str, int | None, str]:
    """What a validator's child sends back for the oracle: the feedback."""
    feedback = judge(validator, text)
    return feedback.verdict.value, feedback.error_offset, feedback.message


class ChildFunction:
    """A Python function loaded in a spawned child process, one text per request.

    The child loads ``spec``, then sends ``answer(function, text)`` for each
    text (``answer`` must be a module-level function, so that it can be handed
    to a spawned process).  A request that takes longer than the timeout, or a
    child that dies, gives ``("timeout", None)`` or ``("crashed", exit_code)``,
    and the child is started again for the next request.
    """

    def __init__(
        self,
        spec: str,
        *,
        answer: Answer,
        base_dir: str | None,
        timeout_s: float,
        what: str,
        module_dir: str | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise OracleConfigError("the test timeout must be positive")
        self.spec = spec
        self.answer = answer
        self.base_dir = os.path.abspath(base_dir or os.getcwd())
        self.search = import_path(spec, base_dir=self.base_dir, module_dir=module_dir)
        self.timeout_s = timeout_s
        self.what = what
        import multiprocessing  # here: a process pool is no start-up cost of the other oracles

        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._connection: Connection | None = None
        self._start()

    def _start(self) -> None:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_serve,
            args=(self.spec, self.base_dir, self.search, os.getpid(), child, self.answer),
            daemon=True,
        )
        process.start()
        child.close()
        if not parent.poll(max(30.0, self.timeout_s)):
            if process.pid is not None:
                end_group(process.pid)
            process.kill()
            raise OracleConfigError(f"{self.what} {self.spec!r} did not load within 30s")
        try:
            status, detail = parent.recv()
        except (EOFError, OSError):
            process.join(1)
            raise OracleConfigError(
                f"{self.what} {self.spec!r} crashed while loading (exit {process.exitcode})"
            ) from None
        if status != "ready":
            process.join(1)
            raise OracleConfigError(detail)
        self._process, self._connection = process, parent
        if process.pid is not None:  # it leads its own group: what it starts dies with us too
            watch_group(process.pid)

    def call(self, text: str) -> tuple[str, Any]:
        if self._connection is None:
            self._start()
        connection = self._connection
        assert connection is not None
        try:
            connection.send(text)
            if not connection.poll(self.timeout_s):
                self.close()
                return "timeout", None
            return "answer", connection.recv()
        except (EOFError, OSError):
            code = self._process.exitcode if self._process is not None else None
            self.close()
            return "crashed", code

    def close(self) -> None:
        if getattr(self, "_connection", None) is not None:
            assert self._connection is not None
            self._connection.close()
            self._connection = None
        if getattr(self, "_process", None) is not None:
            end_group(self._process.pid)  # the validator's process and all it started
            self._process.join(5)
            forget_group(self._process.pid)
            self._process = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


class PythonOracle:
    """``module:function`` judged in a child process with a per-test timeout."""

    def __init__(
        self,
        spec: str,
        *,
        timeout_s: float = defaults.TEST_TIMEOUT_S,
        base_dir: str | None = None,
        module_dir: str | None = None,
    ) -> None:
        self.spec = spec
        self.timeout_s = timeout_s
        self.child = ChildFunction(
            spec,
            answer=feedback_answer,
            base_dir=base_dir,
            module_dir=module_dir,
            timeout_s=timeout_s,
            what="python oracle",
        )

    def check(self, text: str) -> Feedback:
        kind, answer = self.child.call(text)
        if kind == "timeout":
            return Feedback(Verdict.INCORRECT, None, f"timed out after {self.timeout_s:g}s")
        if kind == "crashed":
            return Feedback(Verdict.INCORRECT, None, f"validator crashed (exit {answer})")
        verdict, offset, message = answer
        return Feedback(Verdict(verdict), offset, message)

    def describe(self) -> str:
        return f"python {self.spec} (in a child process, timeout {self.timeout_s:g}s)"

    def close(self) -> None:
        self.child.close()
