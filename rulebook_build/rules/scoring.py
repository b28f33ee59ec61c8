"""Stichting Dampromotie, *Reglement puntentelling*: score a finished International game.

Art. 3: a knockout (the opponent, to move, has no legal move) scores 12-0.
Art. 4/5: otherwise the final position is counted, a king worth two men:
4 or more men ahead 9-1, 3 ahead 8-2, 2 ahead 7-3, 1 ahead 6-4.
Art. 7: equal material: the player with a king on the main diagonal (5-46) wins 6-4.
Art. 8: both or neither on the main diagonal: whoever was first to get a king wins 6-4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rulebook_build.rules.game import Game
from rulebook_build.rules.position import Position

MAIN_DIAGONAL: Final = (5, 10, 14, 19, 23, 28, 32, 37, 41, 46)
POINT_SCALE: Final = {4: (9, 1), 3: (8, 2), 2: (7, 3), 1: (6, 4)}


@dataclass(frozen=True, slots=True)
class Score:
    white: int
    black: int
    reason: str

    def __str__(self) -> str:
        return f"{self.white}-{self.black} ({self.reason})"


def material(position: Position, white: bool) -> int:
    """Art. 5: men count one, kings two."""
    men, kings = position.count(white)
    return men + 2 * kings


def first_to_king(game: Game, start: Position) -> bool | None:
    """Which side (True = White) was first to promote in ``game`` played from ``start``."""
    position = start
    for move in game.moves:
        before = position
        position = position.play(move)
        for white in (True, False):
            if position.count(white)[1] > before.count(white)[1]:
                return white
    return None


def score(game: Game, start: Position) -> Score:
    """Score the final position of ``game`` (played from ``start``) by the Dampromotie rules."""
    final = game.position
    if not final.raw_moves():
        # art. 3: knockout
        return Score(0, 12, "knockout") if final.white_to_move else Score(12, 0, "knockout")
    difference = material(final, True) - material(final, False)
    if difference:
        winner, loser = POINT_SCALE[min(abs(difference), 4)]
        ahead = "White" if difference > 0 else "Black"
        reason = f"{ahead} {abs(difference)} men ahead (a king counts two)"
        return Score(winner, loser, reason) if difference > 0 else Score(loser, winner, reason)
    on_diagonal = {
        white: any(
            s in MAIN_DIAGONAL for s in final.squares_of("white" if white else "black", "king")
        )
        for white in (True, False)
    }
    if on_diagonal[True] != on_diagonal[False]:
        reason = "equal material, king on the main diagonal 5-46 (art. 7)"
        return Score(6, 4, reason) if on_diagonal[True] else Score(4, 6, reason)
    first = first_to_king(game, start)
    if first is None:
        return Score(5, 5, "equal material and no king was made: no rule decides")
    reason = "equal material, first to make a king (art. 8)"
    return Score(6, 4, reason) if first else Score(4, 6, reason)
