"""The user's files: reading them, finding them in folders, writing repairs.

The one place where the command line touches the file system: every read
gives a one-line error, every write is atomic (a temporary file renamed over
the target), and a file is rewritten in place only with its original kept
as a backup that is never overwritten.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from inputmend.config.discovery import find_config, load_config
from inputmend.core.text import (
    UTF8,
    DecodeError,
    EncodeError,
    Encoding,
    LineIndex,
    decode,
    encode,
)
from inputmend.grammar import registry
from inputmend.oracles.base import OracleConfigError


class InputError(Exception):
    """A file cannot be used as input; the message is one line for the user."""


@dataclass(frozen=True)
class InputFile:
    """The decoded content of a file (without its BOM) and how to write it back."""

    path: Path
    text: str
    encoding: Encoding = UTF8

    def encode(self, text: str | None = None) -> bytes:
        """Bytes for ``text`` (default: the original) in the file's encoding,
        with its BOM; a character the encoding cannot represent is an error,
        never a ``?``."""
        text = self.text if text is None else text
        try:
            return encode(text, self.encoding)
        except EncodeError as error:
            where = LineIndex(text).human(error.offset)
            raise InputError(f"{self.path}: repair not written: {error} at {where}") from None


def unreadable(file: Path, error: OSError) -> InputError:
    """The one-line error for a file that cannot be read."""
    if isinstance(error, FileNotFoundError):
        return InputError(f"{file}: no such file")
    if isinstance(error, IsADirectoryError):
        return InputError(f"{file}: is a directory")
    if isinstance(error, PermissionError):
        return InputError(f"{file}: permission denied")
    return InputError(f"{file}: cannot read ({error.strerror or error})")


def read_input(path: str | Path, *, encoding: str = "auto") -> InputFile:
    """Read and decode a file for checking or repair, with one-line errors
    (``encoding``: ``auto`` or a codec name, see :func:`inputmend.core.text.decode`)."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as error:
        raise unreadable(file, error) from None
    try:
        decoded = decode(data, encoding=encoding)
    except DecodeError as error:
        raise InputError(f"{file}: {error}") from None
    return InputFile(file, decoded.text, decoded.encoding)


def _has_oracle(path: Path) -> bool:
    if registry.for_extension(path) is not None:
        return True
    config = find_config(path)
    if config is None:
        return False
    try:
        return load_config(config).spec_for(path) is not None
    except OracleConfigError:
        return True  # let the job report the broken configuration


def expand(paths: list[str], *, every_file: bool) -> list[str]:
    """Files named directly, plus the files inside named folders (recursively,
    skipping hidden entries and backups): those with an oracle (bundled
    grammar for the extension or a ``.inputmend.toml`` rule), or every file
    when ``every_file`` (an oracle was given on the command line)."""
    files: list[str] = []
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            files.append(name)
            continue
        for folder, subfolders, entries in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for entry in sorted(entries):
                if entry.startswith(".") or ".orig" in entry:
                    continue
                candidate = Path(folder) / entry
                if every_file or _has_oracle(candidate):
                    files.append(str(candidate))
    return files


class AtomicFile:
    """A new version of ``path``, written piece by piece into a temporary file
    beside it: :meth:`commit` puts it in place at once (with the old file's
    permissions), :meth:`discard` leaves ``path`` as it was.  A crash leaves
    the old file or the new one, never half of it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._mode = path.stat().st_mode & 0o7777 if path.exists() else None
        handle, self._temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
        self.stream = os.fdopen(handle, "wb")

    def commit(self) -> None:
        try:
            self.stream.close()
            if self._mode is not None:
                os.chmod(self._temporary, self._mode)
            os.replace(self._temporary, self.path)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        self.stream.close()
        Path(self._temporary).unlink(missing_ok=True)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` at once (keeping its permissions)."""
    target = AtomicFile(path)
    try:
        target.stream.write(data)
    except BaseException:
        target.discard()
        raise
    target.commit()


def backup_path(path: Path) -> Path:
    """``FILE.orig``, else the first free ``FILE.orig.N``."""
    candidate = path.with_name(path.name + ".orig")
    number = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.orig.{number}")
        number += 1
    return candidate


def write_in_place(source: InputFile, text: str) -> str:
    """Rewrite the file with ``text``, keeping the original as a backup."""
    data = source.encode(text)
    backup = backup_path(source.path)
    backup.write_bytes(source.encode())
    write_atomically(source.path, data)
    return f"wrote {source.path} (original kept as {backup})"


def write_output(source: InputFile, text: str, target: Path) -> str:
    """Write ``text`` (encoded like ``source``) to another file."""
    if target.exists() and target.resolve() == source.path.resolve():
        raise InputError("-o names the input file; use --in-place to overwrite it")
    write_atomically(target, source.encode(text))
    return f"wrote {target}"
