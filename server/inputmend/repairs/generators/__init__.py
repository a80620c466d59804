"""Generators: each proposes candidate repairs of a text, none ranks them.

The protocol is in :mod:`~inputmend.repairs.generators.base`; one module per
generator.  A new repair idea is one more module, and a place in
:data:`GENERATORS`.
"""

from __future__ import annotations

from inputmend.repairs.generators.base import Candidates, Generator
from inputmend.repairs.generators.calls import UNWRAP_CALLS
from inputmend.repairs.generators.closers import CLOSERS
from inputmend.repairs.generators.columns import COLUMNS
from inputmend.repairs.generators.comments import COMMENTS
from inputmend.repairs.generators.completion import COMPLETION
from inputmend.repairs.generators.conflicts import CONFLICTS
from inputmend.repairs.generators.ddmax import HYBRID
from inputmend.repairs.generators.escapes import ESCAPES
from inputmend.repairs.generators.fsynth import FSYNTH
from inputmend.repairs.generators.glued import GLUED
from inputmend.repairs.generators.hints import HINTS
from inputmend.repairs.generators.layout import LAYOUT
from inputmend.repairs.generators.quoting import QUOTING
from inputmend.repairs.generators.redecode import REDECODE
from inputmend.repairs.generators.repeated import REPEATED
from inputmend.repairs.generators.sweep import SWEEP
from inputmend.repairs.generators.unescape import UNESCAPE

GENERATORS: tuple[Generator, ...] = (
    CONFLICTS,
    REPEATED,
    REDECODE,
    SWEEP,
    COMPLETION,
    HINTS,
    CLOSERS,
    LAYOUT,
    UNESCAPE,
    ESCAPES,
    UNWRAP_CALLS,
    QUOTING,
    COLUMNS,
    COMMENTS,
    GLUED,
    FSYNTH,
    HYBRID,
)
"""Every generator ``auto`` runs, in the order it runs them: the cheap and
sure first (a side of each conflict, one copy of a definition written
twice, re-reading bytes, the sweep of a large text, completion, the hints,
the line of completion's closer (after the hints: a text both propose is
the hints', hinted), layout), then the searches (FSynth, hybrid ddmax)."""

__all__ = ["GENERATORS", "Candidates", "Generator"]
