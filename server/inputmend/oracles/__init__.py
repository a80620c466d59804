"""Oracles: who decides whether an input is valid.

The interface is :mod:`inputmend.core.oracle`; :mod:`~inputmend.oracles.factory`
builds the oracle (and the DDSET predicate) a configuration describes.
Implementations: :class:`~inputmend.oracles.grammar.ReferenceGrammarOracle`,
:class:`~inputmend.oracles.incremental.IncrementalGrammarOracle`,
:class:`~inputmend.oracles.command.CommandOracle`,
:class:`~inputmend.oracles.python.PythonOracle` and ``CallableOracle``;
:mod:`~inputmend.oracles.wrappers` combines, caches and meters them.
"""

from inputmend.core.oracle import Feedback, Oracle, OracleConfigError, Outcome, Verdict

__all__ = ["Feedback", "Oracle", "OracleConfigError", "Outcome", "Verdict"]
