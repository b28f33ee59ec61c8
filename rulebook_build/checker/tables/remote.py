"""Compact tables read a block at a time from a website, each block checked before use.

The check page judges a problem with the tables ``rulebook check`` uses (International to 5
pieces, Frisian to 4: 0.3 GB), and a check touches a few hundred of their blocks, so the
browser fetches only those, with HTTP Range requests against the static site, as SQLite
databases are queried from static hosting (sql.js-httpvfs).  The site publishes, per variant:

* the compact files themselves (``compact.py``: ``<class>.pack``, zlib blocks of 4,096 codes);
* per class a *block index* ``<class>.sums``: for each block its offset and length in the
  ``.pack`` file and the SHA-256 of its bytes (:data:`ENTRY`, 44 bytes), in chunks of
  :data:`CHUNK` entries;
* ``tables-<variant>.json`` (:func:`manifest`): the classes, their sizes and blocks, and the
  SHA-256 of every chunk of their block index.  The page checks this file's own SHA-256,
  written into the page by the site build, before it uses it.

So every byte the search reads is checked: the manifest by the page, a chunk of a block index
by the manifest, a block by its chunk, and the codes a block unpacks to by their count.  The
site build makes the block index from a compact file whose whole checksum it verified first.

:class:`RemoteCompactTable` reads such a table through a ``fetch(name, start, end)`` function
(the page's: a synchronous Range request in its worker; the tests': a file), and
:func:`site_checker_tables` makes of the classes the :class:`CheckerTables` a judgement uses,
with the compiled search of a :class:`~rulebook_build.checker.wasm.Host` where there is one.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from rulebook_build.checker import wasm
from rulebook_build.checker.tables import compact, tablefile
from rulebook_build.checker.tables.endgame import EndgameTables, Semantics, Values
from rulebook_build.checker.tables.index import Material, material_name, material_of_name
from rulebook_build.checker.tables.kinds import CheckerTables
from rulebook_build.rules.variants import Variant

FORMAT: Final = "site-tables-1"
ENTRY: Final = struct.Struct("<QI32s")
"""A block of a ``.pack`` file: its offset and length there, and the SHA-256 of its bytes."""
CHUNK: Final = 256
"""Entries of a block index fetched and checked together (11 KB)."""
PAGE: Final = 64
"""Blocks fetched together, in one request: the blocks of a class lie one after the other, a
search probes near where it probed before, and a request costs a round trip (a check of the
composers' sample made 4,806 requests of 1.3 KB on average one block at a time, which the
round trips, not the bytes, made slow).  A page is 64 blocks, some 25 KB of 5-piece tables."""
SUMS: Final = ".sums"

Fetch = Callable[[str, int, int], bytes]
"""``fetch(name, start, end)``: bytes ``start`` to ``end`` (exclusive) of the file ``name`` in
the variant's table folder."""


def block_index(table: compact.CompactTable) -> bytes:
    """The ``.sums`` file of a compact table (whose checksum was verified when it opened)."""
    return b"".join(
        ENTRY.pack(offset, len(stream), hashlib.sha256(stream).digest())
        for offset, stream in table.streams()
    )


def index_chunks(index: bytes) -> list[str]:
    """The SHA-256 of each chunk of a block index, as the manifest lists them."""
    step = CHUNK * ENTRY.size
    return [hashlib.sha256(index[i : i + step]).hexdigest() for i in range(0, len(index), step)]


def manifest(
    tables: CheckerTables, classes: dict[Material, tuple[compact.CompactTable, bytes]]
) -> dict[str, Any]:
    """What ``tables-<variant>.json`` says: the rules the tables were built for and each class
    with its block index (``classes``: the opened compact table and its ``.sums`` bytes)."""
    return {
        "format": FORMAT,
        "variant": tables.variant.name,
        "compact": compact.FORMAT,
        "pure": tables.pure.compact_fields((1, 0, 1, 0))["pure"],
        "rules": tables.pure.compact_fields((1, 0, 1, 0))["rules"],
        "pieces": max((sum(material) for material in classes), default=0),
        "classes": {
            material_name(material): {
                "size": table.size,
                "blocks": -(-table.size // compact.BLOCK),
                "bytes": table.path.stat().st_size,
                "chunks": index_chunks(index),
            }
            for material, (table, index) in sorted(classes.items())
        },
    }


def publish(
    tables: CheckerTables,
    folder: Path,
    *,
    pieces: int,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write into ``folder`` the compact file and block index of every class of ``tables`` of
    up to ``pieces`` pieces, and ``tables-<variant>.json``; returns the manifest.  A class is
    packed from its built tables where the cache has them, else its compact file is copied;
    each is verified against its checksum before its blocks are indexed.  A file already in
    ``folder`` with the right checksum is kept."""
    folder.mkdir(parents=True, exist_ok=True)
    opened: dict[Material, tuple[compact.CompactTable, bytes]] = {}
    for material in tables.classes():
        if sum(material) > pieces:
            continue
        name = material_name(material)
        target = folder / f"{name}{compact.SUFFIX}"
        fields = tables.pure.compact_fields(material)
        try:
            table = compact.CompactTable(target, fields)
        except (OSError, tablefile.DamagedTable):
            if tables.pure.path(material).is_file() and tables.rules.path(material).is_file():
                tables.pack(material, target)
            else:
                compact.copy_verified(tables.pure.compact_path(material), target, fields)
            table = compact.CompactTable(target, fields)
        index = block_index(table)
        sums = folder / f"{name}{SUMS}"
        if not sums.is_file() or sums.read_bytes() != index:
            tablefile.write_whole(sums, [index])
        opened[material] = (table, index)
        if progress is not None:
            progress(name)
    data = manifest(tables, opened)
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
    target = folder / f"tables-{tables.variant.name}.json"
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        tablefile.write_whole(target, [text.encode()])
    return data


class RemoteCompactTable:
    """A compact table whose blocks are fetched when first probed, as ``CompactTable`` reads
    them from a mapped file; raises ``tablefile.DamagedTable`` for anything that fails its
    checksum (the probe then does without the class)."""

    def __init__(self, name: str, entry: dict[str, Any], fetch: Fetch) -> None:
        self.name = name
        self.size = int(entry["size"])
        self.blocks = int(entry["blocks"])
        self._chunks: list[str] = list(entry["chunks"])
        self._fetch = fetch
        self._entries: dict[int, bytes] = {}
        self._cache: dict[int, bytes] = {}
        if self.blocks != -(-self.size // compact.BLOCK) or len(self._chunks) != -(
            -self.blocks // CHUNK
        ):
            raise tablefile.DamagedTable(f"{name}: the manifest's counts do not agree")

    def _entry(self, number: int) -> tuple[int, int, bytes]:
        chunk = number // CHUNK
        data = self._entries.get(chunk)
        if data is None:
            first = chunk * CHUNK
            count = min(CHUNK, self.blocks - first)
            data = self._fetch(self.name + SUMS, first * ENTRY.size, (first + count) * ENTRY.size)
            if hashlib.sha256(data).hexdigest() != self._chunks[chunk]:
                raise tablefile.DamagedTable(f"{self.name}{SUMS}: chunk {chunk} fails its checksum")
            self._entries[chunk] = data
        offset, length, digest = ENTRY.unpack_from(data, (number % CHUNK) * ENTRY.size)
        return offset, length, digest

    def block(self, number: int) -> bytes:
        found = self._cache.get(number)
        if found is None:
            if not 0 <= number < self.blocks:
                raise IndexError(number)
            self._fetch_page(number)
            found = self._cache.get(number)
            if found is None:
                raise tablefile.DamagedTable(f"{self.name}: block {number} fails its checksum")
        return found

    def _fetch_page(self, number: int) -> None:
        """Fetch the :data:`PAGE` of blocks around ``number`` in one request (within one chunk
        of the block index) and keep each block that passes its checksum."""
        first = max(number - number % PAGE, number - number % CHUNK)
        last = min(first + PAGE, self.blocks, (number // CHUNK + 1) * CHUNK)
        entries = [self._entry(n) for n in range(first, last)]
        start = entries[0][0]
        end = entries[-1][0] + entries[-1][1]
        data = self._fetch(self.name + compact.SUFFIX, start, end)
        for n, (offset, length, digest) in zip(range(first, last), entries, strict=True):
            if n in self._cache:
                continue
            stream = data[offset - start : offset - start + length]
            if hashlib.sha256(stream).digest() != digest:
                continue  # that block alone is refused
            try:
                codes = zlib.decompress(stream)
            except zlib.error:
                continue
            if len(codes) == min(compact.BLOCK, self.size - n * compact.BLOCK):
                self._cache[n] = codes

    def code(self, slot: int) -> int:
        if not 0 <= slot < self.size:
            raise IndexError(slot)
        return self.block(slot // compact.BLOCK)[slot % compact.BLOCK]

    def codes(self) -> Iterator[int]:
        for number in range(self.blocks):
            yield from self.block(number)


class SiteTables(EndgameTables):
    """One kind of the tables a site publishes: every class of its manifest, read by
    :class:`RemoteCompactTable`; nothing is built, nothing is written."""

    def __init__(
        self,
        variant: Variant,
        semantics: Semantics,
        remote: dict[Material, RemoteCompactTable],
    ) -> None:
        pieces = max((sum(material) for material in remote), default=2)
        super().__init__(
            variant,
            max_pieces=pieces,
            cached_pieces=pieces,
            cache_dir=Path("/nonexistent"),
            builder="python",
            semantics=semantics,
        )
        self.remote = remote

    def buildable(self, material: Material) -> bool:
        return False

    def in_cache(self, material: Material) -> bool:
        return material in self.remote

    def _load(self, material: Material) -> Values | None:
        table = self.remote.get(material)
        if table is None:
            return None
        values = compact.PURE_VALUE if self.semantics == "pure" else compact.RULES_VALUE
        return compact.KindView(table, values)

    def verify_files(self, *, always: bool = False) -> list[str]:
        return []  # every block is checked as it arrives

    def native_program(self) -> Path | None:
        return None


class SiteCheckerTables(CheckerTables):
    """Both kinds from one site's manifest, and the compiled search of ``host`` (if any), which
    reads the same remote tables through :meth:`blocks` and :meth:`codes`."""

    def __init__(
        self,
        variant: Variant,
        remote: dict[Material, RemoteCompactTable],
        host: wasm.Host | None = None,
    ) -> None:
        super().__init__(SiteTables(variant, "pure", remote), SiteTables(variant, "rules", remote))
        self.remote = remote
        self.host = host

    def prover(self) -> wasm.HostedProver | None:
        if self.host is None:
            return None
        if self._prover is None:
            self._prover = wasm.HostedProver(self.host, variant=self.variant)
        assert isinstance(self._prover, wasm.HostedProver)
        return self._prover

    def blocks(self, material: Material) -> int:
        """``rb_table_blocks``: the blocks of a class's table, 0 where the site has none."""
        table = self.remote.get(material)
        return 0 if table is None else table.blocks

    def codes(self, material: Material, block: int) -> bytes | None:
        """``rb_table_block``: a block's codes, checked; None when they cannot be had."""
        table = self.remote.get(material)
        if table is None:
            return None
        try:
            return table.block(block)
        except (tablefile.DamagedTable, IndexError, OSError):
            return None


def site_checker_tables(
    variant: Variant, manifest_data: dict[str, Any], fetch: Fetch, host: wasm.Host | None = None
) -> SiteCheckerTables:
    """The tables of a site's manifest for ``variant`` (checked by the caller against the
    digest the page carries); refuses a manifest of other rules or another format."""
    probe = EndgameTables(variant, builder="python")
    fields = probe.compact_fields((1, 0, 1, 0))
    expected = (FORMAT, variant.name, compact.FORMAT, fields["pure"], fields["rules"])
    found = tuple(manifest_data.get(k) for k in ("format", "variant", "compact", "pure", "rules"))
    if found != expected:
        raise tablefile.DamagedTable(
            f"the site's {variant.name} tables were made for other rules or another format"
        )
    remote = {}
    for name, entry in manifest_data["classes"].items():
        material = _material_of(name)
        remote[material] = RemoteCompactTable(name, entry, fetch)
    return SiteCheckerTables(variant, remote, host)


def _material_of(name: str) -> Material:
    material = material_of_name(name)
    if material is None:
        raise tablefile.DamagedTable(f"the site's manifest names no class: {name!r}")
    return material
