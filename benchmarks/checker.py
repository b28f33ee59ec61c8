"""Time of the problem checker on a fixed problem set: the PWCP-2 category-A problems.

    python benchmarks/checker.py [--time-limit 20] [--full [--duals]] [--no-tables] [--first N]
        [--only A5,A9] [--python-only] [--file PDN]

For each problem: is White's win proved, are the published key and every winning key found,
and how long it took.  By default only criterion A and the winning keys are settled (as the
done-when of the checker asks); ``--full`` judges every criterion and prints each problem's
grade, its one-line summary, its faults and remarks, and the grades over the set; ``--duals``
then lists every dual the walk of the solution tree found, with its level and kind.  A key
that is proved not to win is shown with the checker's account of where the solution goes
wrong.

``--file`` runs another International problem file, such as the other collections of the PDN
conformance set: ``"PWCP 2a.pdn"`` (59 problems, PWCP_2's 51 and 8 more), ``Cat.B1.pdn`` (37
problems of 7 against 7) and ``Cat.D1.pdn`` (19 problems of 8 to 12 a side).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.checker.front import Checker
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL

CONFORMANCE = Path(__file__).resolve().parents[1] / "tests/data/pdn-conformance/games/succeed"
PWCP = CONFORMANCE / "PWCP_2.pdn"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--full", action="store_true", help="judge every criterion")
    parser.add_argument(
        "--duals", action="store_true", help="with --full: every dual, not only C's first three"
    )
    parser.add_argument("--no-tables", action="store_true")
    parser.add_argument(
        "--python-only", action="store_true", help="without the compiled proof search"
    )
    parser.add_argument("--first", type=int, default=0, help="only the first N problems")
    parser.add_argument("--only", default="", help="comma-separated Event names, e.g. A5,A9")
    parser.add_argument("--file", type=Path, default=PWCP)
    args = parser.parse_args()

    tables = None
    prover = None
    if not args.no_tables:
        from rulebook_build.engine.tables.kinds import CACHED_PIECES, SLICED_PAIRS, checker_tables

        started = time.perf_counter()
        tables = checker_tables(INTERNATIONAL)
        tables.build_all()
        by_size = {
            n: sum(sum(m) == n for m in tables.classes()) for n in range(2, CACHED_PIECES + 1)
        }
        print(
            f"endgame tables ready in {time.perf_counter() - started:.1f} s: classes by pieces "
            + ", ".join(f"{n}: {count}" for n, count in by_size.items())
            + f" (built up to {tables.max_pieces}; "
            + "'rulebook tables --pieces 5 --pack' builds the rest)"
        )
        six = [m for m in tables.rules.material_classes() if sum(m) == 6]
        print(
            f"6-piece classes with count rules only: {len(six)} of {2 * len(SLICED_PAIRS)} "
            "('rulebook tables --pieces 6')"
        )
        prover = None if args.python_only else tables.prover()
        print(f"compiled proof search: {'used' if prover else 'not used'}")
    games, errors = read_pdn_file(args.file)
    if errors:
        print(f"{len(errors)} PDN errors in {args.file}", file=sys.stderr)
    problems = [g for g in games if g.is_problem][: args.first or None]
    if args.only:
        wanted = set(args.only.split(","))
        problems = [g for g in problems if g.tag("Event") in wanted]
    times: list[float] = []
    proved = with_key = 0
    grades: Counter[str] = Counter()
    for game in problems:
        checker = Checker(
            tables=tables is not None,
            compiled=prover is not None,
            opened={INTERNATIONAL.name: tables} if tables is not None else {},
        )
        judgement = checker.judge(
            game, variant=INTERNATIONAL, seconds=args.time_limit, full=args.full
        )
        times.append(judgement.seconds)
        key = judgement.solution.key
        proved += judgement.white_wins == "proved"
        with_key += key in judgement.winning_keys
        extra = [k for k in judgement.winning_keys if k != key]
        line = (
            f"{game.tag('Event') or '?':5} {judgement.white_wins:9} key {key or '-':8} "
            f"{'found' if key in judgement.winning_keys else 'MISSING':7} "
            f"{judgement.seconds:6.2f} s"
        )
        if extra:
            line += f"  other winning keys: {', '.join(extra)}"
        if judgement.solution.key_wins is False:
            line += f"\n      {judgement.solution.error}"
        if args.full:
            grades[judgement.grade] += 1
            line += f"  {judgement.grade}: " + " ".join(
                f"{n}={c.status[0]}" for n, c in judgement.criteria.items()
            )
            line += f"\n      {judgement.summary()}"
            # the faults, the remarks (each with the line that shows it), then what is open
            line += "".join(
                f"\n      {n} {c.status}: {c.detail}"
                for status in ("fail", "remark", "undecided")
                for n, c in judgement.findings(status)  # type: ignore[arg-type]
            )
            if args.duals:
                line += "".join(
                    f"\n      [{d.level} {d.kind}] after {' '.join(d.after)}: {' / '.join(d.moves)}"
                    for d in judgement.duals
                )
        print(line, flush=True)
    print(
        f"{len(problems)} problems: win proved {proved}, published key among winning keys "
        f"{with_key}; median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
        f"total {sum(times):.1f} s"
    )
    if args.full:
        print("grades: " + ", ".join(f"{grade} {count}" for grade, count in grades.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
