"""``rulebook tables``: build the endgame tables the checker uses as exact leaves, once.

    rulebook tables [--variant V] [--pieces N] [--list]

``rulebook check`` builds the tables of up to 3 pieces by itself on first use (seconds).  The
4-piece classes (a king and a man against two men, three men against a king, ...) take one to
six minutes each in pure Python, about 35 minutes for all of International (90 MB on disk; about
250 bytes of memory a slot while a pair builds, so 1.3 GB for the largest), so the checker
never starts them on its own: this command builds them into the
cache (``.cache/endgame/``), and from then on ``rulebook check`` uses them.  Classes already
in the cache are only checked, so the command can be stopped and run again.
"""

from __future__ import annotations

import argparse
import sys

from rulebook_build.checker.endgame import EndgameTables, Material
from rulebook_build.errors import RulebookError
from rulebook_build.rules import VARIANTS, find_variant

# measured: every International 4-piece class, 46 million slots, in 2091 s on a busy 2-core
# machine (25 µs a slot when the machine is idle; the king classes are the slow ones)
SECONDS_PER_SLOT = 45e-6


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        choices=[v.name for v in VARIANTS],
        default="international",
        help="rule set (default international)",
    )
    parser.add_argument(
        "--pieces", type=int, default=4, help="every class of up to N pieces (default 4)"
    )
    parser.add_argument(
        "--list", action="store_true", help="only list the classes and whether they are cached"
    )


def describe(material: Material) -> str:
    """``(1, 1, 2, 0)`` -> "1 man 1 king v 2 men" (the side to move first)."""

    def side(men: int, kings: int) -> str:
        parts = []
        if men:
            parts.append(f"{men} {'man' if men == 1 else 'men'}")
        if kings:
            parts.append(f"{kings} {'king' if kings == 1 else 'kings'}")
        return " ".join(parts)

    a, b, c, d = material
    return f"{side(a, b)} v {side(c, d)}"


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.pieces <= 4:
        raise RulebookError(f"--pieces must be 2, 3 or 4, not {args.pieces}")
    variant = find_variant(args.variant)
    tables = EndgameTables(variant, max_pieces=args.pieces, max_pair_slots=None)
    classes = tables.material_classes()
    missing = [m for m in classes if not tables.in_cache(m)]
    if args.list:
        for material in classes:
            state = "cached" if tables.in_cache(material) else "not built"
            print(f"{describe(material):28} {tables.pair_slots(material):>12,} slots  {state}")
        return 0
    estimate = sum(tables.pair_slots(m) for m in missing) * SECONDS_PER_SLOT / 2
    print(
        f"{variant.name}: {len(classes)} classes of up to {args.pieces} pieces, "
        f"{len(missing)} to build (about {estimate / 60:.0f} min)",
        file=sys.stderr,
        flush=True,
    )

    def built(material: Material, seconds: float) -> None:
        print(
            f"  built {describe(material)} with its partner "
            f"({tables.pair_slots(material):,} slots) in {seconds:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    seconds = tables.prepare_missing(classes, built)
    print(
        f"{variant.name}: every class of up to {args.pieces} pieces is in {tables.cache_dir} "
        f"({seconds:.0f} s)",
        file=sys.stderr,
    )
    return 0
