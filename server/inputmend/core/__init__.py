"""The core: text and line index, the model types, budgets, words for edits.

Everything else builds on this package; it imports nothing from the rest of
inputmend and does no input or output.
"""
