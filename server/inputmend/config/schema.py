"""One schema for oracle rules and run limits, read strictly or leniently.

``.inputmend.toml`` is read strictly: a mistake is a one-line error that names
the file, the table and the key, so a typo never silently changes what
validates a file.  An editor's settings are read leniently: a bad value is
left out with a warning, so a typo never stops the language server.  Both
read the same :class:`Field` lists; a field has one key in TOML
(``incomplete-exit``) and one in client settings (``incompleteExit``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from inputmend.config import defaults
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.oracle import OracleConfigError

Spelling = Literal["toml", "client"]


class NoOracleError(OracleConfigError):
    """No rule, setting or bundled grammar gives an oracle for a file;
    ``warning`` says which configuration file was ignored, if one was."""

    def __init__(self, message: str, *, warning: str | None = None) -> None:
        super().__init__(message)
        self.warning = warning


@dataclass(frozen=True)
class OracleSpec:
    """How to build the oracle for a file; all of its parts must accept."""

    grammar: str | None = None
    command: str | tuple[str, ...] | None = None
    python: str | None = None
    incomplete_exit: int | None = defaults.INCOMPLETE_EXIT
    incomplete_pattern: str | None = None
    test_timeout_s: float = defaults.TEST_TIMEOUT_S
    base_dir: Path | None = None  # relative paths (grammar, file.py, commands) start here
    module_dir: Path | None = None  # `module:function` may also come from here
    source: str = "command line"

    @property
    def empty(self) -> bool:
        return self.grammar is None and self.command is None and self.python is None

    @property
    def has_validator(self) -> bool:
        """An external program or Python function takes part."""
        return self.command is not None or self.python is not None

    def grammar_only(self) -> OracleSpec:
        """The same spec without its validators."""
        return replace(self, command=None, python=None)


@dataclass(frozen=True)
class RunLimits:
    """Budget of one repair or explanation run, and how much of the input a
    repair may lose before it is lossy (never written unless allowed)."""

    timeout_s: float | None = defaults.RUN_TIMEOUT_S
    max_tests: int | None = defaults.RUN_MAX_TESTS
    max_loss: LossLimit = DEFAULT_LIMIT
    allow_loss: bool = False


@dataclass(frozen=True)
class Rule:
    """Files matching any of ``patterns`` are judged by ``spec``."""

    patterns: tuple[str, ...]
    spec: OracleSpec


# ------------------------------------------------------------------ values
def positive_number(value: Any) -> float:
    """A positive, finite number (TOML and JSON as Python reads it have nan and inf)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("must be a positive number")
    if not math.isfinite(value) or value <= 0:
        raise ValueError("must be a positive number")
    return float(value)


def positive_integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("must be a positive integer")
    return value


def optional(parse: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``parse``, but ``None`` (JSON ``null``) is a value too: "unset"."""

    def parse_optional(value: Any) -> Any:
        return None if value is None else parse(value)

    return parse_optional


def integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be an integer")
    return value


def string(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("must be a string")
    return value


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def loss_limit(value: Any) -> LossLimit:
    """``"10%"``, ``"64"``, ``"10%,64"`` or a number of characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return LossLimit.parse(str(value))
    if not isinstance(value, str):
        raise ValueError('must be a string such as "10%,64" or a number of characters')
    try:
        return LossLimit.parse(value)
    except ValueError:
        raise ValueError("must be PERCENT%, CHARS or PERCENT%,CHARS") from None


def choice(*choices: str) -> Callable[[Any], str]:
    def parse_choice(value: Any) -> str:
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}")
        return str(value)

    return parse_choice


def globs(value: Any) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(i, str) for i in items):
        raise ValueError("must be a glob or a list of globs")
    return tuple(items)


def command(value: Any) -> str | tuple[str, ...]:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
        return tuple(value)
    raise ValueError("must be a string or a list of strings")


# ------------------------------------------------------------------ fields
@dataclass(frozen=True)
class Field:
    """One setting: the attribute it sets, its keys, and how its value is read
    (``parse`` raises ``ValueError("must be ...")`` for a bad value)."""

    attribute: str
    toml: str | None
    client: str | None
    parse: Callable[[Any], Any]

    def key(self, spelling: Spelling) -> str | None:
        return self.toml if spelling == "toml" else self.client


ORACLE_FIELDS = (
    Field("patterns", "files", "files", globs),
    Field("grammar", "grammar", "grammar", string),
    Field("command", "command", "command", command),
    Field("python", "python", "python", string),
    Field("incomplete_exit", "incomplete-exit", "incompleteExit", integer),
    Field("incomplete_pattern", "incomplete-pattern", "incompletePattern", string),
    Field("test_timeout_s", "test-timeout", "testTimeout", positive_number),
)
"""An ``[[oracle]]`` table of ``.inputmend.toml``, or an entry of the setting ``oracles``."""

LIMIT_FIELDS = (
    Field("timeout_s", "timeout", "timeout", positive_number),
    Field("max_tests", "max-tests", "maxTests", optional(positive_integer)),
    Field("test_timeout_s", "test-timeout", "testTimeout", positive_number),
    Field("max_loss", "max-loss", "maxLoss", loss_limit),
    Field("allow_loss", "allow-loss", None, boolean),
)
"""``[defaults]`` of ``.inputmend.toml``; the language server's settings of the same names
(the server never writes files, so it has no ``allow-loss``)."""


@dataclass
class Reader:
    """Reads the tables of one source: strictly (mistakes raise
    :class:`OracleConfigError`) or leniently (mistakes are logged and the
    value, or the whole entry, is left out)."""

    spelling: Spelling
    strict: bool
    warnings: list[str] = field(default_factory=list)

    def problem(self, where: str, message: str) -> None:
        if self.strict:
            raise OracleConfigError(f"{where}: {message}")
        warning = f"{where}: {message}; ignored"
        self.warnings.append(warning)
        import logging  # here: a run without a configuration problem does not wait for it

        logging.getLogger(__name__).warning("%s", warning)

    def fields(
        self, table: Mapping[str, Any], fields: Iterable[Field], where: str
    ) -> dict[str, Any]:
        """The attributes ``table`` sets; unknown keys are errors when strict
        and ignored otherwise (an editor sends settings of other tools too)."""
        by_key = {key: f for f in fields if (key := f.key(self.spelling)) is not None}
        unknown = sorted(set(table) - set(by_key))
        if unknown and self.strict:
            raise OracleConfigError(f"{where}: unknown key(s) {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for key, value in table.items():
            known = by_key.get(key)
            if known is None:
                continue
            try:
                values[known.attribute] = known.parse(value)
            except ValueError as error:
                self.problem(where, f"`{key}` {error}, got {value!r}")
        return values

    def rule(
        self,
        table: Any,
        where: str,
        *,
        base_dir: Path | None,
        test_timeout_s: float,
        source: str,
    ) -> Rule | None:
        """An oracle rule, or None when a lenient reader leaves it out."""
        if not isinstance(table, Mapping):
            self.problem(where, "must be a table of settings")
            return None
        values = self.fields(table, ORACLE_FIELDS, where)
        patterns = values.pop("patterns", None)
        if patterns is None:
            self.problem(where, "`files` must be a glob or a list of globs")
            return None
        values.setdefault("test_timeout_s", test_timeout_s)
        spec = OracleSpec(**values, base_dir=base_dir, source=source)
        if spec.empty:
            self.problem(where, "give `grammar`, `command` or `python`")
            return None
        return Rule(patterns, spec)

    def rules(
        self,
        tables: Any,
        where: str,
        *,
        base_dir: Path | None,
        test_timeout_s: float,
        source: Callable[[str], str],
    ) -> tuple[Rule, ...]:
        """A list of oracle rules (``[[oracle]]`` tables, the setting ``oracles``)."""
        if not isinstance(tables, list):
            self.problem(where, "must be a list of oracle rules")
            return ()
        found = []
        for number, table in enumerate(tables, 1):
            place = f"{where} #{number}"
            rule = self.rule(
                table, place, base_dir=base_dir, test_timeout_s=test_timeout_s, source=source(place)
            )
            if rule is not None:
                found.append(rule)
        return tuple(found)
