"""The perfect index of the endgame tables: where each position of a material class is stored.

A *material class* is (mover's men, mover's kings, other side's men, other side's kings).  A
position is stored once, seen from the side to move: positions with Black to move are turned
round (square s -> 51 - s, colours swapped: the relation of ``Position.mirrored``), which halves
the work.  Inside a class every position has a perfect index, a mixed-radix number made of the
combinatorial rank of each group of like pieces (men of the mover on its 45 possible squares,
kings on 50, ...) and, for Frisian, the king move counters of Fries Spel art. 17; slots where
two groups overlap are unused.  The compiled programs compute the same index
(``native/draughts.h``: ``slot_of``).

A class is built together with its *partner*, the same material with the sides exchanged,
since a quiet move leads from one to the other; captures and promotions lead to its
*successors*, classes with fewer pieces or fewer men.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from math import comb
from typing import Final

from rulebook_build.rules import BIT_OF_SQUARE, NO_STREAK, Bitboard, State, Streak

Material = tuple[int, int, int, int]
"""(men, kings) of the side to move, then (men, kings) of the other side."""

# White promotes on squares 1-5, bits 1-5
LAST_PROMOTION_BIT: Final = BIT_OF_SQUARE[5]
KING_BITS: Final = tuple(BIT_OF_SQUARE[s] for s in range(1, 51))
# the side to move's men seen from its own side: never on its promotion row (squares 6-50 as White)
MOVER_MEN_BITS: Final = tuple(BIT_OF_SQUARE[s] for s in range(6, 51))
# the other side's men: never on its promotion row (squares 1-45 with White to move)
OTHER_MEN_BITS: Final = tuple(BIT_OF_SQUARE[s] for s in range(1, 46))


@dataclass(frozen=True, slots=True)
class SquareSets:
    """Every set of ``k`` squares of a domain, with its rank seen from either colour."""

    sets: tuple[Bitboard, ...]
    rank_white: dict[Bitboard, int]
    """rank of a set as it stands, for a position with White to move"""
    rank_black: dict[Bitboard, int]
    """rank of the turned set, for a position with Black to move"""


@cache
def square_sets(domain: tuple[int, ...], count: int) -> SquareSets:
    # built once per group, but a group of four kings has 230,300 sets: sums of tuples, not
    # loops over bits.  The turned sets (square s -> 51 - s, bit b -> 55 - b) come in the same
    # order from the turned squares.
    sets = tuple(map(sum, combinations([1 << b for b in domain], count)))
    turned = map(sum, combinations([1 << (55 - b) for b in domain], count))
    rank_white = dict(zip(sets, range(len(sets)), strict=True))
    rank_black = dict(zip(turned, range(len(sets)), strict=True))
    return SquareSets(sets, rank_white, rank_black)


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
class Layout:
    """The perfect index of one material class.

    index = placement part (the ranks of the four groups, mixed radix) * own_counters *
    other_counters + own counter digit * other_counters + other counter digit.
    """

    material: Material
    groups: tuple[SquareSets, SquareSets, SquareSets, SquareSets]
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
    def of(cls, material: Material, limit: int | None) -> Layout:
        a, b, c, d = material
        groups = (
            square_sets(MOVER_MEN_BITS, a),
            square_sets(KING_BITS, b),
            square_sets(OTHER_MEN_BITS, c),
            square_sets(KING_BITS, d),
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
                index += streak_part(state[5], state[1], white, limit) * other_counters
            if other_counters > 1:
                index += streak_part(state[6], state[3], white, limit)
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


def streak_part(streak: Streak, kings: Bitboard, white: bool, limit: int) -> int:
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


def class_slots(material: Material, limit: int | None) -> int:
    """The size of a class's table, without building its index (``limit``: the art. 17 limit
    of the variant, or None)."""
    a, b, c, d = material
    slots = comb(45, a) * comb(50, b) * comb(45, c) * comb(50, d)
    if limit is not None and a and b:
        slots *= 1 + limit * b
    if limit is not None and c and d:
        slots *= 1 + limit * d
    return slots


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


def material_name(material: Material) -> str:
    a, b, c, d = material
    return f"m{a}k{b}-m{c}k{d}"


def pair_name(material: Material) -> str:
    """The name of a class and its partner together (the same for both)."""
    a, b, c, d = material
    return min(material_name(material), material_name((c, d, a, b)))


def material_of_name(name: str) -> Material | None:
    """``"m1k0-m0k2"`` -> ``(1, 0, 0, 2)``; None for any other name."""
    match = re.fullmatch(r"m(\d)k(\d)-m(\d)k(\d)", name)
    if match is None:
        return None
    a, b, c, d = (int(group) for group in match.groups())
    return (a, b, c, d)
