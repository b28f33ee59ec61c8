"""The rules engine: International and Frisian draughts.  No I/O, no site, no notation."""

from rulebook_build.rules.board import SQUARES, Square
from rulebook_build.rules.game import Game
from rulebook_build.rules.movegen import perft as raw_perft
from rulebook_build.rules.position import Move, Piece, Position
from rulebook_build.rules.variants import FRISIAN, INTERNATIONAL, VARIANTS, Variant, find_variant


def perft(position: Position, depth: int) -> int:
    """Leaf count of the legal move tree of ``position`` to ``depth`` (unique moves)."""
    return raw_perft(position.variant, position.state(), depth)


__all__ = [
    "FRISIAN",
    "INTERNATIONAL",
    "SQUARES",
    "VARIANTS",
    "Game",
    "Move",
    "Piece",
    "Position",
    "Square",
    "Variant",
    "find_variant",
    "perft",
]
