"""Where a problem ends by its material alone (``analysis.ended``): each threshold from both sides.

The rule decides where the walk of the composer's solution stops, so where duals are looked for
and what criterion F reads: one piece more or less on the wrong side of a threshold changes a
verdict.  Every case here is one step from a boundary, the other side of it beside it.
"""

from __future__ import annotations

import pytest

from rulebook_build.checker import analysis
from rulebook_build.checker.analysis import SMALL_ENDING, ended
from rulebook_build.rules import FRISIAN, Position

BIG = 20
"""A problem that began with many pieces: the small-ending rule is not what ends these."""


def men(white: list[int], black: list[int], **kings: list[int]) -> Position:
    return Position.from_squares(white_men=white, black_men=black, **kings)  # type: ignore[arg-type]


# ------------------------------------------------------------------ two pieces ahead, no kings


@pytest.mark.parametrize(
    ("white", "black", "expected"),
    [
        ([31, 32, 33], [5, 6, 7], None),  # level
        ([31, 32, 33, 34], [5, 6, 7], None),  # one piece ahead: the problem goes on
        ([31, 32, 33, 34, 35], [5, 6, 7], "two pieces ahead"),
        ([31, 32, 33, 34, 35, 36], [5, 6, 7], "two pieces ahead"),
        ([31, 32, 33], [5, 6], None),  # one ahead with fewer pieces too
        ([31, 32, 33, 34], [5, 6], "two pieces ahead"),
    ],
)
def test_two_pieces_ahead_ends_the_problem_and_one_does_not(
    white: list[int], black: list[int], expected: str | None
) -> None:
    assert ended(men(white, black), BIG) == expected


def test_a_black_king_keeps_the_problem_going_whatever_white_is_ahead() -> None:
    many = men([31, 32, 33, 34, 35, 36], [5], black_kings=[3])  # five pieces ahead
    assert ended(many, BIG) is None
    with_white_king = men([31, 32, 33, 34, 35], [5], white_kings=[46], black_kings=[3])
    assert ended(with_white_king, BIG) is None


# ------------------------------------------------------------------ a king against no king


@pytest.mark.parametrize(
    ("white", "white_kings", "black", "expected"),
    [
        ([31, 32], [46], [5, 6, 7], "king against no king"),  # level: three each
        ([31], [46], [5, 6, 7], None),  # one behind
        ([31, 32, 33], [46], [5, 6, 7], "king against no king"),  # ahead as well
        ([31, 32], [], [5, 6, 7], None),  # no king, level
    ],
)
def test_a_king_against_no_king_ends_it_unless_white_is_behind(
    white: list[int], white_kings: list[int], black: list[int], expected: str | None
) -> None:
    position = men(white, black, white_kings=white_kings)
    assert ended(position, BIG) == expected


def test_a_king_each_is_not_the_end() -> None:
    assert ended(men([31, 32, 33], [5, 6], white_kings=[46], black_kings=[3]), BIG) is None


# ------------------------------------------------------------------ a small ending


def test_small_ending_is_at_most_four_pieces_of_a_larger_problem() -> None:
    assert SMALL_ENDING == 4
    four = men([31, 32], [5, 6])
    five = men([31, 32, 33], [5, 6])  # one ahead: no other rule ends it
    assert ended(four, 5) == "small ending"  # a problem of five pieces, down to four
    assert ended(four, 4) is None  # a problem of four pieces is not over at once
    assert ended(five, 6) is None
    assert ended(five, 5) is None


def test_small_ending_counts_both_sides_and_kings() -> None:
    assert ended(men([31], [5, 6], black_kings=[3]), 10) == "small ending"  # 1 against 3
    assert ended(men([31], [5, 6, 7], black_kings=[3]), 10) is None  # five pieces


# ------------------------------------------------------------------ the game is over


def test_no_move_for_the_side_to_move_is_the_end_whatever_the_material() -> None:
    # Black to move, its man on 6 blocked by 11 and 16/17 (Fries Spel art. 20.6)
    blocked = Position.from_squares(
        variant=FRISIAN, white_men=[11, 16, 17, 26], black_men=[6], white_to_move=False
    )
    assert ended(blocked, BIG) == "game over"


def test_the_walk_counts_the_pieces_of_both_sides_at_the_start() -> None:
    # the small-ending rule compares with this count: three white men and two black ones are
    # five, so a walk of this problem stops once four are left
    assert analysis._pieces(men([31, 32, 33], [5, 6])) == 5
    assert analysis._pieces(men([31], [5, 6, 7], white_kings=[46], black_kings=[3])) == 6
