"""A grammar terminal that backtracks catastrophically cannot hang a check:
CPU-time limits interrupt even a regular expression match."""

from __future__ import annotations

import contextlib
import gc
import re
import subprocess
import sys
from pathlib import Path

import pytest

from inputmend.config.schema import OracleSpec
from inputmend.core.oracle import Verdict
from inputmend.grammar.hints import parse_hints
from inputmend.grammar.tolerant import GenericLexer
from inputmend.oracles.factory import build_oracle
from inputmend.oracles.watchdog import GuardedGrammar, Overrun, cpu_limit, overrun_message

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs setitimer")

# (the lookahead keeps the DFAs of the scan's C loop off this terminal, which
# they would match in linear time: the regular expression engine backtracks)
SLOW_GRAMMAR = 'start: WORD (" " WORD)*\nWORD: /(a+)+(?=b)b/\n'
STUCK = "a" * 40 + "!"  # minutes of backtracking for /(a+)+(?=b)b/


@pytest.fixture
def slow(tmp_path: Path) -> Path:
    path = tmp_path / "slow.lark"
    path.write_text(SLOW_GRAMMAR)
    return path


def _spin() -> None:
    re.match(r"(a+)+b", STUCK)


def test_a_limit_interrupts_a_regular_expression() -> None:
    with pytest.raises(Overrun), cpu_limit(0.3):
        _spin()  # would run for hours: that it returns at all is the interruption


def test_limits_nest_and_each_raises_for_itself() -> None:
    with cpu_limit(60) as outer:
        with pytest.raises(Overrun) as inner_overrun, cpu_limit(0.2) as inner:
            _spin()
        assert inner_overrun.value.limit is inner and inner is not outer
        assert sum(range(1000)) == 499500, "the outer limit is still armed and quiet"
    with pytest.raises(Overrun) as outer_overrun, cpu_limit(0.2) as outer, cpu_limit(60):
        _spin()
    assert outer_overrun.value.limit is outer


def test_no_limit_means_no_timer() -> None:
    with cpu_limit(None) as limit:
        assert limit is None


def test_a_guarded_grammar_names_the_slow_terminal_and_stops_using_it(slow: Path) -> None:
    oracle = build_oracle(OracleSpec(grammar=str(slow), test_timeout_s=0.5))
    assert isinstance(oracle, GuardedGrammar)
    assert oracle.check("ab aab").valid
    feedback = oracle.check(STUCK)
    assert feedback.verdict is Verdict.INCORRECT
    assert "terminal WORD" in feedback.message and "backtracks" in feedback.message
    assert oracle.check("ab").verdict is Verdict.INCORRECT, "not used again"


@pytest.mark.parametrize("subcommand", [["check"], ["repair", "--timeout", "3"]])
def test_the_command_line_does_not_hang(slow: Path, tmp_path: Path, subcommand: list[str]) -> None:
    data = tmp_path / "data.txt"
    data.write_text(STUCK)
    options = ["--grammar", str(slow), "--test-timeout", "1", str(data)]
    result = subprocess.run(
        [sys.executable, "-m", "inputmend", *subcommand, *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert "terminal WORD of the grammar slow.lark" in result.stdout


def test_an_overrun_in_a_hints_pattern_names_the_hints_file(tmp_path: Path) -> None:
    source = tmp_path / "slow.hints.toml"
    hints = parse_hints({"token": [{"pattern": "(a|a)+b", "replace": "x"}]}, source)
    with pytest.raises(Overrun) as overrun, cpu_limit(0.3):
        list(hints.matches_at(STUCK, 0))
    message = overrun_message(overrun.value)
    assert f"token[0] of hints file {source}" in message
    assert "terminal" not in message


def test_an_overrun_elsewhere_names_the_step_not_a_grammar_terminal() -> None:
    text = "a " * 500_000  # seconds of lexing in Python, a few times over at most
    with pytest.raises(Overrun) as overrun, cpu_limit(0.3):
        for _ in range(20):  # far more than the limit, yet bounded if it never fires
            GenericLexer().lex(text, 0, len(text))
    message = overrun_message(overrun.value)
    assert "time budget was used up during" in message and "(inputmend." in message
    assert "terminal" not in message


class _Finalized:
    """Garbage whose finalizer burns CPU time: the collector runs it, and an
    exception raised in it is printed and dropped by Python."""

    def __init__(self) -> None:
        self.cycle = self  # freed by the garbage collector, not at once

    def __del__(self) -> None:
        total = 0
        for number in range(20_000):
            total += number


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost raises
def test_an_overrun_lost_in_a_finalizer_is_raised_again() -> None:
    with pytest.raises(Overrun), cpu_limit(0.05):
        for _ in range(2_000):  # far more than the limit, yet bounded if it never fires
            for _ in range(10):
                _Finalized()
            gc.collect(0)  # the young garbage only: most of the time goes to the finalizers
            total = 0
            for number in range(2_000):  # and some outside them, where a raise is not lost
                total += number


class _PairedCallback:
    """A collection callback with state, as other libraries keep (timing each
    collection): an exception raised inside it breaks the pairing."""

    def __init__(self) -> None:
        self.started = False
        self.broken = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            total = 0
            for number in range(20_000):  # time spent inside the callback
                total += number
            self.started = True
        else:
            if not self.started:  # its start was broken off
                self.broken += 1
            self.started = False


def test_an_overrun_is_never_raised_while_the_garbage_collector_runs() -> None:
    callback = _PairedCallback()
    gc.callbacks.append(callback)
    try:
        with contextlib.suppress(Overrun), cpu_limit(0.05):
            for _ in range(500):  # bounded, whether the raise lands in it or after it
                for _ in range(10):
                    _Finalized()
                gc.collect(0)  # most of the time inside the collection
                total = 0
                for number in range(200):  # a little outside it
                    total += number
    finally:
        gc.callbacks.remove(callback)
    assert callback.broken == 0 and not callback.started


def test_the_collection_callbacks_stay_first_and_last_when_others_are_added() -> None:
    with cpu_limit(60):  # installs the timer, if no test did before
        pass
    added = _PairedCallback()
    gc.callbacks.append(added)
    gc.callbacks.insert(0, added)
    try:
        with cpu_limit(60):
            first, last = gc.callbacks[0], gc.callbacks[-1]
            assert getattr(first, "__name__", "") == "_collection_starts"
            assert getattr(last, "__name__", "") == "_collection_ends"
            assert gc.callbacks.count(added) == 2
    finally:
        while added in gc.callbacks:
            gc.callbacks.remove(added)

