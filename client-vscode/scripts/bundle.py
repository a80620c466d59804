"""Fills ``client-vscode/bundled/libs`` with the language server and its Python
dependencies, which the vsix then carries (``bundled/tool/server.py`` runs them).

    python scripts/bundle.py                      # universal: pure Python only
    python scripts/bundle.py --target linux-x64   # adds that platform's compiled parts

The server is installed from this repository, its dependencies from the package
index, all with ``pip install --target`` (the extension needs no network at run
time).  The universal bundle takes pure-Python wheels only (``--platform any``):
the server answers without ``regex``, ``Levenshtein`` and its C scan loop (see
``inputmend.grammar.patterns`` and ``inputmend.core.levenshtein``).  A target adds
the wheels of the compiled dependencies for that platform and each Python of
:data:`PYTHONS`, side by side (their file names carry the Python version); and
the C scan loop when the target is this machine's platform, built for the Python
that runs this script, since it cannot be cross-compiled here.
"""

from __future__ import annotations

import argparse
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from email.parser import Parser
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
REPO = CLIENT.parent
LIBS = CLIENT / "bundled" / "libs"

PYTHONS = ("3.11", "3.12", "3.13", "3.14")
"""The Pythons a per-platform bundle carries compiled dependencies for."""

COMPILED = ("regex", "python-levenshtein")
"""The server's dependencies that are compiled (with what they pull in: Levenshtein, rapidfuzz)."""

TARGETS: dict[str, tuple[str, ...]] = {
    "linux-x64": ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_28_x86_64"),
    "linux-arm64": ("manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64"),
    "alpine-x64": ("musllinux_1_1_x86_64", "musllinux_1_2_x86_64"),
    "darwin-x64": ("macosx_10_9_x86_64", "macosx_10_13_x86_64", "macosx_10_9_universal2"),
    "darwin-arm64": ("macosx_11_0_arm64", "macosx_10_9_universal2"),
    "win32-x64": ("win_amd64",),
    "win32-arm64": ("win_arm64",),
}
"""VS Code's platform targets, and the wheel platform tags that fit each."""

BINARY_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")


def host_target() -> str | None:
    """This machine's VS Code target, when it is one of :data:`TARGETS`."""
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine().lower()
    )
    system = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform)
    if machine is None or system is None:
        return None
    if system == "linux" and platform.libc_ver()[0] != "glibc":
        system = "alpine"
    target = f"{system}-{machine}"
    return target if target in TARGETS else None


def _pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def requirements(libs: Path) -> list[str]:
    """The installed server's own requirements (no extras), from its metadata."""
    (metadata,) = libs.glob("inputmend-*.dist-info/METADATA")
    message = Parser().parsestr(metadata.read_text(encoding="utf-8"))
    return [
        requirement
        for requirement in message.get_all("Requires-Dist") or []
        if "extra ==" not in requirement
    ]


def project_name(requirement: str) -> str:
    """The normalized project name of a requirement (``python-Levenshtein>=0.25`` ...)."""
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def binaries(folder: Path) -> list[Path]:
    """Compiled files under ``folder``."""
    return sorted(path for path in folder.rglob("*") if path.name.endswith(BINARY_SUFFIXES))


def bundle(target: str | None, libs: Path = LIBS) -> None:
    """Rebuild ``libs`` for ``target`` (None: the universal bundle)."""
    shutil.rmtree(libs, ignore_errors=True)
    libs.mkdir(parents=True)
    _pip("install", "--quiet", "--no-compile", "--no-deps", "--target", str(libs), str(REPO))
    if target is None or target != host_target():
        for native in binaries(libs / "inputmend"):
            native.unlink()  # built for this machine only
    needed = requirements(libs)
    pure = [r for r in needed if project_name(r) not in COMPILED]
    compiled = [r for r in needed if project_name(r) in COMPILED]
    wheels_only = ["--quiet", "--no-compile", "--only-binary=:all:"]
    _pip(
        "install",
        *wheels_only,
        "--target",
        str(libs),
        *("--platform", "any", "--implementation", "py", "--abi", "none"),
        *("--python-version", PYTHONS[0]),
        *pure,
    )
    if target is not None:
        tags = [arg for tag in TARGETS[target] for arg in ("--platform", tag)]
        with tempfile.TemporaryDirectory() as scratch:
            for version in PYTHONS:
                abi = "cp" + version.replace(".", "")
                into = Path(scratch) / abi
                _pip(
                    "install",
                    *wheels_only,
                    "--target",
                    str(into),
                    *tags,
                    *("--implementation", "cp", "--abi", abi, "--python-version", version),
                    *compiled,
                )
                shutil.copytree(into, libs, dirs_exist_ok=True)
    shutil.rmtree(libs / "bin", ignore_errors=True)  # console scripts of this machine
    for cache in list(libs.rglob("__pycache__")):
        shutil.rmtree(cache)
    if target is None and binaries(libs):
        raise SystemExit(f"compiled files in the universal bundle: {binaries(libs)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--target",
        choices=sorted(TARGETS),
        help="a VS Code platform target: add its compiled dependencies (default: universal)",
    )
    options = parser.parse_args()
    bundle(options.target)
    size = sum(path.stat().st_size for path in LIBS.rglob("*") if path.is_file())
    print(f"bundled/libs for {options.target or 'any platform'}: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
