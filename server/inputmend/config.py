"""Settings: which oracle judges a file, and the budget of a run.

Sources, strongest first: command-line flags, the nearest ``.inputmend.toml``
in the file's folder or a parent, the bundled grammar for the file extension.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from inputmend.grammar import registry
from inputmend.oracles.base import OracleConfigError

CONFIG_NAME = ".inputmend.toml"
DEFAULT_TEST_TIMEOUT_S = 10.0
DEFAULT_RUN_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class OracleSpec:
    """How to build the oracle for a file; several parts must all accept."""

    grammar: str | None = None
    command: str | tuple[str, ...] | None = None
    python: str | None = None
    incomplete_exit: int | None = 255
    incomplete_pattern: str | None = None
    test_timeout_s: float = DEFAULT_TEST_TIMEOUT_S
    base_dir: Path | None = None
    source: str = "command line"

    @property
    def empty(self) -> bool:
        return self.grammar is None and self.command is None and self.python is None


@dataclass(frozen=True)
class RunLimits:
    """Budget of one repair or explanation run."""

    timeout_s: float | None = DEFAULT_RUN_TIMEOUT_S
    max_tests: int | None = None


@dataclass(frozen=True)
class Rule:
    patterns: tuple[str, ...]
    spec: OracleSpec


@dataclass(frozen=True)
class ConfigFile:
    path: Path
    rules: tuple[Rule, ...] = ()
    limits: RunLimits = field(default_factory=RunLimits)

    def spec_for(self, file: Path) -> OracleSpec | None:
        try:
            relative = file.resolve().relative_to(self.path.parent.resolve()).as_posix()
        except ValueError:
            relative = file.name
        for rule in self.rules:
            if any(glob_matches(pattern, relative) for pattern in rule.patterns):
                return rule.spec
        return None


def glob_matches(pattern: str, relative_path: str) -> bool:
    """Gitignore-like: a pattern without ``/`` matches the file name anywhere;
    ``**`` matches any number of folders."""
    if "/" not in pattern:
        return _glob_regex(pattern).fullmatch(relative_path.rsplit("/", 1)[-1]) is not None
    return _glob_regex(pattern.lstrip("/")).fullmatch(relative_path) is not None


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 1)
            if end < 0:
                out.append(re.escape(pattern[i]))
                i += 1
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


_ORACLE_KEYS = {
    "files",
    "grammar",
    "command",
    "python",
    "incomplete-exit",
    "incomplete-pattern",
    "test-timeout",
}
_LIMIT_KEYS = {"timeout", "max-tests", "test-timeout"}


def _number(value: Any, where: str, *, integer: bool = False) -> Any:
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
        kind = "a positive integer" if integer else "a positive number"
        raise OracleConfigError(f"{where}: must be {kind}, got {value!r}")
    return value


def _rule(table: Mapping[str, Any], where: str, base_dir: Path, test_timeout: float) -> Rule:
    unknown = set(table) - _ORACLE_KEYS
    if unknown:
        raise OracleConfigError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    files = table.get("files")
    if isinstance(files, str):
        files = [files]
    if not files or not all(isinstance(item, str) for item in files):
        raise OracleConfigError(f"{where}: `files` must be a glob or a list of globs")
    command = table.get("command")
    if command is not None and not (
        isinstance(command, str)
        or (isinstance(command, list) and command and all(isinstance(c, str) for c in command))
    ):
        raise OracleConfigError(f"{where}: `command` must be a string or a list of strings")
    for key in ("grammar", "python", "incomplete-pattern"):
        if key in table and not isinstance(table[key], str):
            raise OracleConfigError(f"{where}: `{key}` must be a string")
    incomplete_exit = table.get("incomplete-exit", 255)
    if incomplete_exit is not None and (
        isinstance(incomplete_exit, bool) or not isinstance(incomplete_exit, int)
    ):
        raise OracleConfigError(f"{where}: `incomplete-exit` must be an integer")
    spec = OracleSpec(
        grammar=table.get("grammar"),
        command=tuple(command) if isinstance(command, list) else command,
        python=table.get("python"),
        incomplete_exit=incomplete_exit,
        incomplete_pattern=table.get("incomplete-pattern"),
        test_timeout_s=float(
            _number(table.get("test-timeout", test_timeout), f"{where}: test-timeout")
        ),
        base_dir=base_dir,
        source=where,
    )
    if spec.empty:
        raise OracleConfigError(f"{where}: give `grammar`, `command` or `python`")
    return Rule(tuple(files), spec)


def load_config(path: Path) -> ConfigFile:
    """Parse a ``.inputmend.toml``; every mistake is a one-line error."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise OracleConfigError(f"{path}: cannot read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise OracleConfigError(f"{path}: invalid TOML ({error})") from None
    unknown = set(data) - {"defaults", "oracle"}
    if unknown:
        raise OracleConfigError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict) or set(defaults) - _LIMIT_KEYS:
        bad = sorted(set(defaults) - _LIMIT_KEYS) if isinstance(defaults, dict) else ["defaults"]
        raise OracleConfigError(f"{path}: [defaults] has unknown key(s) {', '.join(bad)}")
    limits = RunLimits(
        timeout_s=float(_number(defaults["timeout"], f"{path}: timeout"))
        if "timeout" in defaults
        else DEFAULT_RUN_TIMEOUT_S,
        max_tests=_number(defaults["max-tests"], f"{path}: max-tests", integer=True)
        if "max-tests" in defaults
        else None,
    )
    test_timeout = float(
        _number(defaults.get("test-timeout", DEFAULT_TEST_TIMEOUT_S), f"{path}: test-timeout")
    )
    tables = data.get("oracle", [])
    if not isinstance(tables, list):
        raise OracleConfigError(f"{path}: use [[oracle]] tables")
    rules = tuple(
        _rule(table, f"{path} [[oracle]] #{index}", path.parent, test_timeout)
        for index, table in enumerate(tables, 1)
    )
    return ConfigFile(path, rules, limits)


def find_config(file: Path) -> Path | None:
    """The nearest ``.inputmend.toml`` in the file's folder or a parent."""
    folder = file.resolve().parent
    for candidate in (folder, *folder.parents):
        path = candidate / CONFIG_NAME
        if path.is_file():
            return path
    return None


@dataclass(frozen=True)
class FileSettings:
    spec: OracleSpec
    limits: RunLimits
    config: Path | None


def settings_for(file: Path, flags: OracleSpec | None = None) -> FileSettings:
    """Decide the oracle and limits for one file."""
    config_path = find_config(file)
    config = load_config(config_path) if config_path is not None else None
    limits = config.limits if config is not None else RunLimits()
    if flags is not None and not flags.empty:
        return FileSettings(flags, limits, config_path)
    spec = config.spec_for(file) if config is not None else None
    if spec is None:
        info = registry.for_extension(file)
        if info is None:
            raise OracleConfigError(
                f"{file}: no oracle for this file; pass --grammar, --command or --python, "
                f"or map it in {CONFIG_NAME}"
            )
        spec = OracleSpec(grammar=info.name, source=f"extension {file.suffix}")
        if flags is not None:
            spec = replace(spec, test_timeout_s=flags.test_timeout_s)
    return FileSettings(spec, limits, config_path)
