"""The repair pipeline: what a repair of one text is made of.

* :mod:`~inputmend.repairs.context`: :class:`RepairContext`, everything a
  request knows about its text, built once (the only code that looks inside
  an oracle);
* :mod:`~inputmend.repairs.generators`: the generators that propose
  candidates, one module each, in the order they run;
* :mod:`~inputmend.repairs.rank`: the one ordering of the candidates;
* :mod:`~inputmend.repairs.polish`: :data:`POLISHERS`, the polish steps in order;
* :mod:`~inputmend.repairs.pipeline`: one request, start to end.

Where things go: a new repair idea is one generator module (and its place
in ``GENERATORS``); a new format is a ``.lark`` file and a ``.hints.toml``
file, whose syntax roles (:mod:`inputmend.grammar.syntax`) the generic code
reads.
"""
