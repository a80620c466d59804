"""The documented set-ups of the editors that are not run here (Helix, Zed,
Sublime Text, Kate) are well formed: each parses as its editor's file
format, runs ``inputmend lsp`` (or, for Zed, names the server for its
languages), and passes options the server reads as meant."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from inputmend.lsp.settings import ServerSettings, merge
from tests.documentation import fenced, page, section

COMMAND = ["inputmend", "lsp"]


def _only_block(heading: str, language: str) -> str:
    blocks = fenced(section(page("editors.md"), heading), language)
    assert len(blocks) == 1, f"{heading}: expected one {language} block, found {len(blocks)}"
    return blocks[0]


def _asks_for_suggestions_on_save(options: Any) -> bool:
    """True when the server, told not to suggest on save, reads ``options``
    as the documented ``onSave = "suggest"``."""
    return merge(ServerSettings(on_save="off"), options).on_save == "suggest"


def test_helix_languages_toml() -> None:
    config = tomllib.loads(_only_block("## Helix", "toml"))
    server = config["language-server"]["inputmend"]
    assert [server["command"], *server["args"]] == COMMAND
    assert _asks_for_suggestions_on_save(server["config"])
    languages = {language["name"]: language["language-servers"] for language in config["language"]}
    assert {"json", "toml", "yaml"} <= set(languages)
    assert all("inputmend" in servers for servers in languages.values()), languages


def test_zed_settings() -> None:
    settings = json.loads(_only_block("## Zed", "json"))
    options = settings["lsp"]["inputmend"]["initialization_options"]
    assert _asks_for_suggestions_on_save(options)
    for language, entry in settings["languages"].items():
        assert entry["language_servers"][0] == "inputmend", language


def test_sublime_text_client() -> None:
    settings = json.loads(_only_block("## Sublime Text", "json"))
    client = settings["clients"]["inputmend"]
    assert client["enabled"] is True
    assert client["command"] == COMMAND
    assert "source.json" in client["selector"].split(" | ")
    assert _asks_for_suggestions_on_save(client["initializationOptions"])


def test_kate_servers() -> None:
    settings = json.loads(_only_block("## Kate", "json"))
    servers = settings["servers"]
    assert {"json", "yaml", "xml"} <= set(servers)
    for name, server in servers.items():
        assert server["command"] == COMMAND, name
        assert server["highlightingModeRegex"].startswith("^"), name
        assert _asks_for_suggestions_on_save(server["initializationOptions"]), name
