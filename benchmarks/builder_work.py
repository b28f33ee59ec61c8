"""What the compiled table builder does a slot: nodes settled, parents visited, time per visit.

    python benchmarks/builder_work.py                          # both variants, up to 4 pieces
    python benchmarks/builder_work.py --class m1k1-m0k3 --class m1k1-m1k2 --variant frisian

Compiles ``native/tablebuild.c`` with ``-DCOUNT_WORK`` (counters the package's build leaves
out), builds every class of up to 4 pieces of the variant, pure and with the count rules, into
a fresh folder under ``--work`` (never the user's cache), then each ``--class`` pair with the
classes it leads to (by slices where ``--slices``), and prints a line a pair: its slots, the
nodes settled, the parents visited (each one read and write of a node's count, in no order),
visits a slot, and the seconds of the forward pass and of settling, with the settling's
nanoseconds a visit (taking the moves back included).

The figures say how far a builder of this kind (a count a node, every settled node's parents
visited once) can go: the work a slot is fixed by the game and the index, and what is left to
tune is the time a visit.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from frisian_builders import HEADER, classes_to_build, install_bodies, named_classes

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.index import material_name
from rulebook_build.engine.tables.retrograde import members_of

Material = tuple[int, int, int, int]
WORK = re.compile(r"work: settled (\d+) visits (\d+) forward ([\d.]+) settle ([\d.]+)")


def compile_counting(folder: Path) -> Path:
    """The working tree's builder with its work counted."""
    cc = binaries.compiler()
    if cc is None:
        raise SystemExit("no C compiler on this machine")
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "tablebuild-counting"
    flags = [*binaries.FLAGS, *binaries.machine_flags(), "-DCOUNT_WORK"]
    subprocess.run([cc, *flags, "-o", str(program), str(binaries.SOURCE)], check=True)
    return program


def build(
    program: Path, folder: Path, material: Material, *, variant: str, rules: bool, slices: bool
) -> tuple[int, int, float, float]:
    """Build one pair into ``folder``: nodes settled, parents visited, forward and settling
    seconds."""
    command = [str(program), str(folder), *map(str, material)]
    command += [*(["rules"] if rules else []), *(["frisian"] if variant == "frisian" else [])]
    command += ["slices"] if slices else []
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{material_name(material)}: {done.stderr.strip()}")
    found = WORK.search(done.stderr)
    if found is None:
        raise SystemExit(f"{material_name(material)}: no work line in {done.stderr!r}")
    install_bodies(folder, material)
    settled, visits = int(found[1]), int(found[2])
    return settled, visits, float(found[3]), float(found[4])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("international", "frisian", "both"), default="both")
    parser.add_argument("--class", dest="extra", action="append", default=[], metavar="NAME")
    parser.add_argument("--slices", action="store_true", help="pairs of 5 pieces by slices")
    parser.add_argument("--kind", choices=("pure", "rules", "both"), default="pure")
    parser.add_argument("--work", type=Path, default=None, help="folder for the builds")
    args = parser.parse_args()
    extra = named_classes(parser, args.extra)
    work = args.work or Path(tempfile.mkdtemp(prefix="builder-work-"))
    program = compile_counting(work)
    variants = ("international", "frisian") if args.variant == "both" else (args.variant,)
    kinds = ("pure", "rules") if args.kind == "both" else (args.kind,)
    for variant in variants:
        for kind in kinds:
            folder = work / f"{variant}-{kind}"
            folder.mkdir(exist_ok=True)
            totals = [0, 0, 0, 0.0, 0.0]
            for material in classes_to_build(4, extra):
                if all((folder / f"{material_name(m)}.bin").exists() for m in members_of(material)):
                    continue
                slices = args.slices and sum(material) > 4 and len(members_of(material)) == 2
                settled, visits, forward, settling = build(
                    program, folder, material, variant=variant, rules=kind == "rules", slices=slices
                )
                slots = sum(
                    ((folder / f"{material_name(m)}.bin").stat().st_size - len(HEADER)) // 2
                    for m in members_of(material)
                )
                for i, amount in enumerate((slots, settled, visits, forward, settling)):
                    totals[i] += amount
                print(
                    f"{variant:13} {kind:5} {material_name(material):10} {slots:>13,} slots "
                    f"{settled / slots:5.2f} settled {visits / slots:6.2f} visits a slot "
                    f"({visits / max(settled, 1):5.1f} a settled node)  forward {forward:7.1f} s "
                    f"settle {settling:7.1f} s  {1e9 * settling / max(visits, 1):5.1f} ns a visit"
                    f"{'  (by slices)' if slices else ''}",
                    flush=True,
                )
            slots, settled, visits, forward, settling = totals
            if slots:
                print(
                    f"{variant} {kind}: {slots:,} slots, {settled / slots:.2f} settled and "
                    f"{visits / slots:.2f} visits a slot; forward {1e9 * forward / slots:.0f} ns "
                    f"a slot, settling {1e9 * settling / max(visits, 1):.1f} ns a visit, "
                    f"{1e9 * (forward + settling) / slots:.0f} ns a slot in all",
                    flush=True,
                )
    print(f"({time.strftime('%Y-%m-%d %H:%M')}, work in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
