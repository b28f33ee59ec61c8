"""Speed of the rules engine: perft leaves/s and move generation, both variants.

    python benchmarks/perft.py            # the standard figures (about a minute)
    python benchmarks/perft.py --deep     # also the deepest published counts (several minutes)

Prints perft figures checked against tests/rules/perft.txt, legal-move generation time on fixed
positions, the Frisian capture stress position, and the same perft with py-draughts (the
fastest pure-Python draughts library) when it is installed, as a yardstick.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position, find_variant, perft
from tests.rules.perft_data import read_perft_cases

GENERATION_POSITIONS = {
    "international start": ("W:W31-50:B1-20", INTERNATIONAL),
    "international middlegame": (
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        INTERNATIONAL,
    ),
    "international kings": (
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        INTERNATIONAL,
    ),
    "frisian start": ("W:W31-50:B1-20", FRISIAN),
    "frisian stress (lidraughts)": (
        "W:W50:B18,22,23,24,27,29,32,33,34,38,40,42,43,44,K49",
        FRISIAN,
    ),
}


def timed(function, *args):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def oracle_perft(board: object, depth: int) -> int:
    moves = board.legal_moves  # type: ignore[attr-defined]
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)  # type: ignore[attr-defined]
        total += oracle_perft(board, depth - 1)
        board.pop()  # type: ignore[attr-defined]
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", action="store_true", help="run the deepest published counts")
    args = parser.parse_args()
    limit = 50_000_000 if args.deep else 1_100_000

    print("perft (checked against tests/rules/perft.txt)")
    failures = 0
    for case in read_perft_cases():
        position = parse_fen(case.fen, variant=find_variant(case.variant))
        depth = max(d for d, n in case.counts.items() if n <= limit)
        nodes, seconds = timed(perft, position, depth)
        ok = nodes == case.counts[depth]
        failures += not ok
        print(
            f"  {case.id:24} d{depth}  {nodes:>10,}  {seconds:7.2f} s  "
            f"{nodes / seconds:>11,.0f} leaves/s  {'ok' if ok else 'WRONG'}"
        )

    print("legal move generation (mean of repeated calls)")
    for name, (fen, variant) in GENERATION_POSITIONS.items():
        position = parse_fen(fen, variant=variant)
        repeats = 2000 if "stress" not in name else 20
        started = time.perf_counter()
        for _ in range(repeats):
            moves = position.raw_moves()
        per_call = (time.perf_counter() - started) / repeats
        print(f"  {name:30} {len(moves):3} moves  {per_call * 1e6:10.1f} µs")

    try:
        import draughts  # py-draughts, the yardstick
    except ImportError:
        print("py-draughts not installed: no comparison")
    else:
        print("py-draughts on the same start positions (yardstick)")
        for label, board_class, variant, depth in (
            ("international", draughts.StandardBoard, INTERNATIONAL, 6),
            ("frisian", draughts.FrisianBoard, FRISIAN, 6),
        ):
            theirs, their_seconds = timed(oracle_perft, board_class(), depth)
            ours, our_seconds = timed(perft, Position.initial(variant), depth)
            print(
                f"  {label:14} d{depth}: py-draughts {theirs / their_seconds:>10,.0f} leaves/s, "
                f"rulebook_build {ours / our_seconds:>10,.0f} leaves/s "
                f"({their_seconds / our_seconds:.1f}x)"
            )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
