"""Fries Spel 5-piece compact files built through build codes, against int16 tables built whole.

    python benchmarks/coded_packs.py --cache-dir CACHE --int16 DIR --kind pure [--blocks 2000]

``CACHE`` holds the compact files ``rulebook tables --variant frisian --pieces 5 --pack`` wrote
(through build codes, ``engine/tables/coded.py``); ``DIR`` holds int16 tables of one kind built
the old way (``benchmarks/builder_work.py --variant frisian --class ... --work W`` leaves them
in ``W/frisian-pure`` or ``W/frisian-rules``).  For every 5-piece class in both, ``--blocks``
random blocks of 4,096 slots (every block with 0): each slot's compact code must read as the
int16 value does, as the checker reads it (``compact.PURE_VALUE``: the result; with the count
rules ``compact.RULES_VALUE`` against ``kept_distance`` of the value: the distance within the
cap, kept as the checker keeps it).  Prints a line a class and exits 1 at the first slot that
differs.  A class in the filled form (``compact.FILLED``, as the command writes them now) is
passed over: ``benchmarks/filled_packs.py`` compares it with the plain form these checked.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine.tables import compact
from rulebook_build.engine.tables.index import material_name, material_of_name
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import FRISIAN, fresh_plies


def result(value: int) -> int:
    """-2 unused, -1 draw, 1 win, 0 loss."""
    return value if value < 0 else value & 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--int16", type=Path, required=True)
    parser.add_argument("--kind", choices=("pure", "rules"), required=True)
    parser.add_argument("--blocks", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    tables = checker_tables(FRISIAN, cache_dir=args.cache_dir)
    rng = random.Random(args.seed)
    compared = 0
    for path in sorted(args.int16.glob("*.bin")):
        material = material_of_name(path.stem)
        if material is None or sum(material) != 5:
            continue
        packed = tables.pure.compact_path(material)
        if not packed.is_file():
            continue
        started = time.perf_counter()
        table = compact.CompactTable(packed, tables.pure.compact_fields(material))
        if table.filled:  # its captures are not stored: compare a plain pack (filled_packs.py)
            print(f"{material_name(material)}: in the filled form, compared by filled_packs.py")
            continue
        fresh = fresh_plies(FRISIAN, material)
        data = path.read_bytes() if path.stat().st_size < 2**31 else None
        header = path.open("rb").read(4096)
        offset = header.index(b"\n", header.index(b"\n") + 1) + 1
        count = -(-table.size // compact.BLOCK)
        chosen = (
            range(count)
            if args.blocks == 0
            else sorted(rng.sample(range(count), min(count, args.blocks)))
        )
        slots = 0
        with path.open("rb") as stream:
            for number in chosen:
                codes = table.block(number)
                start = offset + 2 * number * compact.BLOCK
                if data is not None:
                    raw = data[start : start + 2 * len(codes)]
                else:
                    stream.seek(start)
                    raw = stream.read(2 * len(codes))
                values = array("h")
                values.frombytes(raw)
                if sys.byteorder != "little":
                    values.byteswap()
                for i, (code, value) in enumerate(zip(codes, values, strict=True)):
                    if args.kind == "pure":
                        read, wanted = result(compact.PURE_VALUE[code]), result(value)
                    else:
                        read = compact.RULES_VALUE[code]
                        wanted = compact.kept_distance(value, fresh)
                    if read != wanted:
                        slot = number * compact.BLOCK + i
                        print(
                            f"{material_name(material)} slot {slot}: code {code} reads {read}, "
                            f"the int16 table {value} ({wanted})"
                        )
                        return 1
                slots += len(codes)
        compared += 1
        print(
            f"{material_name(material):10} {slots:>13,} slots of {table.size:,} agree "
            f"({args.kind}) in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    print(f"{compared} classes agree ({time.strftime('%Y-%m-%d %H:%M')})")
    return 0 if compared else 1


if __name__ == "__main__":
    sys.exit(main())
