"""Oracles: who decides whether an input is valid.  See :mod:`inputmend.oracles.base`."""

from __future__ import annotations

from collections.abc import Sequence

from inputmend.config import OracleSpec
from inputmend.oracles.base import (
    COMPLETE,
    Feedback,
    Oracle,
    OracleConfigError,
    Outcome,
    Verdict,
)

__all__ = [
    "AllOf",
    "Feedback",
    "Oracle",
    "OracleConfigError",
    "Outcome",
    "Verdict",
    "build_oracle",
]


class AllOf:
    """Several oracles that must all accept; the first objection wins.

    Put the cheapest first: a grammar answers in microseconds and knows the
    parse boundary, so the external program only sees grammatical inputs.
    """

    def __init__(self, parts: Sequence[Oracle]) -> None:
        self.parts = list(parts)

    def check(self, text: str) -> Feedback:
        for part in self.parts:
            feedback = part.check(text)
            if feedback.verdict is not Verdict.COMPLETE:
                return feedback
        return COMPLETE

    def describe(self) -> str:
        return " and ".join(part.describe() for part in self.parts)

    def close(self) -> None:
        for part in self.parts:
            part.close()


def build_oracle(spec: OracleSpec, *, suffix: str = "") -> Oracle:
    """Build the oracle a spec describes (grammar first, then python, then command)."""
    from inputmend.oracles.command import CommandOracle
    from inputmend.oracles.incremental import IncrementalGrammarOracle
    from inputmend.oracles.python import PythonOracle

    parts: list[Oracle] = []
    try:
        if spec.grammar is not None:
            parts.append(IncrementalGrammarOracle(spec.grammar, base_dir=spec.base_dir))
        if spec.python is not None:
            base = str(spec.base_dir) if spec.base_dir is not None else None
            parts.append(PythonOracle(spec.python, timeout_s=spec.test_timeout_s, base_dir=base))
        if spec.command is not None:
            parts.append(
                CommandOracle(
                    spec.command,
                    timeout_s=spec.test_timeout_s,
                    incomplete_exit=spec.incomplete_exit,
                    incomplete_pattern=spec.incomplete_pattern,
                    suffix=suffix,
                    cwd=spec.base_dir,
                )
            )
    except OracleConfigError:
        for part in parts:
            part.close()
        raise
    if not parts:
        raise OracleConfigError("no oracle configured")
    return parts[0] if len(parts) == 1 else AllOf(parts)
