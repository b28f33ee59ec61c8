"""Endgame tables: time to build every class, time to load them again, and probe speed.

    python benchmarks/endgame.py                     # both variants, up to 3 pieces (~30 s)
    python benchmarks/endgame.py --max-pieces 4      # also the 4-piece king classes (minutes)
    python benchmarks/endgame.py --variant frisian --cache-dir .cache/endgame

Builds into a fresh temporary directory unless ``--cache-dir`` is given (then whatever is
already cached there is only loaded).  Prints one line per material class (side to move first:
men, kings, then the other side's men, kings): slots, positions won / lost / drawn for the side
to move, the longest win or loss in plies, and the build time of the class with its partner
(the same material with the other side to move, built together).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.errors import PositionError
from rulebook_build.rules import VARIANTS, Position, Variant, find_variant
from rulebook_build.rules.movegen import State


def random_states(
    rng: random.Random, variant: Variant, tables: EndgameTables, count: int
) -> list[State]:
    """Random covered positions of every class, with a random side to move."""
    classes = tables.material_classes()
    found: list[State] = []
    while len(found) < count:
        own_men, own_kings, other_men, other_kings = rng.choice(classes)
        white = rng.random() < 0.5
        squares = rng.sample(range(1, 51), own_men + own_kings + other_men + other_kings)
        own, other = squares[: own_men + own_kings], squares[own_men + own_kings :]
        white_side, black_side = (own, other) if white else (other, own)
        white_men = own_men if white else other_men
        black_men = other_men if white else own_men
        try:
            position = Position.from_squares(
                variant=variant,
                white_to_move=white,
                white_men=white_side[:white_men],
                white_kings=white_side[white_men:],
                black_men=black_side[:black_men],
                black_kings=black_side[black_men:],
            )
        except PositionError:
            continue  # a man on its own promotion row
        state = position.state()
        if tables.covers(state):
            found.append(state)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", help="international or frisian (default: both)")
    parser.add_argument("--max-pieces", type=int, default=3)
    parser.add_argument("--cache-dir", type=Path, help="default: a fresh temporary directory")
    args = parser.parse_args()
    variants = [find_variant(args.variant)] if args.variant else list(VARIANTS)

    for variant in variants:
        with tempfile.TemporaryDirectory() as temporary:
            cache_dir = args.cache_dir or Path(temporary)
            tables = EndgameTables(variant, max_pieces=args.max_pieces, cache_dir=cache_dir)
            print(f"{variant.name}, up to {args.max_pieces} pieces, cache {cache_dir}")
            started = time.perf_counter()
            tables.build_all()
            total = time.perf_counter() - started
            print(
                f"  {'class':10} {'slots':>10} {'win':>9} {'loss':>9} {'draw':>9} longest   build"
            )
            slots = 0
            for material in tables.material_classes():
                counts = tables.stats(material)
                slots += tables.size(material)
                seconds = tables.build_seconds.get(material)
                built = f"{seconds:6.2f} s" if seconds is not None else "  loaded"
                name = "m{}k{}-m{}k{}".format(*material)
                print(
                    f"  {name:10} {tables.size(material):>10,} {counts['win']:>9,} "
                    f"{counts['loss']:>9,} {counts['draw']:>9,} {counts['longest']:>7} {built}"
                )
            print(f"  all classes: {slots:,} slots ({2 * slots / 1e6:.1f} MB), {total:.1f} s")

            started = time.perf_counter()
            again = EndgameTables(variant, max_pieces=args.max_pieces, cache_dir=cache_dir)
            again.build_all()
            print(f"  loading them again: {1000 * (time.perf_counter() - started):.0f} ms")

            states = random_states(random.Random(1), variant, again, 100_000)
            started = time.perf_counter()
            for state in states:
                again.probe(state)
            seconds = time.perf_counter() - started
            print(
                f"  probe: {len(states) / seconds:,.0f} probes/s "
                f"({seconds / len(states) * 1e6:.2f} µs each, random covered positions)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
