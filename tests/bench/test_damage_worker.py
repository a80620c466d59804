"""The engine worker of the everyday-damage benchmark, run as the benchmark runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_worker_repairs_with_the_engine_on_pythonpath(tmp_path: Path) -> None:
    cases = [
        {"id": "a", "grammar": "json", "text": '{"a" 1}', "top": 5},
        {"id": "b", "grammar": "json", "text": "[1, 2", "top": 1, "alone": True, "repeat": 2},
        {"id": "c", "grammar": "no-such-grammar", "text": "x"},
    ]
    request, answer = tmp_path / "in.json", tmp_path / "out.json"
    request.write_text(json.dumps({"timeout": 10, "jobs": 1, "cases": cases}))
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    worker = ROOT / "bench" / "damage" / "worker.py"
    subprocess.run(
        [sys.executable, str(worker), str(request), str(answer)],
        env=environment,
        check=True,
        timeout=120,
    )
    results = json.loads(answer.read_text())
    assert Path(results["engine"]).is_relative_to(ROOT / "server")
    by_id = {result["id"]: result for result in results["results"]}
    assert json.loads(by_id["a"]["repairs"][0]) == {"a": 1}
    assert by_id["a"]["error"] is None
    assert len(by_id["b"]["times"]) == 2 and len(by_id["b"]["repairs"]) == 1
    assert json.loads(by_id["b"]["repairs"][0])
    assert by_id["c"]["repairs"] == [] and "grammar" in by_id["c"]["error"]
