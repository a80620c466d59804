"""The layouts a grammar header can name (``// layout: NAME``).

* ``yaml``: YAML's block indentation, flow collections and simple keys, as
  PyYAML's scanner reads them (:mod:`inputmend.grammar.yaml_layout`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar.yaml_layout import YamlLayout

if TYPE_CHECKING:
    from inputmend.grammar.compiled import CompiledGrammar
    from inputmend.grammar.layout import Layout

KNOWN = ("yaml",)


def build_layout(name: str, grammar: CompiledGrammar) -> Layout:
    """The layout ``name`` over ``grammar``'s terminals (a one-line error when
    there is no such layout or the grammar lacks a terminal it needs)."""
    where = str(grammar.info.path)
    if name not in KNOWN:
        raise OracleConfigError(f"{where}: unknown layout {name!r} (known: {', '.join(KNOWN)})")
    terminals = frozenset(grammar.terminals)
    used = {symbol for rule in grammar.rules for symbol in rule.expansion if symbol.isupper()}
    return YamlLayout(terminals, frozenset(used) - terminals, where)
