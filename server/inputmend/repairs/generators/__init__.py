"""Generators: each proposes candidate repairs of a text, none ranks them.

The protocol is in :mod:`~inputmend.repairs.generators.base`; one module per
generator.  A new repair idea is one more module, and a place in
:data:`GENERATORS`.
"""

from __future__ import annotations

from inputmend.repairs.generators.base import Candidates, Generator
from inputmend.repairs.generators.completion import COMPLETION
from inputmend.repairs.generators.conflicts import CONFLICTS
from inputmend.repairs.generators.ddmax import HYBRID
from inputmend.repairs.generators.fsynth import FSYNTH
from inputmend.repairs.generators.hints import HINTS
from inputmend.repairs.generators.layout import LAYOUT
from inputmend.repairs.generators.redecode import REDECODE

GENERATORS: tuple[Generator, ...] = (
    CONFLICTS,
    REDECODE,
    COMPLETION,
    HINTS,
    LAYOUT,
    FSYNTH,
    HYBRID,
)
"""Every generator ``auto`` runs, in the order it runs them: the cheap and
sure first (a side of each conflict, re-reading bytes, completion, the
hints, layout), then the searches (FSynth, hybrid ddmax)."""

__all__ = ["GENERATORS", "Candidates", "Generator"]
