"""Which configuration applies to a file.

Sources, strongest first: command-line flags, the nearest ``.inputmend.toml``
in the file's folder or a parent, the bundled grammar for the file extension.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from inputmend.config import defaults
from inputmend.config.schema import (
    LIMIT_FIELDS,
    NoOracleError,
    OracleSpec,
    Reader,
    Rule,
    RunLimits,
)
from inputmend.config.trust import Trust
from inputmend.core.oracle import OracleConfigError
from inputmend.grammar import registry
from inputmend.grammar.small_files import read_small_text


@dataclass(frozen=True)
class ConfigFile:
    """A parsed ``.inputmend.toml``."""

    path: Path
    rules: tuple[Rule, ...] = ()
    limits: RunLimits = field(default_factory=RunLimits)

    def spec_for(self, file: Path) -> OracleSpec | None:
        return spec_for(self.rules, file, self.path.parent)

    @property
    def has_validators(self) -> bool:
        """Does it name a command or a Python function (code to run)?"""
        return any(rule.spec.has_validator for rule in self.rules)


def spec_for(rules: Iterable[Rule], file: Path, root: Path | None) -> OracleSpec | None:
    """The spec of the first rule that matches ``file``, a path relative to
    ``root`` (only its name when it is outside ``root``, or without one)."""
    relative = file.name
    if root is not None:
        try:
            relative = file.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            relative = file.name
    for rule in rules:
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


def load_config(path: Path) -> ConfigFile:
    """Parse a ``.inputmend.toml``; every mistake is a one-line error."""
    try:
        data = tomllib.loads(read_small_text(path))
    except (OSError, UnicodeDecodeError) as error:
        raise OracleConfigError(f"{path}: cannot read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise OracleConfigError(f"{path}: invalid TOML ({error})") from None
    unknown = set(data) - {"defaults", "oracle"}
    if unknown:
        raise OracleConfigError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}")
    reader = Reader("toml", strict=True)
    table = data.get("defaults", {})
    if not isinstance(table, dict):
        raise OracleConfigError(f"{path}: [defaults] must be a table")
    limits = reader.fields(table, LIMIT_FIELDS, f"{path} [defaults]")
    test_timeout = limits.pop("test_timeout_s", defaults.TEST_TIMEOUT_S)
    rules = reader.rules(
        data.get("oracle", []),
        f"{path} [[oracle]]",
        base_dir=path.parent,
        test_timeout_s=test_timeout,
        source=lambda place: place,
    )
    # a configuration file's validators may import modules from its own folder
    rules = tuple(replace(r, spec=replace(r.spec, module_dir=path.parent)) for r in rules)
    return ConfigFile(path, rules, RunLimits(**limits))


def find_config(file: Path) -> Path | None:
    """The nearest ``.inputmend.toml`` in the file's folder or a parent, by
    its real path: a configuration reached through a symbolic link finds its
    grammars, commands and modules in its own folder, never in the folder
    that holds the link (anyone's, such as a folder in ``/tmp``)."""
    folder = file.resolve().parent
    for candidate in (folder, *folder.parents):
        path = candidate / defaults.CONFIG_NAME
        if path.is_file():
            return path.resolve()
    return None


@dataclass(frozen=True)
class FileSettings:
    """The oracle and limits for one file, and the configuration they came from."""

    spec: OracleSpec
    limits: RunLimits
    config: Path | None
    warning: str | None = None  # a configuration file was ignored, and why


def settings_for(file: Path, flags: OracleSpec | None = None, *, trust: Trust) -> FileSettings:
    """Decide the oracle and limits for one file.  A configuration file whose
    rule for this file names validators is obeyed only when ``trust``
    accepts it (:meth:`~inputmend.config.trust.Trust.verdict`); otherwise it
    is ignored as a whole, and ``warning`` says why.  Its rules for other
    files, and its rules when ``flags`` name the oracle, run nothing: they
    need no trust."""
    config_path = find_config(file)
    config = load_config(config_path) if config_path is not None else None
    warning = None
    flagged = flags is not None and not flags.empty
    own = None if config is None or flagged else config.spec_for(file)  # its rule for the file
    if config is not None and own is not None and own.has_validator:
        why = trust.verdict(config.path)
        if why is not None:
            warning = f"ignored {config.path}: it names commands or Python validators, and {why}"
            config = None
    limits = config.limits if config is not None else RunLimits()
    if flags is not None and not flags.empty:
        return FileSettings(flags, limits, config_path, warning)
    spec = own if config is not None else None
    if spec is None:
        info = registry.for_path(file)
        if info is None:
            raise NoOracleError(
                f"{file}: no oracle for this file; pass --grammar, --command or --python, "
                f"or map it in {defaults.CONFIG_NAME}" + (f" ({warning})" if warning else ""),
                warning=warning,
            )
        source = f"file name {file.name}" if info.names(file) else f"extension {file.suffix}"
        spec = OracleSpec(grammar=info.name, source=source)
        if flags is not None:
            spec = replace(spec, test_timeout_s=flags.test_timeout_s)
    return FileSettings(spec, limits, config_path, warning)
