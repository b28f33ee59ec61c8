"""The compiled endgame-table builder (``native/tablebuild.c``) for International tables.

The pure-Python builder in ``endgame.py`` needs about 25 µs a slot: minutes for a 4-piece class,
days for all of 5 pieces.  The C program makes the same tables, slot for slot (the tests compare
them), in 0.3 to 1.6 µs a slot, which makes 5-piece tables practical.  It is compiled on first use
with the machine's C compiler (``$CC``, else ``cc`` or ``gcc``) into the cache folder, under a
name that carries a hash of its source, and run as a separate process, one class pair at a time.
Where no compiler is found the Python builder is used, as before.

Only International rules are built this way; Fries Spel (orthogonal captures, the valued majority
and the art. 17 counters) keeps the Python builder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

from rulebook_build.errors import RulebookError

SOURCE: Final = Path(__file__).resolve().parent / "native" / "tablebuild.c"
VARIANTS: Final = frozenset({"international"})
"""The variants whose rules ``tablebuild.c`` implements."""

Material = tuple[int, int, int, int]


def source_digest() -> str:
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]


def compiler() -> str | None:
    """The C compiler to use, or None."""
    wanted = os.environ.get("CC")
    if wanted:
        return shutil.which(wanted)
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    return None


def executable(folder: Path) -> Path | None:
    """The compiled builder in ``folder/bin``, compiling it first if needed; None without a
    compiler or when compiling fails (the Python builder is then used)."""
    target = folder / "bin" / f"tablebuild-{source_digest()}"
    if target.is_file() and os.access(target, os.X_OK):
        return target
    cc = compiler()
    if cc is None:
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tablebuild-")
        os.close(handle)
        done = subprocess.run(
            [cc, "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-o", temporary, str(SOURCE)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            os.unlink(temporary)
            return None
        os.replace(temporary, target)
    except OSError:
        return None
    return target


def build_pair(
    program: Path,
    folder: Path,
    material: Material,
    on_line: Callable[[str], None] | None = None,
    *,
    rules: bool = False,
) -> None:
    """Run the builder for ``material`` and its partner in ``folder``: it reads the tables of the
    classes the pair leads to from there and writes ``<class>.body`` files (values only).
    ``rules``: the tables with count rules (``EndgameTables(semantics="rules")``)."""
    command = [str(program), str(folder), *(str(n) for n in material)]
    if rules:
        command.append("rules")
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True) as process:
        assert process.stderr is not None
        last = ""
        for line in process.stderr:
            last = line.strip()
            if on_line is not None:
                on_line(last)
        status = process.wait()
    if status != 0:
        raise RulebookError(
            f"the endgame table builder failed on {material}: {last or f'exit status {status}'}",
            source=str(SOURCE),
        )
