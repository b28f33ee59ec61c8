"""The steps of a diagram's moves, as the player and the GIF show them."""

from __future__ import annotations

from rulebook_build.notation.diagram import parse_diagram
from rulebook_build.render.animation import frames, move_list, plies
from rulebook_build.rules import Piece


def test_plies_carry_route_capture_order_and_notation() -> None:
    spec = parse_diagram("position: W:W32:B18,27,28\nmoves: 32x12 27-31")
    sequence = plies(spec.position, spec.moves)
    assert [p.notation for p in sequence] == ["32x12", "27-31"]
    assert sequence[0].move.path == (32, 23, 12)
    assert sequence[0].move.captured == (28, 18)
    assert sequence[1].after.pieces() == {12: Piece.WHITE_MAN, 31: Piece.BLACK_MAN}


def test_move_list_numbers_moves_not_plies() -> None:
    spec = parse_diagram("position: start\nmoves: 32-28 19-23 28x19")
    assert move_list(plies(spec.position, spec.moves)) == [
        (1, "1. 32-28"),
        (2, "19-23"),
        (3, "2. 28x19"),
    ]
    black_first = parse_diagram("position: B:W32:B18\nmoves: 18-23 32-28")
    assert move_list(plies(black_first.position, black_first.moves)) == [
        (1, "1. … 18-23"),
        (2, "2. 32-28"),
    ]


def test_frames_keep_captured_pieces_as_ghosts_until_the_move_ends() -> None:
    spec = parse_diagram("position: W:W32:B18,27,28\nmoves: 32x12")
    steps = frames(spec.position, spec.moves)
    assert [sorted(f.pieces) for f in steps] == [
        [18, 27, 28, 32],
        [18, 23, 27, 28],
        [12, 18, 27, 28],
        [12, 27],
    ]
    assert [f.ghosts for f in steps] == [(), (28,), (28, 18), ()]
    assert steps[-1].marked == (32, 12)


def test_promotion_shows_a_king_at_the_end() -> None:
    spec = parse_diagram("position: W:W6:B20\nmoves: 6-1")
    assert frames(spec.position, spec.moves)[-1].pieces[1] is Piece.WHITE_KING
