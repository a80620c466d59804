"""Whose configuration files may run programs.

A ``.inputmend.toml`` that names a ``command`` or ``python`` validator makes
inputmend run code.  Such a file is obeyed only if it is owned by the user
running inputmend (or by root) and lies inside one of the folders the user
pointed inputmend at (for the command line: the working directory and the
files and folders named on it; for the language server: the open workspace
folders), or is the user's own ``~/.inputmend.toml``.  Otherwise it is
ignored with a warning: the rule git adopted for repositories owned by
someone else.  The language server obeys it only when, in addition, the
user setting ``trustWorkspaceCommands`` is true.

Every entry point (``check``, ``repair``, ``explain``, record mode, standard
input, the language server) decides through :meth:`Trust.verdict`:
:func:`inputmend.config.discovery.settings_for` cannot be called without a
:class:`Trust`, so no caller can forget the rule.

Grammar paths in a configuration file that the language server reads must
stay inside the workspace folder that holds the file (inside the file's own
folder when it is in none): a grammar's error message quotes the file, and
``grammar = "/etc/shadow"`` must not put a secret into a diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from inputmend.config import defaults
from inputmend.config.schema import OracleSpec
from inputmend.grammar import registry


def is_inside(path: Path, folder: Path) -> bool:
    """Is ``path`` (symbolic links resolved) ``folder`` or inside it?"""
    return path.resolve().is_relative_to(folder.resolve())


def home_config() -> Path | None:
    """The user's own configuration file, ``~/.inputmend.toml``."""
    try:
        return Path.home() / defaults.CONFIG_NAME
    except RuntimeError:  # no home folder
        return None


def distrust(
    config: Path, roots: Iterable[Path], *, where: str = "the folders being checked"
) -> str | None:
    """Why the validators of ``config`` must not run; None when they may.
    ``where`` names the ``roots`` in the answer."""
    try:
        owner = config.stat().st_uid
    except OSError as error:
        return f"it cannot be read ({error.strerror})"
    if owner not in (os.getuid(), 0):
        return f"it is owned by another user (uid {owner})"
    own = home_config()
    if own is not None and own.exists() and config.resolve() == own.resolve():
        return None
    if any(is_inside(config, root) for root in roots):
        return None
    return f"it lies outside {where}"


def grammar_file(spec: OracleSpec) -> Path | None:
    """The file of the spec's grammar (relative paths start at its
    ``base_dir``); None when it has none or a bundled one."""
    if spec.grammar is None or spec.grammar in registry.bundled():
        return None
    grammar = Path(spec.grammar).expanduser()
    if not grammar.is_absolute() and spec.base_dir is not None:
        grammar = spec.base_dir / grammar
    return grammar


def grammar_inside(spec: OracleSpec, folder: Path) -> bool:
    """Is the spec's grammar bundled, or a file inside ``folder``?"""
    grammar = grammar_file(spec)
    return grammar is None or is_inside(grammar, folder)


def command_line_roots(names: Iterable[str]) -> list[Path]:
    """The folders a command line points at: the working directory, the
    folders it names and the folders of the files it names."""
    roots = [Path.cwd()]
    for name in names:
        path = Path(name)
        roots.append(path if path.is_dir() else path.parent)
    return roots


@dataclass(frozen=True)
class Trust:
    """Which configuration files may run code in this run: those that
    :func:`distrust` accepts for ``roots`` (named ``where`` in messages),
    and none at all when ``refusal`` says why not."""

    roots: tuple[Path, ...]
    where: str = "the folders being checked"
    refusal: str | None = None

    @classmethod
    def command_line(cls, names: Iterable[str]) -> Trust:
        """The command line's trust: the folders it points at."""
        return cls(tuple(command_line_roots(names)))

    def verdict(self, config: Path) -> str | None:
        """Why the validators of ``config`` must not run; None when they may."""
        if self.refusal is not None:
            return self.refusal
        return distrust(config, self.roots, where=self.where)
