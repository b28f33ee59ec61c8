"""Speed of the PDN reader on the PDN 3.0 conformance files.

    python benchmarks/pdn_read.py [--repeat 3] [--replay]

Reads every file of ``tests/data/pdn-conformance/games/{succeed,fail}`` (decoding included)
and reports games per second and the time of the whole set (the aim: under 2 s).  With
``--replay`` it also replays every game in a variant the program plays.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
CONFORMANCE = REPOSITORY / "tests" / "data" / "pdn-conformance" / "games"

sys.path.insert(0, str(REPOSITORY))

from rulebook_build.errors import RulebookError  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file  # noqa: E402
from rulebook_build.notation.replay import default_variant, game_variant, replay  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one counts")
    parser.add_argument("--replay", action="store_true", help="also replay the games")
    args = parser.parse_args()
    files = sorted(CONFORMANCE.glob("*/*.pdn"))
    if not files:
        print(f"no conformance files under {CONFORMANCE}", file=sys.stderr)
        return 2
    size = sum(path.stat().st_size for path in files)

    read_pdn_file(files[0])  # compile the grammar outside the timing
    best = float("inf")
    games = errors = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        games = errors = 0
        for path in files:
            found, problems = read_pdn_file(path)
            games += len(found)
            errors += len(problems)
        best = min(best, time.perf_counter() - start)
    print(
        f"read {len(files)} files ({size / 1024:.0f} KiB), {games} games, {errors} errors "
        f"in {best:.3f} s: {games / best:.0f} games/s, {size / 1024 / best:.0f} KiB/s"
    )

    if args.replay:
        start = time.perf_counter()
        replayed = failed = plies = 0
        for path in files:
            found, _problems = read_pdn_file(path)
            default = default_variant(found)
            for game in found:
                variant = game_variant(game, default)
                if variant is None:
                    continue
                try:
                    plies += len(replay(game, variant=variant).moves())
                    replayed += 1
                except RulebookError:
                    failed += 1
        elapsed = time.perf_counter() - start
        print(
            f"read and replayed {replayed} games ({failed} with errors, {plies} plies) "
            f"in {elapsed:.3f} s: {replayed / elapsed:.0f} games/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
