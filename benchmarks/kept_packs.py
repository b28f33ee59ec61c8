"""What the compact files ``rulebook check`` keeps weigh with kept count-rule distances.

    python benchmarks/kept_packs.py [--variant international] [--every 1] [--cache-dir DIR]

``CheckerTables.pack`` writes of a count-rule distance only what the checker reads of it
(``compact.kept_codes``: whether it fits the class's fresh budget).  Files packed before keep
the exact distance.  For every ``.pack`` of the variant's pure folder in the cache, every
``--every``-th block is unpacked, its codes mapped to the kept ones and packed again as
``compact.write`` packs them (zlib level ``compact.LEVEL``, blocks of ``compact.BLOCK`` codes);
prints per class the bytes of those blocks as they are and kept, and the total with its ratio.
Run under ``nice``: it reads and packs every block of the set once.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine.tables import compact
from rulebook_build.engine.tables.index import material_of_name
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import find_variant, fresh_plies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--every", type=int, default=1, help="every N-th block of a class")
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args()
    variant = find_variant(args.variant)
    tables = checker_tables(variant, cache_dir=args.cache_dir)
    files = sorted(tables.pure.folder().glob("*" + compact.SUFFIX), key=lambda p: p.stat().st_size)
    if not files:
        print(f"no compact file of {variant.name} in {tables.pure.folder()}")
        return 1
    before = after = 0
    began = time.perf_counter()
    for path in files:
        material = material_of_name(path.name[: -len(compact.SUFFIX)])
        assert material is not None, path
        table = compact.CompactTable(path, tables.pure.compact_fields(material))
        kept = compact.kept_codes(fresh_plies(variant, material))
        was = now = 0
        for number, (_at, stream) in enumerate(table.streams()):
            if number % args.every:
                continue
            was += len(stream)
            now += len(zlib.compress(zlib.decompress(stream).translate(kept), compact.LEVEL))
        before += was
        after += now
        print(f"{path.name:18} {was:13,} -> {now:13,} bytes ({now / max(was, 1):.3f})", flush=True)
    print(
        f"{variant.name}: {len(files)} classes, every {args.every} block(s): {before:,} -> "
        f"{after:,} bytes ({after / max(before, 1):.3f}) in {time.perf_counter() - began:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
