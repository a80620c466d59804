"""Run every benchmark in this folder (``make bench``).

The black-box repair benchmark needs the small C JSON checker in
``subjects/json_check.c`` (exit 0 valid, 255 incomplete, 1 invalid, like the
FSynth study's subjects); it is compiled with ``gcc`` when available.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    "incremental_oracle.py",
    "completion.py",
    "repair_corpus.py",
    "everyday_damage.py",
    "ddset_compare.py",
    "lsp_latency.py",
    "records_bench.py",
]


def black_box(folder: Path) -> int:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        print("no C compiler: skipping the black-box repair benchmark")
        return 0
    binary = folder / "json_check"
    subprocess.check_call([compiler, "-O2", "-o", str(binary), str(HERE / "subjects/json_check.c")])
    print("\n# repair_corpus.py with a black-box program (subjects/json_check.c)\n", flush=True)
    return subprocess.call(
        [
            sys.executable,
            str(HERE / "repair_corpus.py"),
            "--formats",
            "json",
            "--corpora",
            "single,fresh-single",
            "--no-baselines",
            "--command",
            str(binary),
        ]
    )


if __name__ == "__main__":
    status = 0
    for script in SCRIPTS:
        print(f"\n# {script}\n", flush=True)
        status |= subprocess.call([sys.executable, str(HERE / script), *sys.argv[1:]])
    with tempfile.TemporaryDirectory() as folder:
        status |= black_box(Path(folder))
    sys.exit(status)
