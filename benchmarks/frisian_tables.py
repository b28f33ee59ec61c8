"""Random positions of the Fries Spel 5-piece tables checked against the rules, one step back.

    python benchmarks/frisian_tables.py [--cache-dir DIR] [--samples 2000] [--seed 17]
                                        [--class m1k1-m1k2 ...]

For every Frisian class of 5 pieces in the cache (``rulebook tables --variant frisian --pieces 5``;
``--class`` to name some), ``--samples`` random positions with either side to move and random
art. 17 runs of both sides: the stored pure value must be what the Python engine's moves make it
(``EndgameTables._from_successors``: a win in n has a move to a loss in n - 1 and none faster, a
loss has only moves to wins, the slowest in n - 1, a draw no move to a loss).  A class kept only
in compact form (``--pack``) has no pure distances, so there, and where the moves lead to such a
class (a promotion to five kings, say), only the result is compared.  This
checks what the slices of ``native/tablebuild.c`` built where no whole build can be had to
compare with: 1m1k v 2m1k and 1m1k v 1m2k, whose two sides both carry runs.  Prints a line per
class (positions, with a run, decided, seconds) and exits 1 at the first disagreement.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine.tables.endgame import EndgameTables, default_cache_dir
from rulebook_build.engine.tables.index import (
    material_name,
    material_of_name,
    successor_classes,
)
from rulebook_build.notation.fen import format_fen
from rulebook_build.rules import FRISIAN
from rulebook_build.rules.position import Position
from tests.checker.test_endgame import random_state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, help="the cache folder (default: the user's)")
    parser.add_argument("--samples", type=int, default=2000, help="positions a class")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--class", dest="classes", action="append", default=[], metavar="NAME")
    args = parser.parse_args()

    folder = args.cache_dir / "endgame" if args.cache_dir else default_cache_dir()
    tables = EndgameTables(
        FRISIAN, max_pieces=4, max_pair_slots=None, cached_pieces=5, cache_dir=folder
    )
    if args.classes:
        chosen = [material_of_name(name) for name in args.classes]
        if None in chosen:
            parser.error(f"a class is named like m1k1-m1k2, not {args.classes}")
        materials = [m for m in chosen if m is not None]
    else:
        materials = [m for m in tables.material_classes() if sum(m) == 5]
    if not materials:
        print(f"no Frisian 5-piece class in {folder}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    checked = classes = 0
    for material in materials:
        if not tables.in_cache(material):
            print(f"{material_name(material)}: not in the cache", flush=True)
            continue
        # a packed class keeps no distances: where the class, its partner or a 5-piece class
        # their moves lead to is packed (a man's promotion to five kings, say), only results
        # can be compared
        a, b, c, d = material
        sources = {material, (c, d, a, b)}
        reached = {t for source in sources for t in successor_classes(source) if sum(t) == 5}
        compact = any(not tables.path(m).is_file() for m in sources | reached)
        started = time.perf_counter()
        with_run = decided = 0
        for _ in range(args.samples):
            # random_state takes (white men, white kings, black men, black kings); with White
            # to move that is the class itself, with Black to move its partner
            state = random_state(rng, FRISIAN, material)
            stored = tables.probe(state)
            wanted = tables._from_successors(state)
            same = stored is not None and (
                stored.result == wanted.result if compact else stored == wanted
            )
            if not same:
                position = format_fen(Position.from_state(FRISIAN, state))
                print(
                    f"{material_name(material)}: {position} with runs {state[5]} {state[6]} "
                    f"is stored as {stored}, its moves make it {wanted}"
                )
                return 1
            with_run += bool(state[5][0] or state[6][0])
            decided += wanted.result != "draw"
        checked += args.samples
        classes += 1
        print(
            f"{material_name(material):12} {args.samples} positions agree "
            f"({'results only, compact' if compact else 'values'}; {with_run} with a run, "
            f"{decided} decided) in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    print(f"{checked} positions of {classes} classes agree with their moves")
    return 0 if classes else 2


if __name__ == "__main__":
    sys.exit(main())
