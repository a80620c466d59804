"""Reading the small files a user writes for inputmend: grammars, hints, configuration.

Such a file is read whole into memory, so its size is checked first: a huge
or sparse file (a 6 GB hole) is refused with a one-line error instead of
filling the memory.  The size the file system reports is checked before
reading, and at most one byte more than the limit is read, so a file that
grows while it is read is refused too; what is not a regular file (a
device, a FIFO) is refused before it is opened.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_SMALL_FILE_BYTES = 1 << 20
"""The largest grammar (``.lark``), hints (``.hints.toml``) or configuration
(``.inputmend.toml``) file that is read: 1 MiB."""


class FileTooLarge(OSError):
    """A file over its size limit (or not a regular file); ``str()`` says which."""


def read_small_text(path: Path, *, limit: int = MAX_SMALL_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` of at most ``limit`` bytes.
    Raises :class:`FileTooLarge` (an :class:`OSError`) beyond the limit, any
    other :class:`OSError` of reading, and :class:`UnicodeDecodeError`."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise FileTooLarge(f"{path} is not a regular file")
    if info.st_size > limit:
        raise FileTooLarge(_too_large(path, info.st_size, limit))
    with path.open("rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(_too_large(path, len(data), limit))
    return data.decode("utf-8")


def _too_large(path: Path, size: int, limit: int) -> str:
    more = "" if size <= limit + 1 else f"{size} bytes, "
    return f"{path} is too large ({more}more than the limit of {limit} bytes)"
