"""``rulebook check --jobs 1`` against ``--jobs N`` over one collection: throughput and JSON.

    python benchmarks/jobs.py                                   # PWCP-2, 20 s, --jobs 2
    python benchmarks/jobs.py --deterministic --cache-dir CACHE # the limit counted in work
    python benchmarks/jobs.py --file problems/cat-b1 --time-limit 10 --jobs 4

Runs the command twice on the same input (each run as its own process, the second after the
first), prints the wall time of each, the grades, the throughput ratio, and which problems'
JSON differ apart from ``seconds`` (and ``nodes``, unless ``--deterministic``, where every
field but ``seconds`` must be the same).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PWCP = ROOT / "tests/data/pdn-conformance/games/succeed/PWCP_2.pdn"


def run(arguments: list[str], jobs: int) -> tuple[float, list[dict[str, object]]]:
    command = [str(Path(sys.executable).with_name("rulebook")), "check", "--json", *arguments]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "--jobs", str(jobs)], capture_output=True, text=True, check=False, cwd=ROOT
    )
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"check failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return seconds, [json.loads(line) for line in done.stdout.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(PWCP), help="a PDN file or folder (PWCP-2)")
    parser.add_argument("--time-limit", default="20", help="seconds a problem (20)")
    parser.add_argument("--jobs", type=int, default=2, help="the run to set beside --jobs 1")
    parser.add_argument("--deterministic", action="store_true", help="count the limit in work")
    parser.add_argument("--cache-dir", help="the tables to use (default: the user's cache)")
    args = parser.parse_args()
    arguments = ["--time-limit", args.time_limit, args.file]
    if args.deterministic:
        arguments.append("--deterministic")
    if args.cache_dir:
        arguments += ["--cache-dir", args.cache_dir]
    print(f"# rulebook check --json {' '.join(arguments)}, with --jobs 1 and --jobs {args.jobs}")
    ignored = {"seconds"} if args.deterministic else {"seconds", "nodes"}
    results = {}
    for jobs in (1, args.jobs):
        seconds, records = run(arguments, jobs)
        grades = Counter(str(record["grade"]) for record in records)
        shown = ", ".join(f"{grade} {count}" for grade, count in sorted(grades.items()))
        print(f"jobs {jobs}: {len(records)} problems in {seconds:.1f} s ({shown})", flush=True)
        results[jobs] = (seconds, records)
    (alone, first), (together, second) = results[1], results[args.jobs]
    print(f"throughput: {alone / together:.2f} times")

    def kept(record: dict[str, object]) -> dict[str, object]:
        return {key: value for key, value in record.items() if key not in ignored}

    differ = [
        str(a.get("event") or a["source"])
        for a, b in zip(first, second, strict=True)
        if kept(a) != kept(b)
    ]
    print(
        f"JSON apart from {' and '.join(sorted(ignored))}: the same for "
        f"{len(first) - len(differ)} of {len(first)}"
        + (f"; differ: {', '.join(differ)}" if differ else "")
    )


if __name__ == "__main__":
    main()
