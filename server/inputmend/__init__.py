"""inputmend: debug and repair corrupt input data.

Library use: build an oracle (:mod:`inputmend.oracles`), then call
:func:`inputmend.services.repair`, :func:`~inputmend.services.explain` or
:func:`~inputmend.services.abstract`, bounded by a :class:`Budget`.  This
module stays light: child processes import it.
"""

from inputmend.core.budget import Budget
from inputmend.oracles.base import Feedback, Oracle, Outcome, Verdict

__all__ = ["Budget", "Feedback", "Oracle", "Outcome", "Verdict", "__version__"]
__version__ = "0.1.0"
