"""Where record mode writes: nowhere (a report), standard output, a file, the
input itself (keeping a backup), or one file per partition in a folder.

Every file is written beside its target and put in place only when the run
succeeds, under the rules of every write (:class:`~inputmend.cli.files.AtomicFile`):
a failed or interrupted run leaves the user's files as they were.  The list
of rejected records may also go to a stream that is no file to put in place
(standard output or error, a pipe, a terminal): it is written there as it
comes (:func:`open_list`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO, Protocol, TypeAlias

from inputmend.cli.errors import InputError
from inputmend.cli.files import (
    AtomicFile,
    StreamedInput,
    cannot_write,
    replace_in_place,
    resolve_for_writing,
    same_file,
)


class Output(Protocol):
    """The repaired stream, written partition by partition (``part`` is the
    partition's index; pieces of one partition come in order)."""

    def write(self, data: bytes, part: int) -> None: ...

    def commit(self, changed: bool) -> str | None:
        """Put the output in place; what was written, for the user."""
        ...

    def discard(self) -> None: ...


class NoOutput:
    """A report only."""

    def write(self, data: bytes, part: int) -> None:
        pass

    def commit(self, changed: bool) -> str | None:
        return None

    def discard(self) -> None:
        pass


class StandardOutput:
    """``-o -``: the records on standard output, as they come."""

    def __init__(self, prefix: bytes) -> None:
        self.stream = sys.stdout.buffer
        self.stream.write(prefix)

    def write(self, data: bytes, part: int) -> None:
        self.stream.write(data)

    def commit(self, changed: bool) -> str | None:
        self.stream.flush()
        return None

    def discard(self) -> None:
        self.stream.flush()


class FileOutput:
    """``-o FILE``, or ``--in-place`` of ``source`` (the input is kept as a
    backup, and not replaced when it changed since it was read; nothing is
    written when nothing changed; ``force``: a read-only file is replaced too)."""

    def __init__(
        self,
        target: Path,
        prefix: bytes,
        *,
        source: StreamedInput | None = None,
        force: bool = False,
    ) -> None:
        self.target = target
        self.source = source
        self.file = AtomicFile(target, force=force)
        self.file.write(prefix)

    def write(self, data: bytes, part: int) -> None:
        self.file.write(data)

    def commit(self, changed: bool) -> str | None:
        if self.source is None:
            self.file.commit()
            return f"wrote {self.target}"
        if not changed:
            self.file.discard()
            return f"{self.target} unchanged"
        try:
            return replace_in_place(self.target, self.file, self.source.state)
        finally:
            self.file.discard()

    def discard(self) -> None:
        self.file.discard()


class PartsOutput:
    """``-o FOLDER/``: one file per partition, ``part-00000.EXT``, each
    starting with ``prefix`` (a CSV header).  The parts are written in a
    hidden folder inside ``FOLDER``, synced, and moved out when the run
    succeeds; an existing part is never replaced."""

    def __init__(self, folder: Path, suffix: str, prefix: bytes) -> None:
        real = resolve_for_writing(folder)
        try:
            real.mkdir(parents=True, exist_ok=True)
            if any(real.glob("part-*")):
                raise InputError(f"{folder}: already holds part-* files; choose an empty folder")
            self.staging = Path(tempfile.mkdtemp(dir=real, prefix=".inputmend-parts-"))
        except OSError as error:
            raise cannot_write(folder, error) from None
        self.folder = folder
        self.suffix = suffix
        self.prefix = prefix
        self.names: list[str] = []
        self.stream: BinaryIO | None = None
        self.part = -1

    def write(self, data: bytes, part: int) -> None:
        try:
            if self.stream is None or part != self.part:
                self._close()
                name = f"part-{part:05d}{self.suffix}"
                self.names.append(name)
                self.stream = (self.staging / name).open("wb")
                self.part = part
                self.stream.write(self.prefix)
            self.stream.write(data)
        except OSError as error:
            raise cannot_write(self.folder / f"part-{part:05d}{self.suffix}", error) from None

    def _close(self) -> None:
        if self.stream is not None:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            self.stream = None

    def commit(self, changed: bool) -> str | None:
        try:
            self._close()
            for name in self.names:
                if os.path.lexists(self.staging.parent / name):
                    raise InputError(f"{self.folder / name} appeared during the run; not replaced")
                os.replace(self.staging / name, self.staging.parent / name)
            self.staging.rmdir()
        except OSError as error:
            raise cannot_write(self.folder, error) from None
        return f"wrote {len(self.names)} part(s) to {self.folder}"

    def discard(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        shutil.rmtree(self.staging, ignore_errors=True)


def open_output(
    target: str | None,
    *,
    source: StreamedInput | None,
    in_place: bool,
    force: bool = False,
    suffix: str,
    prefix: bytes,
) -> Output:
    """The output ``-o``/``--in-place`` ask for (``source``: the input file,
    ``None`` for standard input; ``prefix``: what precedes the records, a
    byte-order mark and a CSV header)."""
    if in_place:
        assert source is not None
        return FileOutput(source.path, prefix, source=source, force=force)
    if target is None:
        return NoOutput()
    if target == "-":
        return StandardOutput(prefix)
    path = Path(target)
    if target.endswith(("/", os.sep)) or path.is_dir():
        return PartsOutput(path, suffix, prefix)
    if source is not None and same_file(path, source.path):
        raise InputError("-o names the input file; use --in-place to overwrite it")
    return FileOutput(path, prefix, force=force)


_DESCRIPTORS = ("/dev/stdout", "/dev/stderr", "/dev/stdin")
_DESCRIPTOR_FOLDERS = ("/dev/fd/", "/proc/self/fd/")


def names_a_stream(path: Path) -> bool:
    """Does ``path`` name a stream rather than a file to replace: one of the
    process's own descriptors (``/dev/stdout``, ``/dev/fd/3``; whatever
    they are open on), or a FIFO, a terminal or another device, a socket?"""
    name = str(path)
    if name in _DESCRIPTORS or name.startswith(_DESCRIPTOR_FOLDERS):
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


class StreamList:
    """A list written straight to a stream (see :func:`names_a_stream`), as
    it comes: there is no file to put in place.  It is opened to append, so
    that a descriptor redirected to a file keeps what was written before."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.stream: BinaryIO = path.open("ab")
        except OSError as error:
            raise cannot_write(path, error) from None

    def write(self, data: bytes) -> None:
        try:
            self.stream.write(data)
        except OSError as error:
            raise cannot_write(self.path, error) from None

    def commit(self) -> None:
        try:
            self.stream.close()
        except OSError as error:
            raise cannot_write(self.path, error) from None

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.stream.close()


ListFile: TypeAlias = AtomicFile | StreamList


def open_list(name: str, *, force: bool = False) -> ListFile:
    """Where a list (``--reject``) is written: a stream as it comes, or a
    file put in place when the run succeeds (``force``: see
    :class:`~inputmend.cli.files.AtomicFile`)."""
    path = Path(name)
    return StreamList(path) if names_a_stream(path) else AtomicFile(path, force=force)
