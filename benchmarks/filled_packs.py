"""Compact files in the filled form against the same classes packed in the plain form.

    python benchmarks/filled_packs.py --filled CACHE --plain CACHE [--variant frisian] [--probes N]
                                      [--class NAME ...]

``CACHE`` is a folder ``rulebook tables --cache-dir`` filled: ``--filled`` one whose 5-piece
classes are in the filled form (``compact.FILLED``, as ``rulebook tables --variant frisian
--pieces 5 --pack`` now writes them), ``--plain`` one whose same classes are in the plain form
(``compact.FORMAT``, as it wrote them before).  For every class compact in both, the filled
file's codes must be the plain file's with the slots no probe reads given the code before them
(``pack fill``).  With ``benchmarks/site_captures.py --cache-dir PLAIN`` (every position that
must capture worked out from its captures as the plain file stores it) that shows the filled
files answer every probe as the plain ones do.  With ``--probes N``, also ``N`` random positions
of each class, most of them ones that must capture, probed in both caches by the checker's
Python reader and by the compiled search (pure and with the count rules): the answers must be
the same.  Prints a line a class (its sizes in both forms, the seconds) and exits 1 at the
first class that differs.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact
from rulebook_build.engine.tables.index import material_name, material_of_name
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.rules import Variant, find_variant, generate
from rulebook_build.rules.drawrules import initial_clocks
from tests.checker.test_endgame import random_state


def opened(tables: CheckerTables, path: Path) -> compact.CompactTable:
    material = material_of_name(path.stem)
    assert material is not None
    return compact.CompactTable(path, tables.pure.compact_fields(material))


def same(
    program: Path, frisian: bool, plain: compact.CompactTable, filled: compact.CompactTable
) -> str | None:
    """None if ``filled`` holds ``plain``'s codes filled, else where they first differ."""
    material = material_of_name(plain.path.stem)
    assert material is not None
    run = subprocess.Popen(
        [str(program), "fill", "1" if frisian else "0", *map(str, material), "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert run.stdin is not None and run.stdout is not None

    def feed() -> None:
        assert run.stdin is not None
        for number in range(-(-plain.size // plain.span)):
            run.stdin.write(plain.block(number))
        run.stdin.close()

    feeder = threading.Thread(target=feed)
    feeder.start()
    at = 0
    found = None
    for number in range(-(-filled.size // filled.span)):
        block = filled.block(number)
        expected = run.stdout.read(len(block))
        if expected != block and found is None:
            first = next(
                i for i in range(len(block)) if i >= len(expected) or expected[i] != block[i]
            )
            found = f"slot {at + first}"
        at += len(block)
    extra = run.stdout.read()
    feeder.join()
    if run.wait() != 0:
        return "pack fill failed"
    return found or (f"{len(extra)} codes more in the plain file" if extra else None)


def probed(
    variant: Variant,
    readers: list[tuple[CheckerTables, binaries.ProverSession]],
    material: tuple[int, int, int, int],
    count: int,
    rng: random.Random,
) -> tuple[int, str | None]:
    """``count`` positions of a class (three in four that must capture, where there are such)
    probed by every reader; how many must capture, and the first that differs."""
    capturing = tries = 0
    for _ in range(count):
        while True:
            state = random_state(rng, variant, material)
            moves = generate(variant, state)
            captures = bool(moves) and bool(moves[0][2])
            tries += 1
            if captures or rng.random() < 0.25 or tries > 50 * count:
                break
        capturing += captures
        clocks = initial_clocks(variant, state)
        answers = [
            (tables.probe(state), tables.probe_rules(state), session.probe(state, clocks))
            for tables, session in readers
        ]
        if answers[0] != answers[1] or answers[0][0] is None:
            return capturing, f"{state}: {answers}"
    return capturing, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filled", type=Path, required=True)
    parser.add_argument("--plain", type=Path, required=True)
    parser.add_argument("--variant", default="frisian")
    parser.add_argument("--probes", type=int, default=0, help="random positions a class")
    parser.add_argument("--class", dest="classes", action="append", default=[])
    args = parser.parse_args()
    variant = find_variant(args.variant)
    filled_tables = checker_tables(variant, cache_dir=args.filled / "endgame")
    plain_tables = checker_tables(variant, cache_dir=args.plain / "endgame")
    program = binaries.executable(filled_tables.pure.cache_dir, binaries.PACK_SOURCE)
    if program is None:
        print("no C compiler: nothing to run", file=sys.stderr)
        return 2
    frisian = variant.max_consecutive_king_moves is not None
    sizes = [0, 0]
    classes = 0
    rng = random.Random(55)
    sessions = []
    if args.probes:
        compiled = binaries.executable(filled_tables.pure.cache_dir, binaries.PROVER_SOURCE)
        assert compiled is not None
        for tables in (filled_tables, plain_tables):
            reader = binaries.NativeProver(
                compiled, tables.pure.folder(), tables.rules.folder(), variant=variant
            )
            sessions.append((tables, reader.session(1)))
    probes = capturing = 0
    for path in sorted(filled_tables.pure.compact_folder().glob(f"*{compact.SUFFIX}")):
        plain_path = plain_tables.pure.compact_folder() / path.name
        if not plain_path.is_file() or (args.classes and path.stem not in args.classes):
            continue
        started = time.perf_counter()
        filled, plain = opened(filled_tables, path), opened(plain_tables, plain_path)
        if not filled.filled or plain.filled:
            print(f"{path.stem}: not one filled and one plain file", file=sys.stderr)
            return 1
        fault = same(program, frisian, plain, filled)
        material = material_of_name(path.stem) or (0, 0, 0, 0)
        name = material_name(material)
        if sessions and not fault:
            found, fault = probed(variant, sessions, material, args.probes, rng)
            capturing += found
            probes += args.probes
        print(
            f"{name}  plain {plain_path.stat().st_size / 1e6:9.1f} MB  filled "
            f"{path.stat().st_size / 1e6:8.1f} MB  {time.perf_counter() - started:6.1f} s"
            + (f"  DIFFERS at {fault}" if fault else ""),
            flush=True,
        )
        if fault:
            return 1
        sizes[0] += plain_path.stat().st_size
        sizes[1] += path.stat().st_size
        classes += 1
    for _, session in sessions:
        session.close()
    print(
        f"{classes} classes: the filled files hold the plain ones' codes, filled; "
        f"{sizes[0] / 1e9:.3f} GB plain, {sizes[1] / 1e9:.3f} GB filled"
        + (
            f"; {probes:,} positions probed alike ({capturing:,} that must capture)"
            if probes
            else ""
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
