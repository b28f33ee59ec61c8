"""The compact endgame table: both kinds of a class in one small file, for sharing and probing.

A class's two tables (pure and with count rules, ``endgame.py``) hold two int16 a slot: 4 bytes.
The proof search needs less of them: of the pure value only whether the side to move wins,
loses or draws (the search refutes by it), and of the value with the count rules only a
distance that can fit a node's clocks (it proves by it when the distance is at most the plies
the clocks leave, never more than ``KING_ONLY_PLIES``, 50).  So one byte a slot holds both, a
*code*:

    0  unused slot                    1  draw (pure; then also with the count rules)
    2  a pure win, no count-rule win within ``CAP`` plies (a draw or a longer win with them)
    3  a pure loss, no count-rule loss within ``CAP`` plies
    4 + d // 2   a win in d plies with the count rules (d odd, d <= CAP): a pure win
    36 + d // 2  a loss in d plies with the count rules (d even, d < CAP): a pure loss

and the codes are compressed with zlib in blocks of ``BLOCK`` slots (a probe decompresses one
block of 4 KB), about 0.15 bytes a slot on the 4-piece International tables: a 27th of the two
int16 tables.  Like Syzygy's "cursed" wins for chess's 50-move rule, code 2 keeps a win that
the count rules stop apart from a win they allow.

What a probe of a compact table answers, per kind (``PURE_VALUE``, ``RULES_VALUE``): of the
pure kind the result, a win ``FAR_WIN`` (32767) and a loss ``FAR_LOSS`` (32766); of the kind
with count rules the distance of a win or loss within ``CAP``, exactly, and otherwise a draw
(-1), which proves nothing.  Every use the checker makes of a table gives the same answer with
these values as with the built ones, its distances kept as below: the search (``search.py``,
``prover.c``) reads the pure value's result and compares the count-rule distance with the
plies the clocks leave.  The one thing lost is the pure distance, which only building needs: tables
are built from the int16 files (``retrograde.py``, ``store.py``), and packed afterwards.

The checker keeps less again of the count-rule distance (:func:`kept_distance`): whether it fits
the plies the class's material allows when the counts start afresh, as the longest distance of
its result that does.  A search enters a class by a capture, which starts the counts afresh, so
there this is all a proof needs; deeper in a class the clocks have run, and the search goes on
instead of proving by a distance it no longer has.  The checker's probes (``kinds.py``,
``prover.c``), the files it packs (``CheckerTables.pack``) and the codes the site publishes
(``remote.py``) keep only that, with :func:`kept_codes`: one win and one loss where the
distance had 64 values.  That makes the published set about a third of the size and a packed
file about two thirds.  A file packed before keeps the exact distance, and reads the same:
every reader keeps only what fits.

The file is the table file's two header lines (``tablefile.py``: what it holds and the SHA-256
of what follows), then the block index (``blocks + 1`` little-endian uint64 offsets, from the
start of the index, of each block's zlib stream and of the end), then the streams.  A file is
read only when its header is the one expected and the rest hashes to the checksum.

A file comes in one of two forms, which its header names: ``compact-1`` (:data:`FORMAT`), every
code kept, in blocks of :data:`BLOCK`; and the *filled* form ``compact-2`` (:data:`FILLED`), in
which the slots no probe reads carry the code before them, as the site publishes its tables
(``remote.py``): the unused slots, and the positions whose side to move must capture, whose
value every reader works out from the positions their captures lead to (``EndgameTables.probe``
in Python, ``resolved_code`` in ``native/prover.c``), in blocks of :data:`FILLED_BLOCK`.  The
Fries Spel 5-piece classes are kept so (``coded.py``); every other class as before.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import subprocess
import tempfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, Final, Protocol, overload

from rulebook_build.engine.tables import tablefile
from rulebook_build.lifetime import program_options

FORMAT: Final = "compact-1"
BLOCK: Final = 4096
"""Slots a block: 4 KB to decompress at a probe (about 10 µs); 16,384 would save a tenth."""
FILLED: Final = "compact-2"
"""The filled form (:func:`write` with ``filled``): every slot no probe reads holds the code
before it, as the site publishes its classes (``remote.py``): the unused slots, and the
positions whose side to move must capture, which every reader works out from the positions
their captures lead to (``EndgameTables.probe``, ``resolved_code`` in ``native/prover.c``).
The long runs that makes compress to almost nothing in blocks of :data:`FILLED_BLOCK` codes:
the Fries Spel 5-piece set keeps 0.31 GB so instead of 0.86 GB
(``benchmarks/results/frisian-5-coded.txt``).  Its header says ``"captures": "search"``."""
FILLED_BLOCK: Final = 16_384
"""Slots a block of the filled form: at 4,096 the zlib streams' own tables and the index are
most of a filled file (0.45 GB for the Fries Spel 5-piece set against 0.31)."""
CAP: Final = 63
"""The longest count-rule distance kept: above every clock's budget (50 plies, KNDB art. 9d)."""
LEVEL: Final = 6
"""zlib's level: 9 saves 2 % and takes three times as long."""
SUFFIX: Final = ".pack"
FAR_WIN: Final = 32767
FAR_LOSS: Final = 32766
UNUSED: Final = -2
DRAW: Final = -1

PURE_VALUE: Final = (UNUSED, DRAW, FAR_WIN, FAR_LOSS, *(FAR_WIN,) * 32, *(FAR_LOSS,) * 32)
"""What a probe of the pure kind answers for each code."""
RULES_VALUE: Final = (UNUSED, DRAW, DRAW, DRAW, *range(1, CAP + 1, 2), *range(0, CAP, 2))
"""What a probe with the count rules answers for each code: codes 2 and 3 keep no count-rule
result, so a draw, never a far win (Fries Spel runs no count outside art. 18's ending, so any
count-rule win there proves: a count-rule draw of a pure win must not read as one)."""
CODES: Final = len(RULES_VALUE)
_CACHED_BLOCKS: Final = 4096


def kept_distance(plies: int, fresh: int | None) -> int:
    """What the checker keeps of a count-rule distance ``plies`` (a win when odd, a loss when
    even; a draw or an unused slot as they are) of a position whose material allows ``fresh``
    plies when its counts start afresh (``drawrules.fresh_plies``; None: no count runs there,
    and ``CAP`` bounds what is kept): whether it fits, as the longest distance of its result
    that does, or a draw when it does not.

    A node's clocks leave it at most ``fresh`` plies, so a kept distance fits them only where
    the true one does: a proof by it is sound.  Where they leave exactly ``fresh`` (the counts
    start afresh, as after every capture, the way into a class) it fits exactly when the true
    one does, and a search enters a class only that way.  The site publishes only this
    (``remote.py``), a third of the bytes: the exact distance is most of a class's entropy."""
    if plies < 0:
        return plies
    limit = CAP if fresh is None else min(fresh, CAP)
    if plies > limit:
        return DRAW
    return limit if (limit - plies) % 2 == 0 else limit - 1


def kept_codes(fresh: int | None) -> bytes:
    """A ``bytes.translate`` table from codes to the codes of their kept distances
    (:func:`kept_distance`): how the site publishes a class whose fresh budget is ``fresh``."""
    table = bytearray(range(256))
    for code in range(4, CODES):
        kept = kept_distance(RULES_VALUE[code], fresh)
        if kept == DRAW:
            table[code] = 2 if code < 36 else 3
        else:
            table[code] = 4 + kept // 2 if kept & 1 else 36 + kept // 2
    return bytes(table)


class Disagreement(ValueError):
    """Two tables of one class that cannot both be right (``code_of``)."""


def code_of(pure: int, rules: int) -> int:
    """The code of a slot from its two built values (the same as ``native/pack.c``)."""
    if pure == UNUSED or rules == UNUSED:
        if pure == rules:
            return 0
        raise Disagreement(f"pure {pure}, with count rules {rules}: an unused slot in one only")
    if pure == DRAW:
        if rules == DRAW:
            return 1
        raise Disagreement(f"a pure draw is {rules} with count rules, which only add draws")
    win = pure & 1
    if rules >= 0 and rules & 1 != win:
        raise Disagreement(f"pure {pure}, with count rules {rules}: not one result")
    if 0 <= rules <= CAP:
        return 4 + rules // 2 if win else 36 + rules // 2
    return 2 if win else 3


def build_code(value: int, *, rules: bool) -> int:
    """A built value as the compiled builder writes it with ``codes`` (``native/tablebuild.c``
    ``code_of``): one byte of what a parent's build needs of a child and the checker keeps.
    0 unused, 1 draw, 2 and 3 a win and a loss (of the pure kind always, with the count rules
    beyond ``CAP`` plies), and with the count rules a distance within ``CAP`` as in a compact
    code (4 + d // 2 a win, 36 + d // 2 a loss).  So a class's compact code is its count-rule
    build code where that is 4 or more, else its pure one."""
    if value == UNUSED:
        return 0
    if value == DRAW:
        return 1
    if not rules or value > CAP:
        return 2 if value & 1 else 3
    return 4 + value // 2 if value & 1 else 36 + value // 2


def codes_in_python(pure: Sequence[int], rules: Sequence[int]) -> Iterator[bytes]:
    """The codes of two built tables, in chunks (where no C compiler is at hand)."""
    step = 1 << 16
    for start in range(0, len(pure), step):
        yield bytes(
            code_of(p, r)
            for p, r in zip(pure[start : start + step], rules[start : start + step], strict=True)
        )


def codes_compiled(
    program: Path, pure: tuple[Path, int], rules: tuple[Path, int], slots: int
) -> Iterator[bytes]:
    """The codes of two built table files, from ``native/pack.c``."""
    return _pack_output(
        [str(program), str(pure[0]), str(pure[1]), str(rules[0]), str(rules[1]), str(slots)]
    )


def codes_of_build_codes(
    program: Path, pure: Path, rules: Path, slots: int, fill: Sequence[str] = ()
) -> Iterator[bytes]:
    """The codes of a class from its two kinds' files of build codes (:func:`build_code`, as
    ``rulebook tables`` builds the Fries Spel 5-piece classes), from ``native/pack.c``: the same
    codes as from the built int16 tables.  ``fill``: how to fill them as :data:`FILLED` says
    (:func:`marked_fill` or :func:`generated_fill`), or not at all."""
    return _pack_output([str(program), "codes", str(pure), str(rules), str(slots), *fill])


def marked_fill() -> tuple[str, ...]:
    """Fill by the marks the count-rule build set (``tablebuild ... marked``, kept by
    ``write_kept``) on the positions that must capture."""
    return ("fill", "marked")


def generated_fill(frisian: bool, material: Sequence[int]) -> tuple[str, ...]:
    """Fill by each position's captures, generated again (``pack fill``: codes with no marks)."""
    return ("fill", "1" if frisian else "0", *map(str, material))


def write_results(program: Path, codes: Path, target: Path, slots: int) -> None:
    """Write ``target``, the results of a class's build codes ``codes`` (two bits a slot,
    ``native/pack.c results``), whole or not at all: what the builds of the classes leading to
    it still need of it once its compact file is written, in a quarter of the bytes."""
    handle, name = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in _pack_output([str(program), "results", str(codes), str(slots)]):
                out.write(chunk)
        os.replace(name, target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def write_kept(program: Path, codes: Path, slots: int) -> None:
    """Turn the count-rule build codes in ``codes`` into kept codes in place (half a byte a
    slot, ``native/pack.c kept``: the result and whether the distance is within ``CAP``, what
    a compact code keeps where no count runs); ``Disagreement`` if they are no build codes.
    Stopped midway, the file holds neither."""
    run = subprocess.run(
        [str(program), "kept", str(codes), str(slots)],
        capture_output=True,
        check=False,
        **program_options(),
    )
    if run.returncode != 0:
        said = run.stderr.decode(errors="replace").strip()
        raise Disagreement(said or f"{program} failed")


def _pack_output(command: list[str]) -> Iterator[bytes]:
    """What ``native/pack.c`` writes, in chunks; ``Disagreement`` with its message if it fails."""
    program = command[0]
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **program_options(),
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        while chunk := run.stdout.read(1 << 20):
            yield chunk
        errors = run.stderr.read().decode(errors="replace").strip()
        if run.wait() != 0:
            raise Disagreement(errors or f"{program} failed")


def _blocks(chunks: Iterable[bytes], block: int) -> Iterator[bytes]:
    """``chunks`` cut into blocks of ``block`` codes (the last one may be shorter)."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        whole = len(pending) - len(pending) % block
        for start in range(0, whole, block):
            yield pending[start : start + block]
        pending = pending[whole:]
    if pending:
        yield pending


def write(
    path: Path, fields: dict[str, object], chunks: Iterable[bytes], *, filled: bool = False
) -> int:
    """Compress the codes ``chunks`` into the compact file ``path``, whole or not at all;
    ``fields`` is what its header says (``blocks`` and ``block`` are added; with ``filled``,
    codes filled as :data:`FILLED` says, also its format and ``captures``).  Its size."""
    path.parent.mkdir(parents=True, exist_ok=True)
    offsets = [0]
    slots = 0
    size = fields.get("size")
    handle, streams_name = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    streams = Path(streams_name)
    try:
        with os.fdopen(handle, "wb") as out:
            for block in _blocks(chunks, FILLED_BLOCK if filled else BLOCK):
                slots += len(block)
                packed = _compressed(block, filled=filled)
                out.write(packed)
                offsets.append(offsets[-1] + len(packed))
        if slots != size:
            raise Disagreement(f"{slots} codes for a class of {size} slots")
        index_bytes = 8 * len(offsets)
        index = struct.pack(f"<{len(offsets)}Q", *(index_bytes + o for o in offsets))
        digest = hashlib.sha256(index)
        with streams.open("rb") as source:
            while chunk := source.read(tablefile.CHUNK):
                digest.update(chunk)
        header = tablefile.header_line(expected_fields(fields, filled=filled), digest.hexdigest())

        def whole() -> Iterator[bytes]:
            yield header
            yield index
            with streams.open("rb") as source:
                while chunk := source.read(tablefile.CHUNK):
                    yield chunk

        tablefile.write_whole(path, whole())
    finally:
        streams.unlink(missing_ok=True)
    return path.stat().st_size


def _compressed(block: bytes, *, filled: bool) -> bytes:
    """A block's zlib stream: the filled form's long runs with zlib's run-length strategy
    (``Z_RLE``: a twentieth fewer bytes than level 6 on the Fries Spel 5-piece classes, in half
    the time); any zlib reader inflates both."""
    if not filled:
        return zlib.compress(block, LEVEL)
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, zlib.MAX_WBITS, 8, zlib.Z_RLE)
    return packer.compress(block) + packer.flush()


def expected_fields(fields: dict[str, object], *, filled: bool = False) -> dict[str, object]:
    """What the header of a compact file with ``fields`` says, but for its checksum (in the
    filled form, :data:`FILLED`, with ``filled``)."""
    size = fields["size"]
    assert isinstance(size, int)
    if not filled:
        return {**fields, "block": BLOCK, "blocks": -(-size // BLOCK)}
    return {
        **fields,
        "format": FILLED,
        "captures": "search",
        "block": FILLED_BLOCK,
        "blocks": -(-size // FILLED_BLOCK),
    }


class CompactTable:
    """A compact file, verified and mapped; ``code(slot)`` decompresses one block at need."""

    def __init__(self, path: Path, fields: dict[str, object]) -> None:
        """Raises ``tablefile.DamagedTable`` for a foreign or damaged file, ``OSError`` when it
        cannot be read."""
        with path.open("rb") as stream:
            offset, expected = _checked(path, stream, fields, always=False)
            mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        size = expected["size"]
        blocks = expected["blocks"]
        span = expected["block"]
        assert isinstance(size, int) and isinstance(blocks, int) and isinstance(span, int)
        self.span = span
        """Codes a block: ``BLOCK``, or ``FILLED_BLOCK`` in the filled form."""
        self.filled = expected["format"] == FILLED
        """The filled form: a position that must capture is worked out, not read
        (:data:`FILLED`)."""
        self._body = memoryview(mapped)[offset:]
        self.body_offset = offset
        """Where the block index starts in the file (after the two header lines)."""
        self.path = path
        self.size = size
        if len(self._body) < 8 * (blocks + 1):
            raise tablefile.DamagedTable(f"{path}: shorter than its index")
        self._offsets = struct.unpack_from(f"<{blocks + 1}Q", self._body)
        ordered = all(a <= b for a, b in zip(self._offsets, self._offsets[1:], strict=False))
        if (
            self._offsets[0] != 8 * (blocks + 1)
            or self._offsets[-1] != len(self._body)
            or not ordered
        ):
            raise tablefile.DamagedTable(f"{path}: its index does not match its length")
        self._cache: dict[int, bytes] = {}

    def block(self, number: int) -> bytes:
        found = self._cache.get(number)
        if found is None:
            start, end = self._offsets[number], self._offsets[number + 1]
            expected = min(self.span, self.size - number * self.span)
            try:
                found = zlib.decompress(self._body[start:end])
            except zlib.error as error:  # the checksum matched: a writer's fault, or a forgery
                raise tablefile.DamagedTable(f"{self.path}: block {number}: {error}") from None
            if len(found) != expected:
                raise tablefile.DamagedTable(
                    f"{self.path}: block {number} holds {len(found)} codes, not {expected}"
                )
            if len(self._cache) >= _CACHED_BLOCKS:
                self._cache.clear()
            self._cache[number] = found
        return found

    def streams(self) -> Iterator[tuple[int, bytes]]:
        """Each block's zlib stream, with where it starts in the file (for the index of blocks
        and checksums the site publishes, ``remote.py``)."""
        for number in range(len(self._offsets) - 1):
            start, end = self._offsets[number], self._offsets[number + 1]
            yield self.body_offset + start, bytes(self._body[start:end])

    def code(self, slot: int) -> int:
        if not 0 <= slot < self.size:
            raise IndexError(slot)
        return self.block(slot // self.span)[slot % self.span]

    def codes(self) -> Iterator[int]:
        for number in range(len(self._offsets) - 1):
            yield from self.block(number)


class Codes(Protocol):
    """What a view needs of a compact table: a file's (``CompactTable``) or a website's
    (``remote.RemoteCompactTable``)."""

    size: int

    def code(self, slot: int) -> int: ...

    def codes(self) -> Iterator[int]: ...


class KindView(Sequence[int]):
    """A compact table seen as one kind's int16 values (``PURE_VALUE`` or ``RULES_VALUE``)."""

    def __init__(self, table: Codes, values: tuple[int, ...]) -> None:
        self.table = table
        self._values = values

    def __len__(self) -> int:
        return self.table.size

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.table.size))]
        return self._values[self.table.code(index)]

    def __iter__(self) -> Iterator[int]:
        values = self._values
        return (values[code] for code in self.table.codes())


def check(path: Path, fields: dict[str, object], *, always: bool = False) -> None:
    """Check a compact file's header and checksum (a large file with a valid stamp only when
    ``always``, as ``tablefile.check``): raises ``tablefile.DamagedTable`` for a foreign or
    damaged one."""
    with path.open("rb") as stream:
        _checked(path, stream, fields, always=always)


def _form(stream: BinaryIO, fields: dict[str, object]) -> dict[str, object]:
    """What the header of the open compact file must say, in the form it says it is in (plain
    or :data:`FILLED`); the stream is left at its start."""
    found = tablefile.read_header(stream)
    stream.seek(0)
    filled = found is not None and found[0].get("format") == FILLED
    return expected_fields(fields, filled=filled)


def _checked(
    path: Path, stream: BinaryIO, fields: dict[str, object], *, always: bool
) -> tuple[int, dict[str, object]]:
    """The offset of the body of the open compact file and what its header says, after its
    header and checksum are checked (``tablefile.check``); ``tablefile.DamagedTable`` when
    either is wrong."""
    expected = _form(stream, fields)
    found = tablefile.expect(stream, expected)
    if found is None:
        raise tablefile.DamagedTable(f"{path}: not a compact table of these rules")
    offset, checksum = found
    tablefile.check(path, stream, offset, checksum, always=always)
    return offset, expected


def copy_verified(source: Path, target: Path, fields: dict[str, object]) -> None:
    """Copy a compact file, plain or filled, if it is one of these rules and passes its
    checksum."""
    with source.open("rb") as stream:
        expected = _form(stream, fields)
    tablefile.copy_verified(source, target, expected)
