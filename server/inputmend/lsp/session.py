"""The open documents and everything known about each version of them.

A :class:`Snapshot` is immutable: one version of one document under one
oracle configuration, with the results found for it so far.  Results are
added by swapping in a new snapshot (:meth:`Session.update`), and only while
the snapshot they were computed from is still the current one: a result for
an older version or configuration is dropped by one comparison of
*revisions*.  An edit or a new configuration starts a new revision with no
results, so nothing has to be reset by hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from inputmend import services
from inputmend.config.discovery import settings_for
from inputmend.config.schema import NoOracleError, OracleSpec
from inputmend.config.trust import Trust, grammar_file, grammar_inside, is_inside
from inputmend.core.model import Repair, Span
from inputmend.core.oracle import Feedback, Oracle, OracleConfigError
from inputmend.core.text import LineIndex
from inputmend.lsp.settings import ServerSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Note:
    """An information diagnostic at the start of the document."""

    code: str
    message: str


@dataclass(frozen=True)
class OracleSetup:
    """How one document is judged: the whole oracle's spec (grammar and
    validators), the in-process grammar oracle for the fast check, notes on
    what was left out, the settings it was decided with, and the grammar's
    check of the rules that are not syntax (a name in
    :data:`inputmend.grammar.semantics.LOADERS`)."""

    spec: OracleSpec | None = None
    fast_oracle: Oracle | None = None
    notes: tuple[Note, ...] = ()
    settings: ServerSettings = field(default_factory=ServerSettings)
    semantics: str | None = None

    def same_analysis(self, other: OracleSetup) -> bool:
        """Would ``other`` compute the same results? (Settings that only say
        when or whether to run, such as the debounce, do not count.)"""

        def computing(settings: ServerSettings) -> ServerSettings:
            return replace(settings, on_save="suggest", debounce_ms=1)

        return (
            self.spec == other.spec
            and self.notes == other.notes
            and computing(self.settings) == computing(other.settings)
        )


def workspace_of(path: Path, folders: Sequence[Path]) -> Path | None:
    """The open workspace folder that holds ``path`` (the innermost), if any."""
    holding = [folder for folder in folders if is_inside(path, folder)]
    return max(holding, key=lambda folder: len(folder.parts), default=None)


def _grammar_outside(spec: OracleSpec, config: Path, folders: Sequence[Path]) -> str | None:
    """Why a configuration file's grammar may not be read, if it may not."""
    allowed = workspace_of(config, folders) or config.parent
    if grammar_inside(spec, allowed):
        return None
    return f"{config}: the grammar {spec.grammar} lies outside {allowed}; it was not read"


def _client_spec(
    spec: OracleSpec, path: Path, settings: ServerSettings, workspace: Path | None
) -> tuple[OracleSpec | None, list[Note]]:
    """A client-settings oracle as it may run, and notes on what was left out.

    In a trusted workspace (the user setting ``trustWorkspaceCommands``), as
    configured.  Otherwise the workspace provides no code and no outside
    file: a grammar must lie inside the workspace folder (the document's
    folder when it is in none), and a validator whose program or Python file
    is a relative path (the workspace's own file) does not run; the others
    run with nothing resolved against the workspace."""
    if settings.trust_workspace_commands:
        return spec, []
    allowed = workspace or path.parent
    if not grammar_inside(spec, allowed):
        why = f"the grammar {spec.grammar} from the client settings lies outside {allowed}"
        return None, [Note("configuration", f"{why}; it was not read")]
    grammar = grammar_file(spec)
    if grammar is not None:
        spec = replace(spec, grammar=str(grammar))  # found without the base folder
    code = services.relative_code(spec) if workspace is not None else None
    if code is None:
        return replace(spec, base_dir=None), []
    note = Note(
        "untrusted-validator",
        f"the validator {code} from the client settings was not run: it is a path in "
        f"the workspace {workspace}, which runs only when the user setting "
        "inputmend.trustWorkspaceCommands is true",
    )
    grammar_only = replace(spec.grammar_only(), base_dir=None)
    return (grammar_only if grammar_only.grammar is not None else None), [note]


def workspace_trust(settings: ServerSettings, folders: Sequence[Path]) -> Trust:
    """The server's trust: configuration files inside the open workspace
    folders, and only when the user allowed workspace commands."""
    refusal = (
        None
        if settings.trust_workspace_commands
        else "external commands run only when the user setting "
        "inputmend.trustWorkspaceCommands is true"
    )
    return Trust(tuple(folders), where="the open workspace folders", refusal=refusal)


def oracle_setup(path: Path, settings: ServerSettings, folders: Sequence[Path]) -> OracleSetup:
    """Decide a document's oracle from the client's settings (relative paths
    start at the workspace folder holding the document), the workspace's
    ``.inputmend.toml`` (its validators only when trusted, its grammar only
    from inside the workspace) and the extension."""
    decided = _decide(path, settings, folders)
    return replace(decided, settings=settings)


def _decide(path: Path, settings: ServerSettings, folders: Sequence[Path]) -> OracleSetup:
    notes: list[Note] = []
    try:
        workspace = workspace_of(path, folders)
        spec = settings.oracle_for(path, workspace)
        if spec is not None:
            spec, notes = _client_spec(spec, path, settings, workspace)
            if spec is None:
                return OracleSetup(notes=tuple(notes))
        else:
            found = settings_for(path, trust=workspace_trust(settings, folders))
            if found.warning is not None:
                notes.append(Note("untrusted-validator", found.warning))
            spec = found.spec
            if found.config is not None:
                outside = _grammar_outside(spec, found.config, folders)
                if outside is not None:
                    return OracleSetup(notes=(*notes, Note("configuration", outside)))
        spec = replace(spec, test_timeout_s=min(spec.test_timeout_s, settings.test_timeout_s))
        fast = services.build_oracle(spec.grammar_only(), loader=False) if spec.grammar else None
        grammar = services.grammar_check(fast)
        semantics = grammar.grammar.info.semantics if grammar is not None else None
        return OracleSetup(spec, fast, tuple(notes), semantics=semantics)
    except NoOracleError as error:
        if error.warning is not None:
            notes.append(Note("untrusted-validator", error.warning))
        return OracleSetup(notes=tuple(notes))
    except OracleConfigError as error:
        return OracleSetup(notes=(*notes, Note("configuration", str(error))))


@dataclass(frozen=True, eq=False)
class Version:
    """One version of a document's text."""

    uri: str
    path: Path
    number: int
    text: str
    lines: LineIndex | None = field(default=None, repr=False)
    """The index of ``text`` when it is known already (derived from the
    previous version's by the changes that made this one)."""

    @cached_property
    def index(self) -> LineIndex:
        """Line starts, computed once per version (not at all when known:
        finding a 50 MB text's line starts takes a while)."""
        if self.lines is not None and self.lines.text is self.text:
            return self.lines
        return LineIndex(self.text)


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One version of a document, its oracle setup, and the results so far."""

    document: Version
    setup: OracleSetup
    revision: int
    fast: Feedback | None = None
    semantic: Feedback | None = None  # the grammar's semantics check, on a valid text
    validator: Feedback | None = None
    validator_error: str | None = None
    spans: tuple[Span, ...] = ()
    repairs: tuple[Repair, ...] | None = None  # None: not computed (yet)
    final: bool = False  # ``repairs`` is the final ranked list (else quick ones)
    background_note: str | None = None
    explanation: str | None = None
    analysed: bool = False  # the background analysis of this revision is over
    after_valid: bool = False
    """This version was made by an edit of a text the grammar accepted: an
    error in it is the first since valid text (its repairs are wanted at once)."""

    @property
    def uri(self) -> str:
        return self.document.uri

    @property
    def version(self) -> int:
        return self.document.number

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def index(self) -> LineIndex:
        return self.document.index

    @property
    def spec(self) -> OracleSpec | None:
        return self.setup.spec

    @property
    def has_validator(self) -> bool:
        return self.spec is not None and self.spec.has_validator

    @property
    def invalid(self) -> bool:
        if self.fast is not None and not self.fast.valid:
            return True
        return self.validator is not None and not self.validator.valid


@dataclass
class Session:
    """The open documents (their current snapshots), the settings, the
    workspace root and the open workspace folders."""

    settings: ServerSettings = field(default_factory=ServerSettings)
    root: Path | None = None
    folders: tuple[Path, ...] = ()
    snapshots: dict[str, Snapshot] = field(default_factory=dict)
    _revisions: int = 0
    _swapped: asyncio.Event | None = None

    def get(self, uri: str) -> Snapshot | None:
        return self.snapshots.get(uri)

    def _store(self, snapshot: Snapshot) -> Snapshot:
        self.snapshots[snapshot.uri] = snapshot
        if self._swapped is not None:
            self._swapped.set()
            self._swapped = None
        return snapshot

    def _fresh(
        self, document: Version, setup: OracleSetup, *, after_valid: bool = False
    ) -> Snapshot:
        self._revisions += 1
        return self._store(Snapshot(document, setup, self._revisions, after_valid=after_valid))

    def open(self, uri: str, path: Path, version: int, text: str) -> Snapshot:
        setup = oracle_setup(path, self.settings, self.folders)
        return self._fresh(Version(uri, path, version, text), setup)

    def change(
        self, uri: str, version: int, text: str, *, index: LineIndex | None = None
    ) -> Snapshot | None:
        """A new version of an open document (same oracle, no results yet);
        ``index``: the index of ``text``, when known."""
        current = self.snapshots.get(uri)
        if current is None:
            return None
        document = Version(uri, current.document.path, version, text, index)
        accepted = current.fast is not None and current.fast.valid
        return self._fresh(document, current.setup, after_valid=accepted)

    def reconfigure(self, uri: str) -> Snapshot | None:
        """The document's oracle decided again (settings or configuration
        files changed): a new revision, or None when nothing it computes
        would change (its results stay)."""
        current = self.snapshots.get(uri)
        if current is None:
            return None
        setup = oracle_setup(current.document.path, self.settings, self.folders)
        if setup.same_analysis(current.setup):
            return None
        return self._fresh(current.document, setup)

    def close(self, uri: str) -> Snapshot | None:
        return self.snapshots.pop(uri, None)

    def is_current(self, snapshot: Snapshot) -> bool:
        """Is ``snapshot`` of the document's current version and configuration?"""
        current = self.snapshots.get(snapshot.uri)
        return current is not None and current.revision == snapshot.revision

    def update(self, snapshot: Snapshot, **results: Any) -> Snapshot | None:
        """The current snapshot with ``results`` added; None (and nothing
        changes) when ``snapshot`` is stale."""
        if not self.is_current(snapshot):
            return None
        return self._store(replace(self.snapshots[snapshot.uri], **results))

    async def wait_for(
        self, uri: str, condition: Callable[[Snapshot], bool], timeout: float
    ) -> Snapshot | None:
        """The document's snapshot once ``condition`` holds for it (it may be a
        later version than now); None if the document is closed or the
        timeout passes first."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            snapshot = self.snapshots.get(uri)
            if snapshot is None:
                return None
            if condition(snapshot):
                return snapshot
            if self._swapped is None:
                self._swapped = asyncio.Event()
            try:
                await asyncio.wait_for(self._swapped.wait(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                return None
