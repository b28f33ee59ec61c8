"""Compact tables read a page of blocks at a time from a website, each block checked before use.

The check page judges a problem with the tables ``rulebook check`` uses (International to 5
pieces, Frisian to 4), and a check touches a few thousand of their blocks at most, so the
browser fetches only those, with HTTP Range requests against the static site, as SQLite
databases are queried from static hosting (sql.js-httpvfs).  The site publishes per class the
codes of its compact file (``compact.py``), whose whole checksum the site build verified
first, with only the count-rule distances the checker keeps (``compact.kept_codes``: whether
each fits the class's fresh budget, a third of the bytes of the exact ones) and with every slot
no probe reads given the code before it (:func:`published_codes`):
the unused slots and the positions whose side to move must capture (:data:`CAPTURES`), whose
value the reader works out from the positions the captures lead to, as Moby Dam and Kingsrow
leave captures out of their tables.  So the long runs compress well, in blocks of
:data:`SPAN` codes:

* ``<class>.blocks``: the blocks in *pages* of :data:`PAGE`, each page the SHA-256 of each of
  its blocks' zlib streams (its *sums*, :data:`DIGEST` bytes a block) followed by the streams;
* ``<class>.pages``: per page its offset in ``.blocks``, the length of each of its streams and
  the SHA-256 of its sums (:data:`PAGE_ENTRY`, 104 bytes);

and per variant ``tables-<variant>.json`` (:func:`manifest`): the rules the tables were built
for, the block size, whether captures are left to the reader, and each class's size, blocks,
bytes and the SHA-256 of its ``.pages``.  The page checks the manifest's own SHA-256, written
into the page by the site build.  So every byte the search reads is checked: the manifest by
the page, a class's page list by the manifest, a page's sums by that list, a block by its sum,
and the codes a block unpacks to by their count.  Since the page list says where each stream
lies, one block can be fetched alone with its page's sums (512 bytes): the check page's scouts
fetch just the blocks they meet (:meth:`RemoteCompactTable.request_for`), about one in four of
the blocks of the pages they touch.

A search probes blocks far apart (PWCP-2's A4: 18,931 blocks of 85 classes in one check), so a
check costs requests rather than bytes: a class whose ``.blocks`` is small is fetched whole, in
one request (``benchmarks/site_tables.py``).  The check page's worker fetches most blocks
before the search asks for them, many at a time (its scouts,
:meth:`RemoteCompactTable.request_for`), and the search takes those from what the worker keeps
(``kept``); a block it still lacks is fetched with its page (:data:`PAGES_A_REQUEST`).

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
    Semantics,
    Values,
)
from rulebook_build.engine.tables.index import Material, material_name, material_of_name
from rulebook_build.engine.tables.kinds import CheckerTables
from rulebook_build.errors import RulebookError
from rulebook_build.lifetime import program_options
from rulebook_build.rules import Variant, fresh_plies

FORMAT: Final = "site-tables-5"
SPAN: Final = 16_384
"""Codes a published block: four of the compact file's (``compact.BLOCK``).  Longer blocks
let zlib find the long runs the filled slots make (a fifth fewer bytes than blocks of 4,096
codes on the largest class), and a block still unpacks in well under a millisecond."""
LEVEL: Final = 8
"""zlib's level for the published blocks: 1.4 % more bytes than 9 on the largest class, in
two fifths of the time (the site build packs the 1.9 billion codes of the International set)."""
PAGE: Final = 16
"""Blocks a page: what one request brings."""
DIGEST: Final = 32
"""Bytes of a block's sum in its page: the SHA-256 of its zlib stream."""


def page_entry(page: int) -> struct.Struct:
    """A page list's entry for pages of ``page`` blocks (:data:`PAGE_ENTRY` for the
    site's)."""
    return struct.Struct(f"<Q{page}I32s")


PAGE_ENTRY: Final = page_entry(PAGE)
"""A page in ``.blocks``: its offset, the length of each of its streams (0 past a class's last
block) and the SHA-256 of its sums."""
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
    """The codes of a class as the site publishes them: the compact file's with only the
    count-rule distances the checker keeps (``compact.kept_codes``), and with every slot no
    probe of the site's tables reads given the code before it (``pack fill``, ``native/pack.c``):
    the unused slots, and where ``captures`` (:func:`captures_of`) is ``"search"`` every
    position whose side to move must capture, which the readers work out from the positions its
    captures lead to (``EndgameTables.probe``, and ``resolved_code`` in ``native/prover.c``).
    Without a C compiler, no slot is filled."""
    codes = b"".join(table.block(n) for n in range(-(-table.size // table.span)))
    codes = codes.translate(compact.kept_codes(fresh_plies(tables.variant, material)))
    if table.filled:  # filled already (compact.FILLED), its captures not kept
        if captures != "search":
            raise RulebookError(
                f"{material_name(material)} is kept in the filled form (compact.FILLED), "
                "which the site can publish only with its captures left to the reader"
            )
        return codes
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
    entry = page_entry(PAGE)
    streams = [zlib.compress(codes[at : at + SPAN], LEVEL) for at in range(0, len(codes), SPAN)]
    blocks = bytearray()
    pages = bytearray()
    for first in range(0, len(streams), PAGE):
        group = streams[first : first + PAGE]
        sums = b"".join(hashlib.sha256(stream).digest() for stream in group)
        lengths = [len(stream) for stream in group] + [0] * (PAGE - len(group))
        pages += entry.pack(len(blocks), *lengths, hashlib.sha256(sums).digest())
        blocks += sums
        for stream in group:
            blocks += stream
    return bytes(blocks), bytes(pages)


def _published_whole(blocks: bytes, pages: bytes, size: int) -> bool:
    """Whether a class's ``.blocks`` and ``.pages`` hold every block of ``size`` codes, each
    page's sums and each block's stream passing their checksums, one page after another
    (files kept from an earlier build are used again only so)."""
    count = -(-size // SPAN)
    entry = page_entry(PAGE)
    if len(pages) != -(-count // PAGE) * entry.size:
        return False
    cursor = 0
    for page in range(len(pages) // entry.size):
        offset, *lengths, digest = entry.unpack_from(pages, page * entry.size)
        held = min(PAGE, count - page * PAGE)
        sums = blocks[offset : offset + held * DIGEST]
        if offset != cursor or any(lengths[held:]):
            return False
        if len(sums) != held * DIGEST or hashlib.sha256(sums).digest() != digest:
            return False
        cursor = offset + held * DIGEST
        for i in range(held):
            stream = blocks[cursor : cursor + lengths[i]]
            if hashlib.sha256(stream).digest() != sums[i * DIGEST : (i + 1) * DIGEST]:
                return False
            cursor += lengths[i]
    return cursor == len(blocks)


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


PAGES_A_REQUEST: Final = 1
"""Pages a request of the judgement brings for a block no scout fetched (the check page's
scouts fetch blocks alone, with what lies near them: ``scoutingFor`` in ``table-fetch.js``):
its page alone.  With four pages a request PWCP-2's A1 fetched 9.7 MB so, with one 3.5 MB, in
the same time over an emulated home connection
(``benchmarks/results/browser-checker-site-tables-4.txt``).  Without scouts (the benchmarks'
harness, a browser without the WebAssembly search) more pages a request save round trips for
bytes: A1 took 2,663 requests (47 MB) a page at a time, 1,053 (68 MB) four at a time
(``benchmarks/results/site-tables-3.txt``)."""


class RemoteCompactTable:
    """A compact table whose blocks are fetched when first probed (alone, where the check
    page's scouts kept them, else with their page), as ``CompactTable`` reads them from a
    mapped file; raises ``tablefile.DamagedTable`` for a
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
        self._entry = page_entry(page) if page >= 1 else PAGE_ENTRY
        self._sums: dict[int, bytes] = {}
        """Pages' sums that passed their checksum: a block kept alone is checked by them."""
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
            size = count * self._entry.size
            data = self._get(self.name + PAGES, 0, size, size)
            if hashlib.sha256(data).hexdigest() != self._pages_digest:
                # no block of the class can be checked: none is asked for again
                self._unreachable = f"{self.name}{PAGES} fails its checksum"
                raise self._refused(self._unreachable)
            self._pages = data
        return self._pages

    def _page_entry(self, page: int) -> tuple[int, tuple[int, ...], bytes, int]:
        """Page ``page``'s offset in ``.blocks``, its streams' lengths, the SHA-256 of its sums
        and its count of blocks."""
        offset, *lengths, digest = self._entry.unpack_from(
            self._page_list(), page * self._entry.size
        )
        count = min(self.page, self.blocks - page * self.page)
        return offset, tuple(lengths[:count]), digest, count

    def block(self, number: int) -> bytes:
        """The codes of block ``number`` of ``compact.BLOCK`` codes (the search's blocks), from
        the published block that holds it."""
        if not 0 <= number < self.code_blocks:
            raise IndexError(number)
        per = self.span // compact.BLOCK
        start = number % per * compact.BLOCK
        return self.published(number // per)[start : start + compact.BLOCK]

    def published(self, number: int) -> bytes:
        """The codes of published block ``number``, checked and unpacked: kept alone with its
        page's sums (fetched ahead by the check page's scouts), else fetched with its page."""
        found = self._cache.get(number)
        if found is not None:
            return found
        if not 0 <= number < self.blocks:
            raise IndexError(number)
        refused = self._refused_blocks.get(number)
        if refused is not None:  # not fetched again: the host would send the same
            raise tablefile.DamagedTable(refused)
        if number not in self._streams:
            pages = len(self._page_list()) // self._entry.size
            if self.bytes <= WHOLE_BYTES:
                data = self._get(self.name + BLOCKS, 0, self.bytes, self.bytes)
                for page in range(pages):
                    self._take(page, data, 0)
            elif not self._from_kept(number):
                self._fetch_span(number // self.page, pages)
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

    def _from_kept(self, number: int) -> bool:
        """Take block ``number`` and its page's sums from what is kept (``kept``), each passing
        its checksum; a kept range that fails is counted (:attr:`kept_refused`) and forgotten
        (``drop``), so that the block is asked of the host instead."""
        if self._kept is None:
            return False
        page = number // self.page
        sums = self._sums.get(page)
        if sums is None:
            offset, _lengths, digest, count = self._page_entry(page)
            found = self._kept(self.name + BLOCKS, offset, offset + count * DIGEST)
            if found is None:
                return False
            if hashlib.sha256(bytes(found)).digest() != digest:
                self._refuse_kept(offset, offset + count * DIGEST)
                return False
            sums = self._sums[page] = bytes(found)
        start, end = self._stream_range(number)
        found = self._kept(self.name + BLOCKS, start, end)
        if found is None:
            return False
        at = number % self.page * DIGEST
        digest = sums[at : at + DIGEST]
        if hashlib.sha256(bytes(found)).digest() != digest:
            self._refuse_kept(start, end)
            return False
        self._streams[number] = (bytes(found), digest)
        return True

    def _refuse_kept(self, start: int, end: int) -> None:
        self.kept_refused += 1
        if self._drop is not None:
            self._drop(self.name + BLOCKS, start, end)

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
        unless the page is kept whole and passes its checksum.  A request never covers a page
        kept whole: a browser that cached that page's range would split a request overlapping
        it, asking again for the part it holds."""
        if self._kept is not None:
            start, end = self._bytes_of(page, page)
            found = self._kept(self.name + BLOCKS, start, end)
            if found is not None:
                if len(found) == end - start:
                    self._take(page, bytes(found), start)
                if page in self._fetched:
                    return
                self._refuse_kept(start, end)
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
        """Whether a request for a neighbour may bring ``page`` too: not here, not kept whole."""
        if page in self._fetched:
            return False
        if self._kept is None:
            return True
        start, end = self._bytes_of(page, page)
        return self._kept(self.name + BLOCKS, start, end) is None

    def _bytes_of(self, first: int, last: int) -> tuple[int, int]:
        """Where pages ``first`` to ``last`` lie in ``.blocks``: ``start`` to ``end``
        (exclusive)."""
        start = self._page_entry(first)[0]
        offset, lengths, _digest, count = self._page_entry(last)
        return start, offset + count * DIGEST + sum(lengths)

    def _stream_range(self, number: int) -> tuple[int, int]:
        """Where published block ``number``'s stream lies in ``.blocks``."""
        offset, lengths, _digest, count = self._page_entry(number // self.page)
        at = number % self.page
        start = offset + count * DIGEST + sum(lengths[:at])
        return start, start + lengths[at]

    def request_for(self, number: int) -> list[tuple[str, int, int]] | None:
        """The ranges (file, start, end) that bring block ``number`` (of ``compact.BLOCK``
        codes) alone: its page's sums (unless they are here) and its stream, or the whole
        ``.blocks`` of a class fetched whole; None where :meth:`block` needs no request
        (:meth:`held`).  The page list is read for it (fetched, if it is not here yet); a class
        that cannot be read says None: the search meets the refusal itself.  The check page's
        worker fetches these ranges ahead of the search, many at a time, and the search then
        takes them from what is kept (``kept``) instead of asking for a group of pages."""
        if self.held(number):
            return None
        if self.bytes <= WHOLE_BYTES:
            return [(self.name + BLOCKS, 0, self.bytes)]
        try:
            self._page_list()
        except tablefile.DamagedTable:
            return None
        published = number // (self.span // compact.BLOCK)
        page = published // self.page
        ranges = []
        if page not in self._sums:
            offset, _lengths, _digest, count = self._page_entry(page)
            ranges.append((self.name + BLOCKS, offset, offset + count * DIGEST))
        start, end = self._stream_range(published)
        ranges.append((self.name + BLOCKS, start, end))
        return ranges

    def _take(self, page: int, data: bytes, at: int) -> None:
        """Keep the streams of ``page`` (in ``data``, which starts at ``at`` of ``.blocks``)
        with their sums, once the page's sums pass their checksum (else none of them)."""
        offset, lengths, digest, count = self._page_entry(page)
        body = data[offset - at : offset - at + count * DIGEST + sum(lengths)]
        sums = body[: count * DIGEST]
        if len(body) != count * DIGEST + sum(lengths) or hashlib.sha256(sums).digest() != digest:
            return
        self._fetched.add(page)
        self._sums[page] = sums
        cursor = count * DIGEST
        first = page * self.page
        for n in range(first, first + count):
            size = lengths[n - first]
            at = (n - first) * DIGEST
            if n not in self._cache:
                self._streams[n] = (body[cursor : cursor + size], sums[at : at + DIGEST])
            cursor += size

    def code(self, slot: int) -> int:
        if not 0 <= slot < self.size:
            raise IndexError(slot)
        return self.published(slot // self.span)[slot % self.span]

    def codes(self) -> Iterator[int]:
        for number in range(self.blocks):
            yield from self.published(number)


class KeptRanges:
    """Ranges of table files fetched ahead, as the check page's worker keeps them
    (``keptSpans`` in ``table-fetch.js``): any range that lies inside a kept one is found.  The
    tests' and the benchmarks' ``kept`` (call it) and ``drop``."""

    def __init__(self) -> None:
        self._ranges: dict[str, list[tuple[int, int, bytes]]] = {}

    def put(self, name: str, start: int, end: int, data: bytes) -> None:
        self._ranges.setdefault(name, []).append((start, end, data))

    def __call__(self, name: str, start: int, end: int) -> bytes | None:
        for low, high, data in self._ranges.get(name, ()):
            if low <= start and end <= high:
                return data[start - low : end - low]
        return None

    def __contains__(self, key: tuple[str, int, int]) -> bool:
        return self(*key) is not None

    def drop(self, name: str, start: int, end: int) -> None:
        """Forget every kept range that holds ``start`` to ``end``."""
        self._ranges[name] = [
            (low, high, data)
            for low, high, data in self._ranges.get(name, ())
            if not (low <= start and end <= high)
        ]

    def __len__(self) -> int:
        return sum(len(ranges) for ranges in self._ranges.values())


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

    def _captures_left(self, table: Values) -> bool:
        """Where the site left the captures to the reader, a position whose side to move must
        capture takes the value its captures lead to (``EndgameTables._from_captures``)."""
        return self.captures_searched

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

    def request_for(self, material: Material, block: int) -> list[tuple[str, int, int]] | None:
        """The ranges that bring ``block`` (``RemoteCompactTable.request_for``: the block
        alone, with its page's sums), which the page's scouts fetch; None where :meth:`codes`
        needs no request."""
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
