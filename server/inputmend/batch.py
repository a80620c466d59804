"""Many files: expand folders, run a per-file job in parallel, show progress.

A job is a top-level function ``job(path, options) -> dict`` so that it can
run in a worker process; it must never raise (problems go into the dict), so
one bad file never stops the others.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, TextIO

from inputmend.config import find_config, load_config
from inputmend.grammar import registry
from inputmend.oracles.base import OracleConfigError

Job = Callable[[str, Any], dict[str, Any]]


def _has_oracle(path: Path) -> bool:
    if registry.for_extension(path) is not None:
        return True
    config = find_config(path)
    if config is None:
        return False
    try:
        return load_config(config).spec_for(path) is not None
    except OracleConfigError:
        return True  # let the job report the broken configuration


def expand(paths: list[str], *, every_file: bool) -> list[str]:
    """Files named directly, plus the files inside named folders (recursively,
    skipping hidden entries and backups): those with an oracle (bundled
    grammar for the extension or a ``.inputmend.toml`` rule), or every file
    when ``every_file`` (an oracle was given on the command line)."""
    files: list[str] = []
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            files.append(name)
            continue
        for folder, subfolders, entries in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for entry in sorted(entries):
                if entry.startswith(".") or ".orig" in entry:
                    continue
                candidate = Path(folder) / entry
                if every_file or _has_oracle(candidate):
                    files.append(str(candidate))
    return files


class Progress:
    """A one-line progress display on a terminal's stderr; silent otherwise."""

    def __init__(self, total: int, verb: str, stream: TextIO = sys.stderr) -> None:
        self.total = total
        self.verb = verb
        self.stream = stream
        self.done = 0
        self.enabled = total > 1 and stream.isatty()

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
    job: Job, files: list[str], options: Any, *, jobs: int, progress: Progress
) -> Iterator[dict[str, Any]]:
    """Results of ``job`` for each file, as they complete."""
    if jobs <= 1 or len(files) <= 1:
        for name in files:
            result = job(name, options)
            progress.advance(name)
            yield result
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(files)), mp_context=context) as pool:
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
