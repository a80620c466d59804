"""Configuration: which oracle judges a file, and the budget of a run.

:mod:`~inputmend.config.defaults` names every default, :mod:`~inputmend.config.schema`
reads oracle rules and limits (strictly from ``.inputmend.toml``, leniently
from an editor's settings), :mod:`~inputmend.config.discovery` finds the
configuration that applies to a file.
"""
