"""The command line: :mod:`~inputmend.cli.main` parses arguments and
dispatches to :mod:`~inputmend.cli.commands`, which print through
:mod:`~inputmend.cli.render`, touch files only through
:mod:`~inputmend.cli.files` and run many files with :mod:`~inputmend.cli.batch`."""

from inputmend.cli.main import main, run

__all__ = ["main", "run"]
