"""The first estimate of a node the df-pn search has not searched yet (search.py
``_first_estimate``): the number of moves, made harder by the material a side is behind."""

from rulebook_build.engine.search import KING_MEN, MATERIAL_WEIGHT, _first_estimate
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import find_variant

INTERNATIONAL = find_variant("international")


def estimate(fen: str, moves: int = 5) -> tuple[int, int]:
    return _first_estimate(parse_fen(fen, variant=INTERNATIONAL).state(), moves)


def test_equal_material_counts_the_moves_only() -> None:
    assert estimate("W:W31,32:B19,20") == (1, 5)  # White chooses: one good move proves
    assert estimate("B:W31,32:B19,20") == (5, 1)  # Black must answer every move


def test_white_behind_is_harder_to_prove_at_either_turn() -> None:
    behind = 1 + MATERIAL_WEIGHT
    assert estimate("W:W31:B19,20") == (behind, 5)
    assert estimate("B:W31:B19,20") == (5 * behind, 1)


def test_white_ahead_is_harder_to_refute_at_either_turn() -> None:
    ahead = 1 + MATERIAL_WEIGHT * 2
    assert estimate("W:W31,32,33:B19") == (1, 5 * ahead)
    assert estimate("B:W31,32,33:B19") == (5, ahead)


def test_a_king_weighs_king_men() -> None:
    # a white king and a man against three black men: White is ahead by KING_MEN + 1 - 3
    balance = KING_MEN + 1 - 3
    assert estimate("W:WK47,31:B1,2,3") == (1, 5 * (1 + MATERIAL_WEIGHT * balance))
