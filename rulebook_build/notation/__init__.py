"""Draughts notation: FEN, moves, PDN games and problems, diagram blocks.

The only layer that imports :mod:`lark`.  It depends on :mod:`rulebook_build.rules` and
:mod:`rulebook_build.errors`, never on the checker, the renderer or the site.
"""

from typing import TYPE_CHECKING

from rulebook_build import face

# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.notation._grammar import GRAMMAR_DIR
    from rulebook_build.notation.diagram import DIAGRAM_KEYS, DiagramSpec, parse_diagram
    from rulebook_build.notation.fen import format_fen, parse_fen
    from rulebook_build.notation.messages import Choices, said_in, shown
    from rulebook_build.notation.pdn import (
        MAX_GAME_CHARACTERS,
        MoveText,
        PdnGame,
        PdnMove,
        Setup,
        iter_pdn_file,
        read_pdn,
        read_pdn_file,
        write_game,
    )
    from rulebook_build.notation.replay import (
        ReplayedGame,
        ReplayedLine,
        ReplayedMove,
        ReplayedProblem,
        Unplayable,
        candidate_moves,
        default_variant,
        describe_gametype,
        game_variant,
        has_square,
        line_text,
        replay_problem,
        shows_10x10,
        start_position,
        unplayable,
    )
    from rulebook_build.notation.replay import replay as replay_game
    from rulebook_build.notation.resolve import (
        move_notation,
        notation_in,
        resolve_line,
        resolve_move,
    )

__getattr__ = face(
    __name__,
    {
        "Choices": ("rulebook_build.notation.messages", "Choices"),
        "DIAGRAM_KEYS": ("rulebook_build.notation.diagram", "DIAGRAM_KEYS"),
        "DiagramSpec": ("rulebook_build.notation.diagram", "DiagramSpec"),
        "GRAMMAR_DIR": ("rulebook_build.notation._grammar", "GRAMMAR_DIR"),
        "MAX_GAME_CHARACTERS": ("rulebook_build.notation.pdn", "MAX_GAME_CHARACTERS"),
        "MoveText": ("rulebook_build.notation.pdn", "MoveText"),
        "PdnGame": ("rulebook_build.notation.pdn", "PdnGame"),
        "PdnMove": ("rulebook_build.notation.pdn", "PdnMove"),
        "ReplayedGame": ("rulebook_build.notation.replay", "ReplayedGame"),
        "ReplayedLine": ("rulebook_build.notation.replay", "ReplayedLine"),
        "ReplayedMove": ("rulebook_build.notation.replay", "ReplayedMove"),
        "ReplayedProblem": ("rulebook_build.notation.replay", "ReplayedProblem"),
        "Setup": ("rulebook_build.notation.pdn", "Setup"),
        "Unplayable": ("rulebook_build.notation.replay", "Unplayable"),
        "candidate_moves": ("rulebook_build.notation.replay", "candidate_moves"),
        "default_variant": ("rulebook_build.notation.replay", "default_variant"),
        "describe_gametype": ("rulebook_build.notation.replay", "describe_gametype"),
        "format_fen": ("rulebook_build.notation.fen", "format_fen"),
        "game_variant": ("rulebook_build.notation.replay", "game_variant"),
        "has_square": ("rulebook_build.notation.replay", "has_square"),
        "iter_pdn_file": ("rulebook_build.notation.pdn", "iter_pdn_file"),
        "line_text": ("rulebook_build.notation.replay", "line_text"),
        "move_notation": ("rulebook_build.notation.resolve", "move_notation"),
        "notation_in": ("rulebook_build.notation.resolve", "notation_in"),
        "parse_diagram": ("rulebook_build.notation.diagram", "parse_diagram"),
        "parse_fen": ("rulebook_build.notation.fen", "parse_fen"),
        "read_pdn": ("rulebook_build.notation.pdn", "read_pdn"),
        "read_pdn_file": ("rulebook_build.notation.pdn", "read_pdn_file"),
        "replay_game": ("rulebook_build.notation.replay", "replay"),
        "replay_problem": ("rulebook_build.notation.replay", "replay_problem"),
        "resolve_line": ("rulebook_build.notation.resolve", "resolve_line"),
        "resolve_move": ("rulebook_build.notation.resolve", "resolve_move"),
        "said_in": ("rulebook_build.notation.messages", "said_in"),
        "shown": ("rulebook_build.notation.messages", "shown"),
        "shows_10x10": ("rulebook_build.notation.replay", "shows_10x10"),
        "start_position": ("rulebook_build.notation.replay", "start_position"),
        "unplayable": ("rulebook_build.notation.replay", "unplayable"),
        "write_game": ("rulebook_build.notation.pdn", "write_game"),
    },
)

__all__ = [
    "DIAGRAM_KEYS",
    "GRAMMAR_DIR",
    "MAX_GAME_CHARACTERS",
    "Choices",
    "DiagramSpec",
    "MoveText",
    "PdnGame",
    "PdnMove",
    "ReplayedGame",
    "ReplayedLine",
    "ReplayedMove",
    "ReplayedProblem",
    "Setup",
    "Unplayable",
    "candidate_moves",
    "default_variant",
    "describe_gametype",
    "format_fen",
    "game_variant",
    "has_square",
    "iter_pdn_file",
    "line_text",
    "move_notation",
    "notation_in",
    "parse_diagram",
    "parse_fen",
    "read_pdn",
    "read_pdn_file",
    "replay_game",
    "replay_problem",
    "resolve_line",
    "resolve_move",
    "said_in",
    "shown",
    "shows_10x10",
    "start_position",
    "unplayable",
    "write_game",
]
