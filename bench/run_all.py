"""Run every benchmark in this folder (``make bench``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ["incremental_oracle.py", "repair_corpus.py", "ddset_compare.py", "lsp_latency.py"]

if __name__ == "__main__":
    status = 0
    for script in SCRIPTS:
        path = HERE / script
        if not path.exists():
            continue
        print(f"\n# {script}\n", flush=True)
        status |= subprocess.call([sys.executable, str(path), *sys.argv[1:]])
    sys.exit(status)
