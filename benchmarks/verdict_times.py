"""Compare two runs of ``rulebook check --json`` over the same problems: the same JSON apart from
``seconds``, and how the time was spent.

    rulebook check --json --deterministic --time-limit 20 --jobs 2 problems/pwcp-2/ > after.jsonl
    python benchmarks/verdict_times.py before.jsonl after.jsonl [--only "PWCP 2a"]

Prints each file's median, total and count of problems under 1 s, over every problem and over
the fully decided ones (no criterion ``undecided``), every game whose JSON differs in more
than ``seconds`` (with ``--deterministic`` and the same code there should be none) with its grade
and the criteria whose status changed, the count of criteria settled both times but differently
(a contradiction: one run is wrong), and the fully decided games per collection folder, then the
fully decided problems (each counted once) with their median seconds.
``--only`` keeps the games whose source contains the text (a collection's two files share
problems, judged once).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

Verdict = dict[str, Any]


def read(path: Path) -> dict[str, Verdict]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return {row["source"]: row for row in rows}


def decided(row: Verdict) -> bool:
    return all(c["status"] != "undecided" for c in row["criteria"].values())


def figures(name: str, rows: list[Verdict]) -> str:
    def line(label: str, chosen: list[Verdict]) -> str:
        seconds = [row["seconds"] for row in chosen]
        if not seconds:
            return f"  {label}: none"
        return (
            f"  {label} ({len(seconds)}): median {statistics.median(seconds):.2f} s, "
            f"total {sum(seconds):.0f} s, under 1 s {sum(s < 1 for s in seconds)}"
        )

    return "\n".join(
        [name, line("all", rows), line("fully decided", [r for r in rows if decided(r)])]
    )


def per_problem(rows: dict[str, Verdict], sources: list[str]) -> str:
    """Per collection folder, the problems fully decided and the median seconds, each problem
    counted once (by its digest: PWCP-2's two files give most problems twice, judged once)."""
    problems: dict[str, dict[str, Verdict]] = {}
    for source in sources:
        row = rows[source]
        folder = Path(source.split(":")[0]).parent.name
        problems.setdefault(folder, {}).setdefault(row["digest"], row)
    parts = []
    for folder, found in sorted(problems.items()):
        chosen = list(found.values())
        done = [row["seconds"] for row in chosen if decided(row)]
        median_all = statistics.median(row["seconds"] for row in chosen)
        median_done = f"{statistics.median(done):.2f} s" if done else "none"
        parts.append(
            f"{folder} {len(done)}/{len(chosen)} (median {median_all:.2f} s,"
            f" fully decided {median_done})"
        )
    return "; ".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--only", default="", help="keep the sources that contain this text")
    args = parser.parse_args()
    before, after = read(args.before), read(args.after)
    shared = [s for s in after if s in before and args.only in s]
    differ = [
        s
        for s in shared
        if {k: v for k, v in before[s].items() if k != "seconds"}
        != {k: v for k, v in after[s].items() if k != "seconds"}
    ]
    print(f"{len(shared)} games in both files; JSON apart from seconds differs for {len(differ)}")
    contradictions = 0
    for source in differ:
        old, new = before[source], after[source]
        changes = []
        for name, criterion in new["criteria"].items():
            was = old["criteria"].get(name, {}).get("status")
            if was != criterion["status"]:
                changes.append(f"{name} {was}->{criterion['status']}")
                # a criterion settled both times but differently: one of the runs is wrong
                contradictions += "undecided" not in (was, criterion["status"])
        grade = new["grade"]
        if old["grade"] != grade:
            grade = f"{old['grade']} -> {grade}"
        print(f"  differs: {source}: {grade}; {', '.join(changes) or 'same statuses'}")
    print(f"criteria settled both times but differently: {contradictions}")
    for name, rows in (("before", before), ("after", after)):
        by_collection: dict[str, list[int]] = {}
        for source in shared:
            counts = by_collection.setdefault(Path(source.split(":")[0]).parent.name, [0, 0])
            counts[0] += 1
            counts[1] += decided(rows[source])
        summary = ", ".join(f"{c} {d}/{n}" for c, (n, d) in sorted(by_collection.items()))
        print(f"fully decided {name}: {summary}")
        print(f"  problems (once each): {per_problem(rows, shared)}")
    print(figures(str(args.before), [before[s] for s in shared]))
    print(figures(str(args.after), [after[s] for s in shared]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
