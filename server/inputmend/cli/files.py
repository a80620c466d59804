"""The user's files: reading them, finding them in folders, writing repairs.

The one place where the command line touches the file system:

* reading refuses what is not a regular file (a FIFO would block forever,
  ``/dev/zero`` never ends) and remembers what the file was (size, mtime,
  hash), so that it is never replaced after someone else changed it;
* every write is atomic (a temporary file in the same folder, synced, then
  renamed over the target) and keeps the target's mode and owner; a file
  with other hard links is rewritten in its own inode (after its backup is
  safe), so that the links keep seeing it; a symbolic link is followed, so
  the file it points to is repaired and the link stays;
* a file is rewritten in place only with its original kept as a backup that
  never overwrites anything: ``FILE.orig``, else the first free
  ``FILE.orig.N`` (a name taken by anything, a dangling symbolic link too,
  is not free), with the original's mode and owner;
* errors name the user's files, never the temporary ones.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
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

BACKUP = re.compile(r"\.orig(?:\.\d+)?$")
"""Names of the backups ``--in-place`` makes (skipped in folders)."""


class InputError(Exception):
    """A file cannot be used as input; the message is one line for the user."""


@dataclass(frozen=True)
class FileState:
    """What a file was when it was read: a later write checks it is still so."""

    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, data: bytes, info: os.stat_result) -> FileState:
        return cls(len(data), info.st_mtime_ns, hashlib.sha256(data).hexdigest())


@dataclass(frozen=True)
class InputFile:
    """The decoded content of a file (without its BOM) and how to write it back."""

    path: Path
    text: str
    encoding: Encoding = UTF8
    state: FileState | None = None  # as read; None when not read from a file

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


_KINDS = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISFIFO, "is a FIFO, not a regular file"),
    (stat.S_ISCHR, "is a character device, not a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file"),
)


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode cannot be input; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((why for test, why in _KINDS if test(mode)), "is not a regular file")


def _read_regular(file: Path) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file; never blocks on a FIFO or reads a device."""
    try:
        handle = os.open(file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:  # a socket
            why = _not_regular(os.stat(file).st_mode)
            raise InputError(f"{file}: {why}") from None
        raise
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(handle)
        why = _not_regular(info.st_mode)
        if why is not None:
            raise InputError(f"{file}: {why}")
        return stream.read(), info


def read_input(path: str | Path, *, encoding: str = "auto") -> InputFile:
    """Read and decode a file for checking or repair, with one-line errors
    (``encoding``: ``auto`` or a codec name, see :func:`inputmend.core.text.decode`)."""
    file = Path(path)
    try:
        data, info = _read_regular(file)
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{file}: is a directory") from None
    except PermissionError:
        raise InputError(f"{file}: permission denied") from None
    except OSError as error:
        raise InputError(f"{file}: cannot read ({error.strerror or error})") from None
    try:
        decoded = decode(data, encoding=encoding)
    except DecodeError as error:
        raise InputError(f"{file}: {error}") from None
    return InputFile(file, decoded.text, decoded.encoding, FileState.of(data, info))


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


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def expand(paths: list[str], *, every_file: bool) -> list[str]:
    """Files named directly, plus the regular files inside named folders
    (recursively, skipping hidden entries and backups ``*.orig``,
    ``*.orig.N``): those with an oracle (bundled grammar for the extension or
    a ``.inputmend.toml`` rule), or every file when ``every_file`` (an oracle
    was given on the command line)."""
    files: list[str] = []
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            files.append(name)
            continue
        for folder, subfolders, entries in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for entry in sorted(entries):
                if entry.startswith(".") or BACKUP.search(entry):
                    continue
                candidate = Path(folder) / entry
                if _regular(candidate) and (every_file or _has_oracle(candidate)):
                    files.append(str(candidate))
    return files


# ----------------------------------------------------------------- writing
class WriteError(InputError):
    """A file could not be written; the message names it, never a temporary file."""


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where folders can be synced)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _temporary(folder: Path, name: str, data: bytes, like: os.stat_result | None, mode: int) -> str:
    """A synced temporary file in ``folder`` with ``data``, the owner of
    ``like`` (where allowed) and ``mode``."""
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            if like is not None:
                _chown_like(stream.fileno(), like)
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def _chown_like(handle: int, like: os.stat_result) -> None:
    """Give the file the owner and group of ``like``, as far as allowed."""
    for uid, gid in ((like.st_uid, like.st_gid), (-1, like.st_gid)):
        try:
            os.fchown(handle, uid, gid)
            return
        except OSError:
            continue


def replace_contents(target: Path, data: bytes) -> None:
    """Replace ``target`` (a real path, no symbolic link) by ``data``,
    keeping its mode, owner and hard links; a new file gets the umask's mode."""
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and info.st_nlink > 1:
        # other names share this inode: write into it, so that they all see the repair
        handle = os.open(target, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.truncate()
            stream.flush()
            os.fsync(stream.fileno())
        return
    mode = 0o666 & ~_umask() if info is None else stat.S_IMODE(info.st_mode)
    temporary = _temporary(target.parent, target.name, data, info, mode)
    try:
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def backup_path(path: Path) -> Path:
    """``FILE.orig``, else the first free ``FILE.orig.N``; a name is taken by
    anything, a dangling symbolic link too."""
    candidate = path.with_name(path.name + ".orig")
    number = 1
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.name}.orig.{number}")
        number += 1
    return candidate


_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS, errno.EXDEV, errno.EMLINK}


def write_backup(path: Path, data: bytes, like: os.stat_result) -> Path:
    """Keep ``data`` as the first free backup name of ``path``, atomically:
    written and synced under a temporary name, then linked to a name that
    must not exist (so nothing is ever overwritten or written through a
    symbolic link).  The backup gets the mode (without set-id bits) and owner
    of ``like``."""
    mode = stat.S_IMODE(like.st_mode) & 0o777
    temporary = _temporary(path.parent, path.name, data, like, mode)
    try:
        while True:
            candidate = backup_path(path)
            try:
                os.link(temporary, candidate)
                return candidate
            except FileExistsError:
                continue  # taken since we looked: the next name
            except OSError as error:
                if error.errno not in _NO_HARD_LINKS:
                    raise
                os.rename(temporary, candidate)  # no hard links here: the name was free
                return candidate
    finally:
        Path(temporary).unlink(missing_ok=True)
        _sync_folder(path.parent)


def _as_read(path: Path, source: InputFile) -> bytes:
    """The file's bytes, when it is still what ``source`` read (size, mtime,
    content); they are then exactly the original bytes."""
    if source.state is None:
        return source.encode()
    try:
        data, info = _read_regular(path)
    except (OSError, InputError):
        data, info = b"", None
    if info is None or FileState.of(data, info) != source.state:
        raise WriteError(
            f"{source.path} changed since it was read: the repair was not written "
            "(the file keeps its new content)"
        )
    return data


def _cannot_write(path: Path, error: OSError) -> WriteError:
    return WriteError(f"{path}: cannot write ({error.strerror or type(error).__name__})")


def write_in_place(source: InputFile, text: str) -> str:
    """Rewrite the file with ``text``, keeping the original as a backup; a
    symbolic link stays, the file it points to is repaired.  Refuses when
    the file changed since it was read (nothing is lost: the file keeps its
    new content)."""
    path = source.path
    data = source.encode(text)
    target = Path(os.path.realpath(path))
    original = _as_read(target, source)
    try:
        backup = write_backup(path, original, os.stat(target))
    except OSError as error:
        raise _cannot_write(path.with_name(path.name + ".orig"), error) from None
    try:
        _as_read(target, source)
    except WriteError as error:
        raise WriteError(f"{error}; {backup} has the version that was read") from None
    try:
        replace_contents(target, data)
    except OSError as error:
        raise _cannot_write(path, error) from None
    return f"wrote {path} (original kept as {backup})"


def write_output(source: InputFile, text: str, target: Path) -> str:
    """Write ``text`` (encoded like ``source``) to another file: a new file
    gets the umask's mode, an existing one keeps its mode, owner and links."""
    if target.exists() and target.resolve() == source.path.resolve():
        raise InputError("-o names the input file; use --in-place to overwrite it")
    data = source.encode(text)
    try:
        replace_contents(Path(os.path.realpath(target)), data)
    except OSError as error:
        raise _cannot_write(target, error) from None
    return f"wrote {target}"
