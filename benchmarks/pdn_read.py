"""Speed of the PDN reader on the PDN 3.0 conformance files, and its memory on large files.

    python benchmarks/pdn_read.py [--repeat 3] [--replay]
    python benchmarks/pdn_read.py --stream 100000 400000 [--replay]

Reads every file of ``tests/data/pdn-conformance/games/{succeed,fail}`` (decoding included)
and reports games per second and the time of the whole set (the aim: under 2 s).  With
``--replay`` it also replays every game in a variant the program plays.

``--stream N ...`` writes, for each N, a file of N tournament games (the International games of
the conformance set, copied round after round) into a temporary folder, then reads it as a
stream in a fresh process (``iter_pdn_file``; with ``--replay``, ``rulebook pdn`` reads and
replays it) and prints the file's size, the time, games per second and the process's peak
memory (resident set).  The files are deleted afterwards.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
CONFORMANCE = REPOSITORY / "tests" / "data" / "pdn-conformance" / "games"

sys.path.insert(0, str(REPOSITORY))

from rulebook_build.errors import RulebookError  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file, write_pdn  # noqa: E402
from rulebook_build.notation.replay import default_variant, game_variant, replay  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one counts")
    parser.add_argument("--replay", action="store_true", help="also replay the games")
    parser.add_argument(
        "--stream", type=int, nargs="+", metavar="N", help="large files of N games, streamed"
    )
    args = parser.parse_args()
    if args.stream:
        return stream(args.stream, replay_too=args.replay)
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


MEASURE = """
import resource, sys, time
from rulebook_build.notation.pdn import PdnGame, iter_pdn_file
from rulebook_build.cli import main
started = time.perf_counter()
if sys.argv[2] == "replay":
    main(["pdn", "--json", sys.argv[1]])
    games = -1
else:
    games = sum(isinstance(item, PdnGame) for item in iter_pdn_file(sys.argv[1]))
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(games, seconds, peak)
"""


def international_games() -> list[str]:
    """The text of every International game (GameType 20, or a 10x10 file) of the set."""
    found: list[str] = []
    for path in sorted(CONFORMANCE.glob("succeed/*.pdn")):
        games, _errors = read_pdn_file(path)
        default = default_variant(games)
        found.extend(
            write_pdn([game])
            for game in games
            if not game.is_problem and game_variant(game, default) is not None
        )
    return found


def stream(counts: list[int], *, replay_too: bool) -> int:
    texts = international_games()
    print(f"{len(texts)} International games of the conformance set, copied round after round")
    with tempfile.TemporaryDirectory() as folder:
        for count in counts:
            path = Path(folder) / f"games-{count}.pdn"
            with path.open("w", encoding="utf-8") as out:
                for index in range(count):
                    out.write(texts[index % len(texts)])
                    out.write("\n")
            size = path.stat().st_size
            done = subprocess.run(
                [sys.executable, "-c", MEASURE, str(path), "replay" if replay_too else "read"],
                capture_output=True,
                text=True,
                check=False,
                cwd=REPOSITORY,
            )
            games, seconds, peak = done.stdout.split()[-3:]
            what = "read and replayed" if replay_too else "read"
            print(
                f"{count:,} games ({size / 1e6:.0f} MB) {what} in {float(seconds):.1f} s: "
                f"{count / float(seconds):,.0f} games/s, peak memory {float(peak):.0f} MB"
                + ("" if replay_too or int(games) == count else f" (only {games} games read!)")
            )
            path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
