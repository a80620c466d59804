"""What a repair does to the input's data: the judgement behind the ranking.

A person judges a repair by whether the data they meant survives, so every
candidate is judged by what happens to the input's tokens.  The package, one
concern a module:

- :mod:`~inputmend.algorithms.judgement.verdict`: :class:`Judgement`, the
  counts, each field saying what it counts;
- :mod:`~inputmend.algorithms.judgement.judge`: :class:`Judge`, the windows
  of input lexed around a repair's edits and the queries criteria ask about
  the input;
- :mod:`~inputmend.algorithms.judgement.columns`: a table's columns;
- :mod:`~inputmend.algorithms.judgement.edits`: what edits do to positions;
- :mod:`~inputmend.algorithms.judgement.assessment`: one repair judged in one
  window, its state in :mod:`~inputmend.algorithms.judgement.state` and its
  criteria in :mod:`~inputmend.algorithms.judgement.tokens`,
  :mod:`~inputmend.algorithms.judgement.comments`,
  :mod:`~inputmend.algorithms.judgement.loss` and
  :mod:`~inputmend.algorithms.judgement.layout`;
- :mod:`~inputmend.algorithms.judgement.text`: the text helpers they share.
"""

from inputmend.algorithms.judgement.edits import LOOKAROUND
from inputmend.algorithms.judgement.judge import Judge
from inputmend.algorithms.judgement.queries import Refusal, TokenStart
from inputmend.algorithms.judgement.verdict import Judgement

__all__ = ["LOOKAROUND", "Judge", "Judgement", "Refusal", "TokenStart"]
