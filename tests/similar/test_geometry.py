"""The shifts that keep a position on the dark squares, and how a transform is said."""

from __future__ import annotations

import pytest

from rulebook_build.rules import Position
from rulebook_build.rules.board import column_of, row_of
from rulebook_build.similar.geometry import (
    SHIFTS,
    SQUARE_MAP,
    Shift,
    Transform,
    frame_of,
    legal_shifts,
    mask_of,
)


def test_every_shift_keeps_dark_squares_dark_and_none_is_missing() -> None:
    """A shift of rows and columns keeps the pieces on dark squares exactly when rows + columns
    is even; mirrored, when it is odd: every such shift is there, and no other."""
    wanted = {
        (mirror, rows, columns)
        for mirror in (False, True)
        for rows in range(-9, 10)
        for columns in range(-9, 10)
        if (rows + columns) % 2 == (1 if mirror else 0)
    }
    assert {(s.mirror, s.rows, s.columns) for s in SHIFTS} == wanted
    assert Shift(False, 0, 1) not in SQUARE_MAP  # one column alone: light squares
    assert SHIFTS[0] == Shift(False, 0, 0)
    for shift, table in SQUARE_MAP.items():
        for square in range(1, 51):
            target = table[square]
            if target:
                column = 9 - column_of(square) if shift.mirror else column_of(square)
                assert row_of(target) == row_of(square) + shift.rows
                assert column_of(target) == column + shift.columns


def test_a_shift_is_legal_only_on_the_board_and_off_the_promotion_rows() -> None:
    """A white man on 7 (row 1, column 2) and a black man on 44 (row 8, column 7): a row up
    puts the white man on its promotion row, a row down the black one on its own, four columns
    right the black man off the board."""
    masks, _turned = frame_of(Position.from_squares(white_men=[7], black_men=[44]))
    shifts = {shift for shift, _moved in legal_shifts(masks)}
    assert {Shift(False, 0, 2), Shift(False, 0, -2), Shift(True, 0, 1)} <= shifts
    assert Shift(False, 2, 0) not in shifts
    assert Shift(False, -1, -1) not in shifts
    assert Shift(False, 1, 1) not in shifts
    assert Shift(False, 0, 4) not in shifts
    assert dict(legal_shifts(masks))[Shift(False, 0, 2)] == (mask_of([8]), 0, mask_of([45]), 0)


def test_a_black_to_move_position_is_turned_into_the_mover_s_frame() -> None:
    """Colours reversed (board turned, sides swapped, the other side to move) is the same
    frame position."""
    white = Position.from_squares(white_men=[29, 30], black_men=[7, 19])
    black = Position.from_squares(white_men=[32, 44], black_men=[21, 22], white_to_move=False)
    assert frame_of(white)[0] == frame_of(black)[0]
    assert frame_of(white)[1] is False and frame_of(black)[1] is True
    assert frame_of(white)[0] == (mask_of([29, 30]), 0, mask_of([7, 19]), 0)


@pytest.mark.parametrize(
    ("transform", "code", "words"),
    [
        (Transform(False, False, 0, 0), "identity", ""),
        (Transform(False, False, 0, 2), "shift(+0,+2)", "shifted two columns right"),
        (
            Transform(True, False, -1, 1),
            "reversed+shift(-1,+1)",
            "colours reversed and shifted one row up and one column right",
        ),
        (
            Transform(False, True, 0, -1),
            "mirrored+shift(+0,-1)",
            "mirrored left to right and shifted one column left",
        ),
    ],
)
def test_a_transform_has_a_code_and_words(transform: Transform, code: str, words: str) -> None:
    assert transform.code == code
    assert transform.words() == words


def test_between_frames_a_shift_turns_round_when_the_found_position_is_turned() -> None:
    shift = Shift(False, 1, 1)
    assert Transform.between(shift, False, False) == Transform(False, False, 1, 1)
    assert Transform.between(shift, True, False) == Transform(True, False, 1, 1)
    assert Transform.between(shift, False, True) == Transform(True, False, -1, -1)
    assert Transform.between(shift, True, True) == Transform(False, False, -1, -1)


def test_apply_moves_a_position_as_the_transform_says() -> None:
    start = Position.from_squares(white_men=[29, 30], black_men=[7, 19])
    moved = Transform(False, False, 0, -2).apply(start)
    assert moved == Position.from_squares(white_men=[28, 29], black_men=[6, 18])
    reversed_ = Transform(True, False, 0, 0).apply(start)
    assert reversed_ == Position.from_squares(
        white_men=[32, 44], black_men=[21, 22], white_to_move=False
    )
    assert Transform(False, False, -5, -1).apply(start) is None  # a white man to row 0
