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
closes a node as proved only that way.  The bound is safe, not exact (a man's move also restarts
the 25-move count of art. 9d, which it does not use), so these tables never refute anything.

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

International tables are built by the compiled builder (``native.py``) when a C compiler is at
hand: the same values slot for slot, 30 to 100 times faster.  With it every 4-piece class
takes 25 s, and ``rulebook tables --pieces 5`` builds all 5-piece classes.  Tables with count
rules of 6 pieces are used when they are in the cache without their pure partners
(``CACHED_RULES_PIECES``): ``rulebook tables --pieces 6`` builds the pairs of ``SLICED_PAIRS``
with the compiled builder by slices (``build_by_slices``), and since they never refute, only the
proofs need them.  Benchmarks:
``benchmarks/endgame.py``.

Layout
------
A *material class* is (mover's men, mover's kings, other side's men, other side's kings).  A
position is stored once, seen from the side to move: positions with Black to move are turned
round (square s -> 51 - s, colours swapped: the relation of ``Position.mirrored``), which halves
the work.  Inside a class every position has a perfect index, a mixed-radix number made of the
combinatorial rank of each group of like pieces (men of the mover on its 45 possible squares,
kings on 50, ...) and, for Frisian, the king move counters; slots where two groups overlap are
unused.  Values are one signed 16-bit number per slot: ``plies`` (a win when odd, a loss when
even, since a loss in n is answered by a win in n + 1), ``-1`` for a draw, ``-2`` for an unused
slot.

Build
-----
A class is built together with its partner (the same material with the sides exchanged), since a
quiet move leads from one to the other; captures and promotions lead to classes with fewer pieces
or fewer men, which are built (or loaded) first.  The forward moves of every position come from
``movegen`` (so the tables follow exactly the rules the rest of the project plays), the graph is
inverted once, and values are assigned by increasing distance from a bucket queue: a position one
of whose moves reaches a loss in d is a win in d + 1 (the first time it is met is the shortest),
and a position all of whose moves reach wins is a loss in 1 + the longest of them.  What is never
reached is a draw.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import re
import shutil
import sys
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from math import comb
from pathlib import Path
from typing import Final, Literal

from rulebook_build.cachedir import cache_root, exclusive
from rulebook_build.checker import compact, native, tablefile
from rulebook_build.errors import RulebookError
from rulebook_build.notation.fen import format_fen
from rulebook_build.rules import board as board_module
from rulebook_build.rules import drawrules as drawrules_module
from rulebook_build.rules import movegen as movegen_module
from rulebook_build.rules import variants as variants_module
from rulebook_build.rules.board import BIT_OF_SQUARE, Bitboard
from rulebook_build.rules.drawrules import (
    initial_clocks,
    lone_king_ending,
    one_king_each_is_drawn,
    plies_left,
)
from rulebook_build.rules.drawrules import material as counts_of
from rulebook_build.rules.movegen import NO_STREAK, RawMove, State, Streak, generate, make
from rulebook_build.rules.position import Position
from rulebook_build.rules.variants import Variant, find_variant

FORMAT: Final = 2
"""Bump when the layout or the meaning of the stored values changes (2: a checksum in the
header, ``tablefile.py``)."""

DEFAULT_CACHE_DIR: Path | None = None
"""Where tables are cached when no ``cache_dir`` is given; None: ``endgame/`` in the user's
cache folder (``cachedir.py``)."""


def default_cache_dir() -> Path:
    return DEFAULT_CACHE_DIR or cache_root() / "endgame"


Material = tuple[int, int, int, int]
"""(men, kings) of the side to move, then (men, kings) of the other side."""

MAX_PAIR_SLOTS: Final = 2_500_000
"""The largest class pair ``EndgameTables`` builds (see ``EndgameTables.supports``)."""

DRAW: Final = -1
UNUSED: Final = -2
_MAP_FROM_BYTES: Final = 4 << 20
"""Tables larger than this are mapped from the file, not read: a search touches few of their
pages, and the 5-piece tables are up to 250 MB each."""

Values = Sequence[int]
"""One int16 per slot: an ``array('h')``, or a ``memoryview`` of a mapped file."""
Builder = Literal["auto", "python"]
Semantics = Literal["pure", "rules"]


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


# --------------------------------------------------------------------------- geometry
# White promotes on squares 1-5, bits 1-5
_LAST_PROMOTION_BIT: Final = BIT_OF_SQUARE[5]
_KING_BITS: Final = tuple(BIT_OF_SQUARE[s] for s in range(1, 51))
# the side to move's men seen from its own side: never on its promotion row (squares 6-50 as White)
_MOVER_MEN_BITS: Final = tuple(BIT_OF_SQUARE[s] for s in range(6, 51))
# the other side's men: never on its promotion row (squares 1-45 with White to move)
_OTHER_MEN_BITS: Final = tuple(BIT_OF_SQUARE[s] for s in range(1, 46))


@dataclass(frozen=True, slots=True)
class _Group:
    """Every set of ``k`` squares of a domain, with its rank seen from either colour."""

    sets: tuple[Bitboard, ...]
    rank_white: dict[Bitboard, int]
    """rank of a set as it stands, for a position with White to move"""
    rank_black: dict[Bitboard, int]
    """rank of the turned set, for a position with Black to move"""


@cache
def _group(domain: tuple[int, ...], count: int) -> _Group:
    # built once per group, but a group of four kings has 230,300 sets: sums of tuples, not
    # loops over bits.  The turned sets (square s -> 51 - s, bit b -> 55 - b) come in the same
    # order from the turned squares.
    sets = tuple(map(sum, combinations([1 << b for b in domain], count)))
    turned = map(sum, combinations([1 << (55 - b) for b in domain], count))
    rank_white = dict(zip(sets, range(len(sets)), strict=True))
    rank_black = dict(zip(turned, range(len(sets)), strict=True))
    return _Group(sets, rank_white, rank_black)


def _nth_bit(bitboard: Bitboard, n: int) -> int:
    for _ in range(n):
        bitboard &= bitboard - 1
    return (bitboard & -bitboard).bit_length() - 1


Placement = tuple[Bitboard, Bitboard, Bitboard, Bitboard]
"""The first four fields of a ``State``: men and kings of the side to move, then of the other."""
Indexer = Callable[[Placement], int]


def _sum_of_ranks(parts: list[tuple[int, dict[Bitboard, int], int]]) -> Indexer:
    """``sum(rank[state[slot]] * multiplier)``, unrolled: this runs for every edge of a build."""
    if len(parts) == 2:
        (s0, r0, m0), (s1, r1, m1) = parts
        return lambda state: r0[state[s0]] * m0 + r1[state[s1]] * m1
    if len(parts) == 3:
        (s0, r0, m0), (s1, r1, m1), (s2, r2, m2) = parts
        return lambda state: r0[state[s0]] * m0 + r1[state[s1]] * m1 + r2[state[s2]] * m2
    return lambda state: sum(rank[state[slot]] * multiplier for slot, rank, multiplier in parts)


@dataclass(frozen=True, slots=True)
class _Layout:
    """The perfect index of one material class.

    index = placement part (the ranks of the four groups, mixed radix) * own_counters *
    other_counters + own counter digit * other_counters + other counter digit.
    """

    material: Material
    groups: tuple[_Group, _Group, _Group, _Group]
    own_counters: int
    """1, or 1 + limit * kings when Fries Spel art. 17 applies to the side to move"""
    other_counters: int
    """the same for the other side"""
    size: int
    placement_white: Indexer
    """the placement part of the index, already multiplied, for a position with White to move
    (KeyError: a placement that cannot occur)"""
    placement_black: Indexer
    """the same with Black to move"""

    @classmethod
    def of(cls, material: Material, limit: int | None) -> _Layout:
        a, b, c, d = material
        groups = (
            _group(_MOVER_MEN_BITS, a),
            _group(_KING_BITS, b),
            _group(_OTHER_MEN_BITS, c),
            _group(_KING_BITS, d),
        )
        own_counters = 1 + limit * b if limit is not None and a and b else 1
        other_counters = 1 + limit * d if limit is not None and c and d else 1
        multipliers = [own_counters * other_counters] * 4
        for slot in (2, 1, 0):
            multipliers[slot] = multipliers[slot + 1] * len(groups[slot + 1].sets)
        size = multipliers[0] * len(groups[0].sets)

        def placement(white: bool) -> Indexer:
            return _sum_of_ranks(
                [
                    (slot, group.rank_white if white else group.rank_black, multipliers[slot])
                    for slot, group in enumerate(groups)
                    if material[slot]
                ]
            )

        return cls(
            material, groups, own_counters, other_counters, size, placement(True), placement(False)
        )

    def index(self, state: State, limit: int | None) -> int:
        """The index of a position of this class (KeyError: a placement that cannot occur)."""
        white = state[4]
        placement = state[:4]
        index = self.placement_white(placement) if white else self.placement_black(placement)
        if limit is not None:
            own_counters, other_counters = self.own_counters, self.other_counters
            if own_counters > 1:
                index += _streak_part(state[5], state[1], white, limit) * other_counters
            if other_counters > 1:
                index += _streak_part(state[6], state[3], white, limit)
        return index

    def placements(self) -> Iterator[tuple[int, State, list[Streak], list[Streak]]]:
        """Every placement of the class with White to move and without king move counters,
        with its first index and the counters each side may have (used slots only)."""
        own_counters, other_counters = self.own_counters, self.other_counters
        stride = own_counters * other_counters
        own_kings, other_kings = self.material[1], self.material[3]
        own_streaks = other_streaks = [NO_STREAK]
        base = -stride
        for om, ok, pm, pk in product(*(group.sets for group in self.groups)):
            base += stride
            if om & ok or (om | ok) & (pm | pk) or pm & pk:
                continue
            if own_counters > 1:
                own_streaks = [NO_STREAK] + [
                    (1 + s // own_kings, _nth_bit(ok, s % own_kings))
                    for s in range(own_counters - 1)
                ]
            if other_counters > 1:
                other_streaks = [NO_STREAK] + [
                    (1 + s // other_kings, _nth_bit(pk, s % other_kings))
                    for s in range(other_counters - 1)
                ]
            yield base, (om, ok, pm, pk, True, NO_STREAK, NO_STREAK), own_streaks, other_streaks


def _streak_part(streak: Streak, kings: Bitboard, white: bool, limit: int) -> int:
    """The counter digit of a side that has kings and men: 0 for no streak, else 1 + (count,
    which king) in the frame of the side to move."""
    count, bit = streak
    if not count or not kings >> bit & 1:
        return 0  # no streak, or one of a king that has since been captured
    number = kings.bit_count()
    # kings are ranked in the mover's frame: from the low bits for White, from the high for Black
    below = (kings & ((1 << bit) - 1)).bit_count()
    rank = below if white else number - 1 - below
    return 1 + (min(count, limit) - 1) * number + rank


def _counted_exit(variant: Variant, state: State, move: RawMove, child: State, stored: int) -> int:
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


def successor_classes(material: Material) -> set[Material]:
    """The classes (from the child's side to move) that one move of this class can lead to, and
    a few more: a move promotes at most one man and captures any of the other side's pieces."""
    a, b, c, d = material
    found = set()
    for promoted in (0, 1) if a else (0,):
        for men_left, kings_left in product(range(c + 1), range(d + 1)):
            if men_left + kings_left:
                found.add((men_left, kings_left, a - promoted, b + promoted))
    return found


# --------------------------------------------------------------------------- cache files
@cache
def _rules_fingerprint(variant: Variant, semantics: Semantics = "pure") -> str:
    """Changes whenever the rules the tables were built with may have changed (read once a
    process: the sources do not change under a running program)."""
    prefix = f"{FORMAT}|" if semantics == "pure" else f"{FORMAT}|{semantics}|"
    digest = hashlib.sha256(f"{prefix}{variant!r}".encode())
    modules = [board_module, movegen_module, variants_module]
    if semantics == "rules":
        modules.append(drawrules_module)
    for module in modules:
        assert module.__file__ is not None
        digest.update(Path(module.__file__).read_bytes())
    if variant.name in native.VARIANTS:
        # the compiled builder makes these tables too: a change to it must not reuse old ones
        digest.update(native.source_bytes())
    return digest.hexdigest()[:16]


def _material_name(material: Material) -> str:
    a, b, c, d = material
    return f"m{a}k{b}-m{c}k{d}"


def pair_name(material: Material) -> str:
    """The name of a class and its partner together (the same for both)."""
    a, b, c, d = material
    return min(_material_name(material), _material_name((c, d, a, b)))


def _material_of_name(name: str) -> Material | None:
    """``"m1k0-m0k2"`` -> ``(1, 0, 0, 2)``; None for any other name."""
    match = re.fullmatch(r"m(\d)k(\d)-m(\d)k(\d)", name)
    if match is None:
        return None
    a, b, c, d = (int(group) for group in match.groups())
    return (a, b, c, d)


# --------------------------------------------------------------------------- the tables
class EndgameTables:
    """Exact values of every position with at most ``max_pieces`` pieces, built on first use.

    ``probe`` answers any position of a covered class; each class (with the classes it leads
    to) is built the first time it is needed and then stored under ``cache_dir``, so that later
    runs only load it.
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
        builder (``native.py``) when a C compiler is at hand, else in Python; ``"python"``
        always uses the Python builder.  ``semantics`` chooses what
        the values mean: ``"pure"`` the game without count rules, ``"rules"`` the bound that
        holds with them (see "Two kinds of table" in the module's text)."""
        if max_pieces < 1:
            raise ValueError("max_pieces must be at least 1")
        self.variant = variant
        self.max_pieces = max_pieces
        self.max_pair_slots = max_pair_slots
        self.cached_pieces = cached_pieces
        self.cache_dir = default_cache_dir() if cache_dir is None else cache_dir
        self._limit = variant.max_consecutive_king_moves
        self.semantics = semantics
        self._fingerprint = _rules_fingerprint(variant, semantics)
        self.builder = builder
        self._native: Path | bool | None = False  # False: not looked for yet
        self._values: dict[Material, Values] = {}
        self._layouts: dict[Material, _Layout] = {}
        self._supported: dict[Material, bool] = {}
        self.build_seconds: dict[Material, float] = {}
        """Seconds spent building each class with its partner (the same material, the other side
        to move) in this process; classes loaded from the cache are absent."""

    # ------------------------------------------------------------------ queries
    def covers(self, state: State) -> bool:
        """True when ``probe`` answers ``state`` (few enough pieces, a possible placement)."""
        if not (state[0] | state[1] and state[2] | state[3]):
            return (state[0] | state[1] | state[2] | state[3]).bit_count() <= self.max_pieces
        return self._locate(state) is not None

    def probe(self, state: State) -> Outcome | None:
        """The exact value of ``state`` for the side to move, or None if it is not covered."""
        if not (state[0] | state[1] and state[2] | state[3]):
            return self._trivial(state)
        located = self._locate(state)
        if located is None:
            return None
        material, index = located
        table = self._values.get(material)
        if table is None:
            try:
                table = self._table(material)
            except RulebookError:  # a cached class refused (damaged): done without
                self._supported[material] = False
                return None
        try:
            return outcome_of(table[index])
        except tablefile.DamagedTable as damage:  # a compact block that does not unpack
            tablefile.set_aside(self.compact_path(material), str(damage))
            del self._values[material]
            self._supported[material] = False
            return None

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

    def _slots(self, material: Material) -> int:
        """The size of a class's table, without building its index."""
        a, b, c, d = material
        limit = self._limit
        slots = comb(45, a) * comb(50, b) * comb(45, c) * comb(50, d)
        if limit is not None and a and b:
            slots *= 1 + limit * b
        if limit is not None and c and d:
            slots *= 1 + limit * d
        return slots

    def build_all(self) -> None:
        """Build (or load) every class."""
        for material in self.material_classes():
            self._table(material)

    def prepare(self, material: Material) -> bool:
        """Load a class's table, building it (and what it leads to) if needed: True if built."""
        if material in self._values:
            return False
        built_before = len(self.build_seconds)
        self._table(material)
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

    def in_cache(self, material: Material) -> bool:
        """Whether the class's table is stored in the cache folder, built or compact."""
        return self.path(material).is_file() or self.compact_path(material).is_file()

    def pair_slots(self, material: Material) -> int:
        """Slots of a class and its partner together: the measure of its build's time and memory."""
        a, b, c, d = material
        partner = (c, d, a, b)
        return self._slots(material) + (self._slots(partner) if partner != material else 0)

    def size(self, material: Material) -> int:
        """Slots in the table of a class (used or not)."""
        return self._layout(material).size

    def stats(self, material: Material) -> dict[str, int]:
        """How many positions of a class are won, lost and drawn for the side to move."""
        counts = {"win": 0, "loss": 0, "draw": 0, "longest": 0}
        for stored in self._table(material):
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

    def _layout(self, material: Material) -> _Layout:
        layout = self._layouts.get(material)
        if layout is None:
            layout = self._layouts[material] = _Layout.of(material, self._limit)
        return layout

    def _locate(self, state: State) -> tuple[Material, int] | None:
        om, ok, pm, pk = state[:4]
        material = (om.bit_count(), ok.bit_count(), pm.bit_count(), pk.bit_count())
        if not self.supports(material):
            return None
        if om & ok or (om | ok) & (pm | pk) or pm & pk:
            return None
        layout = self._layouts.get(material) or self._layout(material)
        try:
            index = layout.index(state, self._limit)
        except KeyError:
            return None  # a man on its own promotion row, or a square off the board
        return material, index

    # ------------------------------------------------------------------ building
    def _table(self, material: Material) -> Values:
        table = self._values.get(material)
        if table is None:
            table = self._load(material)
            if table is None:
                if not self.buildable(material):
                    raise RulebookError(
                        "unreadable endgame table: delete it, or rebuild it with 'rulebook tables'",
                        source=str(self.path(material)),
                    )
                self._build(material)
                table = self._values[material]
            else:
                self._values[material] = table
        return table

    def folder(self) -> Path:
        """Where this kind's tables for these rules are cached."""
        return self._folder_of(self.semantics)

    def _folder_of(self, semantics: Semantics) -> Path:
        kind = "" if semantics == "pure" else f"-{semantics}"
        fingerprint = _rules_fingerprint(self.variant, semantics)
        return self.cache_dir / f"{self.variant.name}{kind}-v{FORMAT}-{fingerprint}"

    def is_table_folder(self, folder: Path) -> bool:
        """Whether ``folder`` is named as ``folder`` names this variant's tables, of any kind,
        format or rules (``rulebook tables --prune``)."""
        variant = re.escape(self.variant.name)
        return re.fullmatch(rf"{variant}(-rules)?-v\d+-[0-9a-f]{{16}}", folder.name) is not None

    def path(self, material: Material) -> Path:
        """The file a class's table is stored in."""
        return self.folder() / f"{_material_name(material)}.bin"

    def compact_folder(self) -> Path:
        """Where the compact files of these rules are (the pure kind's folder: the fingerprint
        of one kind changes with the other's)."""
        return self._folder_of("pure")

    def compact_path(self, material: Material) -> Path:
        """The compact file of a class: both kinds in one (``compact.py``)."""
        return self.compact_folder() / f"{_material_name(material)}{compact.SUFFIX}"

    def compact_fields(self, material: Material) -> dict[str, object]:
        """What a compact file of this class must say of itself, but its blocks and checksum."""
        return {
            "format": compact.FORMAT,
            "variant": self.variant.name,
            "pure": _rules_fingerprint(self.variant, "pure"),
            "rules": _rules_fingerprint(self.variant, "rules"),
            "material": list(material),
            "size": self._layout(material).size,
            "cap": compact.CAP,
        }

    def _fields(self, material: Material) -> dict[str, object]:
        """What a table file of this class must say of itself (``tablefile.py``)."""
        return {
            "format": FORMAT,
            "variant": self.variant.name,
            **({} if self.semantics == "pure" else {"semantics": self.semantics}),
            "rules": self._fingerprint,
            "material": list(material),
            "size": self._layout(material).size,
        }

    def _load(self, material: Material) -> Values | None:
        """The class's table from the cache; None when it is missing, foreign (other rules,
        another format) or damaged (then it is also moved aside, see ``tablefile.py``)."""
        path = self.path(material)
        size = self._layout(material).size
        if not path.is_file():
            return self._load_compact(material)
        try:
            with path.open("rb") as stream:
                found = tablefile.expect(stream, self._fields(material))
                if found is None:
                    return None
                offset, checksum = found
                length = os.fstat(stream.fileno()).st_size - offset
                if length != 2 * size:
                    tablefile.set_aside(path, f"{path}: {length} bytes of values, not {2 * size}")
                    return None
                try:
                    tablefile.check(path, stream, offset, checksum)
                except tablefile.DamagedTable as damage:
                    tablefile.set_aside(path, str(damage))
                    return None
                if size * 2 >= _MAP_FROM_BYTES and sys.byteorder == "little":
                    mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
                    if hasattr(mmap, "MADV_RANDOM"):  # probes jump about: no read-ahead
                        mapped.madvise(mmap.MADV_RANDOM)
                    return memoryview(mapped)[offset:].cast("h")
                stream.seek(offset)
                table = array("h")
                table.frombytes(stream.read())
        except (OSError, ValueError):
            return None
        if sys.byteorder == "big":
            table.byteswap()
        return table

    def _load_compact(self, material: Material) -> Values | None:
        """The class's values from its compact file (the pure result and the count-rule
        distances the search uses, ``compact.py``); None when there is none or it is refused."""
        path = self.compact_path(material)
        if not path.is_file():
            return None
        try:
            table = compact.CompactTable(path, self.compact_fields(material))
        except tablefile.DamagedTable as damage:
            tablefile.set_aside(path, str(damage))
            return None
        except (OSError, ValueError):
            return None
        values = compact.PURE_VALUE if self.semantics == "pure" else compact.RULES_VALUE
        return compact.KindView(table, values)

    def table_files(self, folder: Path) -> list[Path]:
        """This kind's table files in ``folder``: the built ones, and for the pure kind the
        compact ones (which hold both kinds)."""
        packed = sorted(folder.glob(f"*{compact.SUFFIX}")) if self.semantics == "pure" else []
        return sorted(folder.glob("*.bin")) + packed

    def copy_table(self, source: Path, folder: Path | None = None) -> Path:
        """Copy the table file ``source``, built or compact, into ``folder`` (default: its place
        in the cache) if it is a table of these rules and kind and passes its checksum; the
        copy's path.  ``tablefile.DamagedTable`` says why not."""
        material = _material_of_name(source.stem)
        if material is None:
            raise tablefile.DamagedTable(f"{source}: not a table's name")
        if source.suffix == compact.SUFFIX:
            target = self.compact_path(material) if folder is None else folder / source.name
            compact.copy_verified(source, target, self.compact_fields(material))
        else:
            target = self.path(material) if folder is None else folder / source.name
            tablefile.copy_verified(source, target, self._fields(material))
        return target

    def install_from(self, folder: Path) -> tuple[list[Path], list[str]]:
        """Copy into the cache every table of ``folder`` that is a table of these rules and
        kind and passes its checksum; the files installed, and what was refused and why."""
        installed: list[Path] = []
        refused: list[str] = []
        for source in self.table_files(folder):
            try:
                installed.append(self.copy_table(source))
            except tablefile.DamagedTable as refusal:
                refused.append(str(refusal))
            except OSError as error:
                refused.append(f"{source}: {error.strerror or error}")
        return installed, refused

    def verify_files(self, *, always: bool = False) -> list[str]:
        """Check the checksum of every table file in this kind's folder (a large file with a
        valid stamp only when ``always``): the damaged or foreign ones are moved aside and
        named in the list returned."""
        problems = []
        for path in sorted(self.folder().glob("*.bin")):
            material = _material_of_name(path.stem)  # the programs read a class by its name
            try:
                with path.open("rb") as stream:
                    found = (
                        None
                        if material is None
                        else tablefile.expect(stream, self._fields(material))
                    )
                    if found is None:
                        raise tablefile.DamagedTable(f"{path}: not a table of these rules")
                    offset, checksum = found
                    tablefile.check(path, stream, offset, checksum, always=always)
            except tablefile.DamagedTable as damage:
                tablefile.set_aside(path, str(damage))
                problems.append(str(damage))
            except OSError as error:
                problems.append(f"{path}: {error.strerror or error}")
        if self.semantics == "pure":  # the compact files are in this kind's folder
            for path in sorted(self.compact_folder().glob(f"*{compact.SUFFIX}")):
                material = _material_of_name(path.stem)
                try:
                    if material is None:
                        raise tablefile.DamagedTable(f"{path}: not a table's name")
                    compact.check(path, self.compact_fields(material), always=always)
                except tablefile.DamagedTable as damage:
                    tablefile.set_aside(path, str(damage))
                    problems.append(str(damage))
                except OSError as error:
                    problems.append(f"{path}: {error.strerror or error}")
        return problems

    def first_inconsistency(self, material: Material) -> str | None:
        """Check every entry of a pure table against its successors, one retrograde step: a
        position with no move is lost at once; a win in n plies has a move to a loss in n - 1
        and none faster; a loss in n has only moves to wins, the slowest in n - 1; a draw has
        no move to a loss and one to a draw.  The first entry that breaks this, or None.

        Only pure tables (with the count rules a value also depends on the clocks)."""
        if self.semantics != "pure":
            raise ValueError("only pure tables are checked against their successors")
        table = self._table(material)
        layout = self._layout(material)
        variant = self.variant
        for _base, placement, own_streaks, other_streaks in layout.placements():
            for own in own_streaks:
                for other in other_streaks:
                    state = (*placement[:5], own, other)
                    stored = outcome_of(table[layout.index(state, self._limit)])
                    wanted = self._from_successors(state)
                    if stored != wanted:
                        position = format_fen(Position.from_state(variant, state))
                        return (
                            f"{_material_name(material)}: {position} is stored as "
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

    def _save(self, material: Material, table: Values) -> None:
        little = array("h", table)
        if sys.byteorder == "big":
            little.byteswap()
        # a read-only cache still works: it only rebuilds next time
        with contextlib.suppress(OSError):
            tablefile.write(self.path(material), self._fields(material), little.tobytes())

    def _native_program(self) -> Path | None:
        """The compiled builder, if this variant and machine can use it."""
        if self.builder != "auto" or self.variant.name not in native.VARIANTS:
            return None
        if self._native is False:
            self._native = native.executable(self.cache_dir)
        assert self._native is not True
        return self._native

    def _build_native(self, program: Path, members: list[Material]) -> bool:
        """Build a pair with the compiled builder; False if its inputs are not on disk."""
        folder = self.path(members[0]).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return False
        for member in members:
            for target in successor_classes(member):
                if target not in members and not self.path(target).is_file():
                    return False  # e.g. a read-only cache: the Python builder needs no files
        started = time.perf_counter()
        native.build_pair(
            program,
            folder,
            members[0],
            rules=self.semantics == "rules",
            frisian=self.variant.name == "frisian",
        )
        seconds = time.perf_counter() - started
        for member in members:
            body_path = folder / f"{_material_name(member)}.body"
            try:
                body = body_path.read_bytes()
                body_path.unlink()
            except OSError as error:
                raise RulebookError(f"the endgame table builder left no table: {error}") from error
            table = array("h")
            table.frombytes(body)
            if sys.byteorder == "big":
                table.byteswap()
            if len(table) != self._layout(member).size:
                raise RulebookError(
                    f"the endgame table builder wrote {len(table)} slots for "
                    f"{_material_name(member)}, not {self._layout(member).size}"
                )
            self._save(member, table)
            self.build_seconds[member] = seconds
            self._values[member] = self._load(member) or table
        return True

    def _build(self, material: Material) -> None:
        """Build a class and its partner together, after the classes their moves lead to.

        One process at a time builds a pair (the compiled builder's working files are named
        after its classes): a process that waited for another uses what that one built.  The
        classes the pair leads to are built (each under its own lock) while this one is held:
        smaller classes only, so locks are always taken in one order."""
        with exclusive(self.folder(), pair_name(material)):
            loaded = self._load(material)
            if loaded is not None:  # another process built it meanwhile
                self._values[material] = loaded
                return
            self._build_pair(material)

    def _build_pair(self, material: Material) -> None:
        a, b, c, d = material
        members = [material] if (c, d, a, b) == material else [material, (c, d, a, b)]
        # the classes that captures and promotions lead to, first (and not while this pair's
        # build holds its memory)
        exit_tables = {
            target: self._table(target)
            for member in members
            for target in sorted(successor_classes(member))
            if target not in members
        }
        for target, values in exit_tables.items():
            if isinstance(values, compact.KindView):  # no pure distances: a parent needs them
                raise RulebookError(
                    f"cannot build {_material_name(material)}: the class it leads to, "
                    f"{_material_name(target)}, is in the cache only in compact form, which "
                    "keeps no pure distances; 'rulebook tables --pieces "
                    f"{sum(target)}' builds it in full",
                    source=str(self.compact_path(target)),
                )
        program = self._native_program()
        if program is not None and self._build_native(program, members):
            return
        started = time.perf_counter()
        layouts = {member: self._layout(member) for member in members}
        offsets = {material: 0}
        if len(members) == 2:
            offsets[members[1]] = layouts[material].size
        total = sum(layout.size for layout in layouts.values())

        variant = self.variant
        limit = self._limit
        # with the count rules, Fries Spel art. 21 makes most of one king against one a draw
        drawn_at_once = (
            self.semantics == "rules"
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
                    if move[2] or (move[1] <= _LAST_PROMOTION_BIT and own_men >> origin & 1):
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
                            carried = _streak_part(other_streak, state[3], False, limit)
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
                            best_win = self._leave(
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
        for member in members:
            offset, size = offsets[member], layouts[member].size
            table = array("h", values[offset : offset + size])
            self._values[member] = table
            self.build_seconds[member] = seconds
            self._save(member, table)

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
        with exclusive(self.folder(), pair_name(material)):
            return self._build_by_slices(material, on_line, jobs)

    def _build_by_slices(
        self, material: Material, on_line: Callable[[str], None] | None, jobs: int
    ) -> float:
        a, b, c, d = material
        partner = (c, d, a, b)
        if partner == material:
            raise RulebookError(f"{_material_name(material)} is its own partner: build it whole")
        program = self._native_program()
        if program is None or self.variant.name != "international":
            raise RulebookError(
                f"building {_material_name(material)} by slices needs the compiled table builder "
                "(International rules and a C compiler)"
            )
        members = [material, partner]
        folder = self.folder()
        for member in members:
            for target in sorted(successor_classes(member)):
                if target not in members and not self.path(target).is_file():
                    raise RulebookError(
                        f"build {_material_name(target)} first: {_material_name(member)} "
                        "leads to it",
                        source=str(self.path(target)),
                    )
        sizes = [2 * self._layout(member).size for member in members]
        needed = sum(sizes) + max(sizes)  # the bodies, and one table being written beside them
        free = shutil.disk_usage(folder).free
        if free < needed:
            raise RulebookError(
                f"building {_material_name(material)} needs {needed / 1e9:.1f} GB of free disk, "
                f"{free / 1e9:.1f} GB are free",
                source=str(folder),
            )
        started = time.perf_counter()
        parts = [
            folder / f"{_material_name(member)}{suffix}"
            for member in members
            for suffix in (".body", ".body.part")
        ]
        installed: list[Path] = []
        try:
            native.build_pair(
                program,
                folder,
                material,
                on_line,
                rules=self.semantics == "rules",
                slices=True,
                jobs=jobs,
            )
            for member, size in zip(members, sizes, strict=True):
                self._install_body(member, size)
                installed.append(self.path(member))
        except BaseException:
            for table in installed:  # a class without its partner is no use to anyone
                table.unlink(missing_ok=True)
            raise
        finally:
            for leftover in parts:
                leftover.unlink(missing_ok=True)
        seconds = time.perf_counter() - started
        for member in members:
            self.build_seconds[member] = seconds
        return seconds

    def _install_body(self, member: Material, size: int) -> None:
        """Write the builder's ``.body`` of a class as its table file, with its header, without
        holding it in memory (a 6-piece class has up to 5.5 GB)."""
        body = self.path(member).with_suffix(".body")
        if not body.is_file() or body.stat().st_size != size:
            raise RulebookError(
                f"the endgame table builder left no complete table for {_material_name(member)}",
                source=str(body),
            )
        try:
            tablefile.install(body, self.path(member), self._fields(member))
            body.unlink()
        except OSError as error:
            raise RulebookError(
                f"cannot write the table of {_material_name(member)}: {error.strerror or error}",
                source=str(self.path(member)),
            ) from error

    def _leave(
        self,
        variant: Variant,
        state: State,
        moves: list[RawMove],
        node: int,
        remaining: list[int],
        longest: list[int],
        exit_tables: dict[Material, Values],
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
            located = self._locate(child)
            assert located is not None
            target, child_index = located
            stored = exit_tables[target][child_index]
            if self.semantics == "rules" and stored >= 0:
                stored = _counted_exit(variant, state, move, child, stored)
            if stored == DRAW:
                continue
            if stored & 1:  # a win for the opponent
                remaining[node] -= 1
                if stored + 1 > longest[node]:
                    longest[node] = stored + 1
            elif not best_win or stored + 1 < best_win:
                best_win = stored + 1
        return best_win


CACHED_PIECES: Final = 5
"""The checker uses classes of up to this many pieces when ``rulebook tables`` has built them."""
CACHED_RULES_PIECES: Final = 6
"""Tables with count rules may go one piece further: 6-piece classes built by slices (see
``native/tablebuild.c``) without their pure partners; they prove, and never refute."""
SLICED_PAIRS: Final[tuple[Material, ...]] = tuple(
    sorted(
        ((men, 4 - men, other_men, 2 - other_men) for men in range(4) for other_men in range(2)),
        key=lambda m: (m[0] + m[2], m),
    )
)
"""The 6-piece pairs ``rulebook tables --pieces 6`` builds by slices, with count rules only: four
pieces with at least one king against two with at least one king, the endings PWCP-2's A9, A11
and A50 run into.  In building order: a promotion leads to a pair with fewer men, built before."""


def build_class(
    variant: str,
    semantics: Semantics,
    max_pieces: int,
    cached_pieces: int,
    cache_dir: str,
    material: Material,
) -> float:
    """Build (or load) a class with its partner in ``cache_dir``: the task that ``rulebook tables
    --jobs`` gives a process and ``--cluster`` a Dask worker (the arguments are plain data, so
    that the task travels).  The seconds its build took, 0.0 if it was there already."""
    tables = EndgameTables(
        find_variant(variant),
        max_pieces=max_pieces,
        max_pair_slots=None,
        cached_pieces=cached_pieces,
        cache_dir=Path(cache_dir),
        semantics=semantics,
    )
    started = time.perf_counter()
    return time.perf_counter() - started if tables.prepare(material) else 0.0


def build_levels(materials: Sequence[Material]) -> list[list[Material]]:
    """The classes to build, one of each pair, in levels whose pairs do not need each other: a
    capture leads to fewer pieces and a promotion to fewer men, so a level is a number of
    pieces and of men, and every level needs only the levels before it."""
    levels: dict[tuple[int, int], list[Material]] = {}
    seen: set[str] = set()
    for material in materials:
        name = pair_name(material)
        if name not in seen:
            seen.add(name)
            levels.setdefault((sum(material), material[0] + material[2]), []).append(material)
    return [levels[key] for key in sorted(levels)]


class CheckerTables:
    """What the proof search probes: pure values to refute, values with count rules to prove.

    A pure loss or draw for White is no White win with the count rules either (they only ever
    turn a game into a draw), so pure tables may close a node as refuted.  A pure win may be one
    that a count rule stops on the way, so a node is closed as proved only by the tables with
    count rules, and only when their distance fits the node's own clocks (``search.py``).
    """

    def __init__(self, pure: EndgameTables, rules: EndgameTables) -> None:
        self.pure = pure
        self.rules = rules
        self.variant = pure.variant
        self.max_pieces = pure.max_pieces
        self._prover: native.NativeProver | None = None
        self._prover_looked_for = False

    def prover(self) -> native.NativeProver | None:
        """The compiled proof search reading these tables, where this variant and machine have
        one (it is compiled on first use, like the builder)."""
        if not self._prover_looked_for:
            self._prover_looked_for = True
            if self.variant.name in native.VARIANTS and self.pure.builder == "auto":
                # the compiled search reads the folders itself: no damaged file may be there
                for tables in (self.pure, self.rules):
                    tables.verify_files()
                program = native.executable(self.pure.cache_dir, native.PROVER_SOURCE)
                if program is not None:
                    folders = (self.pure.folder(), self.rules.folder())
                    self._prover = native.NativeProver(program, *folders, variant=self.variant)
        return self._prover

    def probe(self, state: State) -> Outcome | None:
        return self.pure.probe(state)

    def probe_rules(self, state: State) -> Outcome | None:
        return self.rules.probe(state)

    def missing(self) -> list[tuple[EndgameTables, Material]]:
        """The classes built on first use that are not in the cache yet."""
        return [
            (tables, material)
            for tables in (self.pure, self.rules)
            for material in tables.material_classes()
            if tables.buildable(material) and not tables.in_cache(material)
        ]

    def prepare_missing(self) -> float:
        """Build (or load) the classes built on first use; the seconds it took.

        With the compiled builder and more than one core, the two kinds are built at once (they
        read and write separate folders, and each build is a process of its own): the Frisian
        4-piece tables took 182 s one after the other on 2 cores."""
        started = time.perf_counter()
        missing = self.missing()
        kinds = [self.pure, self.rules]

        def prepare(tables: EndgameTables) -> None:
            for owner, material in missing:
                if owner is tables:
                    tables.prepare(material)

        compiled = self.pure._native_program() is not None
        if (
            compiled
            and native.machine_cores() > 1
            and all(any(owner is kind for owner, _ in missing) for kind in kinds)
        ):
            with ThreadPoolExecutor(max_workers=2) as pool:
                for done in [pool.submit(prepare, kind) for kind in kinds]:
                    done.result()
        else:
            for kind in kinds:
                prepare(kind)
        return time.perf_counter() - started

    def build_all(self) -> None:
        self.pure.build_all()
        self.rules.build_all()

    def pack(self, material: Material, target: Path | None = None) -> int:
        """Write the compact file of a class from its two built tables (``compact.py``): into
        the cache, or as ``target``.  Its size in bytes.  The built files must be in the cache
        (a compact table cannot be packed again: it keeps no pure distances)."""
        paths = (self.pure.path(material), self.rules.path(material))
        fields = self.pure.compact_fields(material)
        size = self.pure.size(material)
        where = []
        for kind, path in zip((self.pure, self.rules), paths, strict=True):
            with path.open("rb") as stream:
                found = tablefile.expect(stream, kind._fields(material))
                if found is None:
                    raise RulebookError("not a table of these rules", source=str(path))
                tablefile.check(path, stream, found[0], found[1], always=True)
                where.append((path, found[0]))
        program = native.executable(self.pure.cache_dir, native.PACK_SOURCE)
        if program is not None and sys.byteorder == "little":
            chunks = compact.codes_compiled(program, where[0], where[1], size)
        else:
            chunks = compact.codes_in_python(
                self.pure._table(material), self.rules._table(material)
            )
        try:
            return compact.write(target or self.pure.compact_path(material), fields, chunks)
        except compact.Disagreement as fault:
            raise RulebookError(
                f"the two tables of {_material_name(material)} disagree: {fault}",
                source=str(paths[0].parent),
            ) from None

    def classes(self) -> list[Material]:
        """The classes with a table of both kinds."""
        proven = set(self.rules.material_classes())
        return [m for m in self.pure.material_classes() if m in proven]


def checker_tables(variant: Variant, *, cache_dir: Path | None = None) -> CheckerTables:
    """The tables ``rulebook check`` works with: what can be built in well under a minute is
    built on first use (every class of up to 4 pieces with the compiled builder, of up to 3
    without it), and larger classes are used when they are in the cache."""

    compiled = EndgameTables(variant, cache_dir=cache_dir)._native_program() is not None

    def tables(semantics: Semantics) -> EndgameTables:
        return EndgameTables(
            variant,
            max_pieces=4 if compiled else 3,
            max_pair_slots=None if compiled else MAX_PAIR_SLOTS,
            cached_pieces=CACHED_PIECES if semantics == "pure" else CACHED_RULES_PIECES,
            cache_dir=cache_dir,
            semantics=semantics,
        )

    return CheckerTables(tables("pure"), tables("rules"))
