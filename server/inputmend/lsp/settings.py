"""Typed server settings, merged from what the client sends.

Sources: ``initializationOptions`` (at start), ``workspace/configuration``
(section ``inputmend``, asked after ``initialized``), and
``workspace/didChangeConfiguration``.  Neovim 0.7 only has the first and the
last.  Unknown keys are ignored; wrong types fall back to the default with a
warning in the log, so a typo never stops the server.

Security: external validators (commands, Python functions) from a
``.inputmend.toml`` in the workspace run only when the user-level setting
``trustWorkspaceCommands`` is true.  A workspace file can never grant that to
itself: the setting is only read from the client's settings.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from inputmend.config import OracleSpec, glob_matches

log = logging.getLogger(__name__)

OnSave = Literal["off", "suggest"]


@dataclass(frozen=True)
class GlobOracle:
    """An oracle for files matching globs, from the client's settings."""

    patterns: tuple[str, ...]
    spec: OracleSpec


@dataclass(frozen=True)
class ServerSettings:
    oracles: tuple[GlobOracle, ...] = ()
    timeout_s: float = 10.0
    max_tests: int | None = None
    test_timeout_s: float = 5.0
    repair_algorithm: str = "auto"
    diagnose: bool = True
    repairs: bool = True
    top: int = 5
    on_save: OnSave = "suggest"
    trust_workspace_commands: bool = False
    debounce_ms: int = 300
    max_background_chars: int = 2_000_000
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def oracle_for(self, path: Path, root: Path | None) -> OracleSpec | None:
        """The client-configured oracle for a file, if a glob matches."""
        relative = path.name
        if root is not None:
            try:
                relative = path.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                relative = path.name
        for entry in self.oracles:
            if any(glob_matches(pattern, relative) for pattern in entry.patterns):
                return entry.spec
        return None


_KEYS: dict[str, tuple[str, type | tuple[type, ...]]] = {
    "timeout": ("timeout_s", (int, float)),
    "maxTests": ("max_tests", int),
    "testTimeout": ("test_timeout_s", (int, float)),
    "repairAlgorithm": ("repair_algorithm", str),
    "diagnose": ("diagnose", bool),
    "repairs": ("repairs", bool),
    "top": ("top", int),
    "onSave": ("on_save", str),
    "trustWorkspaceCommands": ("trust_workspace_commands", bool),
    "debounceMs": ("debounce_ms", int),
    "maxBackgroundChars": ("max_background_chars", int),
}
_CHOICES = {"on_save": {"off", "suggest"}, "repair_algorithm": None}


def _section(data: Any) -> Mapping[str, Any]:
    """Accept ``{"inputmend": {...}}`` or the section itself."""
    if isinstance(data, Mapping):
        inner = data.get("inputmend")
        if isinstance(inner, Mapping):
            return inner
        return data
    return {}


def _positive(value: Any, default: float) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    return default


def _oracles(value: Any) -> tuple[GlobOracle, ...]:
    entries = []
    if not isinstance(value, list):
        log.warning("inputmend.oracles must be a list, ignored")
        return ()
    for item in value:
        if not isinstance(item, Mapping):
            continue
        files = item.get("files")
        if isinstance(files, str):
            files = [files]
        if not isinstance(files, list) or not files:
            log.warning("inputmend.oracles entry without `files`, ignored: %r", item)
            continue
        command = item.get("command")
        spec = OracleSpec(
            grammar=item.get("grammar") if isinstance(item.get("grammar"), str) else None,
            command=tuple(command)
            if isinstance(command, list)
            else command
            if isinstance(command, str)
            else None,
            python=item.get("python") if isinstance(item.get("python"), str) else None,
            incomplete_exit=item.get("incompleteExit", 255),
            incomplete_pattern=item.get("incompletePattern"),
            test_timeout_s=_positive(item.get("testTimeout"), 5.0),
            source="client settings",
        )
        if not spec.empty:
            entries.append(GlobOracle(tuple(str(f) for f in files), spec))
    return tuple(entries)


def merge(settings: ServerSettings, data: Any) -> ServerSettings:
    """Settings updated with whatever valid keys ``data`` carries."""
    section = _section(data)
    changes: dict[str, Any] = {}
    for key, value in section.items():
        if key == "oracles":
            changes["oracles"] = _oracles(value)
            continue
        known = _KEYS.get(key)
        if known is None:
            continue
        name, kinds = known
        if value is None and name == "max_tests":
            changes[name] = None
            continue
        if isinstance(value, bool) and kinds is not bool:
            log.warning("inputmend.%s: expected %s, got %r; ignored", key, kinds, value)
            continue
        if not isinstance(value, kinds):
            log.warning("inputmend.%s: expected %s, got %r; ignored", key, kinds, value)
            continue
        allowed = _CHOICES.get(name)
        if allowed and value not in allowed:
            log.warning("inputmend.%s: %r is not one of %s; ignored", key, value, sorted(allowed))
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0:
            log.warning("inputmend.%s must be positive; ignored", key)
            continue
        if name.endswith("_s") and isinstance(value, (int, float)):
            value = float(value)
        changes[name] = value
    return replace(settings, **changes)
