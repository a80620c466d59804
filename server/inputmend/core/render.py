"""Words for edits, shared by the command line and the language server.

``insert `,` at 1:17``, ``delete `**` at 1:29``, ``replace `x` with `y` at 2:3``:
positions are 1-based ``line:column`` in characters, text is shown by
:func:`~inputmend.core.text.snippet`.
"""

from __future__ import annotations

from collections.abc import Sequence

from inputmend.core.model import Edit
from inputmend.core.text import LineIndex, snippet


def describe_edit(index: LineIndex, edit: Edit) -> str:
    """What one edit of ``index.text`` does, in lower case."""
    where = index.human(edit.offset)
    removed = snippet(index.text[edit.offset : edit.end])
    if edit.delete and edit.insert:
        return f"replace `{removed}` with `{snippet(edit.insert)}` at {where}"
    if edit.delete:
        return f"delete `{removed}` at {where}"
    return f"insert `{snippet(edit.insert)}` at {where}"


def describe_edits(index: LineIndex, edits: Sequence[Edit], *, shown: int = 3) -> str:
    """The first ``shown`` edits, then how many more there are."""
    parts = [describe_edit(index, edit) for edit in edits[:shown]]
    if len(edits) > shown:
        parts.append(f"and {len(edits) - shown} more edits")
    return "; ".join(parts)


def repair_summary(index: LineIndex, edits: Sequence[Edit], rank: int) -> str:
    """A title for a repair: its edit when it has one, else its rank and size."""
    if len(edits) == 1:
        description = describe_edit(index, edits[0])
        return description[0].upper() + description[1:]
    return f"Apply repair {rank} ({len(edits)} edits)"
