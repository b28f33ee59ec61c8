"""The search's cache: one file per PDN file, under ``similar/`` in the cache folder.

Reading and replaying a file is the slow part of a search (a replay a game), so what a file
gave (its :class:`~rulebook_build.similar.records.FileRecord` and the bitsets of its entries,
``index.file_bitsets``) is kept in ``<cache>/similar/<digest of its path>.json.z``: zlib-packed
JSON, arrays and bitsets as base64 of their little-endian bytes. Nothing in it is executed
when it is read (no pickle): a damaged or foreign file is read as a missing one.

An entry is used only while the file is the one it was made from: the same resolved path,
size and modification time (nanoseconds), the same default variant, and this module's
``FORMAT``; anything else builds it again. Entries are written whole or not at all (a
temporary file renamed into place, as every cache of the project), so processes that share
the cache never read half an entry. An entry left by a file that has gone is never read again;
deleting ``similar/`` costs only the time to build it again.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import sys
import tempfile
import zlib
from array import array
from pathlib import Path
from typing import Final

from rulebook_build.cachedir import cache_root
from rulebook_build.similar.records import ENTRY_TYPECODES, Fault, FileRecord, Item

FORMAT: Final = 1
"""Raised when what is kept changes (the records, the bitsets, the replay), so old entries
are built again instead of misread."""
FOLDER: Final = "similar"

Bitsets = dict[str, int]


def folder() -> Path:
    """Where the entries are (it need not exist yet)."""
    return cache_root() / FOLDER


def stamp(path: Path, default: str | None) -> dict[str, object]:
    """What an entry must match to be used for ``path``: resolved path, size, modification
    time, the default variant. Raises ``OSError`` when the file cannot be looked at."""
    resolved = path.resolve()
    status = resolved.stat()
    return {
        "format": FORMAT,
        "path": str(resolved),
        "size": status.st_size,
        "mtime_ns": status.st_mtime_ns,
        "default": default,
    }


def entry_path(path: Path, default: str | None) -> Path:
    key = f"{path.resolve()}\0{default}".encode()
    return folder() / f"{hashlib.sha256(key).hexdigest()[:40]}.json.z"


def _pack(values: array[int]) -> str:
    copy = array(values.typecode, values)
    if sys.byteorder == "big":
        copy.byteswap()
    return base64.b64encode(copy.tobytes()).decode("ascii")


def _unpack(typecode: str, text: str) -> array[int]:
    values = array(typecode)
    values.frombytes(base64.b64decode(text))
    if sys.byteorder == "big":
        values.byteswap()
    return values


def _bits(value: int) -> str:
    return base64.b64encode(value.to_bytes((value.bit_length() + 7) // 8, "little")).decode()


def _unbits(text: str) -> int:
    return int.from_bytes(base64.b64decode(text), "little")


def _fault(found: Fault) -> list[object]:
    return [found.line, found.column, found.message, found.source_line]


def encode(record: FileRecord, bitsets: Bitsets, key: dict[str, object]) -> bytes:
    document = {
        "key": key,
        "items": [
            [
                item.line,
                item.problem,
                item.variant,
                [list(pair) for pair in item.tags],
                [[origin, target, list(captured)] for origin, target, captured in item.moves],
                item.first_number,
                item.first_entry,
                item.content,
            ]
            for item in record.items
        ],
        "entries": [
            _pack(column)
            for column in (record.entry_item, record.entry_ply, record.entry_turned, *record.masks)
        ],
        "bitsets": {name: _bits(value) for name, value in bitsets.items()},
        "errors": [_fault(found) for found in record.errors],
        "warnings": [_fault(found) for found in record.warnings],
    }
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode("utf-8"), 6)


def decode(data: bytes, key: dict[str, object]) -> tuple[FileRecord, Bitsets] | None:
    """The record and bitsets of an entry, or None when it is not the entry of ``key`` or
    cannot be read."""
    try:
        document = json.loads(zlib.decompress(data).decode("utf-8"))
        if document.get("key") != key:
            return None
        items = tuple(
            Item(
                line=int(line),
                problem=bool(problem),
                variant=str(variant),
                tags=tuple((str(name), str(value)) for name, value in tags),
                moves=tuple(
                    (int(origin), int(target), tuple(int(c) for c in captured))
                    for origin, target, captured in moves
                ),
                first_number=int(first_number),
                first_entry=int(first_entry),
                content=str(content),
            )
            for line, problem, variant, tags, moves, first_number, first_entry, content in (
                document["items"]
            )
        )
        columns = [
            _unpack(ENTRY_TYPECODES[min(index, 3)], text)
            for index, text in enumerate(document["entries"])
        ]
        if len(columns) != 7 or len({len(column) for column in columns}) != 1:
            return None
        record = FileRecord(
            items,
            columns[0],
            columns[1],
            columns[2],
            (columns[3], columns[4], columns[5], columns[6]),
            tuple(Fault(*found) for found in document["errors"]),
            tuple(Fault(*found) for found in document["warnings"]),
        )
        bitsets = {str(name): _unbits(text) for name, text in document["bitsets"].items()}
    except (ValueError, TypeError, KeyError, zlib.error, UnicodeDecodeError):
        return None
    return record, bitsets


def load(path: Path, default: str | None) -> tuple[FileRecord, Bitsets] | None:
    """The kept entry of ``path``, or None when there is none that fits the file as it is."""
    try:
        key = stamp(path, default)
        data = entry_path(path, default).read_bytes()
    except OSError:
        return None
    return decode(data, key)


def store(
    path: Path, default: str | None, record: FileRecord, bitsets: Bitsets, key: dict[str, object]
) -> None:
    """Keep the entry of ``path`` (made while the file matched ``key``), whole or not at all;
    a cache that cannot be written is left alone."""
    target = entry_path(path, default)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(encode(record, bitsets, key))
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
