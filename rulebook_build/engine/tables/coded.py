"""The Fries Spel 5-piece classes built straight into compact files, through build codes.

``rulebook tables --variant frisian --pieces 5 --pack`` (and ``rulebook check --table-pieces 5``)
builds them so (:func:`build_packed`).  They are 35.5 billion slots of both kinds: 71 GB as the
int16 tables the other classes are built as, and the two largest pairs (1m1k v 1m2k and 2m1k v
1m1k, whose art. 17 runs multiply their positions by up to 28) keep any order of building such
tables above 42 GB of disk.  A parent's build needs less of a child than its int16 value:

* its result, where the count-rule distance does not count: in every pure build, and with the
  count rules in Fries Spel, whose captures and promotions start every count afresh (but in
  art. 18's ending, of three kings, built as int16 with the smaller classes);
* what its compact code keeps, to pack it (``compact.py``): where no count runs, as in every
  5-piece class, the pure result and whether the count-rule distance is within ``compact.CAP``.

So each pair is built with ``tablebuild ... codes`` (``compact.build_code``), the kind with the
count rules first: its codes, one byte a slot with the distance within the cap (a man's move
inside the pair carries it), are the largest file of a build, and nothing else of the pair is
on disk while they are.  They are then kept as *kept codes*, half a byte a slot, in place
(:data:`KEPT`, ``pack kept``), and the pure kind is built writing its results alone, two bits a
slot (:data:`RESULTS`, ``tablebuild ... codes results``).  A class is packed as soon as both
its kinds are built (``CheckerTables.pack_build_codes``), in the filled form
(``compact.FILLED``: a third of the bytes), beside the builds that follow; then of each kind
only the results the builds still to come read are kept, and each file goes as soon as none
does.  Of a pure table built from results only the results are the true ones
(``native/tablebuild.c`` ``code_of``), and only they are kept.

The disk holds at most about the largest pair's count-rule codes (6.9 GB) beside the int16
tables of up to 4 pieces and the results the rest still needs (``benchmarks/README.md``).  The
pairs too large to build whole, and those whose slices are large (``SLICE_FROM``), are built by
slices, one at a time, with every core; the others ``jobs`` at a time, the largest first.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Final

from rulebook_build.cachedir import exclusive
from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, retrograde
from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.engine.tables.index import Material, material_name, pair_name
from rulebook_build.engine.tables.kinds import CheckerTables, build_levels
from rulebook_build.errors import RulebookError
from rulebook_build.rules import fresh_plies

CODES: Final = ".code"
"""A class's build codes, one byte a slot (``compact.build_code``), as a count-rule build wrote
them."""
RESULTS: Final = ".wdl"
"""A class's results, two bits a slot (``native/pack.c results``), as a pure build writes them."""
KEPT: Final = ".kept"
"""A class's count-rule codes as its compact code keeps them, half a byte a slot (``pack kept``):
the result, and whether its distance is within ``compact.CAP``."""
KEEPING: Final = ".keeping"
"""Build codes being turned into kept codes in place: a file left so holds neither, and the
pair's count-rule kind is built again."""


def build_packed(
    tables: CheckerTables,
    materials: Sequence[Material],
    *,
    jobs: int,
    on_built: Callable[[Material, float, EndgameTables], None],
    on_packed: Callable[[Material, int], None],
) -> float:
    """Build ``materials`` (5-piece classes of ``tables``' variant, each with its partner) into
    compact files in the cache, through build codes; the classes of fewer pieces must be built
    (int16).  ``on_built`` after each pair and kind (the seconds it took), ``on_packed`` after
    each class packed (the compact file's bytes).  A run stopped midway goes on where it was:
    the codes and results of the pairs already built are kept until their classes are packed
    and no class still to be built leads to them.  The seconds it all took."""
    started = time.perf_counter()
    program = tables.pure.native_program()
    if program is None:
        raise RulebookError("the 5-piece classes need the compiled table builder")
    kinds = (tables.pure, tables.rules)
    levels = build_levels(sorted(set(materials)))
    pairs = [m for level in levels for m in level]
    members = {m for pair in pairs for m in retrograde.members_of(pair)}
    counted = [m for m in members if fresh_plies(tables.variant, m) is not None]
    if counted:  # a kept code keeps no distance a count could run into (pack kept)
        raise RulebookError(
            f"{material_name(counted[0])}: a count runs there, and build codes keep too little"
        )
    for member in members:  # a count-rule kind left midway to kept codes: built again
        (tables.rules.folder() / f"{material_name(member)}{KEEPING}").unlink(missing_ok=True)
    exits = {pair: set(retrograde.exit_classes(pair)) for pair in pairs}
    pending = {
        (kind.semantics, pair)
        for pair in pairs
        for kind in kinds
        if not all(_kept(tables, kind, m) for m in retrograde.members_of(pair))
    }
    lock = threading.Lock()  # pending and the files, between the builds and the packing

    def needed(semantics: str, material: Material) -> bool:
        """Whether a build still to come (or under way) reads ``material`` of this kind."""
        return any(s == semantics and material in exits[pair] for s, pair in pending)

    def settle(pair: Material) -> None:
        """Pack the pair's classes whose kinds are both built, and let go of every file no
        build still to come needs."""
        with lock:  # a kind still being built (or to be): its files are not finished
            building = any((kind.semantics, pair) in pending for kind in kinds)
        for member in [] if building else retrograde.members_of(pair):
            if tables.pure.compact_path(member).is_file() or not all(
                _kept(tables, kind, member) for kind in kinds
            ):
                continue
            name = material_name(member)
            for kind in kinds:  # a build of an earlier run, in the form it left it
                if (kind.folder() / f"{name}{CODES}").is_file():
                    (_to_kept if kind is tables.rules else _to_results)(kind, member)
            pure = tables.pure.folder() / f"{name}{RESULTS}"
            rules = _file(tables.rules, member, (KEPT, RESULTS))
            if rules.suffix == RESULTS:  # packed and let go of by an earlier run: never here
                raise RulebookError(f"{name}: its count-rule codes are gone", source=str(rules))
            with exclusive(tables.pure.folder(), pair_name(member)):
                try:
                    size = tables.pack_build_codes(member, pure, rules, marked=True)
                except OSError as error:  # its codes stay: the next run packs it
                    raise _unwritten(tables.pure.compact_path(member), error) from None
            on_packed(member, size)
            # the rest of the pair is packed with this one's files gone (a class's rules codes
            # are half a byte a slot: the next one's results take less)
            let_go(member)
        for member in members:
            let_go(member)

    def let_go(member: Material) -> None:
        """Of a packed class, keep the results the builds to come still need, and no more."""
        if not tables.pure.compact_path(member).is_file():
            return
        name = material_name(member)
        for kind in kinds:
            with lock:
                wanted = needed(kind.semantics, member)
            if not wanted:
                for suffix in (CODES, KEPT, RESULTS):
                    (kind.folder() / f"{name}{suffix}").unlink(missing_ok=True)
            elif not (kind.folder() / f"{name}{RESULTS}").is_file():
                _to_results(kind, member)

    def build(kind: EndgameTables, pair: Material, slices: bool) -> float:
        began = time.perf_counter()
        rules = kind.semantics == "rules"
        with exclusive(kind.folder(), pair_name(pair)):
            binaries.build_pair(
                program,
                kind.folder(),
                pair,
                retrograde.progress_of(pair) if slices else None,
                rules=rules,
                frisian=True,
                codes=True,
                results=not rules,  # a pure build's codes are its results
                marked=rules,  # the positions that must capture, for packing
                slices=slices,
                jobs=max(1, min(jobs, binaries.MAX_SLICE_JOBS)) if slices else 1,
            )
            for member in retrograde.members_of(pair):
                name = material_name(member)
                body = kind.folder() / f"{name}.body"
                body.replace(kind.folder() / f"{name}{CODES if rules else RESULTS}")
        return time.perf_counter() - began

    def finish(kind: EndgameTables, pair: Material, seconds: float) -> None:
        """A pair's kind built: its count-rule codes kept as kept codes, then the pair packed
        if its other kind is built too."""
        if kind is tables.rules:
            for member in retrograde.members_of(pair):
                _to_kept(kind, member)
        with lock:
            pending.discard((kind.semantics, pair))
        on_built(pair, seconds, kind)
        packing.append(packer.submit(settle, pair))

    # Beside the builds, one thread keeps each count-rule build's codes as kept codes (the next
    # build, the pure kind of a large pair, starts at once: its results grow by a tenth of its
    # 1.7 GB while they shrink by half), and one packs (zlib and pack on one core).  The builds
    # of a level read their exits' results or kept codes, whichever is there.
    with ThreadPoolExecutor(max_workers=1) as packer, ThreadPoolExecutor(max_workers=1) as keeper:
        # a run stopped between a build and its packing: packed now
        packing: list[Future[None]] = [packer.submit(settle, pair) for pair in pairs]
        finishing: list[Future[None]] = []
        for level in levels:
            for done in finishing:  # this level reads the last one's kept codes
                done.result()
            tasks = [
                (kind, pair)
                for pair in sorted(level, key=lambda m: -tables.pure.pair_slots(m))
                # the count rules first: their codes, a byte a slot, are on disk alone
                for kind in (tables.rules, tables.pure)
                if (kind.semantics, pair) in pending
            ]
            sliced = [t for t in tasks if _sliced(tables, t[1])]
            for kind, pair in sliced:  # one at a time, on every core
                seconds = build(kind, pair, True)
                finishing.append(keeper.submit(finish, kind, pair, seconds))
            whole = [t for t in tasks if not _sliced(tables, t[1])]
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                running = {
                    pool.submit(build, kind, pair, False): (kind, pair) for kind, pair in whole
                }
                for future in as_completed(running):
                    kind, pair = running[future]
                    finishing.append(keeper.submit(finish, kind, pair, future.result()))
        for done in finishing:
            done.result()
        for settled in packing:
            settled.result()
    return time.perf_counter() - started


SLICE_FROM: Final = 100_000
"""A pair with men whose slice (a placement of the men: every placement of the kings, with every
art. 17 run) has at least this many positions is built by slices, one pair at a time on every
core; the others whole, ``jobs`` at once (and every pair too large to build whole by slices).
A slice that large stays in the processor's caches: 0m2k v 1m2k took 122 s for both kinds by
slices, 153 s whole (the two kinds side by side); one of a few thousand positions or fewer costs
more than it saves (2m v 2m1k, 200 positions a slice: 227 s by slices, 37 s whole;
benchmarks/results/frisian-5-coded.txt).  The values are the same either way."""


def _sliced(tables: CheckerTables, pair: Material) -> bool:
    """Whether a pair is built by slices (``SLICE_FROM``)."""
    if len(retrograde.members_of(pair)) != 2 or not pair[0] + pair[2]:
        return False  # its own partner, or no men: one slice
    if tables.pure.pair_slots(pair) > retrograde.WHOLE_PAIR_SLOTS:
        return True
    layout = tables.pure.layout(pair)
    kings = len(layout.groups[1].sets) * len(layout.groups[3].sets)
    return kings * layout.own_counters * layout.other_counters >= SLICE_FROM


def _file(
    kind: EndgameTables, material: Material, suffixes: Sequence[str] = (RESULTS, KEPT, CODES)
) -> Path:
    """A class's file of this kind, the first of ``suffixes`` the folder holds (the last if
    none)."""
    paths = [kind.folder() / f"{material_name(material)}{suffix}" for suffix in suffixes]
    return next((path for path in paths if path.is_file()), paths[-1])


def _kept(tables: CheckerTables, kind: EndgameTables, material: Material) -> bool:
    """Whether a class of this kind is built: packed, or its codes or results in the folder."""
    return tables.pure.compact_path(material).is_file() or _file(kind, material).is_file()


def _to_kept(kind: EndgameTables, material: Material) -> None:
    """Keep a class's count-rule codes as kept codes only (half the bytes, ``pack kept``), in
    place, under another name while it is done."""
    pack = binaries.executable(kind.cache_dir, binaries.PACK_SOURCE)
    if pack is None:
        raise RulebookError("keeping codes needs the compiled pack program")
    codes = kind.folder() / f"{material_name(material)}{CODES}"
    keeping = codes.with_suffix(KEEPING)
    codes.replace(keeping)
    try:
        compact.write_kept(pack, keeping, kind.size(material))
    except compact.Disagreement as fault:
        raise RulebookError(f"not build codes: {fault}", source=str(keeping)) from None
    keeping.replace(codes.with_suffix(KEPT))


def _to_results(kind: EndgameTables, material: Material) -> None:
    """Keep a class's codes or kept codes of this kind as its results only (a quarter of the
    bytes of the codes)."""
    pack = binaries.executable(kind.cache_dir, binaries.PACK_SOURCE)
    if pack is None:
        raise RulebookError("keeping results needs the compiled pack program")
    codes = _file(kind, material, (KEPT, CODES))
    results = kind.folder() / f"{material_name(material)}{RESULTS}"
    try:
        compact.write_results(pack, codes, results, kind.size(material))
    except OSError as error:  # the codes stay: the next run keeps them as results
        raise _unwritten(results, error) from None
    except compact.Disagreement as fault:
        raise RulebookError(f"not build codes: {fault}", source=str(codes)) from None
    codes.unlink()


def _unwritten(path: Path, error: OSError) -> RulebookError:
    """A file of the build that could not be written, said with the room left beside it."""
    try:
        free = f"; {shutil.disk_usage(path.parent).free / 1e9:,.1f} GB free there"
    except OSError:
        free = ""
    return RulebookError(
        f"cannot write {path.name}: {error.strerror or error}{free} (the build needs some 9 GB "
        "at its peak; what is built is kept, and the same command goes on from there)",
        source=str(path),
    )
