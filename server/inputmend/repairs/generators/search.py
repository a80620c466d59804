"""When a search (FSynth, ddmax) is worth running after the repairs found before it."""

from __future__ import annotations

from inputmend.core.model import Repair
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.completion import not_completed


def searching_may_help(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """A search (FSynth, ddmax) edits at the parse boundary or deletes: once a
    repair found before it does the data no harm, it can only find a shorter
    one, never one that keeps more; and an incomplete input that completion
    finished needs none (see :func:`~inputmend.repairs.generators.completion.not_completed`)."""
    if not not_completed(context, found):
        return False
    return not any(context.judge(repair).harmless for repair in found)
