"""What a repair does to the input's data: the judgement behind the ranking.

A person judges a repair by whether the data they meant survives, so every
candidate is judged by what happens to the input's tokens.  The package, one
concern a module:

- :mod:`~inputmend.algorithms.judgement.verdict`: :class:`Judgement`, the
  counts, each field saying what it counts;
- :mod:`~inputmend.algorithms.judgement.judge`: :class:`Judge`, the windows
  of input lexed around a repair's edits, and the criteria that judge one
  window;
- :mod:`~inputmend.algorithms.judgement.queries`: what the criteria ask
  about the input as a whole;
- :mod:`~inputmend.algorithms.judgement.columns`: a table's columns;
- :mod:`~inputmend.algorithms.judgement.edits`: what edits do to positions;
- :mod:`~inputmend.algorithms.judgement.text`: the text helpers they share.
"""

from inputmend.algorithms.judgement.edits import LOOKAROUND
from inputmend.algorithms.judgement.judge import Judge
from inputmend.algorithms.judgement.queries import Refusal, TokenStart
from inputmend.algorithms.judgement.verdict import Judgement

__all__ = ["LOOKAROUND", "Judge", "Judgement", "Refusal", "TokenStart"]
