"""The anticipation search (``rulebook similar``) on a large corpus: build, size, query times.

    python benchmarks/similar.py [--problems 10000] [--seed 1] [--keep DIR]

Makes a corpus of at least ``--problems`` problems from the published ones (every problem of
``problems/``), half by a transform (colours reversed or not, mirrored or not, shifted: a random
legal one, with the composer's solution moved along as far as it stays legal) and half by random
legal play (from a published start, 1 to 8 random moves by the rules engine; the position
reached is the problem, and up to 6 more random moves its "solution"), a random piece added or
taken away from one in four. The files are written 1,000 problems each into a temporary folder
(``--keep DIR``: into DIR, kept), beside which the corpus holds ``problems/`` and every
International game of ``tests/data/pdn-conformance/games/succeed/``.

Prints, in a cache folder of its own:

- the build: time to read, replay and index every file with an empty cache (one process);
- the load: time to read the index back from the cache, as every later run does;
- the index: entries (positions), items, the cache's bytes on disk and the bitsets' bytes;
- the queries: every published problem searched for (its ten best matches), time per problem,
  median and max; and how many find the copy made from them by a transform as a match of
  score 1;
- the motifs: for each size of a published problem's final combination (pieces in its pattern),
  the most conformance games that play the whole phase (why ``COMBINATION_PIECES`` is what it
  is);
- the command: ``rulebook similar --json`` on one problem and on PWCP-2's 51, against the same
  corpus with the cache filled, timed from outside (a new process each).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
CONFORMANCE = REPOSITORY / "tests" / "data" / "pdn-conformance" / "games" / "succeed"
PROBLEMS = REPOSITORY / "problems"
ONE_PROBLEM = PROBLEMS / "examples" / "international-01.pdn"

sys.path.insert(0, str(REPOSITORY))

from rulebook_build.cachedir import ENVIRONMENT  # noqa: E402
from rulebook_build.errors import PositionError  # noqa: E402
from rulebook_build.notation.fen import format_fen  # noqa: E402
from rulebook_build.notation.pdn import PdnGame, read_pdn_file  # noqa: E402
from rulebook_build.notation.replay import game_variant, move_notation, replay  # noqa: E402
from rulebook_build.rules import Move, Position  # noqa: E402
from rulebook_build.similar import cache  # noqa: E402
from rulebook_build.similar.geometry import SHIFTS, Transform  # noqa: E402
from rulebook_build.similar.index import (  # noqa: E402
    build_index,
    collection_of,
    pdn_files,
    record_of,
)
from rulebook_build.similar.records import main_line_only  # noqa: E402
from rulebook_build.similar.search import _combinations, queries, search  # noqa: E402

PER_FILE = 1000


def published() -> list[tuple[PdnGame, Position, list[Move]]]:
    """Every problem of problems/: the game, its start and its main line."""
    found = []
    for _source, path in pdn_files(str(PROBLEMS)):
        collection = collection_of(path)
        games, _errors = read_pdn_file(path)
        for game in games:
            variant = game_variant(game, collection.variant)
            if not game.is_problem or variant is None:
                continue
            line = replay(main_line_only(game), variant=variant)
            found.append((game, line.start, list(line.moves())))
    return found


def moved(move: Move, table: tuple[int, ...]) -> Move | None:
    path = tuple(table[square] for square in move.path)
    captured = tuple(table[square] for square in move.captured)
    if 0 in path or 0 in captured:
        return None
    return Move(path, captured)


def legal_prefix(start: Position, moves: list[Move]) -> list[Move]:
    played: list[Move] = []
    position = start
    for move in moves:
        if move not in position.legal_moves():
            break
        played.append(move)
        position = position.play(move)
    return played


def transformed(
    chooser: random.Random, start: Position, moves: list[Move]
) -> tuple[Position, list[Move], Transform] | None:
    for _ in range(40):
        shift = chooser.choice(SHIFTS[:60])
        transform = Transform(chooser.random() < 0.5, shift.mirror, shift.rows, shift.columns)
        new = transform.apply(start)
        if new is None:
            continue
        table = transform.square_map()
        line = [moved(move, table) for move in moves]
        kept: list[Move] = []
        for move in line:
            if move is None:
                break
            kept.append(move)
        return new, legal_prefix(new, kept), transform
    return None


def random_line(chooser: random.Random, position: Position, plies: int) -> list[Move]:
    line: list[Move] = []
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        move = chooser.choice(moves)
        line.append(move)
        position = position.play(move)
    return line


def played_out(start: Position, moves: list[Move]) -> Position:
    for move in moves:
        start = start.play(move)
    return start


def touched(chooser: random.Random, position: Position) -> Position:
    """The position with a random black piece added (on an empty square off row 46-50) or one
    taken away, where that leaves a position."""
    pieces = position.pieces()
    black = [square for square, piece in pieces.items() if not piece.is_white]
    men = {
        "white_men": list(position.squares_of("white", "man")),
        "white_kings": list(position.squares_of("white", "king")),
        "black_men": list(position.squares_of("black", "man")),
        "black_kings": list(position.squares_of("black", "king")),
    }
    if chooser.random() < 0.5 and len(black) > 1:
        gone = chooser.choice(black)
        for squares in men.values():
            if gone in squares:
                squares.remove(gone)
    else:
        empty = [s for s in range(6, 46) if s not in pieces]
        men["black_men"].append(chooser.choice(empty))
    try:
        return Position.from_squares(
            white_men=men["white_men"],
            white_kings=men["white_kings"],
            black_men=men["black_men"],
            black_kings=men["black_kings"],
            white_to_move=position.white_to_move,
            variant=position.variant,
        )
    except PositionError:  # a man on its promotion row: keep the position we had
        return position


def pdn_text(number: int, position: Position, moves: list[Move], note: str) -> str:
    words: list[str] = []
    current = position
    ply_white = position.white_to_move
    move_number = 1
    for index, move in enumerate(moves):
        text = move_notation(current, move)
        if ply_white:
            words.append(f"{move_number}. {text}")
        else:
            words.append(f"{move_number}... {text}" if index == 0 else text)
            move_number += 1
        current = current.play(move)
        ply_white = not ply_white
    return (
        f'[Event "generated {number}"]\n[Site "{note}"]\n[SetUp "1"]\n'
        f'[FEN "{format_fen(position)}"]\n[GameType "{position.variant.gametype}"]\n\n'
        f"{' '.join(words)} *\n\n"
    )


def generate(
    folder: Path, count: int, seed: int, sources: list[tuple[PdnGame, Position, list[Move]]]
) -> dict[int, set[str]]:
    """Write ``count`` problems into ``folder``; return, for each published problem that got
    copies by a transform alone, their sources."""
    chooser = random.Random(seed)
    texts: list[str] = []
    copies: dict[int, list[str]] = defaultdict(list)
    while len(texts) < count:
        which = chooser.randrange(len(sources))
        game, start, moves = sources[which]
        if chooser.random() < 0.5:
            made = transformed(chooser, start, moves)
            if made is None:
                continue
            position, line, transform = made
            note = f"{game.source}:{game.line} {transform.code}"
        else:
            opening = random_line(chooser, start, chooser.randint(1, 8))
            position = played_out(start, opening)
            if not position.legal_moves():
                continue
            line = random_line(chooser, position, chooser.randint(0, 6))
            note = f"{game.source}:{game.line} after {len(opening)} random moves"
        if chooser.random() < 0.25:
            touched_position = touched(chooser, position)
            if touched_position is not position:
                position = touched_position
                line = legal_prefix(position, line)
                note += ", touched"
        number = len(texts)
        if "touched" not in note and "random" not in note:
            copies[which].append(f"{number // PER_FILE:02d}:{number % PER_FILE}")
        texts.append(pdn_text(number, position, line, note))
    lines_of: dict[str, int] = {}
    for first in range(0, len(texts), PER_FILE):
        path = folder / f"generated-{first // PER_FILE:02d}.pdn"
        chunk = texts[first : first + PER_FILE]
        at = 1
        for index, text in enumerate(chunk):
            lines_of[f"{first // PER_FILE:02d}:{index}"] = at
            at += text.count("\n")
        path.write_text("".join(chunk), encoding="utf-8")
    return {
        which: {f"{folder / f'generated-{key[:2]}.pdn'}:{lines_of[key]}" for key in keys}
        for which, keys in copies.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--problems", type=int, default=10_000, help="problems to generate")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random generator")
    parser.add_argument("--keep", type=Path, help="write the generated files here and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        os.environ[ENVIRONMENT] = str(Path(scratch) / "cache")
        folder = args.keep or Path(scratch) / "generated"
        folder.mkdir(parents=True, exist_ok=True)
        sources = published()
        started = time.perf_counter()
        copies = generate(folder, args.problems, args.seed, sources)
        print(
            f"generated {args.problems:,} problems from {len(sources)} published ones "
            f"in {time.perf_counter() - started:.1f} s"
        )
        corpus = pdn_files(str(folder)) + pdn_files(str(PROBLEMS)) + pdn_files(str(CONFORMANCE))

        started = time.perf_counter()
        index = build_index(corpus)
        built = time.perf_counter() - started
        started = time.perf_counter()
        index = build_index(corpus)
        loaded = time.perf_counter() - started
        on_disk = sum(path.stat().st_size for path in cache.folder().glob("*.json.z"))
        in_memory = sum((value.bit_length() + 7) // 8 for value in index.bitsets.values())
        problems = sum(1 for file in index.files for item in file.record.items if item.problem)
        games = index.items - problems
        print(
            f"index: {index.entries:,} positions of {index.items:,} items ({problems:,} problems, "
            f"{games:,} games) from {len(index.files)} files"
        )
        print(f"build (empty cache): {built:.1f} s; load (from the cache): {loaded:.2f} s")
        print(
            f"size: {on_disk / 1e6:.1f} MB in the cache ({len(index.files)} files), "
            f"{in_memory / 1e6:.1f} MB of bitsets in memory"
        )

        times: list[float] = []
        found_copies = 0
        motifs: dict[int, int] = defaultdict(int)
        number = 0
        for source, path in pdn_files(str(PROBLEMS)):
            collection = collection_of(path)
            record, _bits = record_of(path, collection)
            for query in queries(index, source, record, collection):
                started = time.perf_counter()
                matches = search(index, query, 10)
                times.append(time.perf_counter() - started)
                if copies.get(number) and any(
                    m.source.startswith(str(folder)) and m.score == 1.0 for m in matches
                ):
                    found_copies += 1
                if query.combination is not None:
                    games_only = index.bits("positions") & ~index.hidden & ~query.itself
                    within = games_only & index.bits(f"v:{query.variant}")
                    found = _combinations(index, query.combination, within, floor=0.0)
                    whole = sum(
                        1
                        for item, hit in found.items()
                        if not index.item(item)[1].problem
                        and hit.common == len(query.combination.moves)
                    )
                    pieces = query.combination.pieces
                    motifs[pieces] = max(motifs[pieces], whole)
                number += 1
        print(
            f"queries: {len(times)} published problems, 10 best each: median "
            f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, mean "
            f"{statistics.mean(times) * 1000:.1f} ms"
        )
        print(
            f"published problems with copies by a transform alone: {len(copies)}; of them "
            f"found with score 1 among their 10 matches: {found_copies}"
        )
        print(
            "final combinations, pieces: most games playing the whole phase  "
            + "  ".join(f"{pieces}: {motifs[pieces]}" for pieces in sorted(motifs))
        )
        for query_file in (ONE_PROBLEM, PROBLEMS / "pwcp-2" / "PWCP_2.pdn"):
            command = [
                sys.executable,
                "-m",
                "rulebook_build.cli",
                "similar",
                "--json",
                "--in",
                str(folder),
                "--in",
                str(CONFORMANCE),
                str(query_file),
            ]
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, cwd=REPOSITORY)
            seconds = time.perf_counter() - started
            answers = len(done.stdout.splitlines())
            print(
                f"rulebook similar, warm cache, {answers} problem(s) of "
                f"{query_file.relative_to(REPOSITORY)}: {seconds:.2f} s in all (exit "
                f"{done.returncode}; the process, its imports and the index's load included)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
