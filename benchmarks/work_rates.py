"""What a second of work (``--deterministic``) really buys: the rates this machine makes.

    python benchmarks/work_rates.py [--every 4] [--jobs 2] [--time-limit 20] [--cache-dir DIR]

``engine/budget.py`` counts a judgement's limit in positions at nominal rates: the compiled
search's, the Python search's and the Python check of the compiled search's trees.  This script
judges a sample of the problems of ``problems/`` (every Nth, examples left out) as
``rulebook check --deterministic`` does, in ``--jobs`` processes side by side (as the verdicts
are made), and times each of the three where it runs: the compiled searches from request to
parsed answer, the checks of their trees, and the Python searches (``ProofSearch.prove`` less
the two others).  It prints, per meter, the positions, the wall seconds, the rate they give and
the nominal rate, then the work the judgements counted against the wall time they took.

A judgement leaves the Python search only its shortest searches (a running compiled search takes
every one from 0.05 s), too few positions for a rate; so the Python search is also timed alone,
``--python-positions`` positions from the start of each of the first eight problems of the
sample (one process, after the judgements).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.checker.front import Checker
from rulebook_build.checker.judge import problem_digest
from rulebook_build.engine import binaries, budget, search
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import game_variant, start_position
from rulebook_build.rules import Variant

ROOT = Path(__file__).resolve().parents[1]
METERS = ("compiled", "python", "check")
NOMINAL = {
    "compiled": budget.COMPILED_RATE,
    "python": budget.PYTHON_RATE,
    "check": budget.CHECK_RATE,
}


def sample(every: int) -> list[str]:
    """Every Nth problem (FILE:LINE) of the collections, a problem given twice taken once."""
    found: list[str] = []
    seen: set[str] = set()
    for path in sorted((ROOT / "problems").rglob("*.pdn")):
        if "examples" in path.parts:
            continue
        games, _errors = read_pdn_file(path)
        for game in games:
            variant = game_variant(game)
            if not game.is_problem or variant is None:
                continue
            key = problem_digest(game, variant)
            if key not in seen:
                seen.add(key)
                found.append(f"{path.relative_to(ROOT)}:{game.line}")
    return found[::every]


def problem(spec: str) -> tuple[PdnGame, Variant]:
    """The game at FILE:LINE (relative to the project) and its variant."""
    file, line = spec.rsplit(":", 1)
    games, _errors = read_pdn_file(ROOT / file)
    game = next(g for g in games if g.line == int(line))
    variant = game_variant(game)
    assert variant is not None
    return game, variant


class Meters:
    """Positions and wall seconds per meter, from hooks around the three kinds of work."""

    def __init__(self) -> None:
        self.positions = dict.fromkeys(METERS, 0)
        self.seconds = dict.fromkeys(METERS, 0.0)
        self.inner = 0.0  # compiled and check seconds inside the Python search's prove

    def install(self) -> None:
        meters = self
        solve = binaries.ProverSession.solve
        adopt = search.ProofSearch._adopt
        prove = search.ProofSearch.prove

        def timed_solve(self, state, clocks, **kwargs):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            answer = solve(self, state, clocks, **kwargs)
            meters._count("compiled", answer.nodes, time.perf_counter() - started)
            return answer

        def timed_adopt(self, root, answer, deadline):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            before = self.timer.now()
            whole = adopt(self, root, answer, deadline)
            positions = round((self.timer.now() - before) * budget.CHECK_RATE)
            meters._count("check", positions, time.perf_counter() - started)
            return whole

        def timed_prove(self, node, **kwargs):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            inner = meters.seconds["compiled"] + meters.seconds["check"]
            nodes = self.nodes
            result = prove(self, node, **kwargs)
            others = meters.seconds["compiled"] + meters.seconds["check"] - inner
            wall = time.perf_counter() - started - others
            meters._count("python", self.nodes - nodes, wall)
            return result

        binaries.ProverSession.solve = timed_solve  # type: ignore[method-assign]
        search.ProofSearch._adopt = timed_adopt  # type: ignore[method-assign]
        search.ProofSearch.prove = timed_prove  # type: ignore[method-assign]

    def _count(self, meter: str, positions: int, seconds: float) -> None:
        self.positions[meter] += positions
        self.seconds[meter] += seconds


def worker(problems: list[str], seconds: float) -> None:
    """Judge these problems one after another, one JSON line each on standard output."""
    meters = Meters()
    meters.install()
    for spec in problems:
        game, variant = problem(spec)
        tables = checker_tables(variant)
        checker = Checker(opened={variant.name: tables})
        before = (dict(meters.positions), dict(meters.seconds))
        started = time.perf_counter()
        judgement = checker.judge(game, variant=variant, seconds=seconds, by_work=True)
        row = {
            "problem": spec,
            "wall": time.perf_counter() - started,
            "verdict": judgement.verdict,
            "positions": {m: meters.positions[m] - before[0][m] for m in METERS},
            "seconds": {m: meters.seconds[m] - before[1][m] for m in METERS},
        }
        print(json.dumps(row), flush=True)


def python_alone(problems: list[str], positions: int) -> tuple[int, float]:
    """The Python search alone (no compiled one) from the start of these problems (after one
    untimed search that opens the tables)."""
    searched, seconds = 0, 0.0
    for index, spec in enumerate([problems[0], *problems]):
        game, variant = problem(spec)
        finder = search.ProofSearch(variant, tables=checker_tables(variant))
        root = search.root_node(variant, start_position(game, variant).state())
        started = time.perf_counter()
        finder.prove(root, seconds=3600, node_limit=positions)
        if index:
            seconds += time.perf_counter() - started
            searched += finder.nodes
    return searched, seconds


def side_by_side_arguments(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The command line, with ``--jobs``, ``--time-limit``, ``--cache-dir`` (in effect once
    parsed) and the workers' hidden ``--worker`` added to the parser's own."""
    parser.add_argument("--jobs", type=int, default=2, help="processes side by side (2)")
    parser.add_argument("--time-limit", type=float, default=20.0, help="work a problem (20 s)")
    parser.add_argument("--worker", nargs="*", help=argparse.SUPPRESS)
    add_cache_argument(parser)
    args = parser.parse_args()
    use_cache_argument(args)
    return args


def side_by_side(script: str, problems: list[str], args: argparse.Namespace) -> list[Any]:
    """Run ``script --worker`` on the problems in ``args.jobs`` processes at once (each with
    every Nth problem, the same ``--time-limit`` and ``--cache-dir``); their JSON lines."""
    command = [sys.executable, script, "--time-limit", str(args.time_limit)]
    if getattr(args, "cache_dir", None):
        command += ["--cache-dir", str(args.cache_dir)]
    processes = [
        subprocess.Popen([*command, "--worker", *problems[j :: args.jobs]], stdout=subprocess.PIPE)
        for j in range(args.jobs)
    ]
    rows = []
    for process in processes:
        out, _ = process.communicate()
        rows += [json.loads(line) for line in out.decode().splitlines()]
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=4, help="every Nth problem (4)")
    parser.add_argument(
        "--python-positions", type=int, default=20_000, help="the Python search alone (20,000)"
    )
    args = side_by_side_arguments(parser)
    if args.worker is not None:
        worker(args.worker, args.time_limit)
        return 0
    problems = sample(max(1, args.every))
    print(
        f"# {len(problems)} problems (every {args.every}th of problems/, examples left out), "
        f"{args.time_limit:g} s of work each, {args.jobs} processes side by side"
    )
    started = time.perf_counter()
    rows = side_by_side(__file__, problems, args)
    wall = time.perf_counter() - started
    for row in sorted(rows, key=lambda r: r["problem"]):
        parts = " ".join(
            f"{m} {row['positions'][m]:,} in {row['seconds'][m]:.1f} s" for m in METERS
        )
        print(f"{row['problem']}: {row['wall']:.1f} s, {row['verdict']}; {parts}")
    counted = 0.0
    for meter in METERS:
        positions = sum(row["positions"][meter] for row in rows)
        seconds = sum(row["seconds"][meter] for row in rows)
        counted += positions / NOMINAL[meter]
        rate = positions / seconds if seconds else 0.0
        print(
            f"{meter}: {positions:,} positions in {seconds:.1f} s: {rate:,.0f} a second "
            f"(nominal {NOMINAL[meter]:,})"
        )
    searched, seconds = python_alone(problems[:8], args.python_positions)
    print(
        f"python alone: {searched:,} positions in {seconds:.1f} s: "
        f"{searched / seconds:,.0f} a second (nominal {NOMINAL['python']:,})"
    )
    judged = sum(row["wall"] for row in rows)
    print(
        f"work counted {counted:.0f} s, wall time of the judgements {judged:.0f} s "
        f"({judged / counted:.2f} times); the run {wall:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
