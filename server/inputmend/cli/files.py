"""The user's files: reading them, finding them in folders, writing repairs.

The one place where the command line touches the file system:

* reading refuses what is not a regular file (a FIFO would block forever,
  ``/dev/zero`` never ends) and remembers what the file was (size, mtime,
  inode, hash), so that it is never replaced after someone else changed it
  (checked once more just before the rename), nor while another process
  has it open for writing (:mod:`~inputmend.cli.writers`: a live log's
  later appends would go to the replaced file); record mode reads a file
  as a stream (:class:`StreamedInput`) and hashes it as it goes;
* every write is atomic (a temporary file in the same folder, written whole
  or piece by piece (:class:`AtomicFile`), synced, then renamed over the
  target), refuses to replace anything but a regular file (and a read-only
  one unless forced) and keeps the target's mode, owner and extended
  attributes (ACLs among them); a file with other hard links is rewritten in its
  own inode (after its backup is safe), so that the links keep seeing it; a
  symbolic link is followed, so the file it points to is repaired and the
  link stays, except a link owned by another user than the writer or root
  (planted in ``/tmp``, or in their folder given to ``--in-place``;
  :func:`resolve_for_writing`), and another user's file in a shared sticky
  folder is not written;
* the input is never an output: files are compared by device and inode
  (:func:`same_file`), so a hard or symbolic link to the input is the input;
* a file is rewritten in place only with its original kept as a backup that
  never overwrites anything: ``FILE.orig``, else the first free
  ``FILE.orig.N`` (a name taken by anything, a dangling symbolic link too,
  is not free), with the original's mode, owner and extended attributes;
* errors name the user's files, never the temporary ones.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from inputmend.cli.errors import InputError
from inputmend.cli.writers import describe_writers, open_writers
from inputmend.config.discovery import find_config, load_config
from inputmend.core.oracle import OracleConfigError
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

BACKUP = re.compile(r"\.orig(?:\.\d+)?$")
"""Names of the backups ``--in-place`` makes (skipped in folders)."""


@dataclass(frozen=True)
class FileState:
    """What a file was when it was read: a later write checks it is still so."""

    size: int
    mtime_ns: int
    sha256: str
    device: int
    inode: int

    @classmethod
    def seen(cls, info: os.stat_result, *, size: int, sha256: str) -> FileState:
        """The state of the file ``info`` describes, of which ``size`` bytes
        hashing to ``sha256`` were read."""
        return cls(size, info.st_mtime_ns, sha256, info.st_dev, info.st_ino)

    @classmethod
    def of(cls, data: bytes, info: os.stat_result) -> FileState:
        return cls.seen(info, size=len(data), sha256=hashlib.sha256(data).hexdigest())

    def unchanged(self, info: os.stat_result) -> bool:
        """Whether ``info`` (a new status of the file) still looks as read:
        the same inode, size and modification time."""
        now = (info.st_size, info.st_mtime_ns, info.st_dev, info.st_ino)
        return now == (self.size, self.mtime_ns, self.device, self.inode)


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
_CHUNK = 1 << 20


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode cannot be input; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((why for test, why in _KINDS if test(mode)), "is not a regular file")


def _open_regular(file: Path) -> tuple[BinaryIO, os.stat_result]:
    """A regular file open for reading; never blocks on a FIFO or opens a device."""
    try:
        handle = os.open(file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:  # a socket
            why = _not_regular(os.stat(file).st_mode)
            raise InputError(f"{file}: {why}") from None
        raise
    stream = os.fdopen(handle, "rb")
    info = os.fstat(handle)
    why = _not_regular(info.st_mode)
    if why is not None:
        stream.close()
        raise InputError(f"{file}: {why}")
    return stream, info


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
        stream, info = _open_regular(file)
        with stream:
            data = stream.read()
    except OSError as error:
        raise unreadable(file, error) from None
    try:
        decoded = decode(data, encoding=encoding)
    except DecodeError as error:
        raise InputError(f"{file}: {error}") from None
    return InputFile(file, decoded.text, decoded.encoding, FileState.of(data, info))


class StreamedInput:
    """A regular file read piece by piece (record mode).  What was read is
    hashed, so that an in-place write can tell whether the file changed since."""

    def __init__(self, path: Path) -> None:
        try:
            self._stream, self._info = _open_regular(path)
        except OSError as error:
            raise unreadable(path, error) from None
        self.path = path
        self.size = self._info.st_size
        self._hash = hashlib.sha256()
        self._read = 0

    def read(self, size: int = -1, /) -> bytes:
        data = self._stream.read(size)
        self._hash.update(data)
        self._read += len(data)
        return data

    @property
    def state(self) -> FileState:
        """The file as read so far (all of it once the stream is exhausted)."""
        return FileState.seen(self._info, size=self._read, sha256=self._hash.hexdigest())

    def close(self) -> None:
        self._stream.close()


def _has_oracle(path: Path) -> bool:
    if registry.for_path(path) is not None:
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
    ``*.orig.N``): those with an oracle (a bundled grammar for the file's
    name or extension, or a ``.inputmend.toml`` rule), or every file when
    ``every_file`` (an oracle was given on the command line)."""
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


_MAX_LINKS = 40  # as the kernel's ELOOP limit


def _foreign_in_shared_folder(entry: Path, info: os.stat_result) -> bool:
    """Whether ``entry`` (``info``: its own status) lies in a sticky
    world-writable folder and belongs neither to this user nor to the
    folder's owner: anyone could have put it there under a name the user is
    about to write (``/tmp/out.json``)."""
    folder = os.stat(entry.parent)
    shared = stat.S_ISVTX | stat.S_IWOTH
    return folder.st_mode & shared == shared and info.st_uid not in (os.geteuid(), folder.st_uid)


def _refuse_foreign_link(link: Path, info: os.stat_result, named: Path) -> None:
    """A symbolic link is followed for writing only when it is the writer's
    or root's.  Another user chose where it points: planted in a shared
    sticky folder (``/tmp/out.json``, stricter than Linux's
    ``fs.protected_symlinks``, which trusts the folder's owner too) or in a
    folder of theirs given to ``--in-place``, it would have the writer
    rewrite any of the writer's own files."""
    if info.st_uid not in (os.geteuid(), 0):
        where = "shared folder" if _foreign_in_shared_folder(link, info) else "folder"
        raise WriteError(
            f"{named}: refused: the symbolic link {link} in the {where} {link.parent} "
            f"belongs to another user (uid {info.st_uid}) and could point at any file; "
            "remove it or write elsewhere"
        )


def _refuse_foreign_file(file: Path, info: os.stat_result, named: Path) -> None:
    """The rule of Linux's ``fs.protected_regular``: a file in a sticky
    world-writable folder that another user owns is not written.  Replacing
    it would hand them the output (a rewritten file keeps its owner), and
    writing into it (a file with other names) writes into their file."""
    if _foreign_in_shared_folder(file, info):
        raise WriteError(
            f"{named}: refused: the file {file} in the shared folder {file.parent} "
            f"belongs to another user (uid {info.st_uid}), who would own what is "
            "written; remove it or write elsewhere"
        )


def resolve_for_writing(path: Path) -> Path:
    """The real path of ``path`` (symbolic links resolved), refusing to follow
    another user's link (:func:`_refuse_foreign_link`).

    The kernel applies that rule only to the links it follows itself; the
    target of a write is found here, by reading the links, so the rule is
    applied here to every link on the way.  Components that do not exist
    (a new file) are kept as named."""
    resolved = Path("/")
    pending = list((path if path.is_absolute() else Path.cwd() / path).parts[1:])
    followed = 0
    while pending:
        part = pending.pop(0)
        if part == "..":
            resolved = resolved.parent
            continue
        candidate = resolved / part
        try:
            info = os.lstat(candidate)
        except OSError:
            return candidate.joinpath(*pending)  # a new file; the write reports other errors
        if not stat.S_ISLNK(info.st_mode):
            resolved = candidate
            continue
        _refuse_foreign_link(candidate, info, path)
        followed += 1
        if followed > _MAX_LINKS:
            raise WriteError(f"{path}: cannot write (too many levels of symbolic links)")
        target = Path(os.readlink(candidate))
        if target.is_absolute():
            resolved = Path("/")
            pending[:0] = target.parts[1:]
        else:
            pending[:0] = target.parts
    return resolved


def same_file(first: Path, second: Path) -> bool:
    """Whether two names reach the same file: the same device and inode (a
    hard link, a symbolic link), or the same real path for a file yet to be
    written."""
    try:
        one, other = os.stat(first), os.stat(second)
    except OSError:
        return os.path.realpath(first) == os.path.realpath(second)
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


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


def _temporary(folder: Path, name: str) -> tuple[BinaryIO, str]:
    """A new, empty temporary file in ``folder``, open for writing and reading."""
    import tempfile  # only where a file is written: it imports shutil, bz2 and lzma

    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    return os.fdopen(handle, "w+b"), temporary


def _seal(
    stream: BinaryIO,
    like: os.stat_result | None,
    mode: int,
    attributes: Mapping[str, bytes] | None = None,
) -> None:
    """Flush and sync a new file, with the owner of ``like`` (where allowed),
    ``mode`` and extended ``attributes``."""
    stream.flush()
    if like is not None:
        _chown_like(stream.fileno(), like)
    os.fchmod(stream.fileno(), mode)
    _set_attributes(stream.fileno(), attributes or {})  # after the mode: an ACL sets group bits
    os.fsync(stream.fileno())


_NO_ATTRIBUTES = {errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}
"""The file system has no extended attributes: there is nothing to keep."""
_ATTRIBUTE_NOT_OURS = {errno.EPERM, errno.EACCES, errno.ENODATA}
"""An attribute this user may not read or set (``trusted.*``, some
``security.*``), or one removed while being copied."""


def attributes_of(path: Path) -> dict[str, bytes]:
    """The extended attributes of a file (POSIX ACLs are the
    ``system.posix_acl_*`` ones on Linux); none where there are none."""
    if not hasattr(os, "listxattr"):
        return {}
    try:
        names = os.listxattr(path)
    except OSError as error:
        if error.errno in _NO_ATTRIBUTES:
            return {}
        raise
    found = {}
    for name in names:
        try:
            found[name] = os.getxattr(path, name)
        except OSError as error:
            if error.errno not in _NO_ATTRIBUTES | _ATTRIBUTE_NOT_OURS:
                raise
    return found


def _set_attributes(handle: int, attributes: Mapping[str, bytes]) -> None:
    """Give a new file the extended attributes of the one it replaces or
    backs up, as far as this file system and user allow."""
    for name, value in attributes.items():
        try:
            os.setxattr(handle, name, value)
        except OSError as error:
            if error.errno not in _NO_ATTRIBUTES | _ATTRIBUTE_NOT_OURS:
                raise


def _chown_like(handle: int, like: os.stat_result) -> None:
    """Give the file the owner and group of ``like``, as far as allowed."""
    for uid, gid in ((like.st_uid, like.st_gid), (-1, like.st_gid)):
        try:
            os.fchown(handle, uid, gid)
            return
        except OSError:
            continue


class AtomicFile:
    """A new version of the file ``path`` names, written piece by piece into a
    temporary file beside it: :meth:`commit` puts it in place at once,
    :meth:`discard` (or leaving the ``with`` block by an exception) leaves
    the file as it was.  A symbolic link is followed (the file it points to
    gets the new version, the link stays); an existing file keeps its mode,
    owner, extended attributes and hard links (a file with other names is
    rewritten in its own inode); a new file gets the umask's mode; anything
    but a regular file (a FIFO, a device) is refused, never replaced, and so
    is another user's link in a shared sticky folder, and a read-only file
    unless ``force``.  Errors name ``path``, never the temporary file."""

    def __init__(self, path: Path, *, force: bool = False) -> None:
        self.path = path
        self.target = resolve_for_writing(path)
        try:
            info: os.stat_result | None = os.stat(self.target)
        except OSError:
            info = None  # a new file, or an error the write reports
        if info is not None:
            why = _not_regular(info.st_mode)
            if why is not None:
                raise WriteError(f"{path}: {why}; only regular files are written")
            _refuse_foreign_file(self.target, info, path)
            if not info.st_mode & stat.S_IWUSR and not force:
                raise WriteError(
                    f"{path} is read-only (mode {stat.S_IMODE(info.st_mode):04o}): not "
                    "rewritten; --force rewrites it (its mode is kept)"
                )
        try:
            self._stream, self._temporary = _temporary(self.target.parent, self.target.name)
        except OSError as error:
            raise cannot_write(path, error) from None

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    def write(self, data: bytes) -> None:
        try:
            self._stream.write(data)
        except OSError as error:
            self.discard()
            raise cannot_write(self.path, error) from None

    def commit(self, *, unchanged_since: FileState | None = None) -> None:
        """Put the new version in place; the temporary file is gone either way.
        With ``unchanged_since``, refuse (:class:`FileChanged`) when the file
        no longer looks as it was read, checked last before the rename."""
        try:
            self._replace(unchanged_since)
        except OSError as error:
            raise cannot_write(self.path, error) from None
        finally:
            self.discard()

    def discard(self) -> None:
        self._stream.close()
        Path(self._temporary).unlink(missing_ok=True)

    def _refuse_if_changed(self, read: FileState | None) -> None:
        if read is None:
            return
        try:
            unchanged = read.unchanged(os.stat(self.target))
        except FileNotFoundError:
            unchanged = False
        if not unchanged:
            raise FileChanged(self.path)

    def _replace(self, read: FileState | None) -> None:
        import shutil  # only where a file is written: it imports bz2 and lzma

        try:
            info: os.stat_result | None = os.stat(self.target)
        except FileNotFoundError:
            info = None
        if info is not None and info.st_nlink > 1:
            # other names share this inode: write into it, so that they all see the new version
            self._refuse_if_changed(read)
            self._stream.flush()
            self._stream.seek(0)
            handle = os.open(self.target, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(handle, "wb") as inode:
                shutil.copyfileobj(self._stream, inode, _CHUNK)
                inode.truncate()
                inode.flush()
                os.fsync(inode.fileno())
            return
        mode = 0o666 & ~_umask() if info is None else stat.S_IMODE(info.st_mode)
        attributes = {} if info is None else attributes_of(self.target)
        _seal(self._stream, info, mode, attributes)
        self._stream.close()
        self._refuse_if_changed(read)  # a writer appending while the new version was written
        os.replace(self._temporary, self.target)
        _sync_folder(self.target.parent)


def replace_contents(path: Path, data: bytes) -> None:
    """Replace the file ``path`` names by ``data`` at once (see :class:`AtomicFile`)."""
    with AtomicFile(path) as new:
        new.write(data)


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


def _verify(
    path: Path, state: FileState | None, copy: BinaryIO | None = None
) -> os.stat_result | None:
    """The file's status if it is still what was read (``state``: size,
    mtime, content; ``None``: not read from a file), else ``None``; read in
    pieces (into ``copy`` if given)."""
    try:
        stream, info = _open_regular(path)
    except (OSError, InputError):
        return None
    digest, size = hashlib.sha256(), 0
    with stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
            if copy is not None:
                copy.write(chunk)
    if state is not None and FileState.seen(info, size=size, sha256=digest.hexdigest()) != state:
        return None
    return info


class FileChanged(WriteError):
    """The file changed since it was read; it is not replaced."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} changed since it was read: the repair was not written "
            "(the file keeps its new content)"
        )


def write_backup(path: Path, original: Path, state: FileState | None) -> Path:
    """Keep a copy of ``original`` as the first free backup name of
    ``path``, atomically: copied (and checked to be still what was read,
    ``state``) and synced under a temporary name, then linked to a name that
    must not exist (so nothing is ever overwritten or written through a
    symbolic link).  The backup gets the original's mode (without set-id
    bits, nor file capabilities), owner and extended attributes."""
    stream, temporary = _temporary(path.parent, path.name)
    try:
        with stream:
            like = _verify(original, state, stream)
            if like is None:
                raise FileChanged(path)
            attributes = attributes_of(original)
            attributes.pop("security.capability", None)
            _seal(stream, like, stat.S_IMODE(like.st_mode) & 0o777, attributes)
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


def cannot_write(path: Path, error: OSError) -> WriteError:
    """The one-line error for a file or folder that cannot be written."""
    return WriteError(f"{path}: cannot write ({error.strerror or type(error).__name__})")


def replace_in_place(path: Path, new: AtomicFile, state: FileState | None) -> str:
    """Put ``new`` in place of the file ``path`` names, keeping the original
    as a backup; a symbolic link stays, the file it points to is replaced.
    Refuses when another process has the file open for writing, or when the
    file changed since it was read (``state``); nothing is lost then: the
    file keeps its new content."""
    try:
        writers = open_writers(os.stat(new.target))
    except OSError as error:
        raise cannot_write(path, error) from None
    if writers:
        raise WriteError(
            f"{path} is open for writing by {describe_writers(writers)}: not rewritten in "
            "place (what it writes later would be lost); stop it first, or use -o OUT"
        )
    try:
        backup = write_backup(path, new.target, state)
    except OSError as error:
        raise cannot_write(path.with_name(path.name + ".orig"), error) from None
    try:
        if _verify(new.target, state) is None:
            raise FileChanged(path)
        new.commit(unchanged_since=state)
    except FileChanged as error:
        raise WriteError(f"{error}; {backup} has the version that was read") from None
    return f"wrote {path} (original kept as {backup})"


def write_in_place(source: InputFile, text: str, *, force: bool = False) -> str:
    """Rewrite the file with ``text``, keeping the original as a backup (see
    :func:`replace_in_place`; ``force``: a read-only file too)."""
    data = source.encode(text)
    new = AtomicFile(source.path, force=force)
    try:
        new.write(data)
        return replace_in_place(source.path, new, source.state)
    finally:
        new.discard()


def write_output(source: InputFile, text: str, target: Path, *, force: bool = False) -> str:
    """Write ``text`` (encoded like ``source``) to another file: a new file
    gets the umask's mode, an existing one keeps its mode, owner and links
    (``force``: a read-only one is replaced too)."""
    if source.state is not None and same_file(target, source.path):
        raise InputError("-o names the input file; use --in-place to overwrite it")
    data = source.encode(text)
    with AtomicFile(target, force=force) as new:
        new.write(data)
    return f"wrote {target}"
