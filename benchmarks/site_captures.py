"""Every capture the site's International tables leave out, worked out as the stored value.

    python benchmarks/site_captures.py [--variant international] [--pieces 5] [--class NAME ...]
                                       [--cache-dir DIR]

The site publishes its tables without the positions whose side to move must capture
(``tables/remote.py`` CAPTURES): the check page's search works each one out from the positions
its captures lead to (``resolved_code`` in ``native/prover.c``).  The test suite checks that on
every International class of up to 4 pieces and every Fries Spel one of up to 3
(``tests/checker/test_site_captures.py``); this runs the same check, the native program's
``captures`` request, on every class of a variant of up to ``--pieces`` (International 5: 1.9
billion slots), against the compact files of the cache and of the site's folder
(``rulebook build`` or ``rulebook tables --pieces 5 --pack`` first).  Prints per class the
positions that must capture, how many differ or were not covered, and the seconds; exit 1 if
any differs.

With ``--cache-dir`` (a cache such as ``rulebook tables --cache-dir DIR`` fills) the program
reads that cache's folders as the checker does, built tables and compact files, and nothing is
built: so the Fries Spel 5-piece classes packed there the plain way (``compact.FORMAT``) show
that every reader of the filled form (``compact.FILLED``, whose captures are worked out) gets
the values the plain form keeps.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.engine import binaries  # noqa: E402
from rulebook_build.engine.tables import compact  # noqa: E402
from rulebook_build.engine.tables.index import material_name, material_of_name  # noqa: E402
from rulebook_build.engine.tables.kinds import checker_tables  # noqa: E402
from rulebook_build.rules import find_variant  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--pieces", type=int, default=5)
    parser.add_argument("--class", dest="classes", action="append", default=[])
    parser.add_argument("--cache-dir", type=Path, help="read this cache's tables, build none")
    args = parser.parse_args()
    variant = find_variant(args.variant)
    cached = args.cache_dir is not None
    tables = checker_tables(variant, cache_dir=args.cache_dir / "endgame" if cached else None)
    if not cached:
        tables.prepare_missing()
    program = tables.prover()
    if program is None:
        print("no C compiler: nothing to run", file=sys.stderr)
        return 2
    site = tables.pure.cache_dir / "site" / tables.pure.compact_folder().name
    chosen = [material_of_name(name) for name in args.classes]
    materials = [m for m in chosen if m] or [m for m in tables.classes() if sum(m) <= args.pieces]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        # every class's compact file in one folder, as the native program reads them
        for material in tables.classes():
            name = f"{material_name(material)}{compact.SUFFIX}"
            for source in (tables.pure.compact_path(material), site / name):
                if source.is_file():
                    (folder / name).symlink_to(source)
                    break
        folders = (tables.pure.folder(), tables.rules.folder()) if cached else (folder, folder)
        reader = binaries.NativeProver(program.program, *folders, variant=variant)
        total = differ = 0
        started = time.perf_counter()
        with reader.session(5) as session:
            for material in sorted(materials, key=lambda m: (sum(m), m)):
                began = time.perf_counter()
                answer = session.check_captures(material)
                fields = answer.splitlines()[-2].split()
                total += int(fields[1])
                differ += int(fields[3]) + int(fields[5])
                print(
                    f"{material_name(material)}  {int(fields[1]):>12,} must capture  "
                    f"differ {fields[3]}  uncovered {fields[5]}  "
                    f"{time.perf_counter() - began:7.1f} s",
                    flush=True,
                )
                if fields[3] != "0":
                    print(answer.splitlines()[0], flush=True)
        print(
            f"{len(materials)} classes, {total:,} positions that must capture, "
            f"{differ} differ or not covered, {time.perf_counter() - started:.0f} s"
        )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
