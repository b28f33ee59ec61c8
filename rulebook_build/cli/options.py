"""The kinds of value the options of the ``rulebook`` commands take, checked where they are read.

Each maker here returns an argparse ``type=``: it turns the option's text into its value, or
raises ``argparse.ArgumentTypeError`` saying what the option takes (its range, or the kind of
path), and argparse then prints ``rulebook CMD: error: argument --OPTION: ...`` with the usage
and exits 2.  So a bad value stops the command before it does anything, with the option named,
and nothing later has to guard against NaN, infinity, a negative count or a folder where a file
belongs.

Numbers are read as plain ASCII decimals (``float('nan')``, ``int('١')`` and ``'1_0'`` are not
accepted as a count or a time); a path may hold any character but NUL, which no file name holds.

``jobs_default`` is the default of the ``--jobs`` options: the cores this process may run on
(``binaries.machine_cores``), clamped to the largest value the option takes, so that no
machine is refused its own default.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Final

from rulebook_build.engine import binaries

MAX_JOBS: Final = 1024
"""The most processes a ``--jobs`` option starts: more than the cores of any one machine a
federation would rent (192 and 256 are sold), few enough that a typing slip (``--jobs 10000``)
does not start ten thousand processes."""

_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
_ADDRESS = re.compile(r"([a-z][a-z0-9+.-]*://)?[A-Za-z0-9._\-\[\]:]+", re.ASCII)
_LONGEST_NUMBER: Final = 40
"""A number of more characters than this is refused unread (``int`` refuses 4,300 digits with
an error of its own)."""


def _shown(text: str) -> str:
    """The value as the message shows it: quoted, control characters escaped, cut short."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _range(low: float, high: float, *, above: bool, unit: str) -> str:
    lower = f"greater than {low:g}" if above else f"{low:g} or more"
    return f"a {unit} {lower} and at most {high:g}" if unit else f"{lower} and at most {high:g}"


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An integer from ``low`` to ``high``, both included."""

    def parse(text: str) -> int:
        stripped = text.strip()
        if len(stripped) <= _LONGEST_NUMBER and _INTEGER.fullmatch(stripped):
            value = int(stripped)
            if low <= value <= high:
                return value
        raise argparse.ArgumentTypeError(
            f"must be a whole number from {low:,} to {high:,}, not {_shown(text)}"
        )

    parse.__name__ = "whole number"
    return parse


def number(
    low: float, high: float, *, above: bool = False, unit: str = ""
) -> Callable[[str], float]:
    """A finite decimal number from ``low`` (excluded with ``above``) to ``high``; ``unit``
    names what it counts in the message ("number of seconds")."""

    def parse(text: str) -> float:
        stripped = text.strip()
        if len(stripped) <= _LONGEST_NUMBER and _DECIMAL.fullmatch(stripped):
            value = float(stripped)
            if math.isfinite(value) and (value > low if above else value >= low) and value <= high:
                return value
        raise argparse.ArgumentTypeError(
            f"must be {_range(low, high, above=above, unit=unit)}, not {_shown(text)}"
        )

    parse.__name__ = "number"
    return parse


def _path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("must be a path, not an empty text")
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"no path holds a NUL character: {_shown(text)}")
    return Path(text).expanduser()


def _stat(path: Path, text: str) -> os.stat_result | None:
    """The path's status, None when nothing is there; a path the system refuses (too long, a
    file where a folder is on the way) is refused with the system's reason."""
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        if isinstance(error, NotADirectoryError):
            return None  # a file on the way: the checks below name it
        raise argparse.ArgumentTypeError(f"{_shown(text)}: {reason}") from None


def _existing(text: str, kind: str, other: str, wanted: Callable[[int], bool]) -> Path:
    """A path that is there and of ``kind`` (its mode passes ``wanted``), read with one stat."""
    path = _path(text)
    status = _stat(path, text)
    if status is None:
        raise argparse.ArgumentTypeError(f"no such {kind}: {_shown(text)}")
    if not wanted(status.st_mode):
        raise argparse.ArgumentTypeError(f"must be a {kind}, and {_shown(text)} is a {other}")
    return path


def existing_file(text: str) -> Path:
    """A file that is there (not a folder)."""
    return _existing(text, "file", "folder", stat.S_ISREG)


def existing_folder(text: str) -> Path:
    """A folder that is there."""
    return _existing(text, "folder", "file", stat.S_ISDIR)


def existing_path(text: str) -> Path:
    """A file or a folder that is there."""
    path = _path(text)
    if _stat(path, text) is None:
        raise argparse.ArgumentTypeError(f"no such file or folder: {_shown(text)}")
    return path


def _nearest_existing(path: Path) -> Path:
    for folder in (path, *path.absolute().parents):
        if folder.exists():
            return folder
    return Path("/")  # pragma: no cover - the root is always there


def folder_to_write(text: str) -> Path:
    """A folder to write into: there, or to be made (no file in its place or on its way)."""
    path = _path(text)
    status = _stat(path, text)
    if status is not None and not path.is_dir():
        raise argparse.ArgumentTypeError(f"must be a folder, and {_shown(text)} is a file")
    found = _nearest_existing(path.absolute())
    if not found.is_dir():
        raise argparse.ArgumentTypeError(
            f"cannot make the folder {_shown(text)}: {found} is a file"
        )
    return path


def file_to_write(text: str) -> Path:
    """A file to write: not a folder, in a folder that is there."""
    path = _path(text)
    status = _stat(path, text)
    if status is not None and path.is_dir():
        raise argparse.ArgumentTypeError(f"must be a file, and {_shown(text)} is a folder")
    if not path.absolute().parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"the folder of {_shown(text)} does not exist (or is not a folder)"
        )
    return path


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address: ``tcp://HOST:PORT`` (or another scheme, or ``HOST:PORT``)."""
    stripped = text.strip()
    if not _ADDRESS.fullmatch(stripped) or len(stripped) > 255:
        raise argparse.ArgumentTypeError(
            f"must be a scheduler's address such as tcp://HOST:PORT, not {_shown(text)}"
        )
    return stripped


def jobs_default(limit: int = MAX_JOBS) -> int:
    """The default of a ``--jobs`` option: this machine's cores, at most ``limit``."""
    return max(1, min(binaries.machine_cores(), limit))
