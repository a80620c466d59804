"""The incremental three-way grammar oracle.

Checks texts with the incremental scan of :mod:`inputmend.grammar.scan`:
each check reuses the most similar recent scan, so a prefix check or a small
edit costs time proportional to the edit, not to the document.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from inputmend.core.oracle import Feedback, Verdict
from inputmend.grammar import registry, semantics
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.continuations import Continuations
from inputmend.grammar.history import ScanHistory
from inputmend.grammar.lexer import Token
from inputmend.grammar.scan import Scan, Scanner, Stop

if TYPE_CHECKING:
    import lark

CHECKPOINT_EVERY = 8  # tokens between two checkpoints
LAYOUT_CHECKPOINT_EVERY = 2  # the same with a layout (see IncrementalGrammarOracle)


class IncrementalGrammarOracle:
    """COMPLETE / INCOMPLETE / INCORRECT with the parse boundary, incrementally.

    ``stop`` is called every few thousand tokens of a scan and may raise to
    abandon it (budgets, cancellation).  ``checkpoint_every`` tokens between
    two checkpoints trade the memory and time of a whole scan against the
    text an edit re-reads (from the checkpoint before the edit to the one
    where it rejoins the original).  By default :data:`CHECKPOINT_EVERY`; with
    a layout :data:`LAYOUT_CHECKPOINT_EVERY`, as each token costs the layout's
    work too, and most one-character edits of an indented document stay
    valid and re-read up to a checkpoint (an invalid one stops at its error)."""

    def __init__(
        self,
        grammar: str | CompiledGrammar,
        *,
        base_dir: Path | None = None,
        checkpoint_every: int | None = None,
        history: int = 16,
        margin: int = 32,
        stop: Stop | None = None,
    ) -> None:
        if not isinstance(grammar, CompiledGrammar):
            grammar = CompiledGrammar.load(grammar, base_dir=base_dir)
        self.grammar = grammar
        if checkpoint_every is None:
            layout = grammar.layout is not None
            checkpoint_every = LAYOUT_CHECKPOINT_EVERY if layout else CHECKPOINT_EVERY
        scanner = Scanner(grammar, checkpoint_every=checkpoint_every, margin=margin)
        self._history = ScanHistory(scanner, size=history)
        self._continuations = Continuations(grammar)
        self._stop = stop

    @property
    def scanned_chars(self) -> int:
        """Characters lexed so far: shows how much work was reused."""
        return self._history.scanner.scanned_chars

    def describe(self) -> str:
        info = self.grammar.info
        return f"grammar {info.name} ({info.title}, {info.path}; incremental)"

    def close(self) -> None:
        self._history.clear()

    def check(self, text: str) -> Feedback:
        return self.scan(text).feedback

    def check_semantics(self, text: str) -> Feedback | None:
        """The grammar's loader (its header's ``semantics``), for a text it
        accepts; None when it names none or the loader is not installed."""
        loader = semantics.LOADERS.get(self.grammar.info.semantics or "")
        return loader.check(text) if loader is not None and loader.available else None

    def scan(self, text: str) -> Scan:
        """Scan ``text``, reusing the most similar recent scan when there is one."""
        return self._history.scan(text, stop=self._stop)

    def edit(self, base: Scan, start: int, end: int, insert: str) -> Scan:
        """Scan ``base.text[:start] + insert + base.text[end:]`` incrementally."""
        return self._history.scanner.edit(base, start, end, insert, stop=self._stop)

    def resume(self, text: str, base: Scan, checkpoint: int, *, shift: int, bad: list[int]) -> Scan:
        """Scan ``text`` from checkpoint ``checkpoint`` of ``base`` on, at
        offset ``base.positions[checkpoint] + shift`` of ``text``: ``text``
        agrees with ``base.text`` from the checkpoint on, not before it (an
        edit before it, of length difference ``-shift``, is left behind; the
        result's edits start at or after the checkpoint).  ``bad``: where
        ``text`` holds undecodable characters (the ``bad`` of a scan of it).
        A left-to-right repair commits its edits this way, without building
        each edited text."""
        offset = base.positions[checkpoint] + shift
        node, extra = base.stacks[checkpoint], base.extras[checkpoint]
        scanner = self._history.scanner
        return scanner.resume(text, offset, node, extra, bad=bad, stop=self._stop)

    def prefix(self, base: Scan, end: int) -> Feedback:
        """Feedback for ``base.text[:end]`` (a prefix check)."""
        return self.edit(base, end, base.length, "").feedback

    def last_token_start(self, prefix: str) -> int | None:
        """Where the last token of a valid prefix starts, or its unfinished end
        (an unterminated string) when that starts earlier; None if the prefix
        is incorrect.  A fault inside that token is often noticed only after it."""
        return _last_start(self.scan(prefix))

    def last_token_start_in(self, base: Scan, end: int) -> int | None:
        """:meth:`last_token_start` of ``base.text[:end]``, read from the
        checkpoint of ``base`` before ``end`` (the prefix is not built: many
        looks into one large text cost the tokens before each, not the text)."""
        return _last_start(self.edit(base, end, base.length, ""))

    def continuations(self, prefix: str, alphabet: str, *, distinct: bool = False) -> str:
        """The characters of ``alphabet`` that can follow ``prefix`` without making
        it incorrect there (see :class:`~inputmend.grammar.continuations.Continuations`);
        none when ``prefix`` is incorrect."""
        scan = self.scan(prefix)
        if scan.feedback.verdict is Verdict.INCORRECT or scan.end is None:
            return ""
        probe = None
        if self.grammar.layout is not None:
            size = len(prefix)

            def probe(char: str) -> bool:
                return self.edit(scan, size, size, char).feedback.verdict is not Verdict.INCORRECT

        return self._continuations(prefix, scan.end, alphabet, distinct=distinct, probe=probe)

    def completion(self, prefix: str) -> str | None:
        """The shortest text that makes a valid prefix complete, computed from
        the parser's stack at its end (see :mod:`~inputmend.grammar.completion`):
        ``""`` when it is complete already, None when it is incorrect or
        cannot be completed."""
        scan = self.scan(prefix)
        verdict = scan.feedback.verdict
        if verdict is Verdict.COMPLETE:
            return ""
        if verdict is Verdict.INCORRECT or scan.end is None:
            return None
        completer = self.grammar.completer
        return None if completer is None else completer.complete(prefix, scan.end)

    def tokens(self, text: str) -> list[Token]:
        """The tokens lark's contextual lexer produces, up to the first error."""
        return self._history.scanner.tokens(text, stop=self._stop)

    def tree(self, text: str, *, keep_all_tokens: bool = False) -> lark.Tree[Any] | None:
        """lark's derivation tree (with positions) of a valid text, else ``None``
        (also for a grammar with a layout: lark cannot parse it alone)."""
        if self.grammar.layout is not None or not self.check(text).valid:
            return None
        parser = registry.build_parser(self.grammar.info, keep_all_tokens=keep_all_tokens)
        tree: lark.Tree[Any] = parser.parse(text)
        return tree


def _last_start(scan: Scan) -> int | None:
    """Where the last token of a scanned valid prefix starts (see
    :meth:`IncrementalGrammarOracle.last_token_start`)."""
    if scan.feedback.verdict is Verdict.INCORRECT or scan.end is None:
        return None
    end = scan.end
    return min(end.last_start, end.position) if end.last_end > end.last_start else end.position
