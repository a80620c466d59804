"""Typed server settings, merged from what the client sends.

Sources: ``initializationOptions`` (at start), ``workspace/configuration``
(section ``inputmend``, asked after ``initialized``), and
``workspace/didChangeConfiguration``.  Neovim 0.7 only has the first and the
last.  Values are read with the schema of ``.inputmend.toml``
(:mod:`inputmend.config.schema`), leniently: unknown keys are ignored, a
wrong value keeps the previous one and is logged, so a typo never stops the
server.

Security: external validators (commands, Python functions) from a
``.inputmend.toml`` in the workspace, validators of these settings whose
program or Python file is a path relative to the workspace, and grammars
outside the workspace are used only when the user-level setting
``trustWorkspaceCommands`` is true (:func:`inputmend.lsp.session.oracle_setup`).
A workspace file can never grant that to itself: the setting is only read
from the client's settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from inputmend.config import defaults
from inputmend.config.discovery import spec_for
from inputmend.config.schema import (
    LIMIT_FIELDS,
    Field,
    OracleSpec,
    Reader,
    Rule,
    boolean,
    choice,
    positive_integer,
)
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.services import REPAIR_ALGORITHMS

OnSave = Literal["off", "suggest"]
SECTION = "inputmend"


@dataclass(frozen=True)
class ServerSettings:
    oracles: tuple[Rule, ...] = ()
    timeout_s: float = defaults.SERVER_RUN_TIMEOUT_S
    max_tests: int | None = defaults.RUN_MAX_TESTS
    max_loss: LossLimit = DEFAULT_LIMIT
    test_timeout_s: float = defaults.SERVER_TEST_TIMEOUT_S
    repair_algorithm: str = "auto"
    diagnose: bool = True
    repairs: bool = True
    top: int = defaults.TOP_REPAIRS
    on_save: OnSave = "suggest"
    trust_workspace_commands: bool = False
    debounce_ms: int = defaults.SERVER_DEBOUNCE_MS
    max_background_chars: int = defaults.SERVER_MAX_BACKGROUND_CHARS

    def oracle_for(self, path: Path, workspace: Path | None) -> OracleSpec | None:
        """The client-configured oracle for a file, if a glob matches; globs
        and relative paths (grammar, ``file.py``, commands) start at the
        workspace folder holding the file.  Python modules are never
        imported from it: ``json:loads`` is the installed ``json``."""
        spec = spec_for(self.oracles, path, workspace)
        if spec is None or workspace is None or spec.base_dir is not None:
            return spec
        return replace(spec, base_dir=workspace)


SERVER_FIELDS = (
    *LIMIT_FIELDS,
    Field("repair_algorithm", None, "repairAlgorithm", choice(*REPAIR_ALGORITHMS)),
    Field("diagnose", None, "diagnose", boolean),
    Field("repairs", None, "repairs", boolean),
    Field("top", None, "top", positive_integer),
    Field("on_save", None, "onSave", choice("off", "suggest")),
    Field("trust_workspace_commands", None, "trustWorkspaceCommands", boolean),
    Field("debounce_ms", None, "debounceMs", positive_integer),
    Field("max_background_chars", None, "maxBackgroundChars", positive_integer),
)


def _section(data: Any) -> Mapping[str, Any]:
    """Accept ``{"inputmend": {...}}`` or the section itself."""
    if isinstance(data, Mapping):
        inner = data.get(SECTION)
        if isinstance(inner, Mapping):
            return inner
        return data
    return {}


def merge(settings: ServerSettings, data: Any) -> ServerSettings:
    """Settings updated with whatever valid keys ``data`` carries."""
    section = _section(data)
    reader = Reader("client", strict=False)
    changes = reader.fields(section, SERVER_FIELDS, SECTION)
    if "oracles" in section:
        changes["oracles"] = reader.rules(
            section["oracles"],
            f"{SECTION}.oracles",
            base_dir=None,
            test_timeout_s=defaults.SERVER_TEST_TIMEOUT_S,
            source=lambda place: "client settings",
        )
    return replace(settings, **changes)
