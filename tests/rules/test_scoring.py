"""Dampromotie scoring (reglement puntentelling)."""

from __future__ import annotations

from rulebook_build.rules import INTERNATIONAL, Game, Position
from rulebook_build.rules.scoring import score


def position(**squares: object) -> Position:
    return Position.from_squares(variant=INTERNATIONAL, **squares)  # type: ignore[arg-type]


def test_art3_knockout_is_twelve_nil() -> None:
    final = position(white_men=[46], black_men=[41, 37])
    assert (score(Game(final), final).white, score(Game(final), final).black) == (0, 12)


def test_art4_point_scale_by_material_difference() -> None:
    for extra, expected in ((1, (6, 4)), (2, (7, 3)), (3, (8, 2)), (4, (9, 1)), (6, (9, 1))):
        white_men = [*[31, 32, 33, 34, 35, 36][:extra], 40]
        final = position(white_men=white_men, black_men=[6])
        result = score(Game(final), final)
        assert (result.white, result.black) == expected


def test_art5_a_king_counts_two_men() -> None:
    # one king against two men is equal material; the king stands on the main diagonal
    final = position(white_kings=[28], black_men=[6, 7])
    result = score(Game(final), final)
    assert (result.white, result.black) == (6, 4)
    assert "diagonal" in result.reason
    ahead = position(white_kings=[27], black_men=[6])
    result = score(Game(ahead), ahead)
    assert (result.white, result.black) == (6, 4)
    assert "1 men ahead" in result.reason


def test_art7_main_diagonal_decides_equal_material() -> None:
    final = position(white_kings=[28], black_kings=[27])
    result = score(Game(final), final)
    assert (result.white, result.black) == (6, 4)  # 28 lies on 5-46, 27 does not


def test_art8_first_to_king_decides_when_neither_holds_the_diagonal() -> None:
    start = position(white_men=[7], black_men=[44])
    game = Game(start)
    for origin, destination in ((7, 2), (44, 50)):
        move = next(
            m
            for m in game.position.legal_moves()
            if (m.origin, m.destination) == (origin, destination)
        )
        game = game.play(move)
    assert game.position.squares_of("white", "king") == (2,)
    assert game.position.squares_of("black", "king") == (50,)
    result = score(game, start)
    assert (result.white, result.black) == (6, 4)
    assert "first" in result.reason
