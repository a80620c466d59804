"""Many files: run a per-file job in parallel, show progress.

A job is a top-level function ``job(path, options) -> dict`` so that it can
run in a worker process; it must never raise (problems go into the dict), so
one bad file never stops the others.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from inputmend.oracles.children import die_with_parent

Job = Callable[[str, Any], dict[str, Any]]


class ProgressBar:
    """A one-line progress display on a terminal's stderr; silent otherwise."""

    def __init__(self, total: int, verb: str, stream: TextIO | None = None) -> None:
        self.total = total
        self.verb = verb
        self.stream = sys.stderr if stream is None else stream  # the one of now, not of import
        self.done = 0
        self.enabled = total > 1 and self.stream.isatty()

    def _draw(self, name: str) -> None:
        width = 24
        filled = width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (width - filled)
        line = f"[{bar}] {self.done}/{self.total} {self.verb} {name}"
        self.stream.write("\r" + line[:100].ljust(100))
        self.stream.flush()

    def advance(self, name: str) -> None:
        self.done += 1
        if self.enabled:
            self._draw(name)

    def clear(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def run(
    job: Job, files: list[str], options: Any, *, jobs: int, progress: ProgressBar
) -> Iterator[dict[str, Any]]:
    """Results of ``job`` for each file, as they complete."""
    if jobs <= 1 or len(files) <= 1:
        for name in files:
            result = job(name, options)
            progress.advance(name)
            yield result
        return
    import multiprocessing  # here: one file (the usual check) needs no process pool
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(files)),
        mp_context=context,
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = {pool.submit(job, name, options): name for name in files}
        try:
            for future in as_completed(futures):
                name = futures[future]
                try:
                    result = future.result()
                except Exception as error:  # noqa: BLE001 - a dead worker is one file's problem
                    result = {"file": name, "problem": f"worker failed: {error}"}
                progress.advance(name)
                yield result
        except BaseException:
            for future in futures:
                future.cancel()
            raise
