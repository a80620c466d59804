"""A format's own loader as an oracle: the last word after its grammar.

:func:`~inputmend.oracles.factory.build_oracle` puts a :class:`LoaderOracle`
right after the grammar of a format that names a loader
(:mod:`inputmend.grammar.semantics`), inside one
:class:`~inputmend.oracles.wrappers.AllOf`: the grammar answers first and
knows the parse boundary, so the loader sees only texts the grammar accepts
and never a prefix the grammar calls unfinished.  What the loader refuses is
incorrect at the place it names (or incomplete, where the loader says the
end of the text cut it short), with its message.
"""

from __future__ import annotations

from inputmend.core.oracle import Feedback, Verdict
from inputmend.grammar.semantics import Loader


class LoaderOracle:
    """Accepts what ``loader`` accepts (it is asked only about texts the
    grammar before it accepts)."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def check(self, text: str) -> Feedback:
        feedback = self.loader.check(text)
        if feedback.verdict is Verdict.COMPLETE:
            return feedback
        message = f"rejected by {self.loader.name}: {feedback.message}"
        return Feedback(feedback.verdict, feedback.error_offset, message, beyond_syntax=True)

    def describe(self) -> str:
        return f"the {self.loader.name} loader"

    def close(self) -> None:
        pass
