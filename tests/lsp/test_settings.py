"""Client settings: read leniently with the configuration schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inputmend.config import defaults
from inputmend.lsp.settings import SERVER_FIELDS, ServerSettings, merge
from inputmend.services import REPAIR_ALGORITHMS


def test_defaults() -> None:
    settings = ServerSettings()
    assert settings.timeout_s == defaults.SERVER_RUN_TIMEOUT_S
    assert settings.test_timeout_s == defaults.SERVER_TEST_TIMEOUT_S
    assert settings.top == defaults.TOP_REPAIRS
    assert settings.repair_algorithm in REPAIR_ALGORITHMS


def test_values_in_the_section_or_bare() -> None:
    wrapped = merge(ServerSettings(), {"inputmend": {"timeout": 3, "onSave": "off"}})
    bare = merge(ServerSettings(), {"timeout": 3, "onSave": "off"})
    assert wrapped == bare
    assert (wrapped.timeout_s, wrapped.on_save) == (3.0, "off")
    assert isinstance(wrapped.timeout_s, float)


@pytest.mark.parametrize(
    "changes",
    [
        {"timeout": True},
        {"timeout": -1},
        {"top": 2.5},
        {"top": 0},
        {"debounceMs": "soon"},
        {"onSave": "always"},
        {"repairAlgorithm": "magic"},
        {"diagnose": "yes"},
    ],
)
def test_a_bad_value_keeps_the_previous_one(changes: dict[str, object]) -> None:
    before = ServerSettings(timeout_s=7.0)
    assert merge(before, changes) == before


def test_every_registered_repair_algorithm_is_accepted() -> None:
    for name in REPAIR_ALGORITHMS:
        assert merge(ServerSettings(), {"repairAlgorithm": name}).repair_algorithm == name


def test_max_tests_can_be_unset_and_unknown_keys_are_ignored() -> None:
    limited = merge(ServerSettings(), {"maxTests": 50, "server": {"pythonPath": "x"}})
    assert limited.max_tests == 50
    assert merge(limited, {"maxTests": None}).max_tests is None
    assert merge(limited, None) == limited


def test_oracles_from_the_client(tmp_path: Path) -> None:
    settings = merge(
        ServerSettings(),
        {"oracles": [{"files": "*.data", "grammar": "json"}, {"grammar": "csv"}, "junk"]},
    )
    assert len(settings.oracles) == 1
    spec = settings.oracle_for(tmp_path / "a" / "x.data", tmp_path)
    assert spec is not None and spec.grammar == "json"
    assert spec.test_timeout_s == defaults.SERVER_TEST_TIMEOUT_S
    assert spec.source == "client settings"
    assert settings.oracle_for(tmp_path / "x.json", tmp_path) is None
    assert merge(settings, {"oracles": "nope"}).oracles == ()


CLIENT = Path(__file__).resolve().parents[2] / "client-vscode"


def test_the_vs_code_extension_declares_and_sends_every_server_setting() -> None:
    """A setting the server reads but the extension neither declares nor
    sends cannot be set from VS Code at all."""
    read = {field.client for field in SERVER_FIELDS if field.client is not None} | {"oracles"}
    manifest = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    declared = {
        key.removeprefix("inputmend.")
        for key in manifest["contributes"]["configuration"]["properties"]
    }
    assert read <= declared, f"not declared in package.json: {sorted(read - declared)}"
    source = (CLIENT / "src" / "settings.ts").read_text(encoding="utf-8")
    keys = re.search(r"SERVER_KEYS = \[(.*?)\] as const", source, re.S)
    assert keys is not None
    sent = set(re.findall(r"'(\w+)'", keys.group(1))) | {"oracles"}
    assert read == sent, f"SERVER_KEYS differs: {sorted(read ^ sent)}"
