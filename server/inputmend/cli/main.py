"""Argument parsing and dispatch."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence

from inputmend import __version__, services
from inputmend.cli import commands, records
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
        help=f"time budget (default {defaults.RUN_TIMEOUT_S:g}s)",
    )
    parser.add_argument("--max-tests", type=int, metavar="N", help="budget of oracle runs")


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inputmend",
        description="Find what makes an input invalid, and repair it.",
    )
    parser.add_argument("--version", action="version", version=f"inputmend {__version__}")
    subcommands = parser.add_subparsers(dest="subcommand", metavar="COMMAND", required=True)
    oracle = _oracle_options()

    check = subcommands.add_parser(
        "check", parents=[oracle], help="validate files (exit 0 valid, 1 invalid, 2 error)"
    )
    check.add_argument("files", nargs="+", metavar="FILE|FOLDER", help="- reads standard input")
    _output_format_options(check)
    _encoding_option(check)
    _jobs_option(check)
    records.add_options(check, repair=False)

    repair = subcommands.add_parser("repair", parents=[oracle], help="print ranked repairs")
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
    records.add_options(repair, repair=True)

    explain = subcommands.add_parser(
        "explain", parents=[oracle], help="show the failure-inducing parts of a file"
    )
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

    subcommands.add_parser("grammars", help="list the bundled grammars")

    lsp = subcommands.add_parser("lsp", help="start the language server (stdio)")
    lsp.add_argument(
        "--tcp",
        type=int,
        metavar="PORT",
        help="listen on 127.0.0.1:PORT instead (for debugging); clients must send the token "
        "of the file named on stderr as initializationOptions.token",
    )
    lsp.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    return parser


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": commands.cmd_check,
    "repair": commands.cmd_repair,
    "explain": commands.cmd_explain,
    "grammars": commands.cmd_grammars,
    "lsp": commands.cmd_lsp,
}


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
    args = build_parser().parse_args(argv)
    try:
        if args.subcommand in ("check", "repair"):
            args.json = args.output_format == "json"
            fmt = records.record_format(args)
            if fmt is not None:
                if args.output_format not in RECORD_OUTPUT_FORMATS:
                    raise commands.UsageError(
                        f"--output-format {args.output_format} reports whole files; record "
                        f"mode (--records {fmt}) reports records as text or json "
                        "(--records none checks the file as one document)"
                    )
                return records.run(args, fmt)
            records.refuse_record_options(args)
        return COMMANDS[args.subcommand](args)
    except commands.USER_ERRORS as error:
        print(f"inputmend: error: {printable(str(error))}", file=sys.stderr)
        return commands.EXIT_USAGE
    except KeyboardInterrupt:
        print("inputmend: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return commands.EXIT_OK
