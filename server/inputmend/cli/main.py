"""Argument parsing and dispatch.

Start-up time is most of a small run's time, so this module imports only
what parsing needs: the subcommand that runs gets its options (the repair
algorithms' registry for ``repair`` and ``explain``) and its module (the
language server for ``lsp``, record mode for ``--records``) when it is
chosen, and ``check`` never loads the repair algorithms, the language
server's libraries or Dask.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inputmend import __version__
from inputmend.cli import record_options
from inputmend.cli.errors import EXIT_OK, EXIT_USAGE, USER_ERRORS, UsageError
from inputmend.config import defaults
from inputmend.core.text import printable
from inputmend.oracles.children import never_import_from_cwd


def seconds(value: str) -> float:
    """A positive, finite number of seconds (``nan`` and ``inf`` are not)."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not math.isfinite(number) or number <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {value!r}")
    return number


def _oracle_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("oracle (default: .inputmend.toml, else by file extension)")
    group.add_argument("--grammar", metavar="NAME|PATH.lark", help="bundled grammar or .lark file")
    group.add_argument(
        "--command",
        metavar='"PROG ARGS"',
        help="program that validates the input (stdin, or {file} for a temporary file)",
    )
    group.add_argument("--python", metavar="MOD:FUNC", help="function that raises on bad input")
    group.add_argument(
        "--incomplete-exit",
        type=int,
        default=defaults.INCOMPLETE_EXIT,
        metavar="N",
        help=f"exit code meaning 'incomplete input' (default {defaults.INCOMPLETE_EXIT})",
    )
    group.add_argument(
        "--incomplete-pattern", metavar="REGEX", help="output that marks an input as incomplete"
    )
    group.add_argument(
        "--test-timeout",
        type=seconds,
        default=defaults.TEST_TIMEOUT_S,
        metavar="S",
        help=f"seconds per program run (default {defaults.TEST_TIMEOUT_S:g})",
    )
    return parent


def _budget_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=seconds,
        metavar="S",
        help=f"safety cap in seconds, reported when reached (default {defaults.RUN_TIMEOUT_S:g}; "
        f"record mode: {defaults.RECORD_TIMEOUT_S:g} per record)",
    )
    parser.add_argument(
        "--max-tests",
        type=int,
        metavar="N",
        help=f"work bound in oracle runs: the same answer on any machine (default "
        f"{defaults.RUN_MAX_TESTS}; record mode: {defaults.RECORD_MAX_TESTS} per record)",
    )


def _encoding_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--encoding",
        default="auto",
        metavar="NAME|auto",
        help="text encoding of the files (default auto: byte-order mark, UTF-16 by its zero "
        "bytes, UTF-8, else cp1252 when the bytes look like accented letters)",
    )


def _jobs_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="files (record mode: partitions) processed in parallel (default: all cores)",
    )


OUTPUT_FORMATS = ("text", "json", "github", "sarif", "gitlab")
RECORD_OUTPUT_FORMATS = ("text", "json")


def _output_format_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output-format",
        choices=OUTPUT_FORMATS,
        default="text",
        help="text; json: one JSON object per file; github: GitHub Actions annotations; "
        "sarif: one SARIF 2.1.0 log; gitlab: a GitLab code quality report (default text)",
    )
    parser.add_argument(
        "--json",
        dest="output_format",
        action="store_const",
        const="json",
        help="the same as --output-format json",
    )


def _algorithms(registry: dict[str, str]) -> str:
    return "; ".join(f"{name}: {summary}" for name, summary in registry.items())


def _check_options(check: argparse.ArgumentParser) -> None:
    check.add_argument("files", nargs="+", metavar="FILE|FOLDER", help="- reads standard input")
    _output_format_options(check)
    _encoding_option(check)
    _jobs_option(check)
    record_options.add_options(check, repair=False)


def _repair_options(repair: argparse.ArgumentParser) -> None:
    from inputmend import services

    repair.add_argument("files", nargs="+", metavar="FILE|FOLDER", help="- reads standard input")
    repair.add_argument(
        "--algorithm",
        choices=list(services.REPAIR_ALGORITHMS),
        default="auto",
        help=_algorithms({a.name: a.summary for a in services.REPAIR_ALGORITHMS.values()}),
    )
    repair.add_argument(
        "--top", type=int, default=defaults.TOP_REPAIRS, metavar="N", help="repairs to show"
    )
    _budget_options(repair)
    out = repair.add_mutually_exclusive_group()
    out.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the best repair to OUT (-: standard output; the report goes to stderr; "
        "record mode: FOLDER/ for one file per partition)",
    )
    out.add_argument(
        "--in-place", action="store_true", help="write the best repair to FILE (keeps FILE.orig)"
    )
    repair.add_argument(
        "--max-loss",
        metavar="PCT%,N",
        help="a repair that loses more of the input's non-whitespace characters is lossy and "
        "never written (default 10%%,64: more than 10%% of them or more than 64)",
    )
    repair.add_argument(
        "--allow-loss", action="store_true", help="write the best repair even when it is lossy"
    )
    repair.add_argument(
        "--force",
        action="store_true",
        help="rewrite a read-only file too (-o, --in-place, --reject; its mode is kept)",
    )
    _output_format_options(repair)
    _encoding_option(repair)
    _jobs_option(repair)
    record_options.add_options(repair, repair=True)


def _explain_options(explain: argparse.ArgumentParser) -> None:
    from inputmend import services

    explain.add_argument("file", metavar="FILE", help="- reads standard input")
    explainers = {a.name: a.summary for a in services.EXPLAIN_ALGORITHMS.values()}
    explainers["ddset"] = "the abstract failure-inducing input (see the ddset options)"
    explain.add_argument(
        "--algorithm", choices=list(explainers), default="auto", help=_algorithms(explainers)
    )
    explain.add_argument(
        "--unit", choices=("char", "line"), default="char", help="element granularity"
    )
    ddset_group = explain.add_argument_group(
        "ddset (the document parses, the program under test --command/--python fails on it)"
    )
    ddset_group.add_argument(
        "--fail-pattern", metavar="REGEX", help="output (or exception message) of the failure"
    )
    ddset_group.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ddset_group.add_argument(
        "--instances", type=int, default=5, metavar="N", help="inputs to produce from the pattern"
    )
    ddset_group.add_argument(
        "--verify", type=int, default=0, metavar="K", help="produce K inputs, count the failing"
    )
    _budget_options(explain)
    explain.add_argument("--json", action="store_true", help="print one JSON object")
    _encoding_option(explain)


def _lsp_options(lsp: argparse.ArgumentParser) -> None:
    lsp.add_argument(
        "--tcp",
        type=int,
        metavar="PORT",
        help="listen on 127.0.0.1:PORT instead (for debugging); clients must send the token "
        "of the file named on stderr as initializationOptions.token",
    )
    lsp.add_argument("--stdio", action="store_true", help="use stdio (the default)")


def _no_options(parser: argparse.ArgumentParser) -> None:
    pass


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: its help line, what adds its options, its function as
    ``module:name`` (imported when it runs), and whether it takes the
    oracle options."""

    help: str
    options: Callable[[argparse.ArgumentParser], None]
    function: str
    oracle: bool = True

    def load(self) -> Callable[[argparse.Namespace], int]:
        module, name = self.function.split(":")
        command: Callable[[argparse.Namespace], int] = getattr(
            importlib.import_module(module), name
        )
        return command


SUBCOMMANDS: dict[str, Subcommand] = {
    "check": Subcommand(
        "validate files (exit 0 valid, 1 invalid, 2 error)",
        _check_options,
        "inputmend.cli.commands:cmd_check",
    ),
    "repair": Subcommand(
        "print ranked repairs", _repair_options, "inputmend.cli.commands:cmd_repair"
    ),
    "explain": Subcommand(
        "show the failure-inducing parts of a file",
        _explain_options,
        "inputmend.cli.commands:cmd_explain",
    ),
    "grammars": Subcommand(
        "list the bundled grammars",
        _no_options,
        "inputmend.cli.commands:cmd_grammars",
        oracle=False,
    ),
    "lsp": Subcommand(
        "start the language server (stdio)",
        _lsp_options,
        "inputmend.cli.commands:cmd_lsp",
        oracle=False,
    ),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand's options, or, with ``only``, of that
    subcommand's alone (the others are listed, with no options): what a run
    of ``only`` needs, without importing what the others' options list."""
    parser = argparse.ArgumentParser(
        prog="inputmend",
        description="Find what makes an input invalid, and repair it.",
    )
    parser.add_argument("--version", action="version", version=f"inputmend {__version__}")
    subcommands = parser.add_subparsers(dest="subcommand", metavar="COMMAND", required=True)
    oracle = _oracle_options()
    for name, subcommand in SUBCOMMANDS.items():
        parents = [oracle] if subcommand.oracle else []
        sub = subcommands.add_parser(name, parents=parents, help=subcommand.help)
        if only is None or only == name:
            subcommand.options(sub)
    return parser


def chosen_subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` runs: its first word that is not an option
    (the program's own options take no value); None when there is none."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in SUBCOMMANDS else None


def run() -> int:
    """The ``inputmend`` command and ``python -m inputmend``: :func:`main`,
    in a process that imports nothing from its working directory (nor do
    the processes it starts)."""
    never_import_from_cwd()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    words = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(chosen_subcommand(words)).parse_args(words)
    try:
        if args.subcommand in ("check", "repair"):
            args.json = args.output_format == "json"
            fmt = record_options.record_format(args)
            if fmt is not None:
                if args.output_format not in RECORD_OUTPUT_FORMATS:
                    raise UsageError(
                        f"--output-format {args.output_format} reports whole files; record "
                        f"mode (--records {fmt}) reports records as text or json "
                        "(--records none checks the file as one document)"
                    )
                from inputmend.cli import records

                return records.run(args, fmt)
            record_options.refuse_record_options(args)
        command = SUBCOMMANDS[args.subcommand].load()
        return command(args)
    except USER_ERRORS as error:
        print(f"inputmend: error: {printable(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("inputmend: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
