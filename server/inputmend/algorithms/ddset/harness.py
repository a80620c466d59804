"""Running the predicate for DDSET: grammar check first, cache by text, budget meter.

An instance the grammar rejects is UNRESOLVED without running the predicate
(and costs no test).  Every other distinct text runs the predicate once and is
charged to the :class:`Meter`, which raises ``BudgetExhausted`` when the
budget is used up."""

from __future__ import annotations

from inputmend.algorithms.ddset.model import GrammarModel
from inputmend.core.budget import Meter
from inputmend.core.oracle import Outcome, Predicate
from inputmend.grammar.trees import DerivationNode as Node
from inputmend.grammar.trees import Layout


class Tester:
    """The one place where DDSET runs the predicate."""

    def __init__(
        self, predicate: Predicate, model: GrammarModel, layout: Layout, meter: Meter
    ) -> None:
        self.predicate = predicate
        self.model = model
        self.layout = layout
        self.meter = meter
        self.cache: dict[str, Outcome] = {}
        self.rejected = 0
        self.cache_hits = 0

    @property
    def tests(self) -> int:
        return self.meter.tests

    def run(self, text: str, *, check_grammar: bool = True) -> Outcome:
        """The predicate's outcome for ``text`` (cached; UNRESOLVED outside the grammar)."""
        known = self.cache.get(text)
        if known is not None:
            self.cache_hits += 1
            return known
        if check_grammar and not self.model.accepts(text):
            self.rejected += 1
            self.cache[text] = Outcome.UNRESOLVED
            return Outcome.UNRESOLVED
        self.meter.charge()
        outcome = self.predicate(text)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"the predicate must return an Outcome, got {outcome!r}")
        self.cache[text] = outcome
        return outcome

    def text_of(self, tree: Node) -> str | None:
        """The text of a tree, or None when neither spacing parses."""
        text = self.layout.render(tree)
        if text in self.cache or self.model.accepts(text):
            return text
        spaced = self.layout.render(tree, spaced=True)
        if spaced != text and (spaced in self.cache or self.model.accepts(spaced)):
            return spaced
        return None

    def run_tree(self, tree: Node) -> tuple[str, Outcome]:
        """Render ``tree`` (retrying with spaces between tokens if needed) and test it."""
        text = self.text_of(tree)
        if text is None:
            self.rejected += 1
            return self.layout.render(tree), Outcome.UNRESOLVED
        return text, self.run(text, check_grammar=False)
