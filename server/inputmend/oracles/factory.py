"""Oracles and DDSET predicates built from an :class:`~inputmend.config.schema.OracleSpec`.

The one place that turns configuration into running validators, for the
command line and the language server alike.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from inputmend.config.schema import OracleSpec
from inputmend.core.oracle import Oracle, OracleConfigError
from inputmend.core.text import UTF8, Encoding
from inputmend.grammar import registry, semantics
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.oracles.incremental import IncrementalGrammarOracle
from inputmend.oracles.loader import LoaderOracle
from inputmend.oracles.python import PythonOracle
from inputmend.oracles.watchdog import GuardedGrammar
from inputmend.oracles.wrappers import AllOf, GuidedOracle

if TYPE_CHECKING:
    from inputmend.oracles.predicates import CommandPredicate, PythonPredicate

Stop = Callable[[], None]
"""A stop hook (:meth:`inputmend.core.budget.Meter.poll`): called now and then
by long grammar scans; raises to abort them."""


def _base_dir(spec: OracleSpec) -> str | None:
    return str(spec.base_dir) if spec.base_dir is not None else None


def _module_dir(spec: OracleSpec) -> str | None:
    return str(spec.module_dir) if spec.module_dir is not None else None


def relative_code(spec: OracleSpec) -> str | None:
    """The program or Python file of the spec's validator, when it is named
    by a relative path (one that ``base_dir`` would provide); else None.  A
    bare program name is looked up on ``PATH`` and is not one."""
    if spec.python is not None:
        module = spec.python.rpartition(":")[0]
        if module.endswith(".py") and not Path(module).is_absolute():
            return module
    if spec.command is not None:
        from inputmend.oracles.command import parse_command  # only for a command

        program = parse_command(spec.command)[0]
        if "/" in program and not Path(program).is_absolute():
            return program
    return None


def build_oracle(
    spec: OracleSpec,
    *,
    suffix: str = "",
    stop: Stop | None = None,
    encoding: Encoding = UTF8,
    loader: bool = True,
) -> Oracle:
    """The oracle a spec describes: grammar first (fast, knows the parse
    boundary) and its format's loader when it names one and it is installed
    (:mod:`inputmend.grammar.semantics`), then the Python function, then the
    command.  Grammar, loader and function judge the text; the command gets
    it as bytes in ``encoding`` (the input file's), as it would read the file.
    ``loader=False`` leaves the loader out: the language server's quick
    syntax check, which reports the loader's objections apart."""
    parts: list[Oracle] = []
    try:
        if spec.grammar is not None:
            grammar = IncrementalGrammarOracle(spec.grammar, base_dir=spec.base_dir, stop=stop)
            # a bundled grammar's terminals are known to be fast; a user's may not be
            bundled = spec.grammar in registry.bundled()
            parts.append(grammar if bundled else GuardedGrammar(grammar, spec.test_timeout_s))
            named = semantics.LOADERS.get(grammar.grammar.info.semantics or "")
            if loader and named is not None and named.available:
                parts.append(LoaderOracle(named))
        if spec.python is not None:
            parts.append(
                PythonOracle(
                    spec.python,
                    timeout_s=spec.test_timeout_s,
                    base_dir=_base_dir(spec),
                    module_dir=_module_dir(spec),
                )
            )
        if spec.command is not None:
            from inputmend.oracles.command import CommandOracle  # only for a command

            parts.append(
                CommandOracle(
                    spec.command,
                    timeout_s=spec.test_timeout_s,
                    incomplete_exit=spec.incomplete_exit,
                    incomplete_pattern=spec.incomplete_pattern,
                    suffix=suffix,
                    cwd=spec.base_dir,
                    encoding=encoding,
                )
            )
    except OracleConfigError:
        for part in parts:
            part.close()
        raise
    if not parts:
        raise OracleConfigError("no oracle configured")
    oracle = parts[0] if len(parts) == 1 else AllOf(parts)
    guide = registry.for_extension("input" + suffix) if spec.grammar is None and suffix else None
    return GuidedOracle(oracle, guide.name) if guide is not None else oracle


def grammar_only_note(spec: OracleSpec) -> str | None:
    """What to tell the user when the spec's grammar names a loader that is
    not installed (the check is then the grammar's alone); None otherwise."""
    if spec.grammar is None:
        return None
    try:
        info = registry.resolve(spec.grammar, base_dir=spec.base_dir)
    except OracleConfigError:
        return None
    loader = semantics.LOADERS.get(info.semantics or "")
    return None if loader is None or loader.available else f"{info.name}: {loader.missing}"


def load_grammar(spec: OracleSpec) -> CompiledGrammar:
    """The spec's grammar, for DDSET (which parses with it)."""
    if spec.grammar is None:
        raise OracleConfigError("DDSET needs a grammar: --grammar NAME|PATH.lark")
    return CompiledGrammar.load(spec.grammar, base_dir=spec.base_dir)


def build_predicate(
    spec: OracleSpec,
    *,
    original: str,
    fail_pattern: str | None = None,
    suffix: str = "",
    encoding: Encoding = UTF8,
) -> CommandPredicate | PythonPredicate:
    """The spec's validator as DDSET's predicate, calibrated on ``original``
    (raises ``ValueError`` when ``original`` does not fail)."""
    # here: only DDSET runs a predicate, and a command's needs subprocess and shutil
    from inputmend.oracles.predicates import CommandPredicate, PythonPredicate

    if spec.command is not None:
        return CommandPredicate(
            spec.command,
            original=original,
            fail_pattern=fail_pattern,
            timeout_s=spec.test_timeout_s,
            suffix=suffix,
            cwd=spec.base_dir,
            encoding=encoding,
        )
    if spec.python is not None:
        return PythonPredicate(
            spec.python,
            original=original,
            message_pattern=fail_pattern,
            timeout_s=spec.test_timeout_s,
            base_dir=_base_dir(spec),
            module_dir=_module_dir(spec),
        )
    raise OracleConfigError("DDSET needs the program under test: --command or --python")
