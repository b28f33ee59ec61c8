"""The long run of the builders' comparison: the compiled table builder against the Python one.

    python benchmarks/builders.py                         # both variants, up to 3 pieces (~3 min)
    python benchmarks/builders.py --variant international --max-pieces 4   # half an hour

Builds every class of up to ``--max-pieces`` pieces with both builders, pure and with the count
rules, into fresh temporary caches, and compares them slot for slot.  Prints one line per
variant and kind: the classes and slots compared, the classes that differ, and the time each
builder took.  Exit status 1 if any slot differs.  The test suite compares the International
pure tables of every 3-piece class and, with the count rules, the classes where a count rule can
end the game (``tests/checker/test_native_tables.py``); the Fries Spel pure 3-piece classes it
checks on 3,000 random positions each against the rules (their Python build took a minute and a
half of a busy suite); this script compares them all, slot for slot.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.endgame import EndgameTables, Semantics
from rulebook_build.rules import VARIANTS, find_variant


def compare(variant_name: str, semantics: Semantics, max_pieces: int, folder: Path) -> bool:
    """Build both ways and compare; print the line; True when every slot agrees."""
    variant = find_variant(variant_name)
    compiled = EndgameTables(
        variant, max_pieces=max_pieces, cache_dir=folder / "c", semantics=semantics
    )
    python = EndgameTables(
        variant,
        max_pieces=max_pieces,
        cache_dir=folder / "py",
        builder="python",
        semantics=semantics,
    )
    classes = compiled.material_classes()
    seconds = {"compiled": 0.0, "python": 0.0}
    slots = 0
    differing: list[str] = []
    for material in classes:
        started = time.perf_counter()
        ours = compiled.table(material)
        seconds["compiled"] += time.perf_counter() - started
        started = time.perf_counter()
        reference = python.table(material)
        seconds["python"] += time.perf_counter() - started
        slots += len(reference)
        if len(ours) != len(reference):
            differing.append(f"{material}: {len(ours)} slots against {len(reference)}")
            continue
        count = sum(1 for a, b in zip(ours, reference, strict=True) if a != b)
        if count:
            differing.append(f"{material}: {count} slots differ")
    print(
        f"{variant_name} {semantics}: {len(classes)} classes of up to {max_pieces} pieces, "
        f"{slots:,} slots, {len(differing)} classes differ; built in "
        f"{seconds['compiled']:.1f} s compiled, {seconds['python']:.1f} s in Python",
        flush=True,
    )
    for line in differing[:20]:
        print(f"  {line}")
    return not differing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=[v.name for v in VARIANTS], default=None)
    parser.add_argument("--max-pieces", type=int, choices=(2, 3, 4), default=3)
    args = parser.parse_args()
    if binaries.compiler() is None:
        print("no C compiler on this machine: nothing to compare")
        return 1
    names = [args.variant] if args.variant else [v.name for v in VARIANTS]
    agree = True
    with tempfile.TemporaryDirectory() as name:
        for variant_name in names:
            for semantics in ("pure", "rules"):
                folder = Path(name) / f"{variant_name}-{semantics}"
                agree = compare(variant_name, semantics, args.max_pieces, folder) and agree
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
