"""Registry of the bundled lark grammars and loader for user grammars.

Bundled grammars are ``grammars/NAME.lark`` in the source tree, installed as
package data under ``inputmend/data/grammars``.  Each file starts with a
comment header; these lines of it are read here::

    // title: JSON with comments (JSONC, as VS Code reads it)
    // extensions: .jsonc
    // files: tsconfig.json .vscode/*.json *.code-workspace
    // start: start
    // semantics: tomllib
    // accept: json
    // layout: yaml
    // check: match open=TAG_OPEN close=END_TAG_OPEN end=EMPTY_TAG_END

``files`` names files by glob (a glob without ``/`` matches the file name, one
with ``/`` the end of the path): a file named so gets this grammar even when
its extension belongs to another one (``tsconfig.json`` is JSONC, not JSON).
``semantics`` names the format's own loader, from
:data:`inputmend.grammar.semantics.LOADERS`: every oracle built for the
grammar asks it once the grammar accepts a text.
``accept`` names a fast accept check, from
:data:`inputmend.grammar.accept.ACCEPT_CHECKS`: texts it accepts the grammar
accepts for sure (only a bundled grammar's is used, see
:func:`inputmend.grammar.accept.accept_check`).
``layout`` names a post-lexer (:mod:`inputmend.grammar.layouts`) and each
``check`` line a check beside the parser (:mod:`inputmend.grammar.checks`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar.accept import ACCEPT_CHECKS
from inputmend.grammar.semantics import LOADERS
from inputmend.grammar.small_files import read_small_text

if TYPE_CHECKING:
    import lark

_HEADER_FIELD = re.compile(
    r"^//\s*(title|extensions|files|start|semantics|accept|layout|check)\s*:\s*(.*?)\s*$"
)


@dataclass(frozen=True)
class GrammarInfo:
    """A grammar file and what its header says about it."""

    name: str
    path: Path
    title: str
    extensions: tuple[str, ...]
    start: str = "start"
    files: tuple[str, ...] = ()  # file-name globs (``tsconfig.json``, ``.vscode/*.json``)
    semantics: str | None = None  # a key of ``inputmend.grammar.semantics.LOADERS``
    accept: str | None = None  # a key of ``inputmend.grammar.accept.ACCEPT_CHECKS``
    layout: str | None = None  # a post-lexer, see ``inputmend.grammar.layouts``
    checks: tuple[str, ...] = ()  # checks beside the parser, see ``inputmend.grammar.checks``

    def names(self, path: str | Path) -> bool:
        """Does one of :attr:`files` name this file?"""
        parts = PurePath(path).parts
        for glob in self.files:
            pieces = glob.strip("/").split("/")
            if len(pieces) <= len(parts) and all(
                fnmatchcase(part, piece)
                for part, piece in zip(parts[-len(pieces) :], pieces, strict=True)
            ):
                return True
        return False


def grammar_dirs() -> list[Path]:
    """Where bundled grammars live: installed package data, then the source tree."""
    package = Path(__file__).resolve().parents[1]
    return [package / "data" / "grammars", package.parents[1] / "grammars"]


def read_info(path: Path, name: str | None = None) -> GrammarInfo:
    """Parse the header comment of a ``.lark`` file."""
    fields: dict[str, str] = {}
    checks: list[str] = []
    try:
        text = read_small_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise OracleConfigError(f"cannot read grammar {path}: {error}") from None
    for line in text.splitlines():
        if not line.startswith("//"):
            if line.strip():
                break
            continue
        match = _HEADER_FIELD.match(line.strip())
        if match and match.group(1) == "check":
            checks.append(match.group(2))
        elif match and match.group(1) not in fields:
            fields[match.group(1)] = match.group(2)
    extensions = tuple(
        ext if ext.startswith(".") else "." + ext for ext in fields.get("extensions", "").split()
    )
    stem = name or path.stem
    semantics = fields.get("semantics") or None
    if semantics is not None and semantics not in LOADERS:
        known = ", ".join(sorted(LOADERS))
        raise OracleConfigError(f"{path}: unknown semantics {semantics!r} (known: {known})")
    accept = fields.get("accept") or None
    if accept is not None and accept not in ACCEPT_CHECKS:
        known = ", ".join(sorted(ACCEPT_CHECKS))
        raise OracleConfigError(f"{path}: unknown accept check {accept!r} (known: {known})")
    return GrammarInfo(
        name=stem,
        path=path,
        title=fields.get("title", stem),
        extensions=tuple(ext.lower() for ext in extensions),
        start=fields.get("start", "start") or "start",
        files=tuple(fields.get("files", "").split()),
        semantics=semantics,
        accept=accept,
        layout=fields.get("layout") or None,
        checks=tuple(checks),
    )


@functools.cache
def bundled() -> dict[str, GrammarInfo]:
    """All bundled grammars by name (first directory that has any wins)."""
    for directory in grammar_dirs():
        files = sorted(directory.glob("*.lark")) if directory.is_dir() else []
        if files:
            return {path.stem: read_info(path) for path in files}
    return {}


def for_extension(filename: str | Path) -> GrammarInfo | None:
    """The bundled grammar mapped to a file's extension, if any."""
    suffix = Path(filename).suffix.lower()
    if not suffix:
        return None
    for info in bundled().values():
        if suffix in info.extensions:
            return info
    return None


def for_path(path: str | Path) -> GrammarInfo | None:
    """The bundled grammar for a file: one whose ``files`` globs name it, else
    the one mapped to its extension."""
    for info in bundled().values():
        if info.names(path):
            return info
    return for_extension(path)


def resolve(name_or_path: str, *, base_dir: Path | None = None) -> GrammarInfo:
    """Find a grammar by bundled name or by path to a ``.lark`` file."""
    grammars = bundled()
    if name_or_path in grammars:
        return grammars[name_or_path]
    candidate = Path(name_or_path).expanduser()
    if base_dir is not None and not candidate.is_absolute():
        candidate = base_dir / candidate
    if candidate.suffix == ".lark" or candidate.exists():
        if not candidate.is_file():
            raise OracleConfigError(f"grammar file not found: {candidate}")
        return read_info(candidate.resolve())
    known = ", ".join(sorted(grammars)) or "none installed"
    raise OracleConfigError(f"unknown grammar {name_or_path!r} (bundled: {known})")


def build_parser(info: GrammarInfo, *, keep_all_tokens: bool = False) -> lark.Lark:
    """Build (and cache) the LALR parser of a grammar, with a clear error on failure.

    ``keep_all_tokens`` keeps anonymous tokens (punctuation) in trees, as
    derivation-tree algorithms need."""
    try:
        mtime = info.path.stat().st_mtime_ns
    except OSError as error:
        raise OracleConfigError(f"cannot read grammar {info.path}: {error.strerror}") from None
    return _build_parser(str(info.path), mtime, info.start, keep_all_tokens)


@functools.lru_cache(maxsize=32)
def _build_parser(path: str, mtime: int, start: str, keep_all_tokens: bool) -> lark.Lark:
    del mtime  # part of the cache key only: an edited grammar is rebuilt
    import lark  # here: a grammar found in the cache needs no lark
    from lark.exceptions import GrammarError

    try:
        text = read_small_text(Path(path))
    except (OSError, UnicodeDecodeError) as error:
        raise OracleConfigError(f"cannot read grammar {path}: {error}") from None
    try:
        return lark.Lark(
            text,
            parser="lalr",
            lexer="contextual",
            start=start,
            propagate_positions=True,
            maybe_placeholders=False,
            keep_all_tokens=keep_all_tokens,
            import_paths=[str(Path(path).parent)],
        )
    except GrammarError as error:
        detail = " ".join(str(error).split())
        if "collision" in detail or "conflict" in detail.lower():
            raise OracleConfigError(
                f"grammar {path} cannot be built as an LALR(1) parser: {detail}"
            ) from None
        raise OracleConfigError(f"grammar {path} is not a valid lark grammar: {detail}") from None
    except (lark.exceptions.LarkError, ValueError, KeyError, re.error) as error:
        detail = " ".join(str(error).split())
        raise OracleConfigError(f"grammar {path} is not a valid lark grammar: {detail}") from None
