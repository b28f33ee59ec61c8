"""The endgame table file: its format and the checks that keep a damaged file from being read.

A table file is two header lines, then the values (int16, little-endian)::

    rulebook_build endgame table
    {"checksum": "<sha256 of the values>", "format": 2, "material": [...], "rules": "...", ...}

The second line says what the file holds (variant, the fingerprint naming its values,
the material class, the number of values) and the SHA-256 of the values.  A file is used only
when every field is the one expected and the values hash to the checksum: a damaged, truncated
or foreign file is never read.  A damaged one is moved aside (``<name>.bin.damaged``) and
reported by name, so that neither the Python probes nor the compiled programs (which read the
folder) can use it; ``EndgameTables`` then rebuilds it where it builds that class, or does
without it.

Hashing a large file at every start would cost seconds (the 5- and 6-piece tables hold up to
5.5 GB each), so a file of more than ``ALWAYS_HASH_BYTES`` is hashed in full once, and a small
stamp beside it (``<name>.bin.verified``) records the file's size, inode and modification time
with the checksum; while those match, the stamp stands for the hash.  ``rulebook tables
--verify`` hashes every file again, stamps or not.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, Final

MAGIC: Final = b"rulebook_build endgame table\n"
ALWAYS_HASH_BYTES: Final = 64 << 20
CHUNK: Final = 16 << 20
DAMAGED: Final = ".damaged"
STAMP: Final = ".verified"

log = logging.getLogger("rulebook_build.tables")


class DamagedTable(Exception):
    """A table file whose values do not match its checksum."""


def digest_of(chunks: Iterable[bytes]) -> str:
    found = hashlib.sha256()
    for chunk in chunks:
        found.update(chunk)
    return found.hexdigest()


def _chunks(stream: BinaryIO) -> Iterable[bytes]:
    while chunk := stream.read(CHUNK):
        yield chunk


def header_line(fields: dict[str, object], checksum: str) -> bytes:
    return MAGIC + json.dumps({**fields, "checksum": checksum}, sort_keys=True).encode() + b"\n"


def write_whole(path: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` as the file ``path``, whole or not at all: into a temporary file beside
    it, renamed into place at the end."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            for chunk in chunks:
                stream.write(chunk)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write(path: Path, fields: dict[str, object], values: bytes) -> None:
    """Write a table whole or not at all."""
    write_whole(path, [header_line(fields, digest_of([values])), values])


def install(body: Path, path: Path, fields: dict[str, object]) -> None:
    """Make the values file ``body`` (a compiled build's output) the table ``path``, without
    holding it in memory: hash it, then copy it behind its header."""
    with body.open("rb") as source:
        checksum = digest_of(_chunks(source))
    with body.open("rb") as source:
        write_whole(path, itertools.chain([header_line(fields, checksum)], _chunks(source)))


def read_header(stream: BinaryIO) -> tuple[dict[str, object], int] | None:
    """The header's fields and the offset of the values; None when it is no table header."""
    if stream.read(len(MAGIC)) != MAGIC:
        return None
    line = stream.readline(4096)
    try:
        fields = json.loads(line)
    except ValueError:
        return None
    if not isinstance(fields, dict):
        return None
    return fields, len(MAGIC) + len(line)


def expect(stream: BinaryIO, fields: dict[str, object]) -> tuple[int, str] | None:
    """The offset of the values and the checksum of an open table file whose header says
    ``fields``; None when the file is no table of these (another format, rules or class)."""
    found = read_header(stream)
    if found is None:
        return None
    header, offset = found
    checksum = header.pop("checksum", None)
    if header != fields or not isinstance(checksum, str):
        return None
    return offset, checksum


def _identity(path: Path) -> dict[str, int]:
    status = path.stat()
    return {"size": status.st_size, "inode": status.st_ino, "mtime_ns": status.st_mtime_ns}


def check(
    path: Path, stream: BinaryIO, offset: int, checksum: str, *, always: bool = False
) -> None:
    """Raise ``DamagedTable`` unless the values of the open table hash to ``checksum``.  A large
    file with a matching stamp passes without hashing, unless ``always``."""
    size = os.fstat(stream.fileno()).st_size - offset
    stamp = path.with_name(path.name + STAMP)
    large = size > ALWAYS_HASH_BYTES
    if large and not always:
        try:
            if json.loads(stamp.read_text()) == {**_identity(path), "checksum": checksum}:
                return
        except (OSError, ValueError):
            pass
    stream.seek(offset)
    if digest_of(_chunks(stream)) != checksum:
        raise DamagedTable(f"{path}: its values do not match its checksum")
    if large:  # a read-only cache: hash again next time
        with contextlib.suppress(OSError):
            stamp.write_text(json.dumps({**_identity(path), "checksum": checksum}))


def set_aside(path: Path, reason: str) -> None:
    """Move a damaged table out of the way (so no program reads it) and say so."""
    target = path.with_name(path.name + DAMAGED)
    try:
        os.replace(path, target)
        path.with_name(path.name + STAMP).unlink(missing_ok=True)
        log.warning("damaged endgame table refused: %s; moved aside to %s", reason, target.name)
    except OSError:
        log.warning("damaged endgame table refused: %s (could not move it aside)", reason)


def copy_verified(source: Path, target: Path, fields: dict[str, object]) -> None:
    """Copy the table ``source`` to ``target`` (whole or not at all) if its header says
    ``fields`` and its values match its checksum; ``DamagedTable`` says why not otherwise."""
    with source.open("rb") as stream:
        found = expect(stream, fields)
        if found is None:
            raise DamagedTable(f"{source}: not a table of these rules")
        offset, checksum = found
        check(source, stream, offset, checksum, always=True)
        stream.seek(0)
        write_whole(target, _chunks(stream))
