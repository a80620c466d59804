"""The documented record-mode examples run as written (pandas, a Dask cluster)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.documentation import blocks


def example(marker: str) -> str:
    """The documented python block whose first line is ``marker``."""
    for block in blocks("python"):
        if block.text.startswith(marker):
            return block.text
    raise AssertionError(f"no example starting with {marker!r} in the documentation")


def test_the_pandas_example(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pandas", reason="pandas is not installed (make test installs it)")
    namespace: dict[str, Any] = {}
    exec(example("# pandas"), namespace)
    frame = namespace["frame"]
    assert list(frame["payload"]) == ['{"id": 1, "ok": true}', '{"id": 2, "ok": true}', '{"id": 3}']
    assert list(frame["status"]) == ["valid", "repaired", "repaired"]
    assert "repaired" in capsys.readouterr().out


def test_the_dask_example(
    dask_cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("dask.bag", reason="the Dask extra is not installed")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.jsonl").write_text('{"a": 1}\n{"a": [1, 2\n')
    (tmp_path / "logs" / "b.jsonl").write_text('{"b": tru}\n')
    code = example("# Dask").replace("tcp://scheduler:8786", dask_cluster.scheduler_address)
    namespace: dict[str, Any] = {}
    try:
        exec(code, namespace)
    finally:
        namespace["client"].close()
    written = sorted((tmp_path / "repaired").iterdir())
    lines = [line for path in written for line in path.read_text().splitlines()]
    assert lines == ['{"a": 1}', '{"a": [1, 2]}', '{"b": true}']
