"""What is built per grammar, kept on disk between processes.

Building a grammar's LALR parser with lark, and reading its terminals,
rules, table and contextual scanners (:func:`~inputmend.grammar.lark_internals.analyse`),
takes longer than checking a small file with it: so each process would
spend most of its start-up on work whose result only changes when the
grammar does.  :func:`load_analysis` keeps that result, plain data
(:class:`~inputmend.grammar.lark_internals.Analysis`), in the user's cache
folder, ``$XDG_CACHE_HOME/inputmend/grammars`` (``~/.cache/inputmend/grammars``);
``INPUTMEND_CACHE=0`` turns it off.  With an entry there, lark is neither
built nor imported.  :func:`cached` keeps other plain results the same way:
the C loop's scanner DFAs (:mod:`~inputmend.grammar.native`), the ``re``
engine's code of the scanners' regexes (:mod:`~inputmend.grammar.lexer`),
and the ``regex`` engine's code of the terminals' and the hints' patterns
(:func:`~inputmend.grammar.patterns.compile_all`,
:mod:`~inputmend.grammar.hints`).

An entry is found by a key that hashes everything its content depends on:
the grammar's text (and, when it ``%import``\\ s, the other grammars beside
it), the start symbol, the versions of inputmend, Python and lark (lark's
installed file), the code that makes and reads entries (its files' sizes
and change times), and the entry format.  So an entry is never read by
another version, and an edited grammar gets a new one.

The cache is read only where nobody else could have written it: the
folders must be real folders owned by the user and writable by nobody
else (made 0700), an entry a regular file (not a link) of the user's,
writable by nobody else (made 0600).  A folder that fails these checks is
not used, with a one-line note on stderr, and everything works without it.
An entry is written to a temporary file in the same folder and renamed
over the old one, so a reader sees a whole entry or none; it starts with
its key, its length and a hash of its content, which are checked before
its content is decoded (:mod:`marshal` of plain tuples, strings and
numbers: never pickle) and its shape checked after; a stale, truncated or
corrupt entry is built again and replaced.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from inputmend.grammar.lark_internals import (
    Analysis,
    BnfRule,
    LalrTable,
    StateLexer,
    TableAction,
    TerminalDefinition,
)
from inputmend.grammar.registry import GrammarInfo

try:  # the hash without hashlib, whose OpenSSL start-up costs more than all of this
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

T = TypeVar("T")

FORMAT = 1
"""The entry format; part of every key."""

MAGIC = b"inputmend grammar cache\n"
SUFFIX = ".grammar"
DISABLE = "INPUTMEND_CACHE"
"""The environment variable that turns the cache off (``0``, ``off``, ``no`` or ``false``)."""

_NOTED: set[str] = set()  # notes already printed by this process
_TRUSTED: set[Path] = set()  # folders found sound by this process (only their user can change them)


def enabled() -> bool:
    """Is the cache on (see :data:`DISABLE`)?"""
    return os.environ.get(DISABLE, "1").strip().lower() not in ("0", "off", "no", "false")


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME/inputmend/grammars``, else ``~/.cache/inputmend/grammars``."""
    cache = os.environ.get("XDG_CACHE_HOME")
    base = Path(cache) if cache and Path(cache).is_absolute() else Path.home() / ".cache"
    return base / "inputmend" / "grammars"


def refusal(path: Path, *, kind: int = stat.S_IFDIR) -> str | None:
    """Why ``path`` (a folder, or a file for ``kind=stat.S_IFREG``) cannot
    be trusted, None when it can: it must be of that kind (not a link), the
    user's own and writable by nobody else."""
    info = path.lstat()
    return _refusal(path, info, kind)


def _refusal(path: Path, info: os.stat_result, kind: int) -> str | None:
    if stat.S_IFMT(info.st_mode) != kind:
        return f"{path} is not a {'folder' if kind == stat.S_IFDIR else 'regular file'}"
    if info.st_uid != os.geteuid():
        return f"{path} is owned by another user (uid {info.st_uid})"
    if info.st_mode & 0o022:
        return f"{path} is writable by other users (mode {stat.S_IMODE(info.st_mode):o})"
    return None


def _note(message: str) -> None:
    """Tell the user once per process why the cache is not used."""
    if message not in _NOTED:
        _NOTED.add(message)
        print(f"inputmend: grammar cache not used: {message}", file=sys.stderr)


def usable_folder() -> Path | None:
    """The cache folder, made if missing, when it can be trusted; None (with
    a note) when it cannot, or when the cache is off."""
    if not enabled():
        return None
    try:
        folder = cache_folder()
    except RuntimeError:  # no home folder to find it in
        _note("no home folder (set XDG_CACHE_HOME)")
        return None
    if folder in _TRUSTED:
        return folder
    try:
        for path in (folder.parent, folder):
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            reason = refusal(path)
            if reason is not None:
                _note(reason)
                return None
    except OSError as error:
        _note(f"cannot make {folder}: {error.strerror or error}")
        return None
    _TRUSTED.add(folder)
    return folder


def stamp(path: Path) -> bytes:
    """Where a file is and which version of it (its size and change time)."""
    try:
        info = path.stat()
    except OSError:
        return b"missing " + os.fsencode(path)
    return b"%s %d %d" % (os.fsencode(path), info.st_size, info.st_mtime_ns)


def _lark_stamp() -> bytes:
    """The installed lark, found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec("lark")
    origin = None if spec is None else spec.origin
    return b"no lark" if origin is None else stamp(Path(origin))


def entry_key(parts: Sequence[bytes]) -> str:
    """The key of an entry made from what ``parts`` name (with the entry
    format, the versions of inputmend and Python, and this module's code)."""
    from inputmend import __version__

    digest = blake2b(digest_size=20)
    common = [
        b"%d" % FORMAT,
        __version__.encode(),
        sys.version.encode(),
        sys.implementation.cache_tag.encode(),
        stamp(Path(__file__)),
    ]
    for part in (*common, *parts):
        digest.update(b"%d:" % len(part))
        digest.update(part)
    return digest.hexdigest()


def analysis_parts(info: GrammarInfo, text: bytes) -> list[bytes]:
    """What the analysis of grammar ``info``, whose file holds ``text``, depends on."""
    parts = [
        b"analysis",
        _lark_stamp(),
        stamp(Path(__file__).with_name("lark_internals.py")),
        info.start.encode(),
        text,
    ]
    if b"%import" in text:  # lark may read other grammars beside it
        for other in sorted(info.path.parent.glob("*.lark")):
            with contextlib.suppress(OSError):
                parts += [os.fsencode(other.name), other.read_bytes()]
    return parts


def cached(
    parts: Sequence[bytes],
    build: Callable[[], T],
    encode: Callable[[T], Any],
    decode: Callable[[Any], T],
) -> T:
    """What ``build()`` gives, from the cache when it holds a sound entry
    for ``parts`` (what it depends on), else built and stored.  ``encode``
    makes it plain data (tuples, strings, numbers, booleans, None) and
    ``decode`` makes it again, raising ValueError (or TypeError, KeyError,
    IndexError) for plain data not of its shape.  Errors of ``build`` pass
    through; the cache's own never do."""
    folder = usable_folder()
    if folder is None:
        return build()
    key = entry_key(parts)
    path = folder / (key + SUFFIX)
    plain = read_entry(path, key)
    if plain is not None:
        try:
            return decode(plain)
        except (ValueError, TypeError, KeyError, IndexError):
            pass  # built again below, and replaced
    value = build()
    write_entry(path, key, encode(value))
    return value


def load_analysis(info: GrammarInfo, build: Callable[[], Analysis]) -> Analysis:
    """The analysis of grammar ``info``: from the cache when it holds a
    sound entry for this very grammar, else ``build()``, which is then
    stored (errors of ``build`` pass through; the cache's own never do)."""
    if not enabled():
        return build()
    try:
        text = info.path.read_bytes()
    except OSError:
        return build()  # which says why the grammar cannot be read
    return cached(analysis_parts(info, text), build, to_plain, from_plain)


def read_entry(path: Path, key: str) -> Any:
    """The plain data in entry ``path`` if it is a trusted, whole entry for
    ``key``; None otherwise (a note says so when it is not trusted)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None  # no entry yet (or a link, which is never followed)
    try:
        with os.fdopen(descriptor, "rb") as entry:
            reason = _refusal(path, os.fstat(entry.fileno()), stat.S_IFREG)
            if reason is not None:
                _note(reason)
                return None
            data = entry.read()
    except OSError:
        return None
    payload = _payload(data, key)
    if payload is None:
        return None
    try:
        return marshal.loads(payload)
    except (ValueError, TypeError, EOFError):
        return None


def _payload(data: bytes, key: str) -> bytes | None:
    """The content of an entry whose header names ``key`` and matches its
    content's length and hash; None for anything else."""
    if not data.startswith(MAGIC):
        return None
    header, newline, payload = data[len(MAGIC) :].partition(b"\n")
    fields = header.split(b" ")
    if not newline or len(fields) != 3 or fields[0] != key.encode():
        return None
    if fields[1] != b"%d" % len(payload):
        return None
    if fields[2] != blake2b(payload, digest_size=32).hexdigest().encode():
        return None
    return payload


def write_entry(path: Path, key: str, plain: Any) -> bool:
    """Store ``plain`` data as entry ``path`` for ``key``, atomically (a
    temporary file beside it, renamed over it); False when it cannot be."""
    try:
        payload = marshal.dumps(plain)
    except ValueError:  # not plain data: a caller's mistake, never the user's problem
        return False
    digest = blake2b(payload, digest_size=32).hexdigest()
    data = MAGIC + f"{key} {len(payload)} {digest}\n".encode() + payload
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(temporary, flags, 0o600)
    except OSError:
        return False
    try:
        with os.fdopen(descriptor, "wb") as entry:
            entry.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        return False
    return True


# -- the analysis as plain data ----------------------------------------------------


def to_plain(analysis: Analysis) -> tuple[Any, ...]:
    """``analysis`` as tuples of strings, numbers, booleans and None."""
    lexers: dict[int, int] = {}  # id of a shared lexer -> its number
    distinct: list[tuple[Any, ...]] = []
    states = []
    for state, lexer in sorted(analysis.lexers.items()):
        number = lexers.get(id(lexer))
        if number is None:
            number = lexers[id(lexer)] = len(distinct)
            retype = tuple(sorted(lexer.retype.items()))
            distinct.append((lexer.regexes, lexer.terminals, retype))
        states.append((state, number))
    table = analysis.table
    return (
        tuple(
            (t.name, t.regexp, t.literal, tuple(sorted(t.flags)), t.max_width)
            for t in analysis.terminals
        ),
        tuple(sorted(analysis.ignored)),
        tuple((rule.origin, rule.expansion, rule.alias) for rule in analysis.rules),
        (
            table.start_state,
            table.end_state,
            tuple((state, tuple(tuple(a) for a in row)) for state, row in table.rows.items()),
        ),
        analysis.regex_flags,
        tuple(distinct),
        tuple(states),
    )


def from_plain(plain: Any) -> Analysis:
    """The :class:`Analysis` that :func:`to_plain` gave ``plain``; raises
    ValueError (or TypeError, KeyError, IndexError) where ``plain`` is not
    of that shape."""
    terminals, ignored, rules, table, regex_flags, distinct, states = _tuple(plain, 7)
    lexers = []
    for entry in _tuple(distinct):
        regexes, names, retype = _tuple(entry, 3)
        lexers.append(
            StateLexer(
                _sources(regexes),
                _strings(names),
                {_str(name): _sources(sources) for name, sources in _pairs(retype)},
            )
        )
    start_state, end_state, rows = _tuple(table, 3)
    return Analysis(
        tuple(_terminal(terminal) for terminal in _tuple(terminals)),
        frozenset(_strings(ignored)),
        tuple(
            BnfRule(_str(origin), _strings(expansion), _optional_str(alias))
            for origin, expansion, alias in (_tuple(rule, 3) for rule in _tuple(rules))
        ),
        LalrTable(
            _int(start_state),
            _int(end_state),
            {
                _int(state): tuple(_action(action) for action in _tuple(row))
                for state, row in _pairs(rows)
            },
        ),
        _int(regex_flags),
        {_int(state): lexers[_int(number)] for state, number in _pairs(states)},
    )


def _tuple(value: Any, size: int | None = None) -> tuple[Any, ...]:
    if type(value) is not tuple or (size is not None and len(value) != size):
        raise ValueError("not an entry of the expected shape")
    return value


def _pairs(value: Any) -> list[tuple[Any, Any]]:
    return [_tuple(item, 2) for item in _tuple(value)]


def _str(value: Any) -> str:
    if type(value) is not str:
        raise ValueError("not an entry of the expected shape")
    return sys.intern(value)


def _optional_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError("not an entry of the expected shape")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(_str(item) for item in _tuple(value))


def _sources(value: Any) -> tuple[tuple[str, int], ...]:
    return tuple((_str(source), _int(flags)) for source, flags in _pairs(value))


def _terminal(value: Any) -> TerminalDefinition:
    name, regexp, literal, flags, max_width = _tuple(value, 5)
    literal_text = _optional_str(literal)
    return TerminalDefinition(
        _str(name), _str(regexp), literal_text, frozenset(_strings(flags)), _int(max_width)
    )


def _action(value: Any) -> TableAction:
    symbol, shift, target = _tuple(value, 3)
    if type(shift) is not bool:
        raise ValueError("not an entry of the expected shape")
    return TableAction(_str(symbol), shift, _int(target))
