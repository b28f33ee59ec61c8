"""Where rulebook_build keeps what it computes once: endgame tables and compiled programs.

The folder is ``$RULEBOOK_CACHE_DIR`` when that is set (the ``--cache-dir`` option of
``rulebook check`` and ``rulebook tables`` sets it), else the platform's user cache folder
(``platformdirs``: ``~/.cache/rulebook_build`` on Linux), so that an installed package, whose
own folder may be read-only, and every virtual environment share one copy of tables that take
minutes to build.

Several processes may fill the cache at once (two checks started together, the workers of a
batch): whatever one writes appears whole or not at all (a temporary file renamed into place),
and a build that writes working files holds ``exclusive`` on what it builds: one table pair of
a folder, so that pairs are built side by side (``rulebook tables --jobs``, ``--cluster``) and a
second process that wants the same pair waits, then uses it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

import platformdirs

if TYPE_CHECKING:  # the command line's; the browser's checker never parses arguments
    import argparse

ENVIRONMENT: Final = "RULEBOOK_CACHE_DIR"


def cache_root() -> Path:
    """The cache folder (it need not exist yet)."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_cache_dir("rulebook_build", appauthor=False))


def lock_file(folder: Path, name: str | None = None) -> Path:
    """``<folder>.lock``, or ``<folder>.locks/<name>.lock`` for one thing built there: beside
    the folder, which holds nothing but what is built."""
    if name is None:
        return folder.with_name(folder.name + ".lock")
    return locks_folder(folder) / f"{name}.lock"


def locks_folder(folder: Path) -> Path:
    """Where the locks of the things built in ``folder`` are (``lock_file``)."""
    return folder.with_name(folder.name + ".locks")


@contextlib.contextmanager
def exclusive(folder: Path, name: str | None = None) -> Iterator[None]:
    """Hold the lock of ``folder``, or of the thing called ``name`` built in it (``lock_file``):
    one process at a time builds it.  A process that dies lets go of its locks.  Locks are to be
    taken in one order (a table pair, then the smaller ones it needs), so that no two processes
    wait for each other.  Without POSIX locks (Windows) or a writable cache, nothing is locked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        target = lock_file(folder, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def add_cache_argument(
    parser: argparse.ArgumentParser, kind: Callable[[str], object] = str
) -> None:
    """``--cache-dir DIR``; ``kind`` reads and checks its value (the commands give
    ``cli.options.folder_to_write``)."""
    parser.add_argument(
        "--cache-dir",
        type=kind,
        metavar="DIR",
        help=f"the cache of tables and compiled programs (default: ${ENVIRONMENT}, else the "
        f"user's cache folder, now {cache_root()})",
    )


def use_cache_argument(args: argparse.Namespace) -> None:
    """Make ``--cache-dir`` the cache of everything this process does."""
    if args.cache_dir:
        os.environ[ENVIRONMENT] = str(Path(args.cache_dir).expanduser().resolve())
