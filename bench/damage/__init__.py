"""The everyday-damage benchmark: realistic breakage of valid documents, and judges.

``formats.FORMATS`` is the table of bundled formats with their seed documents,
their damage operators and their data-equality rule; ``corpus`` turns it into
seeded cases; ``judges`` decides whether a repair carries the original data;
``worker`` runs one engine (the inputmend found on ``sys.path``) over cases.
``bench/everyday_damage.py`` is the command line.
"""
