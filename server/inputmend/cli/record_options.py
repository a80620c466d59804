"""Record mode's options, and whether a run is in record mode.

Apart from :mod:`~inputmend.cli.records` (which runs record mode) so that
parsing the command line of a whole-file run loads nothing of record mode.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from inputmend.cli.errors import UsageError
from inputmend.config import defaults

if TYPE_CHECKING:
    from inputmend.records.model import Format

RECORD_SUFFIXES = (".jsonl", ".ndjson", ".jsonlines")
"""Files read in record mode (one JSON value per line) without ``--records``."""


def add_options(parser: argparse.ArgumentParser, *, repair: bool) -> None:
    group = parser.add_argument_group(
        "record mode (each line, or CSV row, is one record; see docs/records.md)"
    )
    group.add_argument(
        "--records",
        choices=("lines", "csv", "none"),
        help="lines: one record per line (the default for .jsonl .ndjson .jsonlines); "
        "csv: a header, then rows with as many fields; none: the file is one document",
    )
    group.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="judge records on this machine (--jobs processes) or on a Dask cluster",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler such as tcp://host:8786 (default: a local cluster of --jobs workers)",
    )
    group.add_argument(
        "--max-record-bytes",
        type=int,
        metavar="N",
        help=f"larger records are not judged (default {defaults.MAX_RECORD_BYTES})",
    )
    group.add_argument(
        "--partition-bytes",
        type=int,
        metavar="N",
        help=f"records go to the workers in partitions of about N bytes "
        f"(default {defaults.PARTITION_BYTES})",
    )
    if repair:
        group.add_argument(
            "--reject", metavar="FILE", help="list the records not repaired (JSON Lines)"
        )
        group.add_argument(
            "--drop-rejected",
            action="store_true",
            help="leave the records not repaired out of the output (needs --reject)",
        )


def record_format(args: argparse.Namespace) -> Format | None:
    """Record mode's format, or ``None`` for whole-file mode."""
    chosen: str | None = getattr(args, "records", None)
    if chosen == "lines":
        return "lines"
    if chosen == "csv":
        return "csv"
    if chosen == "none":
        return None
    suffixes = {Path(name).suffix.lower() for name in args.files}
    return "lines" if suffixes and suffixes <= set(RECORD_SUFFIXES) else None


def _given(args: argparse.Namespace) -> list[str]:
    """The record-mode options given on the command line."""
    given = {
        "--engine dask": args.engine != "local",
        "--scheduler": args.scheduler is not None,
        "--max-record-bytes": args.max_record_bytes is not None,
        "--partition-bytes": args.partition_bytes is not None,
        "--reject": getattr(args, "reject", None) is not None,
        "--drop-rejected": getattr(args, "drop_rejected", False),
    }
    return [flag for flag, used in given.items() if used]


def refuse_record_options(args: argparse.Namespace) -> None:
    """Whole-file mode: record-mode options would be ignored, so they are errors."""
    given = _given(args)
    if given:
        raise UsageError(f"{', '.join(given)}: only in record mode (--records lines|csv)")
