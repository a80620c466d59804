"""Handlers for the session's lifecycle: initialize, settings, shutdown."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from inputmend.lsp.server import InputmendServer
from inputmend.lsp.settings import SECTION, merge

log = logging.getLogger(__name__)

CONFIGURATION_TIMEOUT_S = 5


def fs_path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


def initialize(ls: InputmendServer, params: types.InitializeParams) -> None:
    session = ls.session
    session.settings = merge(session.settings, params.initialization_options)
    root = params.root_uri or (
        params.workspace_folders[0].uri if params.workspace_folders else None
    )
    session.root = fs_path(root) if root else None
    folders = [fs_path(folder.uri) for folder in params.workspace_folders or ()]
    session.folders = tuple(folders or ([session.root] if session.root else []))


def did_change_workspace_folders(
    ls: InputmendServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    """Trust follows the open folders: decide every document's oracle again."""
    removed = {fs_path(folder.uri) for folder in params.event.removed}
    added = [fs_path(folder.uri) for folder in params.event.added]
    kept = [folder for folder in ls.session.folders if folder not in removed]
    ls.session.folders = tuple(dict.fromkeys([*kept, *added]))
    ls.analyser.reconfigure_all()


async def initialized(ls: InputmendServer, params: types.InitializedParams) -> None:
    """Start the workers, and ask for the settings (not every client answers;
    Neovim 0.7 does not)."""
    ls.scheduler.warm_up()
    workspace = ls.client_capabilities.workspace
    if workspace is None or not workspace.configuration:
        return
    try:
        result = await asyncio.wait_for(
            ls.workspace_configuration_async(
                types.ConfigurationParams([types.ConfigurationItem(section=SECTION)])
            ),
            CONFIGURATION_TIMEOUT_S,
        )
    except Exception:  # noqa: BLE001 - a client that does not answer keeps the defaults
        log.info("workspace/configuration not answered")
        return
    if result and isinstance(result[0], dict):
        ls.session.settings = merge(ls.session.settings, result[0])
        ls.analyser.reconfigure_all()


def did_change_configuration(
    ls: InputmendServer, params: types.DidChangeConfigurationParams
) -> None:
    ls.session.settings = merge(ls.session.settings, params.settings)
    ls.analyser.reconfigure_all()


def shutdown(ls: InputmendServer, params: Any) -> None:
    """Stop the workers now: otherwise exit waits for running jobs."""
    ls.scheduler.shutdown()
