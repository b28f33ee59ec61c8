"""Building the endgame tables by retrograde analysis, one class pair at a time.

A class is built together with its partner (the same material with the sides exchanged), since a
quiet move leads from one to the other; captures and promotions lead to classes with fewer pieces
or fewer men, which are built (or loaded) first.  The forward moves of every position come from
``movegen`` (so the tables follow exactly the rules the rest of the project plays), the graph is
inverted once, and values are assigned by increasing distance from a bucket queue: a position one
of whose moves reaches a loss in d is a win in d + 1 (the first time it is met is the shortest),
and a position all of whose moves reach wins is a loss in 1 + the longest of them.  What is never
reached is a draw.

The compiled builder (``native/tablebuild.c``, run through ``binaries.py``) does the same, slot for
slot, 30 to 100 times faster, and can build a pair one configuration of the men at a time
(``build_by_slices``).  What the values mean (pure, or with the count rules) is ``endgame.py``'s,
where they are stored ``store.py``'s: the functions here write what they build through a
``TableStore``, are given the values of the classes a pair's captures and promotions lead to,
and hand back what they built (``Built``); they never call the probes.
"""

from __future__ import annotations

import shutil
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, tablefile
from rulebook_build.engine.tables.index import (
    LAST_PROMOTION_BIT,
    Material,
    Placement,
    class_slots,
    material_name,
    streak_part,
    successor_classes,
)
from rulebook_build.engine.tables.store import TableStore, Values
from rulebook_build.errors import RulebookError
from rulebook_build.rules import (
    NO_STREAK,
    RawMove,
    State,
    Variant,
    generate,
    initial_clocks,
    lone_king_ending,
    make,
    one_king_each_is_drawn,
    plies_left,
)
from rulebook_build.rules import piece_counts as counts_of

DRAW: Final = -1
"""The stored value of a draw."""
WHOLE_PAIR_SLOTS: Final = 1_000_000_000
"""The largest pair the compiled builder builds whole: it needs some 6 bytes of memory a slot
while it builds (6 GB here, and ``rulebook tables --jobs 2`` builds two pairs at once).  A
larger pair is built by slices (``build_by_slices``): the same values, slot for slot, in a few
hundred MB beside the files.  Of the classes of up to five pieces only two Fries Spel pairs are
larger, 1m1k v 2m1k (3.6 billion slots) and 1m1k v 1m2k (6.9 billion)."""
PROGRESS_SECONDS: Final = 60
"""A pair built by slices inside ``build_pair`` reports its slices this often on standard error."""
UNUSED: Final = -2
"""The stored value of a slot no position has (two pieces on one square)."""


def counted_exit(variant: Variant, state: State, move: RawMove, child: State, stored: int) -> int:
    """The value a capture or promotion leads to, as the tables with count rules count it.

    ``stored`` is the child's own value with count rules, a distance from fresh clocks.  A
    capture or promotion starts every count afresh, except a promotion inside one
    International lone-king ending, whose count goes on (KNDB art. 9b-c): there the distances
    simply add up.  Otherwise the child is a win or a loss only if it comes within the fresh
    budget of its counts, and then it is a conversion: 1 for a win of the child's side to move,
    0 for a loss (a longer distance than the true one, which only makes a bound safer).
    """
    if not move[2] and variant.max_consecutive_king_moves is None:
        ending = lone_king_ending(counts_of(child))
        if ending is not None and ending == lone_king_ending(counts_of(state)):
            return stored
    budget = plies_left(variant, initial_clocks(variant, child))
    if budget is not None and stored > budget:
        return DRAW
    return 1 if stored & 1 else 0


@dataclass(frozen=True, slots=True)
class Built:
    """A class pair just built and stored: each member's values as the probes read them, and
    the seconds the build took."""

    values: dict[Material, Values]
    seconds: float


def members_of(material: Material) -> list[Material]:
    """A class and its partner (the same material, the other side to move), built together;
    one class when it is its own partner."""
    a, b, c, d = material
    return [material] if (c, d, a, b) == material else [material, (c, d, a, b)]


def pair_slots(material: Material, limit: int | None) -> int:
    """Slots of a class and its partner together: the measure of its build's time and memory."""
    return sum(class_slots(member, limit) for member in members_of(material))


def exit_classes(material: Material) -> list[Material]:
    """The classes that the captures and promotions of a pair lead to, in the order they are
    built (or loaded) before it."""
    members = members_of(material)
    found: dict[Material, None] = {}
    for member in members:
        for target in sorted(successor_classes(member)):
            if target not in members:
                found[target] = None
    return list(found)


def needed_for(materials: Iterable[Material]) -> set[Material]:
    """Every class of the pairs of ``materials`` and every class their captures and promotions
    lead to, and theirs in turn: what must be built for them to be built."""
    found: set[Material] = set()
    waiting = list(materials)
    while waiting:
        for member in members_of(waiting.pop()):
            if member not in found:
                found.add(member)
                waiting.extend(exit_classes(member))
    return found


def build_pair(
    store: TableStore,
    material: Material,
    exit_tables: Mapping[Material, Values],
    program: Path | None,
) -> Built:
    """Build a class and its partner and store them, given the values of every class of
    ``exit_classes``: with the compiled ``program`` where it can, else in Python."""
    members = members_of(material)
    for target, values in exit_tables.items():
        if isinstance(values, compact.KindView):  # no pure distances: a parent needs them
            raise RulebookError(
                f"cannot build {material_name(material)}: the class it leads to, "
                f"{material_name(target)}, is in the cache only in compact form, which "
                "keeps no pure distances; 'rulebook tables --pieces "
                f"{sum(target)}' builds it in full",
                source=str(store.compact_path(target)),
            )
    if (
        program is not None
        and len(members) == 2
        and pair_slots(material, store.limit) > WHOLE_PAIR_SLOTS
    ):
        # the builder maps the exit tables itself
        seconds = build_by_slices(
            store, material, program, progress_of(material), binaries.machine_cores()
        )
        return Built({member: _read_back(store, member) for member in members}, seconds)
    if program is not None:
        built = _build_native(store, program, members)
        if built is not None:
            return built
    return _build_in_python(store, material, members, exit_tables)


def _read_back(store: TableStore, member: Material) -> Values:
    """A class's table that a build by slices has just installed in the cache, as the probes
    read it (mapped from its file, its checksum checked)."""
    loaded = store.load(member)
    if loaded is None:
        raise RulebookError(
            f"the table just built for {material_name(member)} cannot be read back",
            source=str(store.path(member)),
        )
    return loaded


def _kept(store: TableStore, member: Material, table: Values, *, mapped: bool = False) -> Values:
    """Store a class's table just built and return it for the probes: as built, or, with
    ``mapped``, mapped from the file just written (a large table is then not held in memory
    twice)."""
    store.write(member, table)
    return (store.load(member) if mapped else None) or table


def progress_of(material: Material) -> Callable[[str], None]:
    """Writes the builder's slice lines on standard error, one every ``PROGRESS_SECONDS``: a
    pair by slices may take an hour."""
    last = [time.monotonic()]

    def line(text: str) -> None:
        if "slice" in text and time.monotonic() - last[0] >= PROGRESS_SECONDS:
            last[0] = time.monotonic()
            said = text.removeprefix("tablebuild: ")
            print(f"  {material_name(material)}: {said}", file=sys.stderr, flush=True)

    return line


def _build_in_python(
    store: TableStore,
    material: Material,
    members: list[Material],
    exit_tables: Mapping[Material, Values],
) -> Built:
    started = time.perf_counter()
    layouts = {member: store.layout(member) for member in members}
    offsets = {material: 0}
    if len(members) == 2:
        offsets[members[1]] = layouts[material].size
    total = sum(layout.size for layout in layouts.values())

    variant = store.variant
    limit = store.limit
    # with the count rules, Fries Spel art. 21 makes most of one king against one a draw
    drawn_at_once = (
        store.semantics == "rules"
        and variant.max_consecutive_king_moves is not None
        and material == (0, 1, 0, 1)
    )
    values = [UNUSED] * total
    remaining = [0] * total  # moves not yet known to lead to a win for the opponent
    longest = [0] * total  # 1 + the longest of those wins: the loss distance once all are
    predecessors: list[list[int]] = [[] for _ in range(total)]
    buckets: dict[int, list[int]] = {}

    for member in members:
        layout, offset = layouts[member], offsets[member]
        own_counters, other_counters = layout.own_counters, layout.other_counters
        own_king_count = member[1]
        partner = (member[2], member[3], member[0], member[1])
        partner_offset = offsets[partner]
        # positions are enumerated with White to move, so their children have Black to move
        child_placement = layouts[partner].placement_black
        for base, state, own_streaks, other_streaks in layout.placements():
            own_men, own_kings, other_men, other_kings = state[:4]
            free_moves = generate(variant, state)
            # a quiet move that does not promote stays in the partner class; captures and
            # promotions leave the pair for a class already built
            quiet: list[tuple[RawMove, int, int]] = []
            leaving: list[RawMove] = []
            for move in free_moves:
                origin = move[0]
                if move[2] or (move[1] <= LAST_PROMOTION_BIT and own_men >> origin & 1):
                    leaving.append(move)
                    continue
                # the child as ``make`` would return it, its counters aside (see below)
                moved = 1 << origin | 1 << move[1]
                king_rank = -1  # the rank of a moved king in the child's frame
                child: Placement
                if own_kings >> origin & 1:
                    kings_after = own_kings ^ moved
                    child = (other_men, other_kings, own_men, kings_after)
                    if own_counters > 1:
                        below = (kings_after & ((1 << move[1]) - 1)).bit_count()
                        king_rank = own_king_count - 1 - below
                else:
                    child = (other_men, other_kings, own_men ^ moved, own_kings)
                quiet.append((move, partner_offset + child_placement(child), king_rank))
            for own_digit, own_streak in enumerate(own_streaks):
                own_quiet, own_leaving = quiet, leaving
                if limit is not None and own_streak[0] >= limit:
                    # Fries Spel art. 17: that king may not make a fourth quiet move in a row
                    allowed = set(generate(variant, (*state[:5], own_streak, NO_STREAK)))
                    own_quiet = [entry for entry in quiet if entry[0] in allowed]
                    own_leaving = [move for move in leaving if move in allowed]
                for other_digit, other_streak in enumerate(other_streaks):
                    node = offset + base + own_digit * other_counters + other_digit
                    values[node] = DRAW
                    if drawn_at_once and one_king_each_is_drawn(variant, state):
                        continue  # Fries Spel art. 21: a draw now, whatever follows
                    if not own_quiet and not own_leaving:
                        buckets.setdefault(0, []).append(node)  # no move: lost (art. 8a/20)
                        continue
                    remaining[node] = len(own_quiet) + len(own_leaving)
                    # the child's mover is the other side, with its counter unchanged
                    carried = 0
                    if other_digit:
                        assert limit is not None
                        carried = streak_part(other_streak, state[3], False, limit)
                        carried *= own_counters
                    for move, child_base, king_rank in own_quiet:
                        if king_rank < 0:
                            predecessors[child_base + carried].append(node)
                        else:
                            # Fries Spel art. 17, counted as ``make`` counts it: the counter
                            # goes on if the same king moves again, else starts at one
                            count = own_streak[0] + 1 if own_streak[1] == move[0] else 1
                            digit = 1 + (count - 1) * own_king_count + king_rank
                            predecessors[child_base + carried + digit].append(node)
                    if own_leaving:
                        best_win = _leave(
                            store,
                            variant,
                            (*state[:5], own_streak, other_streak),
                            own_leaving,
                            node,
                            remaining,
                            longest,
                            exit_tables,
                        )
                        if best_win:
                            buckets.setdefault(best_win, []).append(node)
                            continue
                    if not remaining[node]:
                        buckets.setdefault(longest[node], []).append(node)

    distance = 0
    while buckets:
        queue = buckets.pop(distance, [])
        for node in queue:
            if values[node] != DRAW:
                continue
            values[node] = distance
            if distance & 1:  # a win: its predecessors lose one more of their moves
                for parent in predecessors[node]:
                    if values[parent] != DRAW:
                        continue
                    remaining[parent] -= 1
                    if distance + 1 > longest[parent]:
                        longest[parent] = distance + 1
                    if not remaining[parent]:
                        buckets.setdefault(longest[parent], []).append(parent)
            else:  # a loss: its predecessors win in one more
                later = buckets.setdefault(distance + 1, [])
                for parent in predecessors[node]:
                    if values[parent] == DRAW:
                        later.append(parent)
        distance += 1

    seconds = time.perf_counter() - started
    kept = {}
    for member in members:
        offset, size = offsets[member], layouts[member].size
        kept[member] = _kept(store, member, array("h", values[offset : offset + size]))
    return Built(kept, seconds)


def _build_native(store: TableStore, program: Path, members: list[Material]) -> Built | None:
    """Build a pair with the compiled builder; None if its inputs are not on disk."""
    folder = store.path(members[0]).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    for member in members:
        for target in successor_classes(member):
            if target not in members and not store.path(target).is_file():
                return None  # e.g. a read-only cache: the Python builder needs no files
    started = time.perf_counter()
    try:
        binaries.build_pair(
            program,
            folder,
            members[0],
            rules=store.semantics == "rules",
            frisian=store.variant.name == "frisian",
        )
    except BaseException:
        # a failed build (a full disk) may have written one member's values, or part of
        # them: nothing is left for a later run to take for a table
        for member in members:
            for suffix in (".body", ".body.part"):
                (folder / f"{material_name(member)}{suffix}").unlink(missing_ok=True)
        raise
    seconds = time.perf_counter() - started
    kept = {}
    for member in members:
        body_path = folder / f"{material_name(member)}.body"
        try:
            body = body_path.read_bytes()
            body_path.unlink()
        except OSError as error:
            raise RulebookError(f"the endgame table builder left no table: {error}") from error
        table = array("h")
        table.frombytes(body)
        if sys.byteorder == "big":
            table.byteswap()
        if len(table) != store.layout(member).size:
            raise RulebookError(
                f"the endgame table builder wrote {len(table)} slots for "
                f"{material_name(member)}, not {store.layout(member).size}"
            )
        kept[member] = _kept(store, member, table, mapped=True)
    return Built(kept, seconds)


def _leave(
    store: TableStore,
    variant: Variant,
    state: State,
    moves: list[RawMove],
    node: int,
    remaining: list[int],
    longest: list[int],
    exit_tables: Mapping[Material, Values],
) -> int:
    """Look up the captures and promotions of ``state`` in the classes they lead to.

    Counts the wins for the opponent in ``remaining``/``longest``; returns the shortest win
    for the side to move among these moves, or 0.
    """
    best_win = 0
    for move in moves:
        child = make(variant, state, move)
        if not child[0] | child[1]:
            return 1  # the mover took the last piece: the opponent has lost at once
        target = _material_of(child)
        stored = exit_tables[target][store.layout(target).index(child, store.limit)]
        if store.semantics == "rules" and stored >= 0:
            stored = counted_exit(variant, state, move, child, stored)
        if stored == DRAW:
            continue
        if stored & 1:  # a win for the opponent
            remaining[node] -= 1
            if stored + 1 > longest[node]:
                longest[node] = stored + 1
        elif not best_win or stored + 1 < best_win:
            best_win = stored + 1
    return best_win


def _material_of(state: State) -> Material:
    """The class of a position (side to move first)."""
    return (
        state[0].bit_count(),
        state[1].bit_count(),
        state[2].bit_count(),
        state[3].bit_count(),
    )


def build_by_slices(
    store: TableStore,
    material: Material,
    program: Path | None,
    on_line: Callable[[str], None] | None,
    jobs: int,
) -> float:
    """Build a class pair with the compiled ``program`` one configuration of the men at a time
    (``tablebuild ... slices``), see ``EndgameTables.build_by_slices``; ``jobs`` processes share
    it, ``binaries.MAX_SLICE_JOBS`` at most.  The seconds it took."""
    a, b, c, d = material
    partner = (c, d, a, b)
    if partner == material:
        raise RulebookError(f"{material_name(material)} is its own partner: build it whole")
    if program is None:
        raise RulebookError(
            f"building {material_name(material)} by slices needs the compiled table builder "
            "(a C compiler)"
        )
    members = [material, partner]
    folder = store.folder()
    for member in members:
        for target in sorted(successor_classes(member)):
            if target not in members and not store.path(target).is_file():
                raise RulebookError(
                    f"build {material_name(target)} first: {material_name(member)} leads to it",
                    source=str(store.path(target)),
                )
    sizes = [2 * store.layout(member).size for member in members]
    needed = sum(sizes) + max(sizes)  # the bodies, and one table being written beside them
    free = shutil.disk_usage(folder).free
    if free < needed:
        raise RulebookError(
            f"building {material_name(material)} needs {needed / 1e9:.1f} GB of free disk, "
            f"{free / 1e9:.1f} GB are free",
            source=str(folder),
        )
    started = time.perf_counter()
    parts = [
        folder / f"{material_name(member)}{suffix}"
        for member in members
        for suffix in (".body", ".body.part")
    ]
    installed: list[Path] = []
    try:
        binaries.build_pair(
            program,
            folder,
            material,
            on_line,
            rules=store.semantics == "rules",
            frisian=store.variant.name == "frisian",
            slices=True,
            jobs=max(1, min(jobs, binaries.MAX_SLICE_JOBS)),
        )
        for member, size in zip(members, sizes, strict=True):
            _install_body(store, member, size)
            installed.append(store.path(member))
    except BaseException:
        for table in installed:  # a class without its partner is no use to anyone
            table.unlink(missing_ok=True)
        raise
    finally:
        for leftover in parts:
            leftover.unlink(missing_ok=True)
    return time.perf_counter() - started


def _install_body(store: TableStore, member: Material, size: int) -> None:
    """Write the builder's ``.body`` of a class as its table file, with its header, without
    holding it in memory (a 6-piece class has up to 5.5 GB)."""
    body = store.path(member).with_suffix(".body")
    if not body.is_file() or body.stat().st_size != size:
        raise RulebookError(
            f"the endgame table builder left no complete table for {material_name(member)}",
            source=str(body),
        )
    try:
        tablefile.install(body, store.path(member), store.fields(member))
        body.unlink()
    except OSError as error:
        raise RulebookError(
            f"cannot write the table of {material_name(member)}: {error.strerror or error}",
            source=str(store.path(member)),
        ) from error
