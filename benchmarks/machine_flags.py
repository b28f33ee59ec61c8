"""The table builder compiled with and without this machine's flags (``binaries.machine_flags``).

    python benchmarks/machine_flags.py              # both variants, 4 pieces (~4 min)

Builds a few 4-piece pairs once with what they lead to, then the same pairs again with the two
programs in turn, several rounds (``--rounds``), and prints the processor time of each
program's builds (the builder's own, from the operating system: a busy machine inflates it far
less than the wall time) and their ratio.  It also checks that both programs wrote the same
bytes.  Exit status 1 if they did not, 2 if this machine has no extra flags to compare.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.rules import find_variant

# a pair with men and kings and one of kings only, per variant: a few seconds to half a minute
PAIRS = {"international": [(1, 1, 1, 1), (0, 3, 0, 1)], "frisian": [(1, 1, 0, 2), (0, 3, 0, 1)]}


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    extra = binaries.machine_flags()
    if not extra:
        print("this machine adds no flags: nothing to compare")
        return 2
    same = True
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        programs = {
            "plain": binaries._compiled(root, binaries.SOURCE, binaries.FLAGS, ()),
            " ".join(extra): binaries._compiled(root, binaries.SOURCE, binaries.FLAGS + extra, ()),
        }
        if None in programs.values():
            print("the builder did not compile")
            return 1
        print(f"flags: {' '.join(binaries.FLAGS)} + {' '.join(extra)}")
        for name, pairs in PAIRS.items():
            variant = find_variant(name)
            tables = EndgameTables(variant, max_pieces=4, max_pair_slots=None, cache_dir=root)
            for pair in pairs:
                tables.prepare(pair)  # with what it leads to: the builders' inputs
            folder = tables.folder()
            cpu = dict.fromkeys(programs, 0.0)
            written: dict[str, dict[str, bytes]] = {label: {} for label in programs}
            for label in programs:  # a folder a program, holding links to the inputs
                work = root / f"{name}-{label}"
                work.mkdir()
                for table in folder.glob("*.bin"):
                    (work / table.name).symlink_to(table)
            for _ in range(args.rounds):
                for label, program in programs.items():
                    assert program is not None
                    work = root / f"{name}-{label}"
                    for pair in pairs:
                        before = children_cpu()
                        binaries.build_pair(program, work, pair, frisian=name == "frisian")
                        cpu[label] += children_cpu() - before
                        for body in work.glob("*.body"):
                            written[label][body.name] = body.read_bytes()
                            os.unlink(body)
            labels = list(programs)
            agree = written[labels[0]] == written[labels[1]]
            same = same and agree
            print(
                f"{name}: pairs {', '.join(map(str, pairs))}, {args.rounds} rounds: "
                + ", ".join(f"{label} {cpu[label]:.2f} s of CPU" for label in labels)
                + f"; ratio {cpu[labels[1]] / cpu[labels[0]]:.3f}; "
                + ("the same bytes" if agree else "BYTES DIFFER")
            )
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
