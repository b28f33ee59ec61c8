"""Where the seconds of a judgement go: its counted work per phase and per meter.

    python benchmarks/work_split.py [FILE:LINE ...] [--time-limit 20] [--cache-dir DIR]

Judges the given problems (default: six the stored verdicts leave undecided, from PWCP-2,
Cat.B1 and Cat.D1) as ``rulebook check --deterministic`` does, one after another in this
process, and splits the work each judgement counted (``engine/budget.py``: positions at the
nominal rates) by the phase that spent it and the meter that counted it.  The phases: the
search of White's first moves (A and the keys), the composer's solution (B), the walk of the
solution tree (C), criterion D's smaller problems, and the rest (G's and the tries' searches,
the proof line).  The meters: the compiled search, the Python search and the Python check of
the compiled search's trees.  Work is counted, not timed, so the figures are the same on any
machine; the wall seconds of each judgement are printed beside them.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.checker import analysis, budget, judge
from rulebook_build.checker.criteria import idle
from rulebook_build.checker.front import Checker
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import game_variant
from rulebook_build.rules import Variant

ROOT = Path(__file__).resolve().parents[1]

DEFAULT = [
    "problems/pwcp-2/PWCP 2a.pdn:164",
    "problems/pwcp-2/PWCP 2a.pdn:313",
    "problems/pwcp-2/PWCP 2a.pdn:110",
    "problems/cat-b1/Cat.B1.pdn:17",
    "problems/cat-b1/Cat.B1.pdn:101",
    "problems/cat-d1/Cat.D1.pdn:219",
]
PHASES = ("keys", "solution", "walk", "D", "rest")
METERS = ("compiled", "python", "check")

PHASE = ["rest"]
SPENT: dict[tuple[str, str], float] = defaultdict(float)


def problem(spec: str) -> tuple[PdnGame, Variant]:
    """The game at FILE:LINE (relative to the project) and its variant."""
    file, line = spec.rsplit(":", 1)
    games, _errors = read_pdn_file(ROOT / file)
    game = next(g for g in games if g.line == int(line))
    variant = game_variant(game)
    assert variant is not None
    return game, variant


def in_phase(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` with its work counted to phase ``name``."""

    @functools.wraps(method)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        PHASE.append(name)
        try:
            return method(*args, **kwargs)
        finally:
            PHASE.pop()

    return wrapped


def install() -> None:
    """Hooks on the work meter and on the phases of a judgement."""
    for meter in METERS:
        spend = getattr(budget.Work, f"spend_{meter}")

        def counted(self: budget.Work, nodes: int, meter: str = meter, spend: Any = spend) -> None:
            before = self.spent
            spend(self, nodes)
            SPENT[PHASE[-1], meter] += self.spent - before

        setattr(budget.Work, f"spend_{meter}", counted)
    hooks = [
        (judge.Judge, "_winning_keys", "keys"),
        (judge.Judge, "_check_solution_wins", "solution"),
        (analysis.SolutionWalker, "walk", "walk"),
        (analysis.SolutionWalker, "settle", "walk"),
        (idle.IdleMen, "criterion_d", "D"),
    ]
    for owner, name, phase in hooks:
        setattr(owner, name, in_phase(phase, getattr(owner, name)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="*", help="FILE:LINE (default: six undecided ones)")
    parser.add_argument("--time-limit", type=float, default=20.0, help="work a problem (20 s)")
    add_cache_argument(parser)
    args = parser.parse_args()
    use_cache_argument(args)
    install()
    specs = args.problems or DEFAULT
    print(f"# {len(specs)} problems, {args.time_limit:g} s of work each, one process")
    print("# work in seconds per phase, each as compiled/python/check")
    total: dict[tuple[str, str], float] = defaultdict(float)
    for spec in specs:
        game, variant = problem(spec)
        checker = Checker(opened={variant.name: checker_tables(variant)})
        SPENT.clear()
        started = time.perf_counter()
        judgement = checker.judge(game, variant=variant, seconds=args.time_limit, by_work=True)
        wall = time.perf_counter() - started
        parts = []
        for phase in PHASES:
            shares = "/".join(f"{SPENT[phase, m]:.1f}" for m in METERS)
            parts.append(f"{phase} {shares}")
        counted = sum(SPENT.values())
        opened = [n for n, c in judgement.criteria.items() if c.status == "undecided"]
        print(
            f"{spec}: {judgement.verdict}, open {','.join(opened) or '-'}; "
            f"{counted:.1f} s counted, {wall:.1f} s wall: {'; '.join(parts)}",
            flush=True,
        )
        for key, value in SPENT.items():
            total[key] += value
    whole = sum(total.values()) or 1.0
    print("# all problems, share of the counted work:")
    for phase in PHASES:
        for meter in METERS:
            if total[phase, meter]:
                share = 100 * total[phase, meter] / whole
                print(f"{phase} {meter}: {total[phase, meter]:.1f} s ({share:.0f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
