"""A small file system of its own for a test: a tmpfs of a given size, or read-only.

Mounting needs root (CI runs as root, ``scripts/test.sh``); where the system does not allow it
(a developer's own account, a container without the right) the tests that need one skip, and
under CI, where mounting must work, they fail instead.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def _mounted(command: list[str], folder: Path, what: str) -> Iterator[Path]:
    """``folder`` with ``mount``'s ``command`` (its last argument) mounted on it, unmounted
    afterwards; skips where mounting is not allowed, fails under CI."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", *command, str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        why = f"cannot {what} here: {done.stderr.strip() or done.returncode}"
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI runs as root, where mounting must work)")
        pytest.skip(why)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def tmpfs(folder: Path, size: str) -> contextlib.AbstractContextManager[Path]:
    """``folder`` as the mount point of a tmpfs of ``size`` (``mount``'s units: ``300k``),
    unmounted afterwards."""
    return _mounted(
        ["-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs"], folder, "mount a tmpfs"
    )


def make_read_only(folder: Path) -> None:
    """Remount the tmpfs at ``folder`` read-only (root writes through a folder's mode bits,
    not through a read-only mount)."""
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def read_only_view(source: Path, folder: Path) -> contextlib.AbstractContextManager[Path]:
    """``source`` seen read-only at ``folder`` (a read-only bind mount: nothing is copied, and
    nothing written through it reaches ``source``); unmounted afterwards.  Skips as ``tmpfs``
    does where mounting is not allowed."""
    return _mounted(["--bind", "-o", "ro", str(source)], folder, "bind-mount")
