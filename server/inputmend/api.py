"""The one-call library API: :func:`repair` and :func:`check` of a text.

Each call builds the oracle the command line would build for the same
choices (a grammar, a program, a Python function, or several: all must
accept; :func:`inputmend.oracles.factory.build_oracle`), runs it, and
closes it, so that no child process outlives the call.  Grammars are
judged by the incremental oracle, as on the command line.  The heavy
modules (lark, the repair algorithms) are imported by the first call, not
by ``import inputmend``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from inputmend.config import defaults
from inputmend.core.loss import DEFAULT_LIMIT, LossLimit
from inputmend.core.model import RepairResult
from inputmend.core.oracle import Feedback, Oracle, OracleConfigError


def _oracle(
    grammar: str | None,
    command: str | None,
    python: str | None,
    base_dir: str | Path | None,
    test_timeout: float,
) -> Oracle:
    from inputmend.config.schema import OracleSpec
    from inputmend.oracles.factory import build_oracle

    spec = OracleSpec(
        grammar=grammar,
        command=command,
        python=python,
        test_timeout_s=test_timeout,
        base_dir=None if base_dir is None else Path(base_dir),
        source="library call",
    )
    if spec.empty:
        raise OracleConfigError("no oracle: give grammar=, command= or python=")
    return build_oracle(spec)


def check(
    text: str,
    *,
    grammar: str | None = None,
    command: str | None = None,
    python: str | None = None,
    base_dir: str | Path | None = None,
    test_timeout: float = defaults.TEST_TIMEOUT_S,
) -> Feedback:
    """Whether ``text`` is valid, and where it is not.

    ``grammar``: a bundled grammar's name (``inputmend grammars`` lists them)
    or a ``.lark`` file; ``command``: a program that validates its standard
    input (or ``{file}``, a temporary file) by its exit status; ``python``:
    ``module:function`` or ``file.py:function`` that raises on bad input, run
    in a child process.
    Relative paths start at ``base_dir`` (default: the working directory);
    ``test_timeout`` bounds each program or function run, in seconds.
    Raises :class:`~inputmend.core.oracle.OracleConfigError` when the
    choices name nothing that can run.
    """
    oracle = _oracle(grammar, command, python, base_dir, test_timeout)
    try:
        return oracle.check(text)
    finally:
        oracle.close()


def repair(
    text: str,
    *,
    grammar: str | None = None,
    command: str | None = None,
    python: str | None = None,
    base_dir: str | Path | None = None,
    test_timeout: float = defaults.TEST_TIMEOUT_S,
    timeout: float | None = defaults.RUN_TIMEOUT_S,
    max_tests: int | None = defaults.RUN_MAX_TESTS,
    top: int = defaults.TOP_REPAIRS,
    algorithm: str = "auto",
    max_loss: LossLimit = DEFAULT_LIMIT,
) -> RepairResult:
    """Ranked repairs of ``text``, best first (none when it is valid), as
    ``inputmend repair`` finds them: repairs a reader cannot tell apart are
    merged, and each is marked lossy when it loses more than ``max_loss``.

    The oracle options are :func:`check`'s.  The search stops after
    ``max_tests`` oracle runs (its work bound: the same answer on any machine)
    or at the safety cap of ``timeout`` seconds (``None``: no limit),
    whichever comes first; ``result.stats`` says whether it stopped early
    (``result.stats.time_capped``: at the time cap, so the answer may differ
    from run to run).
    ``algorithm`` is one of ``inputmend repair --help``'s.
    """
    from inputmend import services
    from inputmend.core.budget import Budget
    from inputmend.core.render import distinct

    if top <= 0:
        raise ValueError(f"top must be positive, got {top}")
    if max_tests is not None and max_tests <= 0:
        raise ValueError(f"max_tests must be positive, got {max_tests}")
    oracle = _oracle(grammar, command, python, base_dir, test_timeout)
    try:
        result = services.repair(
            text,
            oracle,
            algorithm=algorithm,
            budget=Budget(timeout_s=timeout, max_tests=max_tests),
            top=defaults.CANDIDATES_PER_REPAIR * top,
            max_loss=max_loss,
        )
        merged = distinct(text, result.repairs, services.lexer_of(oracle))[:top]
    finally:
        oracle.close()
    return replace(result, repairs=tuple(merged))
