"""inputmend: debug and repair corrupt input data.

The public API is small: build an oracle (``inputmend.oracles``), then call an
algorithm from ``inputmend.algorithms`` or the convenience functions below.
"""

from inputmend.oracles.base import Feedback, Oracle, Outcome, Verdict

__all__ = ["Feedback", "Oracle", "Outcome", "Verdict", "__version__"]
__version__ = "0.1.0"
