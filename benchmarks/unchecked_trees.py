"""Which open problems the Python check holds up: settled compiled searches whose tree it never
finished checking within the limit.

    python benchmarks/unchecked_trees.py [--jobs 2] [--time-limit 20] [--cache-dir DIR]

Takes every problem that ``problems/verdicts.jsonl`` leaves not fully decided (a criterion
`undecided`; a problem given twice taken once), judges it again as ``rulebook check
--deterministic`` does, in ``--jobs`` processes side by side, and records every compiled search
that came back proved or refuted and whose tree ``ProofSearch._adopt`` never walked to the end
(the time ran out first, however often it was asked).  Prints, per problem with such a search,
their count and the size of each tree (its choices), then how many problems have one.  Such a
criterion is settled by the compiled search and held open by the check alone: a faster check,
or smaller trees, would settle it within the same limit.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from work_rates import problem, side_by_side, side_by_side_arguments

from rulebook_build.checker.front import Checker
from rulebook_build.engine import search
from rulebook_build.engine.tables.kinds import checker_tables

ROOT = Path(__file__).resolve().parents[1]
VERDICTS = ROOT / "problems/verdicts.jsonl"


def open_problems() -> list[str]:
    """FILE:LINE of every stored verdict with an undecided criterion, each problem once."""
    found: list[str] = []
    digests: set[str] = set()
    for line in VERDICTS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        statuses = [criterion["status"] for criterion in record["criteria"].values()]
        if "undecided" in statuses and record["digest"] not in digests:
            digests.add(record["digest"])
            found.append(record["source"])
    return found


def worker(problems: list[str], seconds: float) -> None:
    """Judge these problems, one JSON line each: the trees never checked to the end."""
    walked: dict[tuple[int, search.Node], tuple[bool, int]] = {}
    adopt = search.ProofSearch._adopt

    def recorded(self, root, answer, deadline):  # type: ignore[no-untyped-def]
        whole = adopt(self, root, answer, deadline)
        done, choices = walked.get((id(self), root), (False, 0))
        walked[id(self), root] = (done or whole, max(choices, len(answer.choices)))
        return whole

    search.ProofSearch._adopt = recorded  # type: ignore[method-assign]
    for spec in problems:
        game, variant = problem(spec)
        tables = checker_tables(variant)
        walked.clear()
        Checker(opened={variant.name: tables}).judge(
            game, variant=variant, seconds=seconds, by_work=True
        )
        unchecked = sorted(choices for done, choices in walked.values() if not done)
        print(json.dumps({"problem": spec, "unchecked": unchecked}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args = side_by_side_arguments(parser)
    if args.worker is not None:
        worker(args.worker, args.time_limit)
        return 0
    problems = open_problems()
    print(
        f"# {len(problems)} problems not fully decided in {VERDICTS.relative_to(ROOT)}, "
        f"{args.time_limit:g} s of work each, {args.jobs} processes side by side"
    )
    rows = side_by_side(__file__, problems, args)
    held = [row for row in sorted(rows, key=lambda r: r["problem"]) if row["unchecked"]]
    for row in held:
        sizes = ", ".join(f"{choices:,}" for choices in row["unchecked"])
        print(f"{row['problem']}: {len(row['unchecked'])} unchecked (choices: {sizes})")
    print(
        f"{len(held)} of {len(rows)} problems have a settled compiled search whose tree the "
        "check did not finish"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
