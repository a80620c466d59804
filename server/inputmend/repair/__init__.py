"""The repair pipeline: what a repair of one text is made of.

* :mod:`~inputmend.repair.context`: :class:`RepairContext`, everything a
  request knows about its text, built once (the only code that looks inside
  an oracle);
* :mod:`~inputmend.repair.generators`: the generators that propose
  candidates, one module each, in the order they run.
"""
