"""The command line's exit statuses and the errors that are the user's to fix.

Apart from the subcommands so that :mod:`~inputmend.cli.main` can report
them without importing any subcommand.
"""

from __future__ import annotations

from inputmend.core.oracle import OracleConfigError

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A one-line error for the user; exit code 2."""


class InputError(Exception):
    """A file cannot be used as input; the message is one line for the user."""


USER_ERRORS = (InputError, OracleConfigError, UsageError)
"""Errors that are the user's to fix: one line on stderr, exit status 2."""
