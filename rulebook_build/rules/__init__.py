"""The rules engine: International and Frisian draughts.  No I/O, no site, no notation."""

from pathlib import Path
from typing import TYPE_CHECKING

from rulebook_build import face
from rulebook_build.rules.board import SQUARES, Square
from rulebook_build.rules.game import Game
from rulebook_build.rules.movegen import perft as raw_perft
from rulebook_build.rules.position import Move, Piece, Position
from rulebook_build.rules.variants import FRISIAN, INTERNATIONAL, VARIANTS, Variant, find_variant


def source_files(*, draw_rules: bool = False) -> list[Path]:
    """The files the rules are written in (the board, the moves, the variants; with
    ``draw_rules``, the draw rules too), in that order: the endgame tables' fingerprint hashes
    them, so that a change to the rules never reuses tables built by the old ones."""
    from rulebook_build.rules import board, drawrules, movegen, variants

    modules = [board, movegen, variants, *([drawrules] if draw_rules else [])]
    return [Path(str(module.__file__)) for module in modules]


def perft(position: Position, depth: int) -> int:
    """Leaf count of the legal move tree of ``position`` to ``depth`` (unique moves)."""
    return raw_perft(position.variant, position.state(), depth)


# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.rules.board import (
        BIT_OF_SQUARE,
        DIAGONALS,
        ORTHOGONALS,
        SQUARE_OF_BIT,
        Bitboard,
        Direction,
        column_of,
        neighbour,
        row_of,
        square_at,
    )
    from rulebook_build.rules.drawrules import (
        ENDING_PLIES,
        FRISIAN_TWO_KINGS_MOVES,
        KING_ONLY_PLIES,
        DrawClocks,
        advance,
        draw_by_count,
        fresh_plies,
        initial_clocks,
        lone_king_ending,
        one_king_each_is_drawn,
        play_is_finite,
        plies_left,
    )
    from rulebook_build.rules.drawrules import material as piece_counts
    from rulebook_build.rules.movegen import (
        NO_STREAK,
        RawMove,
        State,
        Streak,
        count_moves,
        generate,
        make,
    )
    from rulebook_build.rules.position import START_FENS, to_move
    from rulebook_build.rules.scoring import material as material_score
    from rulebook_build.rules.scoring import score

__getattr__ = face(
    __name__,
    {
        "BIT_OF_SQUARE": ("rulebook_build.rules.board", "BIT_OF_SQUARE"),
        "Bitboard": ("rulebook_build.rules.board", "Bitboard"),
        "DIAGONALS": ("rulebook_build.rules.board", "DIAGONALS"),
        "Direction": ("rulebook_build.rules.board", "Direction"),
        "DrawClocks": ("rulebook_build.rules.drawrules", "DrawClocks"),
        "ENDING_PLIES": ("rulebook_build.rules.drawrules", "ENDING_PLIES"),
        "FRISIAN_TWO_KINGS_MOVES": ("rulebook_build.rules.drawrules", "FRISIAN_TWO_KINGS_MOVES"),
        "KING_ONLY_PLIES": ("rulebook_build.rules.drawrules", "KING_ONLY_PLIES"),
        "NO_STREAK": ("rulebook_build.rules.movegen", "NO_STREAK"),
        "ORTHOGONALS": ("rulebook_build.rules.board", "ORTHOGONALS"),
        "RawMove": ("rulebook_build.rules.movegen", "RawMove"),
        "SQUARE_OF_BIT": ("rulebook_build.rules.board", "SQUARE_OF_BIT"),
        "START_FENS": ("rulebook_build.rules.position", "START_FENS"),
        "State": ("rulebook_build.rules.movegen", "State"),
        "Streak": ("rulebook_build.rules.movegen", "Streak"),
        "advance": ("rulebook_build.rules.drawrules", "advance"),
        "column_of": ("rulebook_build.rules.board", "column_of"),
        "count_moves": ("rulebook_build.rules.movegen", "count_moves"),
        "draw_by_count": ("rulebook_build.rules.drawrules", "draw_by_count"),
        "fresh_plies": ("rulebook_build.rules.drawrules", "fresh_plies"),
        "generate": ("rulebook_build.rules.movegen", "generate"),
        "initial_clocks": ("rulebook_build.rules.drawrules", "initial_clocks"),
        "lone_king_ending": ("rulebook_build.rules.drawrules", "lone_king_ending"),
        "make": ("rulebook_build.rules.movegen", "make"),
        "material_score": ("rulebook_build.rules.scoring", "material"),
        "neighbour": ("rulebook_build.rules.board", "neighbour"),
        "one_king_each_is_drawn": ("rulebook_build.rules.drawrules", "one_king_each_is_drawn"),
        "piece_counts": ("rulebook_build.rules.drawrules", "material"),
        "play_is_finite": ("rulebook_build.rules.drawrules", "play_is_finite"),
        "plies_left": ("rulebook_build.rules.drawrules", "plies_left"),
        "row_of": ("rulebook_build.rules.board", "row_of"),
        "score": ("rulebook_build.rules.scoring", "score"),
        "square_at": ("rulebook_build.rules.board", "square_at"),
        "to_move": ("rulebook_build.rules.position", "to_move"),
    },
)

__all__ = [
    "BIT_OF_SQUARE",
    "DIAGONALS",
    "ENDING_PLIES",
    "FRISIAN",
    "FRISIAN_TWO_KINGS_MOVES",
    "INTERNATIONAL",
    "KING_ONLY_PLIES",
    "NO_STREAK",
    "ORTHOGONALS",
    "SQUARES",
    "SQUARE_OF_BIT",
    "START_FENS",
    "VARIANTS",
    "Bitboard",
    "Direction",
    "DrawClocks",
    "Game",
    "Move",
    "Piece",
    "Position",
    "RawMove",
    "Square",
    "State",
    "Streak",
    "Variant",
    "advance",
    "column_of",
    "count_moves",
    "draw_by_count",
    "find_variant",
    "fresh_plies",
    "generate",
    "initial_clocks",
    "lone_king_ending",
    "make",
    "material_score",
    "neighbour",
    "one_king_each_is_drawn",
    "perft",
    "piece_counts",
    "play_is_finite",
    "plies_left",
    "row_of",
    "score",
    "source_files",
    "square_at",
    "to_move",
]
