"""inputmend: debug and repair corrupt input data.

Library use, in one call: :func:`repair` (``inputmend.repair(text,
grammar="json")``) and :func:`check`, with ``grammar=``, ``command=`` or
``python=`` as on the command line (:mod:`inputmend.api`).  For more control,
build an oracle (:mod:`inputmend.oracles.factory`) and call
:func:`inputmend.services.repair`, :func:`~inputmend.services.explain` or
:func:`~inputmend.services.abstract`, bounded by a :class:`Budget`.  This
module stays light (no lark, no repair algorithms until a call needs them):
child processes and the command line import it.
"""

from inputmend.api import check, repair
from inputmend.core.budget import Budget
from inputmend.core.model import RepairResult
from inputmend.core.oracle import Feedback, Oracle, Outcome, Verdict

__all__ = [
    "Budget",
    "Feedback",
    "Oracle",
    "Outcome",
    "RepairResult",
    "Verdict",
    "__version__",
    "check",
    "repair",
]
__version__ = "0.1.0"
