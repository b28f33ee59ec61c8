"""Processes that end with their command.

``rulebook check --jobs`` and ``rulebook tables`` start worker processes, and those start the
compiled programs (the proof search, the table builder, the packer).  When the command stops,
whatever stops it (Ctrl-C, SIGTERM from a CI time-out or a closed terminal, the kernel's
out-of-memory killer, SIGKILL), none of them may go on working: a search would keep a core
busy and a builder would keep writing into the cache.

On Linux each child asks the kernel to kill it when its parent ends
(``prctl(PR_SET_PDEATHSIG, SIGKILL)``), and ends at once if the parent is already gone (the
parent may have died between the fork and the request).  That holds even when the parent is
killed with SIGKILL, where no handler of ours runs.  A child started by a worker dies with the
worker, so a whole tree ends with the command.  The kernel sends the signal when the *thread*
that started the child ends: the children here are started by a thread that waits for them.

Our compiled programs ask it themselves, first thing (``engine/native/lifetime.h``), told the
parent's process id in ``RULEBOOK_PARENT`` (:func:`program_options`): Python then starts them
with ``vfork``, where a function run between fork and exec (:func:`child_options`, for other
programs: the C compiler, Zig) makes it fork the whole interpreter, some 90 ms a start for a
process with large tables mapped, which the proof search is started for again and again.

Elsewhere :func:`child_options` adds nothing and the children end when their pipes close.
Whatever a build was writing is a temporary file or a working file under a lock, which the
next run replaces (``cachedir.py``).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from functools import partial
from typing import Any, Final

PR_SET_PDEATHSIG: Final = 1


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None  # ctypes is not even loaded (the browser's Python has no processes)
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        prctl: Callable[..., int] = libc.prctl
    except (OSError, AttributeError):
        return None
    return prctl


_PRCTL: Final = _load_prctl()
"""Resolved once in the parent, so that the child calls it without loading anything."""


def end_with_parent(parent: int) -> None:
    """In a child of ``parent``: be killed when the parent ends, and end now if it has."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def child_options() -> dict[str, Any]:
    """Keyword arguments for :class:`subprocess.Popen` (and ``run``) that tie the child's life
    to this process's."""
    if _PRCTL is None:
        return {}
    return {"preexec_fn": partial(end_with_parent, os.getpid())}


def pool_options() -> dict[str, Any]:
    """Keyword arguments for :class:`concurrent.futures.ProcessPoolExecutor` whose workers end
    with this process."""
    return {"initializer": end_with_parent, "initargs": (os.getpid(),)}


PARENT_VARIABLE: Final = "RULEBOOK_PARENT"
"""The environment variable that tells a compiled program of ours its parent's process id."""


def program_options() -> dict[str, Any]:
    """Keyword arguments for :class:`subprocess.Popen` (and ``run``) that start one of our
    compiled programs (``engine/native``), which ties its own life to this process's (on Linux;
    elsewhere it ends when its pipes close)."""
    if _PRCTL is None:
        return {}
    return {"env": {**os.environ, PARENT_VARIABLE: str(os.getpid())}}
