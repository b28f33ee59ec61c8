"""``rulebook check --update VERDICTS``: judge some problems into a stored verdicts file.

A full refresh (``rulebook check --json ... problems/ > problems/verdicts.jsonl``) writes one
line per problem, in the order it reads them: the files sorted by path (folders and
subfolders), the games in each file's order.  ``--update`` judges only the files it is given
and writes the file again with

- every record of those files replaced by this run's records (a problem removed from such a
  file loses its record; a problem that could not be judged, bad input, gets none);
- every other record kept, line for line as it was;
- all of them in the order a full run writes them, by the path and line of each ``source``.

So the file equals a full run's (each line's ``seconds`` aside), when the other records are
current.  The file is written whole beside itself and renamed over the old one: an interrupted
run leaves the old file as it was, never half a file.  Paths in ``source`` are compared as
files (a relative path is read from the working folder, as a full run writes it): run
``--update`` from the folder a full refresh runs from, the repository's root.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulebook_build.errors import RulebookError


@dataclass(frozen=True, slots=True)
class Record:
    """One line of the verdicts file: its text as written, and where its problem is."""

    text: str
    file: Path
    """The problem's file, resolved."""
    line: int

    @property
    def order(self) -> tuple[tuple[str, ...], int]:
        """Where a full run writes it: files in path order (as ``sorted(rglob)`` gives them),
        then by line."""
        return self.file.parts, self.line


def record(text: str, *, where: str = "<record>", number: int | None = None) -> Record:
    """The record of one JSON line, located by its ``source`` (``path:line``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RulebookError(f"not a JSON line ({error.msg})", source=where, line=number) from None
    source = data.get("source") if isinstance(data, dict) else None
    path, _, line = source.rpartition(":") if isinstance(source, str) else ("", "", "")
    if not path or not line.isdigit():
        raise RulebookError(
            "not a verdict 'rulebook check --json' writes: no 'source' of the form 'path:line'",
            source=where,
            line=number,
        )
    return Record(text, Path(path).resolve(), int(line))


def read_records(path: Path) -> list[Record]:
    """The records of the verdicts file ``path`` (none when it does not exist yet)."""
    if not path.absolute().parent.is_dir():
        raise RulebookError("--update: its folder does not exist", source=str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as error:
        raise RulebookError(f"cannot read it: {error.strerror}", source=str(path)) from None
    return [
        record(line, where=str(path), number=number)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]


@dataclass(frozen=True, slots=True)
class Merged:
    records: list[Record]
    added: int
    replaced: int
    """Records of the judged files that were in the old file (each replaced or dropped)."""
    kept: int


def merge(old: list[Record], new: list[Record], judged: set[Path]) -> Merged:
    """The old records of files not in ``judged`` (resolved paths) and the new records, in the
    order a full run writes them."""
    kept = [r for r in old if r.file not in judged]
    merged = sorted([*kept, *new], key=lambda r: r.order)  # stable: a tie keeps its order
    return Merged(merged, len(new), len(old) - len(kept), len(kept))


def write_atomically(path: Path, records: list[Record]) -> None:
    """Write the records into a new file beside ``path``, then rename it over ``path``."""
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise RulebookError(f"cannot write beside it: {error.strerror}", source=str(path)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.writelines(r.text + "\n" for r in records)
            stream.flush()
            os.fsync(stream.fileno())
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        os.chmod(name, mode)
        os.replace(name, path)
    except OSError as error:
        Path(name).unlink(missing_ok=True)
        raise RulebookError(
            f"not written ({error.strerror}): the file is as it was", source=str(path)
        ) from None
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
