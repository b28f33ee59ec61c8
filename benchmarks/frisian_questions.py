"""Settled Fries Spel questions, for the calibration of the Frisian opinion
(``benchmarks/opinion.py --variant frisian``).

    python benchmarks/frisian_questions.py [--seconds 1.0] [--composed 150] [--endings 250]
        [--hard 60] [--hard-seconds 10] [--hard-positions 50000] [--seed 55]
        [--out benchmarks/data/frisian-questions.json]

A question is "does White win here?" (with either side to move: after a first move it is
Black's turn), asked of a position given as a FEN, and settled means the checker's proof search
(``engine/search.py``: the compiled search with the cache's Frisian tables, its tree walked by
the Python engine, or the Python search itself) proved or refuted it within ``--seconds`` of
*work* (``engine/budget.py``: positions at nominal rates, not wall time), so the same set comes
out on every machine with the same tables.  Positions the search leaves open are dropped and
counted.  Three sources, in this order:

- ``example``: the 13 Frisian examples of the site (``problems/examples/frisian-*.pdn``): the
  start, the position after each first move, and each position of the composer's main line;
- ``composed``: positions drawn by the sampler of ``scripts/compose_problems.py`` (men only,
  combinations likely, White to move), ``--composed`` of them asked;
- ``ending``: random Fries Spel endings of 6 to 9 pieces (men and up to one king a side,
  either side to move, the material within one piece), ``--endings`` of them asked;
- ``hard``: more such endings, drawn until ``--hard`` of them are found that the search
  settles only with at least ``--hard-positions`` positions (within ``--hard-seconds`` of work):
  the others are so one-sided that any evaluation agrees with the proof, and tell king values
  apart no better than a coin would.

Each question keeps its FEN, the answer (``wins``), how it was settled (``proved`` or
``refuted``), the positions the search used and where it came from.  Duplicated FENs are asked
once.  ``tests/checker/test_frisian_questions.py`` settles a few again and compares.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from compose_problems import Sampler  # noqa: E402

from rulebook_build.engine.budget import Work  # noqa: E402
from rulebook_build.engine.search import ProofSearch, root_node  # noqa: E402
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables  # noqa: E402
from rulebook_build.notation.fen import format_fen, parse_fen  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file  # noqa: E402
from rulebook_build.notation.replay import move_notation  # noqa: E402
from rulebook_build.rules import Position, find_variant  # noqa: E402

FRISIAN = find_variant("frisian")
EXAMPLES = ROOT / "problems/examples"
OUT = ROOT / "benchmarks/data/frisian-questions.json"


def settle(tables: CheckerTables, fen: str, seconds: float) -> tuple[str, int]:
    """The proof search's verdict on "White wins" at ``fen`` within ``seconds`` of work, and
    the positions it used (compiled and Python)."""
    position = parse_fen(fen, variant=FRISIAN)
    search = ProofSearch(FRISIAN, tables=tables, prover=tables.prover(), timer=Work())
    result = search.prove(root_node(FRISIAN, position.state()), seconds=seconds)
    return result.verdict, search.nodes + search.native_nodes


def example_positions() -> list[tuple[str, str]]:
    """(FEN, where) of the Frisian examples: start, each first move, the main line."""
    found: list[tuple[str, str]] = []
    for path in sorted(EXAMPLES.glob("frisian-*.pdn")):
        games, _errors = read_pdn_file(path)
        for game in games:
            fen = game.fen
            if fen is None:
                continue
            start = parse_fen(fen, variant=FRISIAN)
            found.append((format_fen(start), f"{path.name} start"))
            for move in start.legal_moves():
                notation = move_notation(start, move)
                found.append((format_fen(start.play(move)), f"{path.name} {notation}"))
            current, played = start, []
            for pdn_move in game.main_line():
                moves = {move_notation(current, m): m for m in current.legal_moves()}
                if pdn_move.notation not in moves:
                    break
                current = current.play(moves[pdn_move.notation])
                played.append(pdn_move.notation)
                if current.legal_moves():
                    found.append((format_fen(current), f"{path.name} {' '.join(played)}"))
    return found


def composed_positions(rng: random.Random, count: int) -> list[tuple[str, str]]:
    sampler = Sampler(FRISIAN, rng, 3, 6)
    return [(format_fen(sampler.position()), f"composed {i}") for i in range(count)]


def ending(rng: random.Random) -> Position:
    """A random Fries Spel ending of 6 to 9 pieces with a legal move for the side to move."""
    while True:
        pieces = rng.randint(6, 9)
        white = rng.choice((pieces // 2, (pieces + 1) // 2))
        counts = {"white": white, "black": pieces - white}
        squares = rng.sample(range(1, 51), 50)
        placed: dict[str, list[int]] = {k: [] for k in ("wm", "wk", "bm", "bk")}
        for side in ("white", "black"):
            king = rng.random() < 0.35
            for index in range(counts[side]):
                if king and index == 0:
                    placed[side[0] + "k"].append(squares.pop())
                    continue
                # a man never stands on the row where it would have crowned
                square = next(s for s in squares if (s > 5 if side == "white" else s < 46))
                squares.remove(square)
                placed[side[0] + "m"].append(square)
        position = Position.from_squares(
            white_men=placed["wm"],
            white_kings=placed["wk"],
            black_men=placed["bm"],
            black_kings=placed["bk"],
            white_to_move=rng.random() < 0.5,
            variant=FRISIAN,
        )
        if position.legal_moves():
            return position


def question(
    fen: str, verdict: str, nodes: int, source: str, where: str, seconds: float | None = None
) -> dict[str, object]:
    """A settled question as the data file keeps it (``seconds``: the work it was settled in,
    where that was not ``--seconds``)."""
    found: dict[str, object] = {
        "fen": fen,
        "wins": verdict == "proved",
        "settled": verdict,
        "positions": nodes,
        "source": source,
        "where": where,
    }
    if seconds is not None:
        found["seconds_of_work"] = seconds
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="work to settle each")
    parser.add_argument("--composed", type=int, default=150)
    parser.add_argument("--endings", type=int, default=250)
    parser.add_argument("--hard", type=int, default=60)
    parser.add_argument("--hard-seconds", type=float, default=10.0)
    parser.add_argument("--hard-positions", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    tables = checker_tables(FRISIAN)
    if tables.missing():
        print("the Frisian tables are not all built: run `rulebook tables --variant frisian`")
        return 1
    rng = random.Random(args.seed)
    asked = example_positions()
    asked += composed_positions(rng, args.composed)
    asked += [(format_fen(ending(rng)), f"ending {i}") for i in range(args.endings)]
    seen: set[str] = set()
    questions: list[dict[str, object]] = []
    left: Counter[str] = Counter()
    started = time.perf_counter()
    for fen, where in asked:
        if fen in seen:
            continue
        seen.add(fen)
        verdict, nodes = settle(tables, fen, args.seconds)
        source = where.split()[0] if not where.startswith("frisian-") else "example"
        if verdict == "undecided":
            left[source] += 1
            continue
        questions.append(question(fen, verdict, nodes, source, where))
    hard_rng = random.Random(args.seed + 1)
    drawn = 0
    while sum(q["source"] == "hard" for q in questions) < args.hard and drawn < 100 * args.hard:
        drawn += 1
        fen = format_fen(ending(hard_rng))
        if fen in seen:
            continue
        seen.add(fen)
        verdict, nodes = settle(tables, fen, args.hard_seconds)
        if verdict == "undecided" or nodes < args.hard_positions:
            left["hard (easier or open)"] += 1
            continue
        questions.append(
            question(fen, verdict, nodes, "hard", f"hard ending {drawn}", args.hard_seconds)
        )
    seconds = time.perf_counter() - started
    kinds = Counter(f"{q['source']} {q['settled']}" for q in questions)
    print(f"{len(questions)} settled of {len(seen)} asked in {seconds:.0f} s: {dict(kinds)}")
    print(f"left open: {dict(left)}")
    data = {
        "made_by": "benchmarks/frisian_questions.py",
        "seconds_of_work": args.seconds,
        "hard_seconds_of_work": args.hard_seconds,
        "hard_positions": args.hard_positions,
        "seed": args.seed,
        "questions": questions,
    }
    args.out.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
