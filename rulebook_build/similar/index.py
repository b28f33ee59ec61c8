"""The corpus as an inverted index: for each piece on each square, the positions that have it.

Every position of the corpus (an *entry*: a problem's start and each position of its solution,
every position of every game) gets a number. For each kind of piece (``geometry.KINDS``, in
the mover's frame) and each square, the index holds the set of entries with that piece there,
as a bitset (a Python int, one bit an entry): 200 bitsets, beside a few more (the entries a
position search looks at, each variant's entries, the entries of each piece count).

A query moved by a shift is a list of (kind, square): the entries holding all of them are the
AND of their bitsets, and the number each entry holds is their sum, added for every entry at
once by bit-sliced counters (``count``: bit plane j holds bit j of every entry's count), a few
big-int operations per piece whatever the corpus. This is YACPDB's matrix search (a table of
(problem, piece, square), joined over the board's symmetries) with the join done on bitsets:
where YACPDB pivots on the rarest piece to keep its join small, the AND here starts from the
rarest piece's bitset and stops as soon as nothing is left (``common``).

Each file's bitsets count its own entries from 0 and are kept with its record in the cache
(``cache.py``); the corpus's are the files' shifted into place, so changing one file rebuilds
one file's part.
"""

from __future__ import annotations

import bisect
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from rulebook_build.errors import RulebookError
from rulebook_build.rules import Variant, find_variant
from rulebook_build.similar import cache
from rulebook_build.similar.geometry import Masks, squares
from rulebook_build.similar.records import FileRecord, Item, read_file

MAX_PIECES: Final = 50
"""The most pieces a position can hold (one a square)."""


def posting(kind: int, square: int) -> str:
    """The name of the bitset of the entries with a piece of ``kind`` on ``square``."""
    return f"p{kind}:{square}"


def file_bitsets(record: FileRecord) -> dict[str, int]:
    """The bitsets of one file's entries (numbered from 0): a piece on a square
    (``posting``), ``positions`` (the entries a position search compares: a problem's start,
    every position of a game), ``v:<variant>``, ``n<count>`` (the entries with that many
    pieces)."""
    rows: dict[str, bytearray] = {}
    size = (record.entries + 7) // 8

    def mark(name: str, entry: int) -> None:
        row = rows.get(name)
        if row is None:
            row = rows[name] = bytearray(size)
        row[entry >> 3] |= 1 << (entry & 7)

    for entry in range(record.entries):
        item = record.items[record.entry_item[entry]]
        pieces = 0
        for kind in range(4):
            for square in squares(record.masks[kind][entry]):
                mark(posting(kind, square), entry)
                pieces += 1
        mark(f"n{pieces}", entry)
        mark(f"v:{item.variant}", entry)
        if not item.problem or record.entry_ply[entry] == 0:
            mark("positions", entry)
    return {name: int.from_bytes(row, "little") for name, row in rows.items()}


def members(bits: int) -> Iterator[int]:
    """The numbers of the set bits of ``bits``, ascending (bytes scanned in C, so a sparse
    set of a hundred thousand bits costs little)."""
    if not bits:
        return
    data = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
    for found in re.finditer(rb"[^\x00]", data):
        base = found.start() * 8
        byte = data[found.start()]
        while byte:
            low = byte & -byte
            yield base + low.bit_length() - 1
            byte ^= low


def count(bitsets: Iterable[int]) -> list[int]:
    """Bit-sliced sum of bitsets: plane j holds bit j of the number of bitsets each entry is
    in."""
    planes: list[int] = []
    for bits in bitsets:
        carry = bits
        for level, plane in enumerate(planes):
            planes[level] = plane ^ carry
            carry &= plane
            if not carry:
                break
        else:
            if carry:
                planes.append(carry)
    return planes


def exactly(planes: list[int], number: int, within: int) -> int:
    """The entries of ``within`` that ``count`` gave exactly ``number``."""
    if number >> len(planes):
        return 0
    found = within
    for level, plane in enumerate(planes):
        found &= plane if number >> level & 1 else ~plane
        if not found:
            break
    return found


def common(bitsets: list[int], within: int) -> int:
    """The entries of ``within`` in every one of ``bitsets``, the rarest first."""
    found = within
    for bits in sorted(bitsets, key=int.bit_count):
        found &= bits
        if not found:
            break
    return found


@dataclass(frozen=True, slots=True)
class Collection:
    """What ``collection.toml`` says of a file's folder, as far as the search reports it; a
    file without one is a collection of its own, named after the file."""

    key: str
    title: str
    composer_tag: str = "Composer"
    publication_tag: str = "Source"
    date: str | None = None
    variant: Variant | None = None


def _text(value: object) -> str:
    if isinstance(value, dict):
        for key in ("en", "nl"):
            if isinstance(value.get(key), str):
                return str(value[key])
        return next((str(v) for v in value.values()), "")
    return str(value)


def collection_of(path: Path) -> Collection:
    """The collection of a PDN file: its folder's ``collection.toml`` (title in English where
    given per language, composer and publication tags, date, variant)."""
    metadata = path.parent / "collection.toml"
    if not metadata.is_file():
        return Collection(str(path.resolve()), path.name)
    try:
        data = tomllib.loads(metadata.read_text(encoding="utf-8"))
        variant = find_variant(str(data["variant"])) if "variant" in data else None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise RulebookError(f"{error}", source=str(metadata)) from None
    except KeyError as error:
        raise RulebookError(f"{error.args[0]}", source=str(metadata)) from None
    except OSError as error:
        raise RulebookError(
            f"cannot read the file: {error.strerror}", source=str(metadata)
        ) from None
    date = str(data.get("date", "")).strip() or None
    return Collection(
        str(path.parent.resolve()),
        _text(data.get("title", path.parent.name)),
        str(data.get("composer_tag", "Composer")),
        str(data.get("publication_tag", "Source")),
        date,
        variant,
    )


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """A file of the corpus: as it was named (``source``, what a match's source begins with),
    its collection, its record, and where its entries and items begin in the corpus."""

    source: str
    resolved: str
    collection: Collection
    record: FileRecord
    first_entry: int
    first_item: int


Progress = Callable[[str, int, int], None]
"""Hears (file, files read so far, files to read) while the files the cache does not hold are
read, and ('', n, n) at the end."""


@dataclass(slots=True)
class Index:
    """The corpus: its files, the bitsets of all their entries, and which items are copies."""

    files: list[IndexedFile] = field(default_factory=list)
    bitsets: dict[str, int] = field(default_factory=dict)
    entries: int = 0
    items: int = 0
    hidden: int = 0
    """Entries of items that repeat an earlier item of their collection (a companion file)."""
    by_place: dict[tuple[str, int], int] = field(default_factory=dict)
    """(resolved path, line) -> item number."""
    by_content: dict[tuple[str, str], int] = field(default_factory=dict)
    """(collection key, content digest) -> the first item with it."""
    _starts: list[int] = field(default_factory=list)
    _item_starts: list[int] = field(default_factory=list)
    _at_most: list[int] = field(default_factory=list)

    def add(
        self, source: str, collection: Collection, record: FileRecord, bits: dict[str, int]
    ) -> None:
        resolved = str(Path(source).resolve())
        indexed = IndexedFile(source, resolved, collection, record, self.entries, self.items)
        for name, value in bits.items():
            self.bitsets[name] = self.bitsets.get(name, 0) | value << self.entries
        for number, item in enumerate(record.items):
            global_number = self.items + number
            self.by_place.setdefault((resolved, item.line), global_number)
            key = (collection.key, item.content)
            if key in self.by_content:
                self.hidden |= _range(self.entries + item.first_entry, len(item.moves) + 1)
            else:
                self.by_content[key] = global_number
        self.files.append(indexed)
        self._starts.append(self.entries)
        self._item_starts.append(self.items)
        self.entries += record.entries
        self.items += len(record.items)
        self._at_most = []

    def bits(self, name: str) -> int:
        return self.bitsets.get(name, 0)

    @property
    def everything(self) -> int:
        return (1 << self.entries) - 1

    def at_most(self, pieces: int) -> int:
        """The entries with at most ``pieces`` pieces."""
        if not self._at_most:
            running = 0
            for size in range(MAX_PIECES + 1):
                running |= self.bits(f"n{size}")
                self._at_most.append(running)
        return self._at_most[max(0, min(pieces, MAX_PIECES))]

    def locate(self, entry: int) -> tuple[IndexedFile, int]:
        """The file of a corpus entry and the entry's number in it."""
        number = bisect.bisect_right(self._starts, entry) - 1
        found = self.files[number]
        return found, entry - found.first_entry

    def item(self, number: int) -> tuple[IndexedFile, Item]:
        at = bisect.bisect_right(self._item_starts, number) - 1
        found = self.files[at]
        return found, found.record.items[number - found.first_item]

    def entry_masks(self, entry: int) -> Masks:
        found, local = self.locate(entry)
        return found.record.entry_masks(local)

    def item_entries(self, number: int) -> int:
        """The entries of item ``number``, as a bitset."""
        found, item = self.item(number)
        return _range(found.first_entry + item.first_entry, len(item.moves) + 1)


def _range(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def pdn_files(argument: str) -> list[tuple[str, Path]]:
    """The PDN files an argument names: the file, or every ``*.pdn`` in a folder and below,
    sorted, each with the name it is reported by (the folder as given, then its path).
    Raises ``RulebookError`` for a missing path or a folder without PDN files."""
    path = Path(argument)
    if path.is_dir():
        found = sorted(path.rglob("*.pdn"))
        if not found:
            raise RulebookError("no .pdn files in this folder or below", source=argument)
        return [(str(file), file) for file in found]
    if path.is_file():
        return [(argument, path)]
    raise RulebookError("no such file or folder", source=argument)


def record_of(
    path: Path, collection: Collection, *, use_cache: bool = True
) -> tuple[FileRecord, dict[str, int]]:
    """The record and bitsets of a file: from the cache when it holds the file as it is, else
    read (and kept for next time). Raises ``RulebookError`` when it cannot be read."""
    if use_cache:
        kept = cache.load(path, _default(collection))
        if kept is not None:
            return kept
    return _read(path, collection, use_cache=use_cache)


def _default(collection: Collection) -> str | None:
    return collection.variant.name if collection.variant is not None else None


def _read(
    path: Path, collection: Collection, *, use_cache: bool
) -> tuple[FileRecord, dict[str, int]]:
    """Read a file from its PDN text, and keep what it gave in the cache."""
    default = _default(collection)
    try:
        key = cache.stamp(path, default)
    except OSError:
        key = None
    record = read_file(path, collection.variant)
    bitsets = file_bitsets(record)
    if use_cache and key is not None:
        cache.store(path, default, record, bitsets, key)
    return record, bitsets


def build_index(
    sources: list[tuple[str, Path]],
    *,
    progress: Progress | None = None,
    use_cache: bool = True,
    errors: list[RulebookError] | None = None,
) -> Index:
    """The index of a corpus of PDN files (each with the name it is reported by), from the
    cache where it holds them; ``progress`` hears of the files read from their text. A file
    named twice is read once. What cannot be read is added to ``errors`` (located) when given,
    else raised."""
    seen: set[str] = set()
    found: list[tuple[str, Path, Collection, tuple[FileRecord, dict[str, int]] | None]] = []
    for source, path in sources:
        resolved = str(path.resolve())
        if resolved in seen:
            continue
        seen.add(resolved)
        try:
            collection = collection_of(path)
        except RulebookError as error:
            if errors is None:
                raise
            errors.append(error)
            continue
        kept = cache.load(path, _default(collection)) if use_cache else None
        found.append((source, path, collection, kept))
    missing = sum(1 for *_rest, kept in found if kept is None)
    done = 0
    index = Index()
    for source, path, collection, kept in found:
        if kept is None:
            if progress is not None:
                progress(source, done, missing)
            done += 1
            try:
                kept = _read(path, collection, use_cache=use_cache)
            except RulebookError as error:
                if errors is None:
                    raise
                errors.append(error)
                continue
        record, bits = kept
        if errors is not None:
            errors.extend(fault.error(source) for fault in record.errors)
        index.add(source, collection, record, bits)
    if progress is not None and missing:
        progress("", missing, missing)
    return index
