"""What reading each problem once saves: the notation work of ``rulebook check`` per problem.

    python benchmarks/read_once.py [--repeat 5] [FOLDER]

Before issue 52's point 5 a check read a problem's FEN tag four times or more on the way to its
verdict (the command's validation, the replay that finds an unplayable solution, the checker's
start position, the judge's replay in each round) and computed its digest twice; now
``notation.replay_problem`` reads it once, the digest is computed once, and both are handed on.
This script times, for every problem of FOLDER (default ``problems/``), the reading the command
does now (``replay_problem`` and one ``problem_digest``) against the calls the old path made (two
``start_position``, two replays, two digests: the fewest, a judgement of one round), best of
``--repeat`` runs each, and prints the totals and the time per problem.  The searches are not
run: their time is the same either way.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.checker.judge import problem_digest
from rulebook_build.errors import RulebookError
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import (
    game_variant,
    replay,
    replay_problem,
    start_position,
    unplayable,
)
from rulebook_build.rules import Variant

REPOSITORY = Path(__file__).resolve().parents[1]


def problems(folder: Path) -> list[tuple[PdnGame, Variant]]:
    found = []
    for path in sorted(folder.rglob("*.pdn")):
        games, _errors = read_pdn_file(path)
        for game in games:
            variant = game_variant(game)
            if game.is_problem and variant is not None:
                found.append((game, variant))
    return found


def now(game: PdnGame, variant: Variant) -> None:
    """What ``rulebook check`` reads of a problem now."""
    replay_problem(game, variant)
    problem_digest(game, variant)


def before(game: PdnGame, variant: Variant) -> None:
    """What it read before: the command's checks, the checker's start position, the judge's
    replay (one round) and the two digests."""
    start_position(game, variant)
    unplayable(game, variant)
    problem_digest(game, variant)
    start_position(game, variant)
    problem_digest(game, variant)
    with contextlib.suppress(RulebookError):  # the judge kept the error as the solution's
        replay(game, variant=variant)


def best(
    work: Callable[[PdnGame, Variant], None], found: list[tuple[PdnGame, Variant]], repeat: int
) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        for game, variant in found:
            with contextlib.suppress(RulebookError):  # a bad FEN: refused either way
                work(game, variant)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=REPOSITORY / "problems")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    found = problems(args.folder)
    old = best(before, found, args.repeat)
    new = best(now, found, args.repeat)
    count = len(found)
    print(f"{count} problems in {args.folder}, best of {args.repeat} runs")
    print(f"before (4 FEN reads, 2 digests): {old:.3f} s, {old / count * 1000:.2f} ms a problem")
    print(f"now    (1 FEN read, 1 digest):   {new:.3f} s, {new / count * 1000:.2f} ms a problem")
    print(f"saved: {old - new:.3f} s ({(old - new) / old:.0%})")


if __name__ == "__main__":
    main()
