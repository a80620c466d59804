"""Builds inputmend's C extension (server/inputmend/grammar/_native.c) with the
installing interpreter's compiler, beside the package's Python files.

The extension only makes the incremental scan faster; without a C compiler
(or when the build fails) the package installs and works in Python alone,
and this says so.  An editable install (``pip install -e .``, as ``make``
does) finds the built module in ``server/inputmend``; a wheel carries it.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("server/inputmend/grammar/_native.c")


def build_extension(root: Path) -> Path | None:
    """Compile the extension in place; its path, or None when it could not be built."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = root / SOURCE.with_name("_native" + suffix)
    compiler = shlex.split(sysconfig.get_config_var("CC") or "cc")
    command = [
        *compiler,
        "-O2",
        "-shared",
        "-fPIC",
        f"-I{sysconfig.get_paths()['include']}",
        str(root / SOURCE),
        "-o",
        str(target),
    ]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        print(
            f"inputmend: the C extension was not built ({detail.strip()[:500]}); "
            "the scan runs in Python alone",
            file=sys.stderr,
        )
        return None
    return target


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Hatchling's hook: build the extension before the wheel is made."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        built = build_extension(Path(self.root))
        if built is None:
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":  # an editable install reads server/inputmend itself
            build_data["force_include"][str(built)] = f"inputmend/grammar/{built.name}"
