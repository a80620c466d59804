"""Who may talk to the server over TCP: the holder of a secret token.

Over stdio the server talks to the editor that started it, and nobody else.
A TCP port on 127.0.0.1 can be reached by every user of the machine, and a
client can configure a command validator that runs as the server's user.
So ``inputmend lsp --tcp PORT`` keeps a token in a file only its user can
read (:func:`token_file`, mode 0600 in a private folder), and
:class:`AdmittingProtocol` handles nothing until the client's ``initialize``
carries it as ``initializationOptions.token``: requests before that are
answered with an error, other notifications are dropped, and a wrong or
missing token closes the connection.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any

from lsprotocol import types

from inputmend.lsp.protocol import SERVER_NOT_INITIALIZED, InputmendProtocol
from inputmend.lsp.transport import Frame

TOKEN_NAME = "lsp-token"
TOKEN_BYTES = 32
INVALID_TOKEN = -32001
"""The error code answering an ``initialize`` without the right token."""


class TokenError(Exception):
    """The token file cannot be kept private; a one-line error for the user."""


def token_folder() -> Path:
    """``$XDG_RUNTIME_DIR/inputmend`` (a per-user folder that the system
    keeps private), else ``inputmend`` in the user's cache folder."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_absolute() and Path(runtime).is_dir():
        return Path(runtime) / "inputmend"
    cache = os.environ.get("XDG_CACHE_HOME")
    base = Path(cache) if cache and Path(cache).is_absolute() else Path.home() / ".cache"
    return base / "inputmend"


def _private(path: Path, kind: int) -> os.stat_result:
    """``path``'s status, when it is of ``kind``, not a link, the user's
    own and closed to everybody else; :class:`TokenError` otherwise."""
    info = path.lstat()
    if stat.S_IFMT(info.st_mode) != kind:
        raise TokenError(f"{path} is not a {'folder' if kind == stat.S_IFDIR else 'file'}")
    if info.st_uid != os.geteuid():
        raise TokenError(f"{path} is owned by another user (uid {info.st_uid})")
    if info.st_mode & 0o077:
        raise TokenError(f"{path} is open to other users (mode {stat.S_IMODE(info.st_mode):o})")
    return info


def token_file() -> tuple[Path, str]:
    """The token file and its token, made on first use.  Kept between runs,
    so that an editor's configuration can read it before it starts the server."""
    folder = token_folder()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _private(folder, stat.S_IFDIR)
        path = folder / TOKEN_NAME
        try:
            _private(path, stat.S_IFREG)
            token = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            token = ""
        if len(token) < TOKEN_BYTES:
            token = secrets.token_urlsafe(TOKEN_BYTES)
            path.unlink(missing_ok=True)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            with os.fdopen(os.open(path, flags, 0o600), "w", encoding="ascii") as out:
                out.write(token + "\n")
    except (OSError, UnicodeDecodeError) as error:
        raise TokenError(f"cannot keep the TCP token in {folder}: {error}") from None
    return path, token


def presented_token(message: Any) -> str | None:
    """The token in an ``initialize`` request's ``initializationOptions``."""
    params = message.get("params") if isinstance(message, dict) else None
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    token = options.get("token") if isinstance(options, dict) else None
    return token if isinstance(token, str) else None


class AdmittingProtocol(InputmendProtocol):
    """:class:`InputmendProtocol` that, while ``token`` is set, handles
    nothing from a client that has not presented it.  ``refused`` is set
    when the connection is to be closed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.token: str | None = None
        self.admitted = False
        self.refused = False

    def expect(self, token: str) -> None:
        """A new connection: nothing is handled until it presents ``token``."""
        self.token, self.admitted, self.refused = token, False, False

    def receive(self, frame: Frame) -> None:
        if self.token is None or self.admitted:
            super().receive(frame)
            return
        if self.refused or frame.body is None:
            return
        try:
            message = json.loads(frame.body)
        except ValueError:  # also UnicodeDecodeError
            return
        if not isinstance(message, dict):
            return
        method, message_id = message.get("method"), message.get("id")
        if method == types.INITIALIZE:
            given = presented_token(message)
            if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
                self.admitted = True
                super().receive(frame)
                return
            self.reject(message_id, INVALID_TOKEN, "initialize: wrong or missing token")
            self.refused = True
        elif method == types.EXIT:
            self.refused = True
        elif method is not None and isinstance(message_id, int | str):
            self.reject(message_id, SERVER_NOT_INITIALIZED, f"{method}: send the token first")
