"""The layouts a grammar header can name (``// layout: NAME``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from inputmend.oracles.base import OracleConfigError

if TYPE_CHECKING:
    from inputmend.grammar.compiled import CompiledGrammar
    from inputmend.grammar.layout import Layout


def _known() -> dict[str, Callable[[CompiledGrammar], Layout]]:
    return {}


def build_layout(name: str, grammar: CompiledGrammar) -> Layout:
    """The layout ``name`` over ``grammar``'s terminals (a one-line error when
    there is no such layout or the grammar lacks a terminal it needs)."""
    known = _known()
    if name not in known:
        names = ", ".join(sorted(known)) or "none"
        raise OracleConfigError(f"{grammar.info.path}: unknown layout {name!r} (known: {names})")
    return known[name](grammar)
