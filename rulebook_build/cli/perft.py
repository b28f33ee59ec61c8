"""``rulebook perft``: count the legal move tree of a position.

    rulebook perft FEN|start --variant V --depth N [--json]

Counts unique moves (two routes capturing the same pieces are one move), as published figures
do.  JSON: ``{"variant", "fen", "depth", "nodes", "seconds"}``.
"""

from __future__ import annotations

import argparse
import json
import time

from rulebook_build.cli.moves import add_variant_argument, read_position
from rulebook_build.cli.options import whole_number
from rulebook_build.notation import format_fen
from rulebook_build.rules import find_variant, perft

MAX_DEPTH = 20
"""The deepest count taken: the published figures go to depth 11 to 15, and each ply multiplies
the work by about ten (a count deeper than this would not end in a lifetime)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("fen", metavar="FEN", help="a position as FEN, or 'start'")
    add_variant_argument(parser)
    parser.add_argument(
        "--depth",
        type=whole_number(0, MAX_DEPTH),
        required=True,
        help=f"depth in plies, 0 to {MAX_DEPTH}",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--divide", action="store_true", help="also print the count below each first move"
    )


def run(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    position = read_position(args.fen, variant, source="FEN")
    started = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move in position.legal_moves():
            count = perft(position.play(move), args.depth - 1)
            total += count
            print(f"{move.full_notation()}: {count}")
    else:
        total = perft(position, args.depth)
    seconds = time.perf_counter() - started
    if args.json:
        print(
            json.dumps(
                {
                    "variant": variant.name,
                    "fen": format_fen(position),
                    "depth": args.depth,
                    "nodes": total,
                    "seconds": round(seconds, 6),
                }
            )
        )
    else:
        rate = f", {total / seconds:,.0f} leaves/s" if seconds > 0 else ""
        print(f"perft {args.depth}: {total} nodes in {seconds:.3f} s{rate}")
    return 0
