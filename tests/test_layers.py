"""The layering docs/architecture.md states, checked on the imports."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "server" / "inputmend"

# what each part may import of inputmend (besides itself)
ALLOWED = {
    "core": set(),
    "config": {"core", "grammar"},
    "grammar": {"core"},
    "oracles": {"core", "config", "grammar", "oracles"},
    "algorithms": {"core", "oracles", "grammar"},
    "repairs": {"core", "oracles", "grammar", "algorithms"},
    "services": {"core", "config", "oracles", "grammar", "algorithms", "repairs"},
    "api": {"core", "config", "oracles", "services"},
    "records": {"core", "config", "oracles", "grammar", "services"},
    "jobs": {"core", "config", "oracles", "services"},
    "cli": {"core", "config", "oracles", "grammar", "services", "records", "lsp.app"},
    "lsp": {"core", "config", "services", "jobs"},
}
PROTOCOL_LIBRARIES = ("lsprotocol", "pygls")


def _part(module: str) -> str:
    name = module.removeprefix("inputmend.")
    return name.split(".")[0]


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__main__.py")


def _parse(path: Path) -> ast.Module:
    """The module's syntax tree, read with the garbage collector paused.

    CPython 3.11 reports a spurious "AST constructor recursion depth
    mismatch" when a collection's callback fails while the tree is built
    (python/cpython#106905); distributed installs such a callback once other
    tests of this run have imported Dask."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    finally:
        if enabled:
            gc.enable()


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(_parse(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_follow_the_layers(path: Path) -> None:
    relative = path.relative_to(PACKAGE).with_suffix("")
    if relative.parts == ("__init__",):
        return
    own = relative.parts[0]
    allowed = ALLOWED[own]
    for name in _imports(path):
        if not name.startswith("inputmend.") or name.count(".") < 1:
            assert not name.startswith(PROTOCOL_LIBRARIES) or own == "lsp", (
                f"{relative}: LSP types below lsp/ ({name})"
            )
            continue
        target = name.removeprefix("inputmend.")
        if target.startswith(own) or target in {"__version__"}:
            continue
        assert any(target == a or target.startswith(a + ".") for a in allowed) or (
            _part(name) in allowed
        ), f"{relative} imports {name}"


# who may look inside a combined oracle for one of its parts: the oracles
# and the repair context (built once per request; the facade offers what the
# language server needs of it)
LOOKS_INSIDE_ORACLES = {"oracles", "repairs/context"}


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_repair_context_looks_inside_oracles(path: Path) -> None:
    relative = path.relative_to(PACKAGE).with_suffix("")
    if "inputmend.oracles.wrappers.find_part" in _imports(path):
        parts = relative.parts
        assert parts[0] in LOOKS_INSIDE_ORACLES or "/".join(parts) in LOOKS_INSIDE_ORACLES, (
            f"{relative} looks inside an oracle: read the repair context instead"
        )
