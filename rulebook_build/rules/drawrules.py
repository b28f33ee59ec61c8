"""Draw rules that count moves, as pure functions of raw states (shared by Game and the checker).

International (KNDB 2018 art. 9): 9b five moves each in one king against at most two pieces
including a king; 9c sixteen moves each in one king against three pieces including a king;
9d twenty-five moves each with kings only and no capture.  Frisian (Fries Spel): art. 18 two
kings against one king must win within seven moves; art. 21 one king each is a draw unless a
capture is pending or forced.  Repetition (art. 9e) needs the whole history and lives in Game.

``plies_left`` tells how many more plies may be played before a count rule declares a draw:
the problem checker accepts a win from an endgame table only if it fits in that budget.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from rulebook_build.rules.movegen import RawMove, State, generate, make
from rulebook_build.rules.variants import Variant


class DrawClocks(NamedTuple):
    ending: str | None  # "5" (art. 9b) or "16" (art. 9c) or None
    ending_plies: int
    king_only_plies: int  # consecutive non-capturing king moves, both sides (art. 9d)
    strong_side: bool | None  # Fries Spel art. 18: True if White has the two kings
    strong_moves: int  # moves made by the side with the two kings since the ending arose


NO_CLOCKS: Final = DrawClocks(None, 0, 0, None, 0)
ENDING_PLIES: Final = {"5": 10, "16": 32}
KING_ONLY_PLIES: Final = 50
FRISIAN_TWO_KINGS_MOVES: Final = 7
_KING_ONLY_CLOCKS: Final = tuple(
    DrawClocks(None, 0, n, None, 0) for n in range(KING_ONLY_PLIES + 1)
)
"""The clocks outside a lone-king ending, by the 25-move count (made once, not per move)."""


def material(state: State) -> tuple[int, int, int, int]:
    """(white men, white kings, black men, black kings) of a side-relative state."""
    own_men, own_kings, opp_men, opp_kings, white = state[:5]
    own = own_men.bit_count(), own_kings.bit_count()
    opp = opp_men.bit_count(), opp_kings.bit_count()
    return (*own, *opp) if white else (*opp, *own)


def lone_king_ending(counts: tuple[int, int, int, int]) -> str | None:
    wm, wk, bm, bk = counts
    for (men, kings), (other_men, other_kings) in (((wm, wk), (bm, bk)), ((bm, bk), (wm, wk))):
        if men == 0 and kings == 1 and other_kings >= 1:
            other = other_men + other_kings
            if other <= 2:
                return "5"
            if other == 3:
                return "16"
    return None


def two_kings_against_one(counts: tuple[int, int, int, int]) -> bool | None:
    wm, wk, bm, bk = counts
    if wm == 0 and bm == 0:
        if (wk, bk) == (2, 1):
            return True
        if (wk, bk) == (1, 2):
            return False
    return None


def initial_clocks(variant: Variant, state: State) -> DrawClocks:
    return clocks_of_material(variant, material(state))


def clocks_of_material(variant: Variant, counts: tuple[int, int, int, int]) -> DrawClocks:
    """The clocks of a position of this material whose counts start afresh (after a capture)."""
    if variant.max_consecutive_king_moves is None:
        return DrawClocks(lone_king_ending(counts), 0, 0, None, 0)
    return DrawClocks(None, 0, 0, two_kings_against_one(counts), 0)


def fresh_plies(variant: Variant, counts: tuple[int, int, int, int]) -> int | None:
    """``plies_left`` of a position of this material whose counts start afresh: the most any
    position of it can have (None: no count runs there).  ``counts`` may be side-relative:
    who has which pieces does not change it."""
    return plies_left(variant, clocks_of_material(variant, counts))


def advance(
    variant: Variant, clocks: DrawClocks, before: State, move: RawMove, after: State
) -> DrawClocks:
    """The clocks after ``move`` (played in ``before``, giving ``after``)."""
    captured = bool(move[2])
    mover_white = before[4]
    king_move = bool(before[1] & (1 << move[0]))
    # both endings that count have few pieces: a lone king against at most three (art. 9b-c),
    # two kings against one (Fries Spel art. 18); most positions are told by their number
    pieces = (after[0] | after[1] | after[2] | after[3]).bit_count()
    if variant.max_consecutive_king_moves is None:
        ending = lone_king_ending(material(after)) if pieces <= 4 else None
        king_only = clocks.king_only_plies + 1 if king_move and not captured else 0
        if ending is None and king_only <= KING_ONLY_PLIES:
            return _KING_ONLY_CLOCKS[king_only]
        # the count runs from the moment the ending arose; a capture starts a new one
        same = ending is not None and ending == clocks.ending and not captured
        return DrawClocks(ending, clocks.ending_plies + 1 if same else 0, king_only, None, 0)
    strong = two_kings_against_one(material(after)) if pieces == 3 else None
    if strong is None:
        return NO_CLOCKS
    if strong == clocks.strong_side and not captured:
        strong_moves = clocks.strong_moves + (1 if mover_white == strong else 0)
    else:
        strong_moves = 0  # the ending arose with this move: the count starts now
    return DrawClocks(None, 0, 0, strong, strong_moves)


def draw_by_count(variant: Variant, clocks: DrawClocks, state: State) -> str | None:
    """The count rule that ends the game as a draw in ``state`` (the side to move can move)."""
    if variant.max_consecutive_king_moves is None:
        if clocks.king_only_plies >= KING_ONLY_PLIES:
            return "draw: 25 moves each with kings only, without capture (art. 9d)"
        if clocks.ending == "16" and clocks.ending_plies >= ENDING_PLIES["16"]:
            return "draw: 16 moves each in one king against three pieces with a king (art. 9c)"
        if clocks.ending == "5" and clocks.ending_plies >= ENDING_PLIES["5"]:
            return "draw: 5 moves each in one king against at most two pieces with a king (art. 9b)"
        return None
    if material(state) == (0, 1, 0, 1) and one_king_each_is_drawn(variant, state):
        return "draw: one king against one king (art. 21)"
    if clocks.strong_side is not None and clocks.strong_moves >= FRISIAN_TWO_KINGS_MOVES:
        return "draw: two kings did not beat one king within 7 moves (art. 18)"
    return None


def one_king_each_is_drawn(variant: Variant, state: State) -> bool:
    """Fries Spel art. 21.1: no capture pending, and the side to move is not forced into one."""
    moves = generate(variant, state)
    if not moves or moves[0][2]:
        return False
    for move in moves:
        reply = generate(variant, make(variant, state, move))
        if not reply or not reply[0][2]:
            return True
    return False


def plies_left(variant: Variant, clocks: DrawClocks) -> int | None:
    """Plies that may still be played before a count rule fires (None: no count running)."""
    budgets = []
    if variant.max_consecutive_king_moves is None:
        budgets.append(KING_ONLY_PLIES - clocks.king_only_plies)
        if clocks.ending is not None:
            budgets.append(ENDING_PLIES[clocks.ending] - clocks.ending_plies)
    elif clocks.strong_side is not None:
        # seven moves of the strong side: at most 14 plies, 13 if the weak side moves first
        budgets.append(2 * (FRISIAN_TWO_KINGS_MOVES - clocks.strong_moves) - 1)
    return min(budgets) if budgets else None


def play_is_finite(variant: Variant) -> bool:
    """True when no line of play can go on for ever once the count clocks are known.

    International: every move is irreversible (a man's move, a capture) or a king's move
    that advances the 25-move count of art. 9d, which ends the game at 50 plies; so
    positions with their clocks never repeat.  Frisian has no such rule: kings can circle.
    """
    return variant.max_consecutive_king_moves is None
