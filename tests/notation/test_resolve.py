"""Move text to legal moves (``rulebook moves --play``, the renderer)."""

from __future__ import annotations

import pytest

from rulebook_build.errors import IllegalMoveError, NotationError
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.resolve import (
    matching_moves,
    move_notation,
    parse_move,
    parse_move_text,
    resolve_move,
)
from rulebook_build.rules import Position

AMBIGUOUS = "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"


@pytest.mark.parametrize(
    ("text", "squares", "capture"),
    [
        ("32-28", (32, 28), False),
        (" 26x37 ", (26, 37), True),
        ("26x37x48", (26, 37, 48), True),
        ("26×37", (26, 37), True),
        ("26:37", (26, 37), True),
    ],
)
def test_parse_move_text(text: str, squares: tuple[int, ...], capture: bool) -> None:
    assert parse_move_text(text) == (squares, capture)


@pytest.mark.parametrize(("text", "column"), [("32-", 1), ("32-28 19-23", 7), ("", 1), ("x", 1)])
def test_not_a_move(text: str, column: int) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert caught.value.column == column


def test_resolve_and_notation() -> None:
    position = parse_fen(AMBIGUOUS)
    assert len(matching_moves(position, "36x16")) == 2
    with pytest.raises(IllegalMoveError) as caught:
        resolve_move(position, "36x16")
    assert "36x18x7x16" in caught.value.message and "36x13x2x16" in caught.value.message
    move = resolve_move(position, "36x13x2x16")
    assert move_notation(move, position.legal_moves()) == "36x13x2x16"
    start = Position.initial()
    assert move_notation(resolve_move(start, "32-28"), start.legal_moves()) == "32-28"
    with pytest.raises(IllegalMoveError):
        resolve_move(start, "32-29")
