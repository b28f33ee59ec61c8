"""Results of small endings by retrograde analysis, built by the project and cached on disk.

The proof search (``search.py``) uses these tables as leaves.  A value is the result for the side
to move with a distance in plies under optimal play: the winner makes the game end as soon as it
can, the loser delays as long as it can.  The game ends when the side to move has no legal move
(no pieces, or all blocked): that side has lost (KNDB 2018 art. 8a; Fries Spel art. 20).

Two kinds of table
------------------
*Pure* tables (``semantics="pure"``) apply no rule that counts moves (KNDB art. 9b-d, Fries Spel
art. 18 and 21) and no repetition: a game that never ends is a draw, and the distance is to the
end of the game.  Since those rules only ever turn a game into a draw, a pure draw or loss for
White is certainly no White win: the search closes such nodes as refuted.  A pure *win* may be
one the count rules stop on the way, though: a king and a man against a king in Fries Spel is
often a pure win whose man promotes into two kings against one, which art. 18 then draws after
seven moves (9,322 such positions).

Tables *with count rules* (``semantics="rules"``) give a bound that holds with the rules.  Every
capture and every promotion restarts the counts (a capture always, a promotion because a man
moved; only a promotion inside one International lone-king ending keeps that ending's count), so
a value is the distance to the end of the game *or to the first such conversion* into a position
that is itself won or lost within its fresh count budget (counted as a win in 1 or a loss in 0
there); a conversion into anything else counts as a draw.  Fries Spel art. 21 makes one king
against one a draw at once unless a capture is pending or forced.  A position is then won with
the rules whenever this distance fits the plies its own clocks leave (``plies_left``): the search
closes a node as proved only that way, with the distance as the checker keeps it
(``compact.kept_distance``: whether it fits the class's fresh budget).  The bound is safe, not
exact (a man's move also restarts the 25-move count of art. 9d, which it does not use), so
these tables never refute anything.

Fries Spel art. 17 (a player with kings and men may not make a fourth non-capturing move in a row
with the same king) changes the legal moves, so for Frisian the tables include both sides' king
move counters wherever they matter (the side has kings and men): every covered position is
answered exactly, counters included.

Coverage
--------
Every class of up to 3 pieces (the default ``max_pieces``): about 10 s to build for International
and 20 s for Frisian (the art. 17 counters make its king-and-man classes four times larger), a
few MB on disk.  With ``max_pieces=4`` also the 4-piece classes whose build stays small (see
``EndgameTables.supports``: three kings against a king, two kings against two, three kings
against a man), about 2.5 minutes more per variant and 0.5 GB of memory while building.  The
other 4-piece classes (a king and a man against two men, and so on) take from one to a few
minutes each in pure Python: ``rulebook tables --pieces 4`` builds every one of them once, and
a table made with ``cached_pieces=4`` then uses whatever of them is in the cache.

International tables are built by the compiled builder (``binaries.py``) when a C compiler is at
hand: the same values slot for slot, 30 to 100 times faster.  With it every 4-piece class
takes 25 s, and ``rulebook tables --pieces 5`` builds all 5-piece classes.  Tables with count
rules of 6 pieces are used when they are in the cache without their pure partners
(``CACHED_RULES_PIECES``): ``rulebook tables --pieces 6`` builds the pairs of ``SLICED_PAIRS``
with the compiled builder by slices (``build_by_slices``), and since they never refute, only the
proofs need them.  Benchmarks:
``benchmarks/endgame.py``.

Layout and building
-------------------
Where a position is stored in its class's table is ``index.py``'s; how a table is built,
by retrograde analysis in Python or with the compiled builder, ``retrograde.py``'s; where the
tables are cached and how their files are read, written and checked, ``store.py``'s (with the
file formats of ``tablefile.py``, the built tables, and ``compact.py``, the compact ones).  This
module keeps the meaning of the values, the probes, and which classes are built when: its
``EndgameTables`` hands a pair's build the values of the classes it leads to and keeps what
the build hands back.  Values are one signed 16-bit number per slot: ``plies`` (a win when odd,
a loss when even, since a loss in n is answered by a win in n + 1), ``-1`` for a draw, ``-2``
for an unused slot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path
from typing import Final, Literal

from rulebook_build.cachedir import cache_root, exclusive
from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, retrograde, tablefile
from rulebook_build.engine.tables.index import (
    Layout,
    Material,
    material_name,
    pair_name,
    successor_classes,
)
from rulebook_build.engine.tables.retrograde import DRAW
from rulebook_build.engine.tables.store import Semantics, TableStore, Values
from rulebook_build.errors import RulebookError
from rulebook_build.notation import format_fen
from rulebook_build.rules import Position, RawMove, State, Variant, generate, make

__all__ = [
    "EndgameTables",
    "Material",
    "Outcome",
    "Semantics",
    "Values",
    "default_cache_dir",
    "outcome_of",
    "pair_name",
    "successor_classes",
]

DEFAULT_CACHE_DIR: Path | None = None
"""Where tables are cached when no ``cache_dir`` is given; None: ``endgame/`` in the user's
cache folder (``cachedir.py``)."""


def default_cache_dir() -> Path:
    return DEFAULT_CACHE_DIR or cache_root() / "endgame"


MAX_PAIR_SLOTS: Final = 2_500_000
"""The largest class pair ``EndgameTables`` builds (see ``EndgameTables.supports``)."""

Builder = Literal["auto", "python"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The exact result for the side to move.

    ``plies`` is the distance to the end of the game under optimal play: for ``"win"`` the
    fewest plies in which the side to move can force the opponent into having no move; for
    ``"loss"`` the most plies it can hold out (0: it has no move now); 0 for ``"draw"``.
    """

    result: Literal["win", "loss", "draw"]
    plies: int


DRAWN: Final = Outcome("draw", 0)
LOST_NOW: Final = Outcome("loss", 0)


@cache
def outcome_of(stored: int) -> Outcome:
    """The result a stored int16 value stands for (plies odd: a win, even: a loss; -1 a draw)."""
    if stored == DRAW:
        return DRAWN
    return Outcome("win" if stored & 1 else "loss", stored)


# --------------------------------------------------------------------------- the tables
class EndgameTables:
    """Exact values of every position with at most ``max_pieces`` pieces, built on first use.

    ``probe`` answers any position of a covered class; each class (with the classes it leads
    to) is built the first time it is needed (``retrograde.py``) and then stored under
    ``cache_dir`` (``store``, a ``TableStore``), so that later runs only load it.
    """

    def __init__(
        self,
        variant: Variant,
        *,
        max_pieces: int = 3,
        cache_dir: Path | None = None,
        max_pair_slots: int | None = MAX_PAIR_SLOTS,
        cached_pieces: int = 0,
        builder: Builder = "auto",
        semantics: Semantics = "pure",
    ) -> None:
        """``max_pieces`` and ``max_pair_slots`` bound the classes built on first use (``None``:
        no size bound); classes of up to ``cached_pieces`` pieces beyond those are used only
        when they are already in the cache (``rulebook tables`` builds them), so that a probe
        never starts a build of many minutes.  ``builder="auto"`` builds with the compiled
        builder (``binaries.py``) when a C compiler is at hand, else in Python; ``"python"``
        always uses the Python builder.  ``semantics`` chooses what
        the values mean: ``"pure"`` the game without count rules, ``"rules"`` the bound that
        holds with them (see "Two kinds of table" in the module's text)."""
        if max_pieces < 1:
            raise ValueError("max_pieces must be at least 1")
        self.variant = variant
        self.max_pieces = max_pieces
        self.max_pair_slots = max_pair_slots
        self.cached_pieces = cached_pieces
        self.most_pieces = max(max_pieces, cached_pieces)
        """No class with more pieces has a table (``supports``)."""
        self.cache_dir = default_cache_dir() if cache_dir is None else cache_dir
        self.limit = variant.max_consecutive_king_moves
        self.semantics = semantics
        self.store = TableStore(variant, self.cache_dir, semantics)
        """The files: where they are, reading, writing and checking them."""
        self.builder = builder
        self._native: Path | bool | None = False  # False: not looked for yet
        self._values: dict[Material, Values] = {}
        self._layouts = self.store.layouts
        self._supported: dict[Material, bool] = {}
        self.build_seconds: dict[Material, float] = {}
        """Seconds spent building each class with its partner (the same material, the other side
        to move) in this process; classes loaded from the cache are absent."""

    # ------------------------------------------------------------------ queries
    def covers(self, state: State) -> bool:
        """True when ``probe`` answers ``state`` (few enough pieces, a possible placement)."""
        if not (state[0] | state[1] and state[2] | state[3]):
            return (state[0] | state[1] | state[2] | state[3]).bit_count() <= self.max_pieces
        return self.locate(state) is not None

    def probe(self, state: State) -> Outcome | None:
        """The exact value of ``state`` for the side to move, or None if it is not covered."""
        if not (state[0] | state[1] and state[2] | state[3]):
            return self._trivial(state)
        located = self.locate(state)
        if located is None:
            return None
        material, index = located
        table = self._values.get(material)
        if table is None:
            try:
                table = self.table(material)
            except RulebookError:  # a cached class refused (damaged): done without
                self._supported[material] = False
                return None
        try:
            if self._captures_left(table):
                moves = generate(self.variant, state)
                if moves and moves[0][2]:  # a capture is compulsory: every move captures
                    worked_out = self._from_captures(state, moves)
                    return None if worked_out is None else outcome_of(worked_out)
            return outcome_of(table[index])
        except tablefile.DamagedTable as damage:  # a compact block that does not unpack
            self.refuse(material, str(damage))
            del self._values[material]
            self._supported[material] = False
            return None

    def _captures_left(self, table: Values) -> bool:
        """Whether a class's table leaves the positions that must capture to the reader: a
        compact file in the filled form (``compact.FILLED``)."""
        return isinstance(table, compact.KindView) and getattr(table.table, "filled", False)

    def _from_captures(self, state: State, moves: list[RawMove]) -> int | None:
        """The value a table that kept it would hold for ``state``, whose moves ``moves`` all
        capture, from the values of the positions its captures lead to, as the builder made it:
        the pure kind's by the best capture (a win if one leads to a loss; a loss if every one
        leads to a win; else a draw, distances far as the compact tables keep them); the count
        rules' kind counting each capture a conversion (``retrograde.counted_exit``: a win in 1
        or a loss in 2 where the best capture leads within its fresh budget, else a draw: no
        count-rule result kept).  None where a position led to is not covered."""
        losses = draws = 0
        counted: list[int] = []
        for move in moves:
            child = make(self.variant, state, move)
            outcome = self.probe(child)
            if outcome is None:
                return None
            stored = DRAW if outcome.result == "draw" else outcome.plies
            if stored == DRAW:
                draws += 1
            elif not stored & 1:  # the child loses: a win here
                losses += 1
            # a count-rule draw (or a distance the compact codes do not keep): no conversion
            if self.semantics == "rules" and stored != DRAW:
                counted.append(retrograde.counted_exit(self.variant, state, move, child, stored))
        if self.semantics == "rules":  # counted_exit of a capture: 1, 0 or a draw
            if 0 in counted:
                return 1
            if counted.count(1) == len(moves):
                return 2
            return DRAW  # a compact code 2 or 3: no count-rule result kept
        if losses:
            return compact.FAR_WIN
        if not draws:
            return compact.FAR_LOSS
        return DRAW

    def refuse(self, material: Material, reason: str) -> None:
        """A class's table failed in the middle of a probe: its file is moved aside."""
        tablefile.set_aside(self.store.compact_path(material), reason)

    def probe_rules(self, state: State) -> Outcome | None:
        """The value with the count rules, from tables built with ``semantics="rules"``: None
        from pure tables, which may prove a win the count rules would stop."""
        return self.probe(state) if self.semantics == "rules" else None

    def material_classes(self) -> list[Material]:
        """Every class with a table, in building order (see ``supports``)."""
        found = []
        for total in range(2, max(self.max_pieces, self.cached_pieces) + 1):
            for a, b, c in product(range(total + 1), repeat=3):
                material = (a, b, c, total - a - b - c)
                if material[3] >= 0 and self.supports(material):
                    found.append(material)
        return sorted(found, key=lambda m: (sum(m), m[0] + m[2], m))

    def supports(self, material: Material) -> bool:
        """Whether a class (side to move first) has a table.

        Both sides must have pieces, at most ``max_pieces`` in all, the class and its partner
        together at most ``MAX_PAIR_SLOTS`` slots (a pure-Python build needs about 25 µs and
        250 bytes per slot), and every class its moves lead to must be supported too.  That
        admits every class of up to 3 pieces and, of the 4-piece classes, only three kings
        against a king, two kings against two kings, and three kings against a man.
        """
        known = self._supported.get(material)
        if known is None:
            a, b, c, d = material
            partner = (c, d, a, b)
            known = (
                a + b > 0
                and c + d > 0
                and (self.buildable(material) or self._cached_pair(material))
                and all(
                    self.supports(target)
                    for source in {material, partner}
                    for target in successor_classes(source)
                    if target not in (material, partner)
                )
            )
            self._supported[material] = known
        return known

    def buildable(self, material: Material) -> bool:
        """Whether a class is built on first use (few enough pieces, a small enough pair)."""
        a, b, c, d = material
        if a + b + c + d > self.max_pieces:
            return False
        return self.max_pair_slots is None or self.pair_slots(material) <= self.max_pair_slots

    def _cached_pair(self, material: Material) -> bool:
        """A class beyond the build bounds whose table and partner's are in the cache."""
        a, b, c, d = material
        if a + b + c + d > self.cached_pieces:
            return False
        return self.in_cache(material) and self.in_cache((c, d, a, b))

    def build_all(self) -> None:
        """Build (or load) every class."""
        for material in self.material_classes():
            self.table(material)

    def prepare(self, material: Material) -> bool:
        """Load a class's table, building it (and what it leads to) if needed: True if built."""
        if material in self._values:
            return False
        built_before = len(self.build_seconds)
        self.table(material)
        return len(self.build_seconds) > built_before

    def prepare_missing(
        self,
        materials: list[Material],
        on_built: Callable[[Material, float], None] | None = None,
    ) -> float:
        """Load or build each class; ``on_built(material, seconds)`` after each one built.

        Returns the seconds it all took."""
        started = time.perf_counter()
        for material in materials:
            began = time.perf_counter()
            if self.prepare(material) and on_built is not None:
                on_built(material, time.perf_counter() - began)
        return time.perf_counter() - started

    def pair_slots(self, material: Material) -> int:
        """Slots of a class and its partner together: the measure of its build's time and memory."""
        return retrograde.pair_slots(material, self.limit)

    def stats(self, material: Material) -> dict[str, int]:
        """How many positions of a class are won, lost and drawn for the side to move."""
        counts = {"win": 0, "loss": 0, "draw": 0, "longest": 0}
        for stored in self.table(material):
            if stored == DRAW:
                counts["draw"] += 1
            elif stored >= 0:
                counts["win" if stored & 1 else "loss"] += 1
                counts["longest"] = max(counts["longest"], stored)
        return counts

    # ------------------------------------------------------------------ locating positions
    def _trivial(self, state: State) -> Outcome | None:
        """A position where a side has no pieces: no table needed."""
        if (state[0] | state[1] | state[2] | state[3]).bit_count() > self.max_pieces:
            return None
        if not state[0] | state[1]:
            return LOST_NOW  # KNDB art. 8a / Fries Spel art. 20: no pieces, no move
        # the other side has no pieces (the game is already over, but the value is clear)
        return Outcome("win", 1) if generate(self.variant, state) else LOST_NOW

    def locate(self, state: State) -> tuple[Material, int] | None:
        om, ok, pm, pk = state[:4]
        if (om | ok | pm | pk).bit_count() > self.most_pieces:
            return None  # more pieces than any class ``supports`` (most positions of a search)
        material = (om.bit_count(), ok.bit_count(), pm.bit_count(), pk.bit_count())
        if not self.supports(material):
            return None
        if om & ok or (om | ok) & (pm | pk) or pm & pk:
            return None
        layout = self._layouts.get(material) or self.store.layout(material)
        try:
            index = layout.index(state, self.limit)
        except KeyError:
            return None  # a man on its own promotion row, or a square off the board
        return material, index

    # ------------------------------------------------------------------ building
    def table(self, material: Material) -> Values:
        table = self._values.get(material)
        if table is None:
            table = self._load(material)
            if table is None:
                if not self.buildable(material):
                    raise RulebookError(
                        "unreadable endgame table: delete it, or rebuild it with 'rulebook tables'",
                        source=str(self.store.path(material)),
                    )
                self._build(material)
                table = self._values[material]
            else:
                self._values[material] = table
        return table

    def first_inconsistency(self, material: Material) -> str | None:
        """Check every entry of a pure table against its successors, one retrograde step: a
        position with no move is lost at once; a win in n plies has a move to a loss in n - 1
        and none faster; a loss in n has only moves to wins, the slowest in n - 1; a draw has
        no move to a loss and one to a draw.  The first entry that breaks this, or None.

        Only pure tables (with the count rules a value also depends on the clocks)."""
        if self.semantics != "pure":
            raise ValueError("only pure tables are checked against their successors")
        table = self.table(material)
        layout = self.store.layout(material)
        variant = self.variant
        for _base, placement, own_streaks, other_streaks in layout.placements():
            for own in own_streaks:
                for other in other_streaks:
                    state = (*placement[:5], own, other)
                    stored = outcome_of(table[layout.index(state, self.limit)])
                    wanted = self._from_successors(state)
                    if stored != wanted:
                        position = format_fen(Position.from_state(variant, state))
                        return (
                            f"{material_name(material)}: {position} is stored as "
                            f"{stored.result} in {stored.plies}, its moves make it "
                            f"{wanted.result} in {wanted.plies}"
                        )
        return None

    def _from_successors(self, state: State) -> Outcome:
        moves = generate(self.variant, state)
        if not moves:
            return LOST_NOW
        children = [self.probe(make(self.variant, state, move)) for move in moves]
        if any(child is None for child in children):
            raise RulebookError("a successor of a table's position is not covered by the tables")
        losses = [c.plies for c in children if c is not None and c.result == "loss"]
        if losses:
            return Outcome("win", 1 + min(losses))
        if all(c is not None and c.result == "win" for c in children):
            return Outcome("loss", 1 + max(c.plies for c in children if c is not None))
        return DRAWN

    def native_program(self) -> Path | None:
        """The compiled builder, if this variant and machine can use it."""
        if self.builder != "auto" or self.variant.name not in binaries.VARIANTS:
            return None
        if self._native is False:
            self._native = binaries.executable(self.cache_dir)
        assert self._native is not True
        return self._native

    def _build(self, material: Material) -> None:
        """Build a class and its partner together, after the classes their moves lead to.

        One process at a time builds a pair (the compiled builder's working files are named
        after its classes): a process that waited for another uses what that one built.  The
        classes the pair leads to are built (each under its own lock) while this one is held:
        smaller classes only, so locks are always taken in one order."""
        with exclusive(self.store.folder(), pair_name(material)):
            loaded = self._load(material)
            if loaded is not None:  # another process built it meanwhile
                self._values[material] = loaded
                return
            # the classes that captures and promotions lead to, first (and not while this
            # pair's build holds its memory)
            exits = {target: self.table(target) for target in retrograde.exit_classes(material)}
            built = retrograde.build_pair(self.store, material, exits, self.native_program())
            for member, values in built.values.items():
                self.build_seconds[member] = built.seconds
                self._values[member] = values

    def build_by_slices(
        self, material: Material, on_line: Callable[[str], None] | None = None, *, jobs: int = 1
    ) -> float:
        """Build a class pair with the compiled builder one configuration of the men at a time
        (``tablebuild ... slices``): the 6-piece pairs need up to 27 GB of memory built whole,
        by slices only a few MB beside the output files.  The classes its captures and
        promotions lead to must be in the cache.  Each member's table is written whole or not
        at all; on any failure (or Ctrl-C) nothing of the pair is left behind.  ``on_line``
        gets the builder's progress lines; ``jobs`` processes share the slices.  Returns the
        seconds it took."""
        with exclusive(self.store.folder(), pair_name(material)):
            program = self.native_program()
            seconds = retrograde.build_by_slices(self.store, material, program, on_line, jobs)
        for member in retrograde.members_of(material):
            self.build_seconds[member] = seconds
        return seconds

    # ------------------------------------------------------------------ the files (``store``)
    # for the callers that reach the files through the tables
    def folder(self) -> Path:
        return self.store.folder()

    def is_table_folder(self, folder: Path) -> bool:
        return self.store.is_table_folder(folder)

    def path(self, material: Material) -> Path:
        return self.store.path(material)

    def compact_folder(self) -> Path:
        return self.store.compact_folder()

    def compact_path(self, material: Material) -> Path:
        return self.store.compact_path(material)

    def in_cache(self, material: Material) -> bool:
        return self.store.in_cache(material)

    def fields(self, material: Material) -> dict[str, object]:
        return self.store.fields(material)

    def compact_fields(self, material: Material) -> dict[str, object]:
        return self.store.compact_fields(material)

    def layout(self, material: Material) -> Layout:
        return self.store.layout(material)

    def size(self, material: Material) -> int:
        """Slots in the table of a class (used or not)."""
        return self.store.layout(material).size

    def _load(self, material: Material) -> Values | None:
        return self.store.load(material)

    def table_files(self, folder: Path) -> list[Path]:
        return self.store.table_files(folder)

    def copy_table(self, source: Path, folder: Path | None = None) -> Path:
        return self.store.copy_table(source, folder)

    def install_from(self, folder: Path) -> tuple[list[Path], list[str]]:
        return self.store.install_from(folder)

    def verify_files(self, *, always: bool = False) -> list[str]:
        return self.store.verify_files(always=always)
