"""``rulebook tables``: build the endgame tables the checker uses as exact leaves, once.

    rulebook tables [--variant V] [--pieces N] [--jobs N] [--cluster tcp://HOST:PORT] [--pack]
                    [--list] [--verify] [--prune] [--export DIR] [--install DIR]
                    [--cache-dir DIR]

The proof search closes a node at once when its position is in a table, so larger tables settle
problems that no search of the time limit settles.  Some are too large for a first run of
``rulebook check`` to wait for; this command builds them once, into the cache (``endgame/`` in
the user's cache folder, or ``--cache-dir``; see ``rulebook_build/cachedir.py``), and every
later ``rulebook check``, and the check page of a site built on this machine, uses them.

``rulebook check`` builds by itself, on first use, every class of up to 4 pieces with the
compiled builder (``engine/binaries.py``; it needs a C compiler), else up to 3 pieces in Python,
and, for International unless it is given ``--table-pieces 4``, the 5-piece classes by running
this command with ``--pieces 5 --pack``.  This command builds:

* ``--pieces 4`` (the default): every class of up to 4 pieces; without a C compiler the Python
  builder makes them (it is refused from 5 pieces on).
* ``--pieces 5``: every class of up to 5 pieces, with the compiled builder only.  A pair of more
  than ``retrograde.WHOLE_PAIR_SLOTS`` slots (two Frisian pairs, whose art. 17 run digits
  multiply the slots) is built by slices, one placement of the men at a time, with every art. 17
  run in each slice, so that it fits in memory.
* ``--pieces 6`` (International only): everything of ``--pieces 5``, then the eight pairs of four
  pieces with a king against two with a king (``kinds.SLICED_PAIRS``, the endings some PWCP-2
  problems run into), with count rules only, built by slices.  A table with count rules never
  refutes, so they serve the proofs only and need no pure partners.

Each class is built twice: pure (the search refutes by it) and with the count rules (it proves
by it), each with its partner (the same material, the other side to move).  ``--jobs`` pairs are
built at once, each in its own process, or on the workers of a Dask cluster with ``--cluster``,
level by level (``kinds.build_levels``): a capture leads to fewer pieces and a promotion to fewer
men, so the pairs of a level need only the levels before it.  Each pair is built under a lock of
its own and written whole or not at all, so classes already in the cache are only checked, two
commands on one cache never build a pair twice, and the command can be stopped and run again.

``--pack`` keeps every class of 5 pieces in compact form only (``engine/tables/compact.py``;
the 6-piece pairs stay as built): both kinds of a class in one file of one byte a slot,
compressed with zlib, instead of two files of two bytes a slot, and the checker reads it as it
reads the built ones.  The Fries Spel 5-piece classes, whose art. 17 runs make them 71 GB as
built tables, are then built straight into their compact files (``engine/tables/coded.py``:
each pair's count-rule kind one byte a slot, then half a byte, its pure kind two bits, packed
as soon as both are built, and kept as results only while larger classes still need it), with
about 9 GB of disk at the peak instead of 60, and kept in the filled form
(``compact.FILLED``: 0.35 GB).  A
compact class keeps no pure distances, so no class can be built from it: build the 6-piece
pairs (``--pieces 6`` without ``--pack``) before the 5-piece classes are packed (then
``--pieces 6 --pack``), or build those again first.  ``--export`` hands on the compact files
with the others, ``--install`` checks them.

``--verify`` builds nothing: it hashes every table file of the variant against the checksum in
its header (``engine/tables/tablefile.py``; a damaged file is moved aside and named), then checks
every entry of the pure tables of up to ``--pieces`` pieces against its successors, one
retrograde step (``EndgameTables.first_inconsistency``), and stops at the first fault (exit 1).
The tables with count rules are checked by checksum only: their values depend on the clocks.

``--list`` shows every class and whether it is cached; ``--prune`` deletes the variant's tables
that a change to the rules or the builder left behind; ``--export DIR`` copies the cached tables,
each checked, into ``DIR`` and ``--install DIR`` copies them into the cache, each checked against
its checksum and the rules fingerprint, so that one machine builds them for many.

The time printed before a build is an estimate from the seconds a slot below; the measured
figures are in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

from rulebook_build.cachedir import (
    add_cache_argument,
    exclusive,
    lock_file,
    locks_folder,
    use_cache_argument,
)
from rulebook_build.cli.cluster import connect
from rulebook_build.cli.options import (
    MAX_JOBS,
    existing_folder,
    folder_to_write,
    jobs_default,
    scheduler_address,
    whole_number,
)
from rulebook_build.engine import (
    CACHED_RULES_PIECES,
    SLICED_PAIRS,
    WHOLE_PAIR_SLOTS,
    CheckerTables,
    EndgameTables,
    Material,
    Semantics,
    binaries,
    build_class,
    build_levels,
    build_packed,
    compact,
    machine_cores,
    pair_name,
    successor_classes,
    tablefile,
)
from rulebook_build.errors import RulebookError
from rulebook_build.lifetime import pool_options
from rulebook_build.rules import VARIANTS, Variant, find_variant

# The seconds a slot of each builder, for the estimate printed before a build (slots / 2 /
# jobs). They are measured on the 2-core development machine, the king classes being the slow
# ones, and rounded up so that the estimate stays on the safe side; the measurements are in
# benchmarks/README.md ("Table builds").
SECONDS_PER_SLOT = 45e-6  # the Python builder, on a busy machine
NATIVE_SECONDS_PER_SLOT = 0.28e-6  # the compiled builder, International
FRISIAN_NATIVE_SECONDS_PER_SLOT = 0.09e-6  # the compiled builder, Fries Spel (art. 17 runs)
SLICED_SECONDS_PER_SLOT = 0.5e-6  # the 6-piece pairs, built by slices


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        choices=[v.name for v in VARIANTS],
        default="international",
        help="rule set (default international)",
    )
    parser.add_argument(
        "--pieces",
        type=whole_number(2, 6),
        default=4,
        help="every class of up to N pieces, 2 to 6 (default 4; 5, and 6 for the endings of four "
        "pieces against two with kings, for International with a C compiler)",
    )
    parser.add_argument(
        "--jobs",
        type=whole_number(1, MAX_JOBS),
        default=jobs_default(),
        help=f"pairs of classes built at once, 1 to {MAX_JOBS}, each in its own process, and "
        f"processes that share a 6-piece build (at most {binaries.MAX_SLICE_JOBS}: the compiled "
        f"builder's limit) (default: this machine's cores, now {machine_cores()}, at most "
        f"{MAX_JOBS})",
    )
    parser.add_argument(
        "--cluster",
        type=scheduler_address,
        metavar="tcp://HOST:PORT",
        help="build the pairs of classes on a Dask distributed cluster (its scheduler's "
        "address); the workers must have this project installed and share the cache folder "
        "(--cache-dir) with this machine; the 6-piece pairs by slices stay on this machine",
    )
    parser.add_argument(
        "--pack",
        action="store_true",
        help="after building, keep the classes of more than 4 pieces in compact form only (one "
        "small file a class for both kinds; the checker reads them as the built ones)",
    )
    parser.add_argument(
        "--list", action="store_true", help="only list the classes and whether they are cached"
    )
    parser.add_argument(
        "--export",
        type=folder_to_write,
        metavar="DIR",
        help="copy the cached tables of the variant (both kinds) into DIR, to hand to others",
    )
    parser.add_argument(
        "--install",
        type=existing_folder,
        metavar="DIR",
        help="copy the tables of DIR (from --export) into the cache, each one checked against "
        "its checksum and the rules it was built for; the others are refused and named",
    )
    parser.add_argument(
        "--prune",
        action="store_true",
        help="delete the variant's tables built for other rules or an older format (a change "
        "to the rules or the builder leaves them behind, unused); builds nothing",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the cached tables instead of building: every file against its checksum, "
        "every entry of the pure tables of up to --pieces pieces against its successors",
    )
    add_cache_argument(parser, folder_to_write)


def describe(material: Material) -> str:
    """``(1, 1, 2, 0)`` -> "1 man 1 king v 2 men" (the side to move first)."""

    def side(men: int, kings: int) -> str:
        parts = []
        if men:
            parts.append(f"{men} {'man' if men == 1 else 'men'}")
        if kings:
            parts.append(f"{kings} {'king' if kings == 1 else 'kings'}")
        return " ".join(parts)

    a, b, c, d = material
    return f"{side(a, b)} v {side(c, d)}"


def run(args: argparse.Namespace) -> int:
    use_cache_argument(args)
    variant = find_variant(args.variant)
    if args.list or args.verify or args.prune or args.export or args.install:
        return _look_after(variant, args)
    build_tables(variant, args.pieces, jobs=args.jobs, pack=args.pack, cluster=args.cluster)
    return 0


def _kinds(variant: Variant, pieces: int) -> list[EndgameTables]:
    """The two kinds of tables of every class: pure values refute, values with count rules
    prove (endgame.py)."""
    return [
        EndgameTables(
            variant,
            max_pieces=pieces,
            max_pair_slots=None,
            semantics=semantics,
            cached_pieces=CACHED_RULES_PIECES if semantics == "rules" else 0,
        )
        for semantics in ("pure", "rules")
    ]


def _look_after(variant: Variant, args: argparse.Namespace) -> int:
    """--list, --verify, --prune, --export, --install: look after the tables, build none."""
    kinds = _kinds(variant, min(args.pieces, 5))
    tables = kinds[0]
    classes = tables.material_classes()
    if args.verify:
        return _verify(kinds, classes)
    if args.prune:
        return _prune(kinds)
    if args.export:
        return _export(kinds, Path(args.export))
    if args.install:
        return _install(kinds, Path(args.install))
    sliced = list(SLICED_PAIRS) if args.pieces == 6 else []
    counted = kinds[1]
    for material in classes:
        if tables.compact_path(material).is_file() and not tables.path(material).is_file():
            states = ["pure and rules compact"]
        else:
            states = [
                f"{kind.semantics} {'cached' if kind.in_cache(material) else 'not built'}"
                for kind in kinds
            ]
        if tables.pair_slots(material) > WHOLE_PAIR_SLOTS:
            states.append("built by slices")
        print(
            f"{describe(material):28} {tables.pair_slots(material):>14,} slots  "
            + ", ".join(states)
        )
    for material in sliced:
        state = "cached" if counted._cached_pair(material) else "not built"
        print(
            f"{describe(material):28} {counted.pair_slots(material):>14,} slots  "
            f"rules {state} (no pure table: by slices, for proofs only)"
        )
    return 0


def build_tables(
    variant: Variant, requested: int, *, jobs: int, pack: bool, cluster: str | None = None
) -> None:
    """Build every class of up to ``requested`` pieces that the cache does not hold (with 6,
    the sliced pairs too), ``jobs`` pairs at once or on a Dask ``cluster``, and with ``pack``
    keep the 5-piece classes in compact form; what it does is said on standard error.  The
    command calls it, and so does ``rulebook check`` for its 5-piece tables.  Raises
    ``RulebookError`` when they cannot be built here."""
    pieces = min(requested, 5)
    kinds = _kinds(variant, pieces)
    tables = kinds[0]
    compiled = tables.native_program() is not None
    if requested >= 5 and not compiled:
        reason = (
            "no C compiler was found (set CC, or install gcc)"
            if variant.name in binaries.VARIANTS
            else f"the compiled builder knows only {', '.join(sorted(binaries.VARIANTS))} rules"
        )
        raise RulebookError(
            f"{requested}-piece tables for {variant.name} need the compiled table builder: "
            f"{reason}; in pure Python they would take days"
        )
    if variant.name == "frisian" and requested >= 6:
        raise RulebookError(
            f"{requested}-piece tables for frisian are not built: the 6-piece pairs of "
            "'--pieces 6' are International endings (PWCP-2's); '--pieces 5' builds every "
            "Frisian class of up to 5 pieces"
        )
    classes = tables.material_classes()
    sliced = list(SLICED_PAIRS) if requested == 6 else []
    counted = kinds[1]
    missing = [(kind, m) for kind in kinds for m in classes if not kind.in_cache(m)]
    if missing:
        for kind in kinds:
            writable(kind.folder())
    # Fries Spel's 5-piece classes, packed, are built through build codes (engine/tables/coded.py):
    # as int16 tables they would need some 60 GB of disk while they build
    coded = pack and compiled and variant.name == "frisian" and pieces == 5
    coded_classes = sorted({m for _, m in missing if sum(m) == 5}) if coded else []
    missing_sliced = [m for m in sliced if not counted._cached_pair(m)]
    packed_only = [m for m in classes if sum(m) == 5 and not counted.path(m).is_file()]
    if missing_sliced and any(counted.compact_path(m).is_file() for m in packed_only):
        raise RulebookError(
            "the 6-piece pairs are built from the built 5-piece tables, and this cache holds "
            "some only in compact form (--pack): delete the .pack files of 5 pieces in "
            f"{counted.compact_folder()} and build again with --pieces 6 --pack"
        )
    per_slot = SECONDS_PER_SLOT
    if compiled:
        frisian = variant.name == "frisian"
        per_slot = FRISIAN_NATIVE_SECONDS_PER_SLOT if frisian else NATIVE_SECONDS_PER_SLOT
    sharing = max(1, min(jobs, machine_cores()))
    # pairs are built side by side, on this machine's cores at most (on a cluster, faster)
    estimate = sum(tables.pair_slots(m) for _, m in missing) * per_slot / 2 / sharing
    estimate += (
        sum(counted.pair_slots(m) for m in missing_sliced) * SLICED_SECONDS_PER_SLOT / sharing
    )
    what = f"{len(missing)} tables to build, pure and with count rules"
    if sliced:
        what += f", and {len(missing_sliced)} of the {len(sliced)} 6-piece pairs by slices"
    print(
        f"{variant.name}: {len(classes)} classes of up to {pieces} pieces, {what} (about "
        f"{_duration(estimate)}, {'compiled' if compiled else 'Python'} builder)",
        file=sys.stderr,
        flush=True,
    )
    seconds = 0.0
    cpu_before = _cpu_seconds()
    # on a terminal, a bar over the slots to build (a class's time grows with its slots), with
    # the time left at the pace so far; the line per class stays above it
    bar = None
    if sys.stderr.isatty() and missing:
        from tqdm import tqdm

        total = sum(kind.pair_slots(m) for kind, m in missing) // 2
        bar = tqdm(total=total, unit=" slots", unit_scale=True, file=sys.stderr, leave=False)

    def built(material: Material, seconds: float, kind: EndgameTables) -> None:
        line = (
            f"  built {describe(material)} with its partner, {kind.semantics} "
            f"({kind.pair_slots(material):,} slots) in {seconds:.0f} s"
        )
        if bar is None:
            print(line, file=sys.stderr, flush=True)
        else:
            bar.write(line, file=sys.stderr)
            bar.update(kind.pair_slots(material) // 2)

    both = CheckerTables(kinds[0], kinds[1])
    packing = [0.0, 0.0, 0.0]  # seconds, bytes before and after

    def pack_now(*, as_built: bool) -> None:
        for i, amount in enumerate(_pack(both, classes, jobs, as_built=as_built)):
            packing[i] += amount

    as_int16 = [(kind, m) for kind, m in missing if m not in coded_classes]
    if cluster or jobs > 1:
        # with --pack, a level's classes are packed as soon as no class still to be built
        # leads to them: the disk holds about two levels of built files, not all of them
        after_level = (lambda: pack_now(as_built=True)) if pack else None
        seconds += _side_by_side(kinds, as_int16, jobs, cluster, built, after_level)
    else:
        for kind in kinds:

            def one(material: Material, took: float, kind: EndgameTables = kind) -> None:
                built(material, took, kind)

            seconds += kind.prepare_missing([m for m in classes if m not in coded_classes], one)
    if coded_classes:
        straight = [0, 0]  # classes and bytes packed

        def packed(material: Material, size: int) -> None:
            straight[0] += 1
            straight[1] += size
            line = f"  packed {describe(material)}: {size / 1e6:,.1f} MB"
            if bar is None:
                print(line, file=sys.stderr, flush=True)
            else:
                bar.write(line, file=sys.stderr)

        seconds += build_packed(both, coded_classes, jobs=jobs, on_built=built, on_packed=packed)
        print(
            f"packed {straight[0]} classes straight from their build codes: "
            f"{straight[1] / 1e9:.3f} GB",
            file=sys.stderr,
            flush=True,
        )
    if bar is not None:
        bar.close()
    unwritten = [(kind, m) for kind, m in missing if not kind.in_cache(m)]
    if unwritten:
        kind, material = unwritten[0]
        raise RulebookError(
            f"{len(unwritten)} tables were built but not written, {describe(material)} "
            f"({kind.semantics}) first: {_room(kind.folder(), 2 * kind.size(material))}",
            source=str(kind.folder()),
        )
    if missing_sliced and jobs > binaries.MAX_SLICE_JOBS:
        print(
            f"  the 6-piece pairs are built by {binaries.MAX_SLICE_JOBS} processes each, not "
            f"{jobs}: the compiled builder shares a pair's slices among "
            f"{binaries.MAX_SLICE_JOBS} at most",
            file=sys.stderr,
            flush=True,
        )
    for material in missing_sliced:
        print(
            f"  building {describe(material)} with its partner, rules, by slices "
            f"({counted.pair_slots(material):,} slots)",
            file=sys.stderr,
            flush=True,
        )
        took = counted.build_by_slices(material, _progress, jobs=jobs)
        print(f"  built {describe(material)} in {took:.0f} s", file=sys.stderr, flush=True)
        seconds += took
    if pack:
        pack_now(as_built=False)
        seconds += packing[0]
    if pack and (packing[1] or not coded_classes):  # the classes built as int16, packed
        print(
            f"packed: {packing[1] / 1e9:.2f} GB of built tables -> {packing[2] / 1e9:.3f} GB "
            f"({packing[0]:.0f} s)"
            if packing[1]
            else f"nothing to pack: no built class of {PACKED_FROM} pieces or more",
            file=sys.stderr,
            flush=True,
        )
    print(
        f"{variant.name}: every class of up to {pieces} pieces"
        + (f" and the {len(sliced)} 6-piece pairs" if sliced else "")
        + f" is in {tables.cache_dir} ({seconds:.0f} s"
        + ("" if cluster else f", {_cpu_seconds() - cpu_before:.0f} s of CPU")
        + ")",
        file=sys.stderr,
    )


def writable(folder: Path) -> None:
    """Raise a clear ``RulebookError`` unless tables can be written into ``folder`` (made if
    missing): a read-only cache, or one on a full disk, is said before any build starts."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"\0" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        raise RulebookError(
            f"cannot write tables here: {error.strerror or error}; give --cache-dir a "
            "folder that can be written, or make room",
            source=str(folder),
        ) from None


def _room(folder: Path, needed: int) -> str:
    """What the disk of ``folder`` has left, beside the ``needed`` bytes of a table, to say why
    it was not written."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError as error:
        return f"its folder cannot be read ({error.strerror or error})"
    said = f"{free:,} bytes free there, {needed:,} needed"
    if free < needed:
        said += " (the disk is full: make room there, or write to another folder)"
    return said


def _cpu_seconds() -> float:
    """The processor time of this process and of every process it has waited for: the
    builders, and the processes of ``--jobs`` once their pool is shut down.  Beside the wall
    time, a measure of the work that a busy machine does not inflate (a cluster's workers are
    not counted: they are not this process's children)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


PACKED_FROM = 5
"""``--pack`` packs the classes of this many pieces and more: ``check`` builds the smaller ones
itself on first use, and builds from them."""


def _pack(
    tables: CheckerTables, classes: list[Material], jobs: int, *, as_built: bool = False
) -> tuple[float, int, int]:
    """``--pack``: the compact file of every built class of ``PACKED_FROM`` pieces or more,
    then its two built files deleted; ``jobs`` classes at once (zlib works outside Python's
    lock).  ``as_built``: during a build, only the classes that no class still to be built
    leads to (a class is built from the built files of those it leads to).  The seconds it
    took, and the bytes before and after."""
    started = time.perf_counter()
    kinds = (tables.pure, tables.rules)
    chosen = [
        m for m in classes if sum(m) >= PACKED_FROM and all(k.path(m).is_file() for k in kinds)
    ]
    if as_built:
        waiting = [m for m in classes if not all(k.in_cache(m) for k in kinds)]
        needed = {
            target
            for a, b, c, d in waiting
            for member in ((a, b, c, d), (c, d, a, b))
            for target in successor_classes(member)
        }
        chosen = [m for m in chosen if m not in needed and (m[2], m[3], m[0], m[1]) not in needed]
    if not chosen:
        return 0.0, 0, 0
    if not as_built:
        print(f"packing {len(chosen)} classes", file=sys.stderr, flush=True)

    def one(material: Material) -> tuple[Material, int, int] | None:
        # under the pair's lock, which its builds take too: two commands that build into one
        # cache (two checks started at once) would otherwise pack a class both, and the one
        # that came second find the built files gone
        with exclusive(tables.pure.folder(), pair_name(material)):
            paths = [kind.path(material) for kind in kinds]
            if not all(path.is_file() for path in paths):
                return None  # packed by another process meanwhile
            before = sum(path.stat().st_size for path in paths)
            try:
                after = tables.pack(material)
            except OSError as error:  # the built files stay: nothing is lost
                raise RulebookError(
                    f"cannot write the compact file of {describe(material)}: "
                    f"{error.strerror or error} ({_room(paths[0].parent, before // 4)}); "
                    "its built files are kept",
                    source=str(tables.pure.compact_path(material)),
                ) from None
            for path in paths:  # the compact file is whole and checked: the built ones may go
                path.unlink()
                path.with_name(path.name + tablefile.STAMP).unlink(missing_ok=True)
            return material, before, after

    total_before = total_after = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for done in pool.map(one, chosen):
            if done is None:
                continue
            material, before, after = done
            total_before += before
            total_after += after
            print(
                f"  packed {describe(material)}: {before / 1e6:,.0f} MB -> {after / 1e6:,.1f} MB",
                file=sys.stderr,
                flush=True,
            )
    return time.perf_counter() - started, total_before, total_after


def _side_by_side(
    kinds: list[EndgameTables],
    missing: list[tuple[EndgameTables, Material]],
    jobs: int,
    cluster: str | None,
    built: Callable[[Material, float, EndgameTables], None],
    after_level: Callable[[], None] | None = None,
) -> float:
    """Build the missing pairs several at once: ``jobs`` processes here, or the workers of a
    Dask cluster.  Level by level (``build_levels``): the pairs of a level need only those of
    the levels before, so none waits for another; both kinds share each level.  A worker lost
    during the run costs its pair a rerun elsewhere (a build holds its pair's lock and writes
    whole files only).  The seconds it all took."""
    started = time.perf_counter()
    # one task a pair and kind: a class and its partner are built together
    tasks = {(id(kind), pair_name(m)): (kind, m) for kind, m in missing}
    levels = build_levels([m for _, m in tasks.values()])
    with contextlib.ExitStack() as stack:
        submit: Callable[..., _Pending]
        if cluster:
            submit = _cluster_submit(stack, cluster)
        else:
            # no more processes than the widest level has tasks: a machine of many cores
            # does not start a hundred processes for a level of ten pairs
            widths = [
                sum(pair_name(m) in {pair_name(x) for x in level} for _, m in tasks.values())
                for level in levels
            ]
            workers = max(1, min(jobs, max(widths, default=1)))
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=workers, **pool_options()))
            submit = pool.submit
        for level in levels:
            pairs = {pair_name(m) for m in level}
            running = [
                (kind, material, submit(build_class, *_task(kind, material)))
                for kind, material in tasks.values()
                if pair_name(material) in pairs
            ]
            for kind, material, future in running:
                took = future.result()
                if not kind.in_cache(material):
                    why = (
                        "do the workers share this cache folder and run this version of the "
                        f"project? ({_room(kind.folder(), 2 * kind.size(material))})"
                        if cluster
                        else "it could not be written: "
                        + _room(kind.folder(), 2 * kind.size(material))
                    )
                    raise RulebookError(
                        f"{describe(material)} ({kind.semantics}) is not in this folder after "
                        f"its build: {why}",
                        source=str(kind.folder()),
                    )
                built(material, took, kind)
            if after_level is not None:
                after_level()
    return time.perf_counter() - started


def _task(
    kind: EndgameTables, material: Material
) -> tuple[str, Semantics, int, int, str, Material]:
    return (
        kind.variant.name,
        kind.semantics,
        kind.max_pieces,
        kind.cached_pieces,
        str(kind.cache_dir.resolve()),
        material,
    )


class _Pending(Protocol):
    """A build under way, here or on a cluster (both kinds of future have this)."""

    def result(self) -> float: ...


def _cluster_submit(stack: contextlib.ExitStack, address: str) -> Callable[..., _Pending]:
    client = connect(stack, address)

    def submit(function: Callable[..., float], *arguments: object) -> _Pending:
        pending: _Pending = client.submit(function, *arguments, pure=False)
        return pending

    return submit


def _export(kinds: list[EndgameTables], target: Path) -> int:
    """``--export DIR``: every cached table of both kinds into ``DIR/<folder>/``, checked
    first (a damaged one is not handed on)."""
    faults = 0
    for kind in kinds:
        for problem in kind.verify_files(always=True):
            print(f"damaged, not exported: {problem}", file=sys.stderr)
            faults += 1
        folder = kind.folder()
        files = kind.table_files(folder)
        destination = target / folder.name
        for path in files:
            try:
                kind.copy_table(path, destination)
            except tablefile.DamagedTable as damage:
                print(f"damaged, not exported: {damage}", file=sys.stderr)
                faults += 1
            except OSError as error:  # each copy is whole or absent (a rename at its end)
                raise RulebookError(
                    f"cannot export {path.name}: {error.strerror or error} "
                    f"({_room(destination, path.stat().st_size)}); the tables copied before it "
                    "are whole",
                    source=str(destination),
                ) from None
        packed = sum(path.suffix == compact.SUFFIX for path in files)
        what = f"{len(files) - packed} tables" + (f" and {packed} compact ones" if packed else "")
        print(f"{kind.semantics}: {what} into {destination}", flush=True)
    return 1 if faults else 0


def _prune(kinds: list[EndgameTables]) -> int:
    """``--prune``: delete the folders of this variant's tables that no present kind uses (other
    rules, another format), with their locks; each one named with its size."""
    current = {kind.folder().name for kind in kinds}
    cache = kinds[0].folder().parent
    variant = kinds[0].variant.name
    freed = 0
    for folder in sorted(cache.glob(f"{variant}*")) if cache.is_dir() else []:
        if not folder.is_dir() or not kinds[0].is_table_folder(folder) or folder.name in current:
            continue
        size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
        try:
            shutil.rmtree(folder)
            lock_file(folder).unlink(missing_ok=True)
        except OSError as error:
            raise RulebookError(
                f"cannot delete {folder.name}: {error.strerror or error}",
                source=str(folder.parent),
            ) from None
        shutil.rmtree(locks_folder(folder), ignore_errors=True)
        print(f"deleted {folder} ({size / 1e9:.2f} GB)", flush=True)
        freed += size
    print(f"{variant}: {freed / 1e9:.2f} GB freed; the tables in use are kept", flush=True)
    return 0


def _install(kinds: list[EndgameTables], source: Path) -> int:
    """``--install DIR``: the tables of ``DIR/<folder>/`` (as ``--export`` wrote them) into the
    cache, each checked; exit 1 if any was refused, 2 if none was found."""
    if not source.is_dir():
        raise RulebookError("no such folder", source=str(source))
    found = refused = 0
    for kind in kinds:
        folder = source / kind.folder().name
        if not folder.is_dir():
            continue
        installed, problems = kind.install_from(folder)
        found += len(installed) + len(problems)
        refused += len(problems)
        for problem in problems:
            print(f"refused: {problem}", file=sys.stderr)
        print(f"{kind.semantics}: {len(installed)} tables installed into {kind.folder()}")
    if not found:
        raise RulebookError(
            f"no tables of these rules here (looked for {kinds[0].folder().name}/ and "
            f"{kinds[1].folder().name}/): built by another version of the rules?",
            source=str(source),
        )
    return 1 if refused else 0


def _verify(kinds: list[EndgameTables], classes: list[Material]) -> int:
    """``--verify``: exit 0 when every file and entry checked is sound, 1 at the first fault."""
    faults = 0
    for kind in kinds:
        files = sorted(kind.folder().glob("*.bin"))
        for problem in kind.verify_files(always=True):
            print(f"damaged: {problem}", file=sys.stderr)
            faults += 1
        print(f"{kind.semantics}: {len(files)} files checked against their checksums", flush=True)
    pure = kinds[0]
    entries = 0
    for material in classes:
        if faults or not pure.path(material).is_file():
            continue  # not cached, or compact (no pure distances: checked by checksum only)
        print(f"  {describe(material)}: {pure.size(material):,} slots", file=sys.stderr, flush=True)
        found = pure.first_inconsistency(material)
        if found is not None:
            print(f"inconsistent: {found}", file=sys.stderr)
            faults += 1
        entries += pure.size(material)
    if faults:
        print(
            f"{faults} fault(s) found; a damaged file was moved aside, run 'rulebook tables' "
            "to build it again",
            file=sys.stderr,
        )
        return 1
    print(
        f"pure: every entry of {entries:,} slots agrees with its successors; the tables with "
        "count rules are checked by checksum only (their values depend on the clocks)"
    )
    return 0


def _progress(line: str) -> None:
    """The builder's own progress lines ("tablebuild: slice 12 of 990, 340 s")."""
    print(f"    {line.removeprefix('tablebuild: ')}", file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"
