"""Recent scans, and how to check any text by editing the most similar one."""

from __future__ import annotations

from collections import deque

from inputmend.core.oracle import Verdict
from inputmend.core.text import common_prefix, common_suffix
from inputmend.grammar.scan import Scan, Scanner, Stop

CANDIDATES = 6  # recent scans compared with a new text
SHORT_TEXT = 512
"""A text this short is scanned anew unless one of the latest scans read
it: ordering the recent scans, comparing with them and editing one costs
more than the scan itself (about 95 us against 22 us for 200 characters of
JSON with the C scan loop)."""
ERROR_REACH = 64
"""Characters after an edit within which a base's error may be the one the
edit repairs."""


class ScanHistory:
    """The latest scans (and the latest full scans) of a :class:`Scanner`.

    :meth:`scan` accepts any text: it finds the most similar known scan,
    derives the edit from the common prefix and suffix, and scans only that."""

    def __init__(self, scanner: Scanner, *, size: int) -> None:
        self.scanner = scanner
        self._recent: deque[Scan] = deque(maxlen=size)
        # the text of each of ``_recent`` that is short (``None`` for the
        # others), in step with it: a short text is looked for among them at
        # C speed (a search's candidates are mostly of one length)
        self._texts: deque[str | None] = deque(maxlen=size)
        self._roots: deque[Scan] = deque(maxlen=4)  # full scans
        self._whole: deque[Scan] = deque(maxlen=2)  # valid texts: checkpoints to the end

    def scan(self, text: str, *, stop: Stop | None = None) -> Scan:
        """Scan ``text``, reusing the most similar recent scan when there is one."""
        base, prefix, suffix = self._choose_base(text)
        if base is None:
            scan = self.scanner.fresh(text, stop=stop)
            self._roots.append(scan)
        elif prefix == len(text) == base.length:
            scan = base
        else:
            insert = text[prefix : len(text) - suffix]
            scan = self.scanner.edit(base, prefix, base.length - suffix, insert, stop=stop)
            scan.know_text(text)
        if not self._recent or self._recent[-1] is not scan:
            self._recent.append(scan)
            self._texts.append(text if len(text) <= SHORT_TEXT else None)
        if scan.feedback.valid and (not self._whole or self._whole[-1] is not scan):
            self._whole.append(scan)
        return scan

    def clear(self) -> None:
        self._recent.clear()
        self._texts.clear()
        self._roots.clear()
        self._whole.clear()
        self.scanner.clear()

    def _candidates(self) -> list[Scan]:
        """Bases to compare with, most promising first: the latest scans, then
        the latest valid texts (complete, with checkpoints to the end: the
        repairs of one input rejoin them after their edit, and an editor's
        last valid version is the one a corrupting edit came from), then the
        full scans, then the rest.  The valid texts come before the full
        scans: a search's fresh scans of short texts (a piece of the input
        read alone) would otherwise crowd them out of the few compared, and
        each candidate repair would read the rest of a long text anew."""
        recent, roots = self._recent, self._roots
        ordered = [recent[-1]] if recent else []
        if len(recent) > 1 and recent[-2] is not ordered[0]:
            ordered.append(recent[-2])
        for group in (self._whole, roots, recent):
            for index in range(len(group) - 1, -1, -1):
                if len(ordered) == CANDIDATES:
                    return ordered
                scan = group[index]
                if all(scan is not other for other in ordered):
                    ordered.append(scan)
        return ordered

    def _choose_base(self, text: str) -> tuple[Scan | None, int, int]:
        """The recent scan that makes checking ``text`` cheapest, with the common
        prefix and suffix lengths."""
        best: tuple[Scan | None, int, int] = (None, 0, 0)
        if len(text) <= SHORT_TEXT:  # only a scan of the same text is worth finding
            texts = self._texts
            if text in texts:  # the latest of the recent scans of it
                for index in range(len(texts) - 1, -1, -1):
                    if texts[index] == text:
                        return self._recent[index], len(text), 0
            return best
        candidates = self._candidates()
        for scan in candidates:
            if scan.length == len(text) and scan.text == text:
                return scan, len(text), 0
        best_cost = len(text) + 1
        good_enough = max(64, len(text) // 100)
        for scan in candidates:
            if abs(scan.length - len(text)) >= best_cost:
                continue
            base = scan.text
            prefix = common_prefix(base, text)
            suffix = common_suffix(base, text, min(len(base), len(text)) - prefix)
            cost = len(text) - prefix - suffix  # characters the base does not have
            stopped = scan.feedback.error_offset
            if (
                scan.feedback.verdict is Verdict.INCORRECT
                and stopped is not None
                and stopped < scan.length - suffix + ERROR_REACH
            ):
                # no checkpoints past the base's error to rejoin: an edit that
                # ends at the error or just before it may repair it, and the
                # rest must then be read anew
                cost = len(text) - prefix
            if cost < best_cost and prefix + suffix > 0:
                best, best_cost = (scan, prefix, suffix), cost
                if cost <= good_enough:
                    break
        return best
