"""Run one inputmend engine over benchmark cases: ``python worker.py IN OUT``.

The engine is whatever ``inputmend`` is first on ``sys.path``: the benchmark
sets ``PYTHONPATH`` to this checkout's ``server/`` or to another revision's,
so both engines are measured by the same code on the same machine.  This file
therefore imports nothing from the benchmark and only the long-standing public
pieces of inputmend (the repair service, the incremental grammar oracle,
``Budget``), wherever the engine's revision keeps them (:func:`engine`).

IN is JSON: ``{"timeout": S, "jobs": N, "cases": [{"id", "grammar", "text",
"top", "repeat", "alone"}]}``.  Cases with ``alone`` run one after another
after the others (timings of large documents); ``repeat`` runs a case several
times (a fresh oracle each time).  OUT gets ``{"engine": PATH, "results":
[{"id", "repairs": [TEXT...], "input_valid", "times": [S...], "error"}]}``.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def engine() -> tuple[Any, Any, Any]:
    """The engine's ``repair`` function, incremental grammar oracle class and
    ``Budget``, from the modules its revision keeps them in (the layout of
    inputmend changed over time; both are measured by this same file)."""
    import importlib

    def first(*places: tuple[str, str]) -> Any:
        for module, name in places:
            try:
                return getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError):
                continue
        raise ImportError(f"none of {[f'{m}.{n}' for m, n in places]}")

    repair = first(("inputmend.services", "repair"), ("inputmend.api", "repair"))
    oracle = first(
        ("inputmend.oracles.incremental", "IncrementalGrammarOracle"),
        ("inputmend.grammar", "IncrementalGrammarOracle"),
    )
    budget = first(("inputmend", "Budget"), ("inputmend.oracles.wrappers", "Budget"))
    return repair, oracle, budget


def work_bound() -> int | None:
    """The engine's default work bound (oracle runs), if its revision has one:
    each engine runs with its own defaults, ``timeout`` being the time cap."""
    try:
        from inputmend.config import defaults
    except ImportError:
        return None
    bound: int | None = getattr(defaults, "RUN_MAX_TESTS", None)
    return bound


def run_case(case: dict[str, Any], timeout: float) -> dict[str, Any]:
    repair, IncrementalGrammarOracle, Budget = engine()
    bound = work_bound()
    times: list[float] = []
    repairs: list[str] = []
    valid = False
    try:
        for _ in range(case.get("repeat", 1)):
            oracle = IncrementalGrammarOracle(case["grammar"])
            started = time.perf_counter()
            result = repair(
                case["text"],
                oracle,
                budget=Budget(timeout_s=timeout, max_tests=bound),
                top=case.get("top", 5),
            )
            times.append(time.perf_counter() - started)
            repairs = [repair.text for repair in result.repairs]
            valid = result.input_valid
    except Exception as error:  # noqa: BLE001 - an engine failure is a result
        return {
            "id": case["id"],
            "repairs": [],
            "input_valid": False,
            "times": times,
            "error": f"{type(error).__name__}: {error}",
        }
    return {
        "id": case["id"],
        "repairs": repairs,
        "input_valid": valid,
        "times": times,
        "error": None,
    }


def _run(arguments: tuple[dict[str, Any], float]) -> dict[str, Any]:
    return run_case(*arguments)


def main() -> None:
    source, target = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as handle:
        request = json.load(handle)
    try:
        import inputmend

        engine()
    except ImportError as error:
        sys.exit(f"this inputmend lacks what the benchmark calls: {error}")
    timeout, cases = request["timeout"], request["cases"]
    together = [(case, timeout) for case in cases if not case.get("alone")]
    with ProcessPoolExecutor(max_workers=request["jobs"]) as pool:
        results = list(pool.map(_run, together, chunksize=1))
    results += [run_case(case, timeout) for case in cases if case.get("alone")]
    with open(target, "w", encoding="utf-8") as handle:
        json.dump({"engine": inputmend.__file__, "results": results}, handle)


if __name__ == "__main__":
    main()
