"""Syntactic ddmax (Kirschner et al., ICSE 2020, Section 4) and the hybrid.

Syntactic ddmax runs the :func:`~inputmend.algorithms.ddmax.ddmax` core over
the *lexical units* (terminal tokens) of the corrupt input instead of its
characters, so it needs far fewer tests and never keeps half a token.

Units and layout.  The caller gives the token spans in order.  The text
*between* two spans is layout (whitespace and comments, i.e. what the grammar
ignores) and is attached to the token that *follows* it: unit ``i`` is
``text[end(i-1):end(i)]``.  So

* the layout between two kept tokens that were neighbours in the input stays
  exactly as it was, and a kept token keeps the layout in front of it (its
  line break and indentation), which is what makes removed lines disappear
  cleanly: dropping ``, "price" 3.45`` from ``{ "item": "Apple", "price" 3.45 }``
  gives ``{ "item": "Apple" }`` (the paper's Figure 10), not
  ``{ "item": "Apple"   }``;
* layout after the last token (e.g. the final newline) is always kept;
* a comment goes with the token after it.

When no passing subset is found (budget used up first), the result is the
input itself with ``valid=False``, never an empty text.

Junk (characters no terminal matches, undecodable bytes) must be a unit of
its own so that it can be removed: :func:`~inputmend.grammar.lexer.lex_tokens`
and :func:`~inputmend.grammar.recovery.recovery_units` emit every such
character as a one-character span.  Callers with their own tokenizer must do
the same; text between spans is never removed except with the token after it.

The *hybrid* (the paper's proposed future work) then runs lexical ddmax on the
characters of the units that syntactic ddmax removed, with everything it kept
fixed, to win back characters of faulty units (``**3.45`` -> ``3.45``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from inputmend.algorithms.configurations import (
    EMPTY,
    Ranges,
    assemble_text,
    count,
    difference,
    normalize,
    whole,
)
from inputmend.algorithms.ddmax import MaximizedText, ddmax
from inputmend.algorithms.segmentation import Segmentation
from inputmend.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter, RunStats
from inputmend.core.model import Repair, Span, spans_to_edits
from inputmend.core.oracle import Oracle, Outcome
from inputmend.oracles.wrappers import metered

Spans = Sequence[tuple[int, int]]


@dataclass(frozen=True)
class TokenMaximized(MaximizedText):
    """ddmax over tokens: what was kept and removed (character ranges)."""

    algorithm: str = "ddmax-syntactic"
    units: int = 0
    input_valid: bool = False

    def to_repair(self) -> Repair:
        """The result as a (deletions only) repair of the input."""
        edits = spans_to_edits(Span(start, end) for start, end in self.removed)
        return Repair(
            text=self.text,
            edits=edits,
            algorithm=self.algorithm,
            valid=self.valid,
            distance=count(self.removed),
        )


def _units(text: str, tokens: Spans) -> tuple[list[int], int]:
    """Unit bounds (each unit: layout before a token, then the token) and where
    the always-kept tail starts."""
    bounds = [0]
    previous = 0
    for start, end in tokens:
        if not (previous <= start <= end <= len(text)):
            raise ValueError(f"token spans must be ordered, disjoint and in the text: {start, end}")
        if end > start:
            bounds.append(end)
            previous = end
    return bounds, previous


# -- syntactic ddmax ----------------------------------------------------------


def _maximize(
    size: int, test: Callable[[Ranges], Outcome], meter: Meter, *, base_passes: bool
) -> tuple[Ranges, bool]:
    kept, known = ddmax(size, test, meter=meter)
    if not known and not kept and base_passes:
        return kept, True
    if not known:
        try:
            known = test(kept) is Outcome.PASS
        except BudgetExhausted:
            known = False
    return kept, known


def syntactic_ddmax(
    text: str,
    oracle: Oracle,
    *,
    tokens: Spans,
    budget: Budget = UNLIMITED,
) -> TokenMaximized:
    """Remove a 1-minimal set of tokens (with the layout in front of each) so
    that the oracle accepts the rest; the layout is never rewritten."""
    bounds, tail_start = _units(text, tokens)
    segments = Segmentation(text[:tail_start], bounds)
    tail = text[tail_start:]
    checked, meter = metered(oracle, budget)

    def test(ranges: Ranges) -> Outcome:
        return checked.check(segments.assemble(ranges) + tail).outcome

    everything = whole(len(text))
    try:
        valid = test(whole(segments.size)) is Outcome.PASS
    except BudgetExhausted:
        return TokenMaximized(
            text, everything, EMPTY, False, RunStats.of(meter), units=segments.size
        )
    if valid:
        stats = RunStats.of(meter)
        return TokenMaximized(
            text, everything, EMPTY, True, stats, units=segments.size, input_valid=True
        )
    kept, known = _maximize(segments.size, test, meter, base_passes=False)
    if not known:  # nothing passing found (budget): the input, marked invalid
        return TokenMaximized(
            text, everything, EMPTY, False, RunStats.of(meter), units=segments.size
        )
    kept_chars = normalize([*segments.offsets(kept), (tail_start, len(text))])
    return TokenMaximized(
        text=assemble_text(text, kept_chars),
        kept=kept_chars,
        removed=difference(whole(len(text)), kept_chars),
        valid=known,
        stats=RunStats.of(meter),
        algorithm="ddmax-syntactic",
        units=segments.size,
    )


def _element_ranges_to_chars(starts: list[int], pieces: Ranges, ranges: Ranges) -> Ranges:
    """Map ranges over the concatenated characters of ``pieces`` back to text offsets.

    ``starts[i]`` is the element index where ``pieces[i]`` begins."""
    chars: list[tuple[int, int]] = []
    for low, high in ranges:
        index = bisect.bisect_right(starts, low) - 1
        while low < high:
            piece_start, piece_end = pieces[index]
            offset = piece_start + (low - starts[index])
            take = min(high - low, piece_end - offset)
            chars.append((offset, offset + take))
            low += take
            index += 1
    return normalize(chars)


def hybrid_ddmax(
    text: str,
    oracle: Oracle,
    *,
    tokens: Spans,
    budget: Budget = UNLIMITED,
    lexical_runs: Callable[[TokenMaximized], int | None] = lambda first: None,
) -> TokenMaximized:
    """Syntactic ddmax, then lexical ddmax on the characters of the removed
    units (everything syntactic ddmax kept stays), sharing one budget.
    ``lexical_runs`` is asked with the syntactic result how many oracle runs
    the lexical phase may use at most (None: what the budget leaves); the
    lexical phase can be quadratic in the characters removed."""
    first = syntactic_ddmax(text, oracle, tokens=tokens, budget=budget)
    if first.input_valid or not first.removed or first.stats.budget_exhausted:
        return replace(first, algorithm="ddmax-hybrid")
    rest = budget.after(first.stats)
    most = lexical_runs(first)
    if most is not None and (rest.max_tests is None or most < rest.max_tests):
        rest = replace(rest, max_tests=most)
    checked, meter = metered(oracle, rest)
    pieces = first.removed
    starts: list[int] = []
    size = 0
    for start, end in pieces:
        starts.append(size)
        size += end - start

    def chars_of(ranges: Ranges) -> Ranges:
        return normalize([*first.kept, *_element_ranges_to_chars(starts, pieces, ranges)])

    def test(ranges: Ranges) -> Outcome:
        return checked.check(assemble_text(text, chars_of(ranges))).outcome

    kept, known = _maximize(size, test, meter, base_passes=first.valid)
    if not known:
        return replace(first, algorithm="ddmax-hybrid", stats=first.stats + RunStats.of(meter))
    kept_chars = chars_of(kept)
    return TokenMaximized(
        text=assemble_text(text, kept_chars),
        kept=kept_chars,
        removed=difference(whole(len(text)), kept_chars),
        valid=known,
        stats=first.stats + RunStats.of(meter),
        algorithm="ddmax-hybrid",
        units=first.units,
    )
