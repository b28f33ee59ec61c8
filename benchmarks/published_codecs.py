"""The site's published table codes under other codecs: how far a denser published form goes.

    python benchmarks/published_codecs.py --folder SITE/assets/rulebook/tables/international \
        [--every N] NAME [NAME ...]

Issue 54 asks the published International 5-piece set to be a third of the 0.29 GB it was,
some 0.78 of the bytes ``site-tables-3`` publishes now (zlib, level ``remote.LEVEL``, blocks of
``remote.SPAN`` codes, captures left to the reader).  The page's reader is Python under
Pyodide, so a codec it can unpack fast is one of the standard library's (zlib, LZMA, bz2).  For
each class named, every ``N``-th published block of the folder is unpacked (its checksum
checked first) and packed again: zlib as published, raw LZMA2 (preset 9 extreme, no literal
context: the codes are not text) in blocks of the same size and of four times the size, bz2,
and the codes split in two streams (the result, and the count-rule distance that a win or a
loss adds to it) packed apart.  Then zlib with a preset dictionary (``zdict``, which Pyodide's
zlib reads as fast as plain zlib) of 4 and 32 KB: pieces of 512 codes from the middle of blocks
spread evenly over the class, the class's own sample (a page would fetch it once a class); and
zlib in blocks of a quarter of the size ("zlib /4", the compact file's 4,096 codes: a probe
then fetches a quarter of the codes), alone and with the 32 KB dictionary.  Prints each codec's
bytes as a fraction of zlib's.
"""

from __future__ import annotations

import argparse
import bz2
import json
import lzma
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.engine.tables import remote  # noqa: E402

LZMA: list[dict[str, int]] = [
    {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "lc": 0, "lp": 0, "pb": 0}
]
RESULT: bytes = bytes(c if c < 4 else 4 if c < 36 else 36 for c in range(256))
"""A code's result alone (``compact.py``: 4 + d // 2 wins, 36 + d // 2 losses)."""


def published_blocks(folder: Path, name: str, every: int) -> Iterator[bytes]:
    """The codes of the published blocks of class ``name`` (each checked): every ``every``-th
    four of neighbours, so that four in a row make one of the larger blocks "lzma x4" packs."""
    (manifest_path,) = folder.glob("tables-*.json")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    entry = manifest["classes"][name]
    # read as the check page reads it: every page's sums and every block checked
    table = remote.RemoteCompactTable(name, entry, remote.folder_fetch(folder), manifest["page"])
    for number in range(int(entry["blocks"])):
        if number // 4 % every == 0:  # in fours of neighbours, for "lzma x4"
            yield table.published(number)


def split(codes: bytes) -> tuple[bytes, bytes]:
    """The codes as two streams whose bytes add up to them: the result, and the distance."""
    result = codes.translate(RESULT)
    distance = int.from_bytes(codes, "little") - int.from_bytes(result, "little")
    return result, distance.to_bytes(len(codes), "little")


def sampled_dictionary(codes: list[bytes], size: int, piece: int = 512) -> bytes:
    """A preset dictionary of ``size`` bytes: pieces of ``piece`` codes from the middle of
    blocks spread evenly over ``codes`` (the latest last, where zlib reaches them cheapest)."""
    step = max(1, len(codes) // max(1, size // piece))
    taken = bytearray()
    for block in codes[::step]:
        middle = max(0, (len(block) - piece) // 2)
        taken += block[middle : middle + piece]
    return bytes(taken[-size:])


def zlib_bytes(blocks: list[bytes], dictionary: bytes = b"") -> int:
    """Bytes of ``blocks`` packed one by one with zlib (``remote.LEVEL``), with a preset
    dictionary where one is given."""
    total = 0
    for block in blocks:
        packer = (
            zlib.compressobj(remote.LEVEL, zdict=dictionary)
            if dictionary
            else zlib.compressobj(remote.LEVEL)
        )
        total += len(packer.compress(block) + packer.flush())
    return total


def packed(codes: list[bytes]) -> dict[str, int]:
    def lz(data: bytes) -> int:
        return len(lzma.compress(data, format=lzma.FORMAT_RAW, filters=LZMA))

    fours = [b"".join(codes[at : at + 4]) for at in range(0, len(codes), 4)]
    quarter = remote.SPAN // 4
    quarters = [c[at : at + quarter] for c in codes for at in range(0, len(c), quarter)]
    codecs: dict[str, Callable[[], int]] = {
        "zlib": lambda: sum(len(zlib.compress(c, remote.LEVEL)) for c in codes),
        "lzma": lambda: sum(lz(c) for c in codes),
        "lzma x4": lambda: sum(lz(c) for c in fours),
        "bz2": lambda: sum(len(bz2.compress(c, 9)) for c in codes),
        "split zlib": lambda: sum(
            len(zlib.compress(p, remote.LEVEL)) for c in codes for p in split(c)
        ),
        "split lzma": lambda: sum(lz(p) for c in codes for p in split(c)),
        "zlib dict 4k": lambda: zlib_bytes(codes, sampled_dictionary(codes, 4096)),
        "zlib dict 32k": lambda: zlib_bytes(codes, sampled_dictionary(codes, 32768)),
        "zlib /4": lambda: zlib_bytes(quarters),
        "zlib /4 dict 32k": lambda: zlib_bytes(quarters, sampled_dictionary(codes, 32768)),
    }
    return {label: count() for label, count in codecs.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--every", type=int, default=1, help="every N-th four blocks (a sample)")
    parser.add_argument("names", nargs="+", help="classes, e.g. m2k2-m0k1")
    options = parser.parse_args()
    for name in options.names:
        began = time.perf_counter()
        codes = list(published_blocks(options.folder, name, options.every))
        sizes = packed(codes)
        base = sizes["zlib"]
        said = "  ".join(f"{label} {size / base:.3f}" for label, size in sizes.items())
        print(
            f"{name}  {len(codes)} blocks, zlib {base / 1e6:.2f} MB:  {said}  "
            f"({time.perf_counter() - began:.0f} s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
