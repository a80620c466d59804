"""Starts the inputmend language server that the VS Code extension carries.

The extension holds the server and its pure-Python dependencies in
``bundled/libs`` (a per-platform build adds the compiled ones), so any
Python 3.11+ runs it: this puts that folder first on ``sys.path`` and runs
``python -m inputmend`` with the given arguments (``lsp``).  Worker processes
spawned by the server inherit the path.  ``--probe`` prints the version and
which compiled parts are in use, for the extension's log.

Written to run on old Pythons too, so that they are told what they are.
"""

import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")
MISSING = "inputmend's bundled server is missing from {} (a broken installation of the extension)"


def main() -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 (run by any Python, to tell an old one)
        version = "%d.%d" % sys.version_info[:2]  # noqa: UP031
        sys.stderr.write("inputmend needs Python >= 3.11, this is " + version + "\n")
        return 3
    if not os.path.isdir(os.path.join(LIBS, "inputmend")):
        sys.stderr.write(MISSING.format(LIBS) + "\n")
        return 4
    sys.path.insert(0, LIBS)
    if sys.argv[1:] == ["--probe"]:
        return probe()
    import runpy

    sys.argv = ["inputmend", *sys.argv[1:]]
    runpy.run_module("inputmend", run_name="__main__", alter_sys=True)
    return 0


def probe() -> int:
    """One line: the version, and the compiled parts found (or that there are none)."""
    import inputmend
    import inputmend.lsp.app  # the server's own imports must work
    from inputmend.core import levenshtein
    from inputmend.grammar import native, patterns

    found = [
        name
        for name, present in (
            ("scan loop", native.AVAILABLE),
            ("regex", patterns.compiled()),
            ("Levenshtein", levenshtein.compiled()),
        )
        if present
    ]
    compiled = "compiled: " + ", ".join(found) if found else "pure Python"
    print(f"{inputmend.__version__} (bundled, {compiled}; Python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
