"""Two versions of the compiled table builder, Fries Spel rules, compared value for value and timed.

    python benchmarks/frisian_builders.py --old 20b263d                # up to 4 pieces, both kinds
    python benchmarks/frisian_builders.py --old 20b263d --class m1k1-m0k3   # and a 5-piece pair

Compiles ``native/tablebuild.c`` (with ``draughts.h``) as it is at the git revision ``--old``
and as it is in this working tree, builds every Fries Spel class of up to ``--pieces`` pieces
(default 4) with each, pure and with the count rules, into folders of its own under
``--work`` (a fresh temporary folder by default: never the user's cache), and compares the two
builds of every class byte for byte.  ``--class NAME`` (repeatable) adds a 5-piece pair and the
5-piece classes it leads to; ``--slices`` builds the pairs of more than 4 pieces by slices, as
``rulebook tables`` does the largest ones.  A pair both builders built into the same ``--work``
in an earlier run is left out (that run compared it).  Each builder reads only the tables it
built itself, so a difference shows in the first class where it arises and in every class built
on it.

Prints one line a pair (slots, processor seconds of each builder) and the totals (slots a
second); exit status 1 if any class differs.  Processor time (user + system, of the builder's
process) is the measure, not the wall clock: the machine is shared.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.index import material_name, material_of_name
from rulebook_build.engine.tables.retrograde import members_of, needed_for

ROOT = Path(__file__).resolve().parents[1]
Material = tuple[int, int, int, int]
HEADER = b"differential build\nvalues follow\n"
"""Two lines before the values, as the builder skips them in the tables it reads."""


def compile_builder(folder: Path, revision: str | None) -> Path:
    """The builder of ``revision`` (None: the working tree's), compiled as the package does."""
    folder.mkdir(parents=True, exist_ok=True)
    # the builder and every header beside it (draughts.h, lifetime.h, ...)
    headers = sorted(binaries.SOURCE.parent.glob("*.h"))
    for source in (binaries.SOURCE, *headers):
        if revision is None:
            text = source.read_bytes()
        else:
            path = source.relative_to(ROOT).as_posix()
            text = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{revision}:{path}"],
                capture_output=True,
                check=True,
            ).stdout
        (folder / source.name).write_bytes(text)
    cc = binaries.compiler()
    if cc is None:
        raise SystemExit("no C compiler on this machine: nothing to compare")
    program = folder / "tablebuild"
    flags = [*binaries.FLAGS, *binaries.machine_flags()]
    subprocess.run([cc, *flags, "-o", str(program), str(folder / "tablebuild.c")], check=True)
    return program


def classes_to_build(pieces: int, extra: list[Material]) -> list[Material]:
    """Every class of up to ``pieces`` pieces, the ``extra`` ones and what they lead to, in
    building order, one member of each pair."""
    wanted = {
        (a, b, c, d)
        for a, b, c, d in product(range(pieces + 1), repeat=4)
        if 2 <= a + b + c + d <= pieces and a + b and c + d
    }
    wanted |= needed_for(extra)
    order = sorted(wanted, key=lambda m: (sum(m), m[0] + m[2], m))
    chosen: list[Material] = []
    for material in order:
        if not any(member in chosen for member in members_of(material)):
            chosen.append(material)
    return chosen


def install_bodies(folder: Path, material: Material) -> None:
    """The builder's ``.body`` files of a pair made into tables it reads (``HEADER`` first)."""
    for member in members_of(material):
        body = folder / f"{material_name(member)}.body"
        with (folder / f"{material_name(member)}.bin").open("wb") as out:
            out.write(HEADER)
            out.write(body.read_bytes())
        body.unlink()


def named_classes(parser: argparse.ArgumentParser, names: list[str]) -> list[Material]:
    """The classes of ``--class`` names (a usage error for a name that is none)."""
    found: list[Material] = []
    for name in names:
        material = material_of_name(name)
        if material is None:
            parser.error(f"--class {name}: not a class name such as m1k1-m0k3")
        found.append(material)
    return found


def build(program: Path, folder: Path, material: Material, *, rules: bool, slices: bool) -> float:
    """Build one pair into ``folder``; the processor seconds it took."""
    command = [str(program), str(folder), *map(str, material)]
    command += [*(["rules"] if rules else []), "frisian", *(["slices"] if slices else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{program} {material_name(material)}: {done.stderr.strip()}")
    install_bodies(folder, material)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="git revision of the builder to compare")
    parser.add_argument("--pieces", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--class", dest="extra", action="append", default=[], metavar="NAME")
    parser.add_argument("--slices", action="store_true", help="pairs of 5 pieces by slices")
    parser.add_argument("--kind", choices=("pure", "rules", "both"), default="both")
    parser.add_argument("--work", type=Path, default=None, help="folder for the builds")
    args = parser.parse_args()
    extra = named_classes(parser, args.extra)
    work = args.work or Path(tempfile.mkdtemp(prefix="frisian-builders-"))
    programs = {
        "old": compile_builder(work / "old-program", args.old),
        "new": compile_builder(work / "new-program", None),
    }
    kinds = ("pure", "rules") if args.kind == "both" else (args.kind,)
    differing = 0
    for kind in kinds:
        total = {"old": 0.0, "new": 0.0}
        slots_in_all = 0
        for material in classes_to_build(args.pieces, extra):
            slices = args.slices and sum(material) > 4 and len(members_of(material)) == 2
            seconds = {}
            built_before = all(
                (work / f"{name}-{kind}" / f"{material_name(member)}.bin").exists()
                for name in programs
                for member in members_of(material)
            )
            if built_before:  # by an earlier run into the same --work, which compared it
                continue
            for name, program in programs.items():
                folder = work / f"{name}-{kind}"
                folder.mkdir(exist_ok=True)
                seconds[name] = build(
                    program, folder, material, rules=kind == "rules", slices=slices
                )
                total[name] += seconds[name]
            slots = 0
            verdicts = []
            for member in members_of(material):
                old = (work / f"old-{kind}" / f"{material_name(member)}.bin").read_bytes()
                new = (work / f"new-{kind}" / f"{material_name(member)}.bin").read_bytes()
                slots += (len(new) - len(HEADER)) // 2
                if old != new:
                    differing += 1
                    verdicts.append(f"{material_name(member)} DIFFERS")
            slots_in_all += slots
            print(
                f"{kind:5} {material_name(material):10} {slots:>13,} slots  "
                f"old {seconds['old']:7.1f} s  new {seconds['new']:7.1f} s  "
                f"{'; '.join(verdicts) or 'identical'}",
                flush=True,
            )
        rate = {name: slots_in_all / max(total[name], 1e-9) / 1e6 for name in total}
        print(
            f"{kind}: {slots_in_all:,} slots; old {total['old']:.1f} s "
            f"({rate['old']:.2f} M slots/s), new {total['new']:.1f} s ({rate['new']:.2f} M "
            f"slots/s): {total['old'] / max(total['new'], 1e-9):.2f} times as fast",
            flush=True,
        )
    print(f"{differing} classes differ ({time.strftime('%Y-%m-%d %H:%M')}, work in {work})")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
