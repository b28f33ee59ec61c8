"""Compact tables read a page of blocks at a time from a website, each block checked before use.

The check page judges a problem with the tables ``rulebook check`` uses (International to 5
pieces, Frisian to 4), and a check touches a few thousand of their blocks at most, so the
browser fetches only those, with HTTP Range requests against the static site, as SQLite
databases are queried from static hosting (sql.js-httpvfs).  The site publishes per class the
codes of its compact file (``compact.py``), whose whole checksum the site build verified
first, with every slot no probe reads given the code before it (:func:`published_codes`):
the unused slots and the positions whose side to move must capture (:data:`CAPTURES`), whose
value the reader works out from the positions the captures lead to, as Moby Dam and Kingsrow
leave captures out of their tables.  So the long runs compress well, in blocks of
:data:`SPAN` codes:

* ``<class>.blocks``: the blocks in *pages* of :data:`PAGE`, each page its entries (per block
  the length of its zlib stream and the SHA-256 of it: :data:`ENTRY`, 36 bytes) followed by
  the streams, so that one request brings a page and what checks it;
* ``<class>.pages``: per page its offset and length in ``.blocks`` and the SHA-256 of its
  entries (:data:`PAGE_ENTRY`, 44 bytes);

and per variant ``tables-<variant>.json`` (:func:`manifest`): the rules the tables were built
for, the block size, whether captures are left to the reader, and each class's size, blocks,
bytes and the SHA-256 of its ``.pages``.  The page checks the manifest's own SHA-256, written
into the page by the site build.  So every byte the search reads is checked: the manifest by
the page, a class's page list by the manifest, a page's entries by that list, a block by its
entry, and the codes a block unpacks to by their count.

A search probes blocks far apart (PWCP-2's A4: 18,931 blocks of 85 classes in one check), so a
check costs requests rather than bytes: a request brings a group of pages
(:data:`PAGES_A_REQUEST`), and a class whose ``.blocks`` is small is fetched whole, in one
(``benchmarks/site_tables.py``).  The check page's worker fetches most pages before the search
asks for them, many at a time (its scouts, :meth:`RemoteCompactTable.request_for`), and the
search takes those from what the worker keeps (``kept``).

:class:`RemoteCompactTable` reads a class through a ``fetch(name, start, end)`` function (the
page's: a synchronous Range request in its worker; the tests': a file), and
:func:`site_checker_tables` makes of the classes the :class:`CheckerTables` a judgement uses,
with the compiled search of a :class:`~rulebook_build.engine.wasm.Host` where there is one.
"""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import zlib
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

from rulebook_build.engine import binaries, wasm
from rulebook_build.engine.tables import compact, tablefile
from rulebook_build.engine.tables.endgame import (
    EndgameTables,
    Outcome,
    Semantics,
    Values,
    outcome_of,
)
from rulebook_build.engine.tables.index import Material, material_name, material_of_name
from rulebook_build.engine.tables.kinds import CheckerTables
from rulebook_build.engine.tables.retrograde import DRAW, counted_exit
from rulebook_build.errors import RulebookError
from rulebook_build.lifetime import program_options
from rulebook_build.rules import State, Variant, generate, make

FORMAT: Final = "site-tables-3"
SPAN: Final = 16_384
"""Codes a published block: four of the compact file's (``compact.BLOCK``).  Longer blocks
let zlib find the long runs the filled slots make (a fifth fewer bytes than blocks of 4,096
codes on the largest class), and a block still unpacks in well under a millisecond."""
LEVEL: Final = 8
"""zlib's level for the published blocks: 1.4 % more bytes than 9 on the largest class, in
two fifths of the time (the site build packs the 1.9 billion codes of the International set)."""
PAGE: Final = 16
"""Blocks a page: what one request brings."""
ENTRY: Final = struct.Struct("<I32s")
"""A block in its page: the length of its zlib stream and the stream's SHA-256."""
PAGE_ENTRY: Final = struct.Struct("<QI32s")
"""A page in ``.blocks``: its offset and length, and the SHA-256 of its entries."""
WHOLE_BYTES: Final = 32_768
"""A class whose ``.blocks`` is at most this long is fetched whole, in one request."""
BLOCKS: Final = ".blocks"
PAGES: Final = ".pages"
SOURCE: Final = ".source"
"""Beside a class's published files: the format and the compact file's header they were made
from, so that a build makes them again only when either changed."""
CAPTURES: Final = {"international": "search", "frisian": "search"}
"""Per variant, whether the published tables hold the positions whose side to move must capture
(``"stored"``) or leave them to the reader (``"search"``: their slots carry the code before
them, and a probe plays the captures and takes the best of what they lead to).  Some half of
the positions of the largest International classes must capture: with them left out (and the
unused slots filled) the published International 5-piece set is 0.41 of the compact files'
bytes, the Fries Spel 4-piece set 0.56.  The compact code keeps no count-rule distance past
``compact.CAP``, which a Fries Spel capture into a position with no count running would count
as a conversion: no published class has such a capture (``tests/checker/test_site_captures.py``,
``benchmarks/site_captures.py --variant frisian``), and a class that had one would differ there
from the command line's value."""

Fetch = Callable[[str, int, int], bytes]
"""``fetch(name, start, end)``: bytes ``start`` to ``end`` (exclusive) of the file ``name`` in
the variant's table folder.  A host may answer otherwise, and each answer is taken for what it
is (:meth:`RemoteCompactTable._get`): the whole file where a range was asked is sliced; a body
cut short, a timeout, a lost connection or :class:`FetchFailed` with ``transient`` are tried
again, :data:`ATTEMPTS` times in all; any other failure, or the last of those, leaves the
class out of the judgement, and says why (:attr:`RemoteCompactTable.fault`)."""

Kept = Callable[[str, int, int], Any]
"""``kept(name, start, end)``: those bytes where they were fetched ahead and kept (the check
page's worker), else None; never a request.  What it gives is checked as a fetch's answer is."""

Drop = Callable[[str, int, int], None]
"""``drop(name, start, end)``: forget a kept range that failed its checksum, so that the
request that follows asks the host, not what was kept."""

ATTEMPTS: Final = 3
"""Tries of a request whose failure may pass (a timeout, a 5xx answer, a body cut short)."""


class FetchFailed(OSError):
    """A request the host did not answer with the bytes asked: ``transient`` when trying again
    may help (a timeout, a 5xx answer), not for a file the host does not have (404)."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


def folder_fetch(folder: Path, seen: list[tuple[str, int, int]] | None = None) -> Fetch:
    """A fetch that reads the published files in ``folder`` (the tests' and benchmarks'; the
    page's worker makes Range requests), noting each request in ``seen``."""

    def fetch(name: str, start: int, end: int) -> bytes:
        if seen is not None:
            seen.append((name, start, end))
        with (folder / name).open("rb") as stream:
            stream.seek(start)
            return stream.read(end - start)

    return fetch


def captures_of(tables: CheckerTables) -> str:
    """Whether the site's tables of ``tables`` leave captures to the reader (:data:`CAPTURES`):
    as the variant says where the packing program can be compiled, else ``"stored"`` (the
    codes published as the compact files hold them, for a machine without a C compiler)."""
    if binaries.executable(tables.pure.cache_dir, binaries.PACK_SOURCE) is None:
        return "stored"
    return CAPTURES[tables.variant.name]


def published_codes(
    tables: CheckerTables, material: Material, table: compact.CompactTable, captures: str
) -> bytes:
    """The codes of a class as the site publishes them: the compact file's, with every slot no
    probe of the site's tables reads given the code before it (``pack fill``, ``native/pack.c``):
    the unused slots, and where ``captures`` (:func:`captures_of`) is ``"search"`` every
    position whose side to move must capture, which the readers work out from the positions its
    captures lead to (:meth:`SiteTables.probe`, and ``resolved_code`` in ``native/prover.c``).
    Without a C compiler, the compact file's codes as they are."""
    codes = b"".join(table.block(n) for n in range(-(-table.size // compact.BLOCK)))
    program = binaries.executable(tables.pure.cache_dir, binaries.PACK_SOURCE)
    if program is None:
        return codes
    frisian = tables.variant.max_consecutive_king_moves is not None
    run = subprocess.run(
        [
            str(program),
            "fill",
            "1" if frisian else "0",
            *map(str, material),
            "1" if captures == "search" else "0",
        ],
        input=codes,
        capture_output=True,
        check=False,
        **program_options(),
    )
    if run.returncode != 0 or len(run.stdout) != len(codes):
        said = run.stderr.decode(errors="replace").strip() or f"exit {run.returncode}"
        raise RulebookError(
            f"the site's codes of {material_name(material)} could not be made: {said}"
        )
    return bytes(run.stdout)


def site_files(codes: bytes) -> tuple[bytes, bytes]:
    """The ``.blocks`` and ``.pages`` of a class's published codes: blocks of :data:`SPAN`
    codes, :data:`PAGE` to a page."""
    streams = [zlib.compress(codes[at : at + SPAN], LEVEL) for at in range(0, len(codes), SPAN)]
    blocks = bytearray()
    pages = bytearray()
    for first in range(0, len(streams), PAGE):
        page = streams[first : first + PAGE]
        entries = b"".join(ENTRY.pack(len(s), hashlib.sha256(s).digest()) for s in page)
        offset = len(blocks)
        blocks += entries
        for stream in page:
            blocks += stream
        pages += PAGE_ENTRY.pack(offset, len(blocks) - offset, hashlib.sha256(entries).digest())
    return bytes(blocks), bytes(pages)


def _published_whole(blocks: bytes, pages: bytes, size: int) -> bool:
    """Whether a class's ``.blocks`` and ``.pages`` hold every block of ``size`` codes, each
    page's entries and each block's stream passing their checksums (files kept from an earlier
    build are used again only so)."""
    count = -(-size // SPAN)
    if len(pages) != -(-count // PAGE) * PAGE_ENTRY.size:
        return False
    for page in range(len(pages) // PAGE_ENTRY.size):
        offset, length, digest = PAGE_ENTRY.unpack_from(pages, page * PAGE_ENTRY.size)
        body = blocks[offset : offset + length]
        entries = min(PAGE, count - page * PAGE) * ENTRY.size
        if len(body) != length or hashlib.sha256(body[:entries]).digest() != digest:
            return False
        cursor = entries
        for at in range(0, entries, ENTRY.size):
            stream_size, stream_digest = ENTRY.unpack_from(body, at)
            if hashlib.sha256(body[cursor : cursor + stream_size]).digest() != stream_digest:
                return False
            cursor += stream_size
        if cursor != length:
            return False
    total = 0
    for at in range(0, len(pages), PAGE_ENTRY.size):
        total += int(PAGE_ENTRY.unpack_from(pages, at)[1])
    return total == len(blocks)


def _header(path: Path) -> bytes:
    """A table file's two header lines (``tablefile.py``: what it holds and its checksum)."""
    with path.open("rb") as stream:
        return stream.readline() + stream.readline()


def fingerprints(tables: EndgameTables) -> tuple[object, object]:
    """The rules fingerprints of the two kinds, as a compact file's header gives them."""
    fields = tables.compact_fields((1, 0, 1, 0))  # the same for every class
    return fields["pure"], fields["rules"]


def manifest(
    tables: CheckerTables, classes: dict[Material, tuple[int, bytes, bytes]], captures: str
) -> dict[str, Any]:
    """What ``tables-<variant>.json`` says: the rules the tables were built for, whether
    captures are left to the reader (``captures``, :func:`captures_of`) and each class
    (``classes``: its size in slots, its ``.blocks`` and its ``.pages``)."""
    pure, rules = fingerprints(tables.pure)
    return {
        "format": FORMAT,
        "variant": tables.variant.name,
        "compact": compact.FORMAT,
        "pure": pure,
        "rules": rules,
        "page": PAGE,
        "block": SPAN,
        "captures": captures,
        "pieces": most_pieces(classes),
        "classes": {
            material_name(material): {
                "size": size,
                "blocks": -(-size // SPAN),
                "bytes": len(blocks),
                "pages": hashlib.sha256(pages).hexdigest(),
            }
            for material, (size, blocks, pages) in sorted(classes.items())
        },
    }


def publish(
    tables: CheckerTables,
    folder: Path,
    *,
    pieces: int,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write into ``folder`` the ``.blocks`` and ``.pages`` of every class of ``tables`` of up
    to ``pieces`` pieces, and ``tables-<variant>.json``; returns the manifest.  A class is read
    from its compact file in the cache, or packed into ``folder`` from its built tables first;
    each compact file is verified against its checksum before its blocks are published.  Files
    already right are not written again; files of other classes or layouts are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    captures = captures_of(tables)  # compiles the packing program once, before the threads
    published: dict[Material, tuple[int, bytes, bytes]] = {}
    waiting: list[tuple[Material, compact.CompactTable, bytes]] = []
    for material in tables.classes():
        if sum(material) > pieces:
            continue
        name = material_name(material)
        fields = tables.pure.compact_fields(material)
        source = tables.pure.compact_path(material)
        if not source.is_file():
            source = folder / f"{name}{compact.SUFFIX}"
            try:
                compact.check(source, fields)
            except (OSError, tablefile.DamagedTable):
                tables.pack(material, source)
        table = compact.CompactTable(source, fields)
        stamp = f"{FORMAT} {captures}\n".encode() + _header(source)
        stamped = folder / f"{name}{SOURCE}"
        blocks = pages = b""
        if stamped.is_file() and stamped.read_bytes() == stamp:
            try:
                blocks = (folder / f"{name}{BLOCKS}").read_bytes()
                pages = (folder / f"{name}{PAGES}").read_bytes()
            except OSError:
                pass
            if not _published_whole(blocks, pages, table.size):
                blocks = pages = b""
        if pages:
            published[material] = (table.size, blocks, pages)
        else:
            stamped.unlink(missing_ok=True)
            waiting.append((material, table, stamp))

    def made(job: tuple[Material, compact.CompactTable, bytes]) -> tuple[bytes, bytes]:
        material, table, _stamp = job
        return site_files(published_codes(tables, material, table, captures))

    # a class's codes are filled by the packing program and packed by zlib, both outside the
    # interpreter's lock: one thread a core (the International set in half the time)
    with ThreadPoolExecutor(max_workers=binaries.machine_cores()) as pool:
        for (material, table, stamp), (blocks, pages) in zip(
            waiting, pool.map(made, waiting), strict=True
        ):
            name = material_name(material)
            tablefile.write_whole(folder / f"{name}{BLOCKS}", [blocks])
            tablefile.write_whole(folder / f"{name}{PAGES}", [pages])
            tablefile.write_whole(folder / f"{name}{SOURCE}", [stamp])
            published[material] = (table.size, blocks, pages)
            if progress is not None:
                progress(name)
    said = manifest(tables, published, captures)
    text = json.dumps(said, sort_keys=True, separators=(",", ":")) + "\n"
    target = folder / f"tables-{tables.variant.name}.json"
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        tablefile.write_whole(target, [text.encode()])
    # files of classes no longer published, or of an older layout, would only take the disk
    kept = {target.name} | {
        f"{material_name(m)}{suffix}"
        for m in published
        for suffix in (BLOCKS, PAGES, SOURCE, compact.SUFFIX)
    }
    for path in folder.iterdir():
        if path.is_file() and path.name not in kept and not path.name.endswith(".tmp"):
            path.unlink(missing_ok=True)
    return said


PAGES_A_REQUEST: Final = 4
"""Pages a request brings (64 blocks of 16,384 codes, some 60 KB of 5-piece tables): the
page's neighbours, which a search that keeps coming back to a class mostly touches too, while
a request costs a round trip whatever it brings: some milliseconds in the page's worker on the
loopback address, tens of them over the Internet.  PWCP-2's A1 takes 2,663 requests (47 MB) a
page at a time, 1,053 (68 MB) four at a time, 418 (87 MB) sixteen at a time; the composers'
sample 567 (8 MB), 390 (24 MB) and 238 (40 MB) (``benchmarks/results/site-tables-3.txt``).  At
50 ms a request and 40 Mbit/s, four pages take A1 66 s of waiting where one takes 143 s, and
the sample 24 s where one takes 30 s; more pages save less time for more bytes."""


class RemoteCompactTable:
    """A compact table whose blocks are fetched, a page at a time, when first probed, as
    ``CompactTable`` reads them from a mapped file; raises ``tablefile.DamagedTable`` for a
    block that fails its checksum or could not be fetched (the probe then does without the
    class), and keeps the first such fault in :attr:`fault`.  A fetch that failed for good,
    or a page list that fails its checksum, is not tried again: every later block of the class
    is refused at once; nor is a block refused fetched again."""

    def __init__(
        self,
        name: str,
        entry: dict[str, Any],
        fetch: Fetch,
        page: int,
        span: int = SPAN,
        kept: Kept | None = None,
        drop: Drop | None = None,
    ) -> None:
        self.name = name
        self._kept = kept
        self._drop = drop
        """Where fetched ranges may already be (the check page's kept spans): a page found
        there is taken without a request (see :meth:`request_for`)."""
        self.kept_refused = 0
        """Kept pages that failed their checksum (and were asked of the host instead): the
        worker then forgets what it keeps of the table set."""
        self.size = int(entry["size"])
        self.span = span
        """Codes a published block: a whole number of the compact file's blocks."""
        self.blocks = int(entry["blocks"])
        """Published blocks (of :attr:`span` codes)."""
        self.code_blocks = -(-self.size // compact.BLOCK)
        """Blocks of ``compact.BLOCK`` codes, as :meth:`block` gives them to the search."""
        self.bytes = int(entry["bytes"])
        self.page = page
        self._pages_digest = str(entry["pages"])
        self._pages: bytes | None = None
        self._fetch = fetch
        self._cache: dict[int, bytes] = {}
        self._streams: dict[int, tuple[bytes, bytes]] = {}
        """Streams fetched with their page, not yet used: each with its SHA-256."""
        self._fetched: set[int] = set()
        self._whole: dict[str, bytes] = {}
        """Files a host sent whole where a range was asked: read from here afterwards."""
        self._unreachable: str | None = None
        self._refused_blocks: dict[int, str] = {}
        self.fault: str | None = None
        """Why the class (or a block of it) was left out, the first time it was: a request
        that failed, or a checksum that did not match."""
        self.fault_kind: str | None = None
        """That fault's kind: ``"fetch"`` (could not be fetched) or ``"checksum"``."""
        self.faults: list[str] = []
        """Every fault met, tried again or not (for the tests and the benchmarks)."""
        if (
            span < compact.BLOCK
            or span % compact.BLOCK
            or self.blocks != -(-self.size // span)
            or page < 1
        ):
            raise tablefile.DamagedTable(f"{name}: the manifest's counts do not agree")

    def _page_list(self) -> bytes:
        if self._pages is None:
            count = -(-self.blocks // self.page)
            size = count * PAGE_ENTRY.size
            data = self._get(self.name + PAGES, 0, size, size)
            if hashlib.sha256(data).hexdigest() != self._pages_digest:
                # no block of the class can be checked: none is asked for again
                self._unreachable = f"{self.name}{PAGES} fails its checksum"
                raise self._refused(self._unreachable)
            self._pages = data
        return self._pages

    def block(self, number: int) -> bytes:
        """The codes of block ``number`` of ``compact.BLOCK`` codes (the search's blocks), from
        the published block that holds it."""
        if not 0 <= number < self.code_blocks:
            raise IndexError(number)
        per = self.span // compact.BLOCK
        start = number % per * compact.BLOCK
        return self.published(number // per)[start : start + compact.BLOCK]

    def published(self, number: int) -> bytes:
        """The codes of published block ``number``, fetched with its page, checked, unpacked."""
        found = self._cache.get(number)
        if found is not None:
            return found
        if not 0 <= number < self.blocks:
            raise IndexError(number)
        refused = self._refused_blocks.get(number)
        if refused is not None:  # not fetched again: the host would send the same
            raise tablefile.DamagedTable(refused)
        if number not in self._streams:
            pages = self._page_list()
            if self.bytes <= WHOLE_BYTES:
                data = self._get(self.name + BLOCKS, 0, self.bytes, self.bytes)
                for page in range(len(pages) // PAGE_ENTRY.size):
                    self._take(page, data, 0)
            else:
                self._fetch_span(number // self.page, len(pages) // PAGE_ENTRY.size)
        stream, digest = self._streams.pop(number, (b"", b""))
        # checked and unpacked when first used: a page brings blocks the search may never probe
        if not stream or hashlib.sha256(stream).digest() != digest:
            raise self._refused(f"{self.name}: block {number} fails its checksum", number)
        try:
            found = zlib.decompress(stream)
        except zlib.error as error:
            raise self._refused(f"{self.name}: block {number}: {error}", number) from None
        if len(found) != min(self.span, self.size - number * self.span):
            raise self._refused(f"{self.name}: block {number} has the wrong size", number)
        self._cache[number] = found
        return found

    def held(self, number: int) -> bool:
        """Whether :meth:`block` answers block ``number`` (of ``compact.BLOCK`` codes) without
        a request: its codes or its stream are here, or it (or the whole class) was refused
        for good."""
        if not 0 <= number < self.code_blocks:
            return True
        published = number // (self.span // compact.BLOCK)
        return (
            published in self._cache
            or published in self._streams
            or published in self._refused_blocks
            or self._unreachable is not None
        )

    def _refused(self, reason: str, block: int | None = None) -> tablefile.DamagedTable:
        """The refusal of a block (or of the page list), noted as the class's fault."""
        if block is not None:
            self._refused_blocks[block] = reason
        self.faults.append(reason)
        if self.fault is None:
            self.fault, self.fault_kind = reason, "checksum"
        return tablefile.DamagedTable(reason)

    def _get(self, name: str, start: int, end: int, size: int) -> bytes:
        """Bytes ``start`` to ``end`` of ``name`` (of ``size`` bytes), whatever the host
        answers: the whole file is kept and sliced; a failure that may pass is tried again,
        :data:`ATTEMPTS` times in all; else ``DamagedTable`` says what failed, now and for
        every later request of the class."""
        whole = self._whole.get(name)
        if whole is not None:
            return whole[start:end]
        if self._unreachable is not None:
            raise tablefile.DamagedTable(self._unreachable)
        said = ""
        for _attempt in range(ATTEMPTS):
            try:
                data = bytes(self._fetch(name, start, end))
            except (FileNotFoundError, PermissionError) as error:
                said = str(error.strerror or error)
                self.faults.append(f"{name}: {said}")
                break
            except FetchFailed as error:
                said = str(error)
                self.faults.append(f"{name}: {said}")
                if not error.transient:
                    break
                continue
            except OSError as error:  # a timeout, a lost connection: tried again
                said = str(error) or type(error).__name__
                self.faults.append(f"{name}: {said}")
                continue
            if len(data) == end - start:
                return data
            if len(data) == size:  # the whole file, where a range was asked (200 for 206)
                self._whole[name] = data
                return data[start:end]
            said = f"{len(data)} bytes where {end - start} were asked"
            self.faults.append(f"{name}: {said}")
        self._unreachable = f"{name} could not be fetched ({said})"
        if self.fault is None:
            self.fault, self.fault_kind = self._unreachable, "fetch"
        raise tablefile.DamagedTable(self._unreachable)

    def _fetch_span(self, page: int, pages: int) -> None:
        """Fetch ``page`` in one request with the pages of its group of :data:`PAGES_A_REQUEST`
        next to it (pages lie one after another in ``.blocks``) that are neither here nor kept,
        unless the page alone is kept (fetched ahead by the check page's scouts) and passes its
        checksum.  A request never covers a page kept alone: a browser that cached that page's
        range would split a request overlapping it, asking again for the part it holds."""
        if self._kept is not None:
            start, end = self._bytes_of(page, page)
            found = self._kept(self.name + BLOCKS, start, end)
            if found is not None:
                if len(found) == end - start:
                    self._take(page, bytes(found), start)
                if page in self._fetched:
                    return
                self.kept_refused += 1
                if self._drop is not None:
                    self._drop(self.name + BLOCKS, start, end)
        width = PAGES_A_REQUEST
        first = page - page % width
        last = min(first + width, pages) - 1
        low = high = page
        while low > first and self._free(low - 1):
            low -= 1
        while high < last and self._free(high + 1):
            high += 1
        start, end = self._bytes_of(low, high)
        data = self._get(self.name + BLOCKS, start, end, self.bytes)
        for number in range(low, high + 1):
            if number not in self._fetched:
                self._take(number, data, start)

    def _free(self, page: int) -> bool:
        """Whether a request for a neighbour may bring ``page`` too: not here, not kept."""
        if page in self._fetched:
            return False
        if self._kept is None:
            return True
        start, end = self._bytes_of(page, page)
        return self._kept(self.name + BLOCKS, start, end) is None

    def _bytes_of(self, first: int, last: int) -> tuple[int, int]:
        """Where pages ``first`` to ``last`` lie in ``.blocks``: ``start`` to ``end``
        (exclusive)."""
        start, _, _ = PAGE_ENTRY.unpack_from(self._page_list(), first * PAGE_ENTRY.size)
        end, length, _ = PAGE_ENTRY.unpack_from(self._page_list(), last * PAGE_ENTRY.size)
        return start, end + length

    def request_for(self, number: int) -> tuple[str, int, int] | None:
        """The range (file, start, end) that brings block ``number`` (of ``compact.BLOCK``
        codes): its page alone, or the whole ``.blocks`` of a class fetched whole; None where
        :meth:`block` needs no request (:meth:`held`).  The page list is read for it (fetched,
        if it is not here yet); a class that cannot be read says None: the search meets the
        refusal itself.  The check page's worker fetches these ranges ahead of the search,
        many at a time, and the search then takes them from what is kept (``kept``) instead
        of asking the group of pages a request of its own brings."""
        if self.held(number):
            return None
        if self.bytes <= WHOLE_BYTES:
            return (self.name + BLOCKS, 0, self.bytes)
        try:
            self._page_list()
        except tablefile.DamagedTable:
            return None
        page = number // (self.span // compact.BLOCK) // self.page
        start, end = self._bytes_of(page, page)
        return (self.name + BLOCKS, start, end)

    def _take(self, page: int, data: bytes, at: int) -> None:
        """Keep the streams of ``page`` (in ``data``, which starts at ``at`` of ``.blocks``)
        with their checksums, once the page's entries pass theirs (else none of them)."""
        offset, length, digest = PAGE_ENTRY.unpack_from(self._page_list(), page * PAGE_ENTRY.size)
        body = data[offset - at : offset - at + length]
        first = page * self.page
        count = min(self.page, self.blocks - first)
        entries = body[: count * ENTRY.size]
        if len(body) != length or hashlib.sha256(entries).digest() != digest:
            return
        self._fetched.add(page)
        cursor = count * ENTRY.size
        for n in range(first, first + count):
            size, block_digest = ENTRY.unpack_from(entries, (n - first) * ENTRY.size)
            if n not in self._cache:
                self._streams[n] = (body[cursor : cursor + size], block_digest)
            cursor += size

    def code(self, slot: int) -> int:
        if not 0 <= slot < self.size:
            raise IndexError(slot)
        return self.published(slot // self.span)[slot % self.span]

    def codes(self) -> Iterator[int]:
        for number in range(self.blocks):
            yield from self.published(number)


def most_pieces(classes: Iterable[Material]) -> int:
    """The most pieces of the classes (0 for none)."""
    return max((sum(material) for material in classes), default=0)


class SiteTables(EndgameTables):
    """One kind of the tables a site publishes: every class of its manifest, read by
    :class:`RemoteCompactTable`; nothing is built, nothing is written."""

    def __init__(
        self,
        variant: Variant,
        semantics: Semantics,
        remote: dict[Material, RemoteCompactTable],
        *,
        captures_searched: bool = False,
    ) -> None:
        pieces = most_pieces(remote) or 2  # an empty site: any bound, nothing is covered
        super().__init__(
            variant,
            max_pieces=pieces,
            cached_pieces=pieces,
            cache_dir=Path("/nonexistent"),
            builder="python",
            semantics=semantics,
        )
        self.remote = remote
        self.captures_searched = captures_searched
        """The tables leave the positions whose side to move must capture to the reader
        (:data:`CAPTURES`)."""

    def buildable(self, material: Material) -> bool:
        return False

    def probe(self, state: State) -> Outcome | None:
        """As ``EndgameTables.probe``; where the site left the captures to the reader, a
        position whose side to move must capture takes the value its captures lead to."""
        if self.captures_searched and self.locate(state) is not None:
            moves = generate(self.variant, state)
            if moves and moves[0][2]:  # a capture is compulsory: every move captures
                stored = self._from_captures(state, moves)
                return None if stored is None else outcome_of(stored)
        return super().probe(state)

    def _from_captures(self, state: State, moves: list[Any]) -> int | None:
        """The value the compact table would hold for ``state`` (whose moves, all captures,
        are ``moves``), from the values of the positions they lead to, as the builder made
        it: the pure kind's by the best move (a win if a move leads to a loss; a loss if every
        move leads to a win; else a draw, distances far as the compact tables keep them); the
        count rules' kind counting each capture a conversion (``retrograde.counted_exit``: a
        win in 1 or a loss in 2 where the best move leads within its fresh budget, else the
        pure result, far).  None where a position led to is not covered."""
        wins = losses = draws = 0
        counted: list[int] = []
        for move in moves:
            child = make(self.variant, state, move)
            outcome = self.probe(child)
            if outcome is None:
                return None
            stored = DRAW if outcome.result == "draw" else outcome.plies
            if stored == DRAW:
                draws += 1
            elif stored & 1:
                wins += 1
            else:
                losses += 1
            # a far value is a count-rule draw or a distance past compact.CAP: no conversion
            if self.semantics == "rules" and DRAW < stored < compact.FAR_LOSS:
                counted.append(counted_exit(self.variant, state, move, child, stored))
        if self.semantics == "rules":  # counted_exit of a capture: 1, 0 or a draw
            if 0 in counted:
                return 1
            if counted.count(1) == len(moves):
                return 2
        if losses:
            return compact.FAR_WIN
        if not draws:
            return compact.FAR_LOSS
        return DRAW

    def in_cache(self, material: Material) -> bool:
        return material in self.remote

    def _load(self, material: Material) -> Values | None:
        table = self.remote.get(material)
        if table is None:
            return None
        values = compact.PURE_VALUE if self.semantics == "pure" else compact.RULES_VALUE
        return compact.KindView(table, values)

    def refuse(self, material: Material, reason: str) -> None:
        pass  # no file to move aside: the class's fault is in its RemoteCompactTable

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
        *,
        captures_searched: bool = False,
    ) -> None:
        searched = {"captures_searched": captures_searched}
        super().__init__(
            SiteTables(variant, "pure", remote, **searched),
            SiteTables(variant, "rules", remote, **searched),
        )
        self.remote = remote
        self.host = host
        self.pieces = most_pieces(remote)
        """The most pieces of a class the site publishes (0: none)."""

    def prover(self) -> wasm.HostedProver | None:
        if self.host is None:
            return None
        if self._prover is None:
            self._prover = wasm.HostedProver(self.host, variant=self.variant)
        assert isinstance(self._prover, wasm.HostedProver)
        return self._prover

    def faults(self) -> list[tuple[str, str, str]]:
        """The classes left out of a judgement (wholly or a block of it): each its name, the
        kind of fault (``"fetch"``: could not be fetched; ``"checksum"``: failed its
        checksum) and what failed."""
        return [
            (table.name, table.fault_kind or "", table.fault)
            for _material, table in sorted(self.remote.items())
            if table.fault is not None
        ]

    def kept_refused(self) -> int:
        """Kept pages refused by their checksum, of every class (``RemoteCompactTable``)."""
        return sum(table.kept_refused for table in self.remote.values())

    def blocks(self, material: Material) -> int:
        """``rb_table_blocks``: the blocks of a class's table, 0 where the site has none."""
        table = self.remote.get(material)
        return 0 if table is None else table.code_blocks

    def held(self, material: Material, block: int) -> bool:
        """Whether :meth:`codes` answers without a request (a class the site lacks too)."""
        table = self.remote.get(material)
        return table is None or table.held(block)

    def request_for(self, material: Material, block: int) -> tuple[str, int, int] | None:
        """The range that brings ``block`` (``RemoteCompactTable.request_for``: its page
        alone), which the page's scouts fetch; None where :meth:`codes` needs no request."""
        table = self.remote.get(material)
        return None if table is None else table.request_for(block)

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
    variant: Variant,
    manifest_data: dict[str, Any],
    fetch: Fetch,
    host: wasm.Host | None = None,
    kept: Kept | None = None,
    drop: Drop | None = None,
) -> SiteCheckerTables:
    """The tables of a site's manifest for ``variant`` (checked by the caller against the
    digest the page carries); refuses a manifest of other rules or another format.  ``kept``:
    where ranges fetched ahead may be found, ``drop``: how to forget one that failed its
    checksum (``RemoteCompactTable``)."""
    expected = (
        FORMAT,
        variant.name,
        compact.FORMAT,
        *fingerprints(EndgameTables(variant, builder="python")),
    )
    found = tuple(manifest_data.get(k) for k in ("format", "variant", "compact", "pure", "rules"))
    if found != expected:
        raise tablefile.DamagedTable(
            f"the site's {variant.name} tables were made for other rules or another format"
        )
    captures = manifest_data.get("captures")
    if captures not in ("search", "stored"):
        raise tablefile.DamagedTable(f"the site's {variant.name} tables say nothing of captures")
    remote = {}
    page = int(manifest_data["page"])
    span = int(manifest_data["block"])
    for name, entry in manifest_data["classes"].items():
        material = _material_of(name)
        remote[material] = RemoteCompactTable(name, entry, fetch, page, span, kept, drop)
    return SiteCheckerTables(variant, remote, host, captures_searched=captures == "search")


def _material_of(name: str) -> Material:
    material = material_of_name(name)
    if material is None:
        raise tablefile.DamagedTable(f"the site's manifest names no class: {name!r}")
    return material
