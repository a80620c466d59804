"""Child processes that never outlive what they serve.

* :func:`die_with_parent`: a worker or validator process asks the kernel to
  kill it when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``, through
  ctypes), then checks that the parent it was started by is still its
  parent: a parent killed while the child was starting is noticed too.
  Elsewhere a thread watches the parent's pid.
* :func:`exit_with_this_process`: the same for a program (a ``--command``
  validator), set between its fork and its exec.  What the program starts
  is ended by its process group's guard (:mod:`~inputmend.oracles.guard`).
* :func:`end_group`: kill a process group (a command and everything it
  started), whether or not its leader is still running.
* :func:`end_descendants`: a validator's process, made a *child subreaper*
  (orphans of its children are re-parented to it), kills whatever its
  validator started, after every call.
* :func:`never_import_from_cwd`: neither inputmend nor the Python processes
  it starts import modules from the working directory.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_SAFE_PATH = "PYTHONSAFEPATH"
_SAFE_PATH_ADDED = "INPUTMEND_ADDED_PYTHONSAFEPATH"
_INSTALLED_AT = Path(__file__).resolve().parents[2]  # the folder holding the package


@functools.cache
def _prctl_function() -> Callable[..., int] | None:
    """Linux's prctl from the C library; None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes.util  # here: it loads subprocess and tempfile, which a check does not need

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        function: Callable[..., int] = libc.prctl
    except (OSError, AttributeError):
        return None
    return function


def _prctl(option: int, value: int) -> bool:
    """Call Linux's prctl; False where it is not available or fails."""
    function = _prctl_function()
    return function is not None and int(function(option, value, 0, 0, 0)) == 0


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def die_with_parent(parent: int) -> None:
    """End this process as soon as ``parent`` (the pid that started it) dies."""
    if not _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL):
        threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request above
        os._exit(0)


def exit_with_this_process() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes a program die (SIGKILL) when this process
    dies, even by ``kill -9``; None where that cannot be had (not Linux).

    The C function is looked up here, in the parent: between fork and exec
    the child only calls it.  The signal comes when the *thread* that started
    the program ends; a validator's thread waits for its program, so that is
    never before the program is done.  If this process died before the
    request took effect, the child is no longer its child and exits."""
    function = _prctl_function()
    if function is None:
        return None
    prctl: Callable[..., int] = function
    parent = os.getpid()

    def in_the_child() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return in_the_child


def end_group(group: int) -> None:
    """Kill every process of a process group (nothing if it is empty)."""
    if group <= 1:  # 0 and 1 would mean our own group, or every process
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def become_subreaper() -> bool:
    """Adopt the orphans of this process's children (Linux), so that
    :func:`end_descendants` finds everything they started."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def _children() -> list[int]:
    """This process's children (Linux); empty where that cannot be known."""
    found: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as listing:
                found += [int(pid) for pid in listing.read().split()]
    except (OSError, ValueError):
        pass
    return found


def end_descendants() -> None:
    """Kill and reap every process this (subreaper) process started, and what
    they started: killing a child hands its own children to us, so repeat
    until none is left."""
    while children := _children():
        for pid in children:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def never_import_from_cwd() -> None:
    """Take the working directory off ``sys.path``, and keep the Python
    processes inputmend starts from putting it there: multiprocessing starts
    workers and validators with ``python -c``, which puts the working
    directory first, so a ``pickle.py`` or ``json.py`` in the folder being
    checked (or the editor's project) would run.  ``PYTHONSAFEPATH`` is
    what ``python -P`` sets; the user's own programs do not get it
    (:func:`program_environment`).  The folder inputmend itself was
    imported from stays (a development checkout run from ``server/``)."""
    here = os.path.realpath(os.getcwd())

    def harmless(entry: str) -> bool:
        resolved = os.path.realpath(entry or ".")
        return resolved != here or Path(resolved) == _INSTALLED_AT

    sys.path[:] = [entry for entry in sys.path if harmless(entry)]
    if not os.environ.get(_SAFE_PATH):
        os.environ[_SAFE_PATH] = "1"
        os.environ[_SAFE_PATH_ADDED] = "1"


def program_environment() -> dict[str, str] | None:
    """The environment for the user's own programs (commands): the one
    inputmend was started with (None: the current one is that)."""
    if os.environ.get(_SAFE_PATH_ADDED) != "1":
        return None
    return {k: v for k, v in os.environ.items() if k not in (_SAFE_PATH, _SAFE_PATH_ADDED)}
