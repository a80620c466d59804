"""The real-document damage corpus: documents from published packages, damage
families, fit/held-out splits, and the evaluator.

``fetch`` downloads the pinned packages of ``manifest.toml`` into a cache and
extracts the documents that both the bundled grammar and the format's
reference loader accept; ``families`` holds the damage operators grouped into
named families, each knowing the data its damage intends; ``splits`` divides
sources and families into fitting and held-out parts (``splits.toml``);
``engine`` is the one module that calls inputmend; ``evaluate`` is the command
line that prints the table.
"""
