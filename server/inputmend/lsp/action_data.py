"""What a code action carries in its ``data``: one typed structure.

Clients read what a repair is (its id, rank, algorithm, whether preferred,
the version its edits are for, its summary and how much data it loses) from
``CodeAction.data``, never from titles.  :class:`ActionData` is that
structure; :meth:`ActionData.to_json` is the one way it is written and
:meth:`ActionData.read` the one way it is read back (validated by cattrs,
as lsprotocol's structures are).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any, Literal

import cattrs

from inputmend.core.model import Repair

ActionKind = Literal["repair", "remove-spans", "explain"]


def repair_id(repair: Repair) -> str:
    """A repair's id: a hash of the text it makes, the same for the same
    repair in every answer about the version it was found for (a rank is
    not: the final ranked list replaces the quick repairs)."""
    text = repair.text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=12).hexdigest()


@dataclass(frozen=True)
class ActionData:
    """A code action's ``data``: ``kind`` and ``version`` always, the rest
    as far as they apply to the kind (``None``: not sent)."""

    kind: ActionKind
    version: int
    id: str | None = None
    """A repair's :func:`repair_id`, for ``inputmend.applyRepair``."""
    rank: int | None = None
    preferred: bool | None = None
    final: bool | None = None
    algorithm: str | None = None
    summary: str | None = None
    edits: int | None = None
    distance: int | None = None
    data_lost: int | None = None
    tokens_kept: int | None = None
    lossy: bool | None = None
    inserted: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object sent (the fields that apply)."""
        return {name: value for name, value in asdict(self).items() if value is not None}

    @classmethod
    def read(cls, value: Any) -> ActionData:
        """The structure back from a code action's ``data`` (raises a
        cattrs error when it is not one)."""
        return cattrs.structure(value, cls)
