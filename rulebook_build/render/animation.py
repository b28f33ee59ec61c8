"""The moves of a diagram as steps to show: every ply, and every leg of a capture.

Computed once by the rules engine, so that neither the solution player's script nor the GIF
writer knows any rules: a ply carries its route, the pieces it captures (in capture order)
and the placement after it; a frame is one picture on the way.

Captured pieces stay on the board as "ghosts" until the move is complete, then vanish
together (KNDB art. 4.7; Fries Spel art. 9: pieces are removed after the capture ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rulebook_build.notation import move_notation
from rulebook_build.rules import Move, Piece, Position


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of the sequence: ``number`` counts plies from 1."""

    number: int
    move: Move
    notation: str
    before: Position
    after: Position

    @property
    def by_white(self) -> bool:
        return self.before.white_to_move


def plies(position: Position, moves: Sequence[Move]) -> tuple[Ply, ...]:
    """Play ``moves`` from ``position``; ``IllegalMoveError`` if one is not legal."""
    result = []
    current = position
    for number, move in enumerate(moves, start=1):
        after = current.play(move)
        notation = move_notation(move, current.legal_moves())
        result.append(Ply(number, move, notation, current, after))
        current = after
    return tuple(result)


def move_list(sequence: Sequence[Ply]) -> list[tuple[int, str]]:
    """``[(1, "1. 32-28"), (2, "19-23"), (3, "2. 28x19")]``: each ply with its move number.

    A sequence that starts with Black to move begins ``1. … 19-23``.
    """
    labels = []
    move_number = 1
    for ply in sequence:
        if ply.by_white:
            labels.append((ply.number, f"{move_number}. {ply.notation}"))
        else:
            if ply.number == 1:
                labels.append((ply.number, f"{move_number}. … {ply.notation}"))
            else:
                labels.append((ply.number, ply.notation))
            move_number += 1
    return labels


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture: where the pieces stand, what is marked, and for how long (ms)."""

    pieces: dict[int, Piece]
    duration: int
    marked: tuple[int, ...] = ()
    ghosts: tuple[int, ...] = field(default=())


START_HOLD = 1400
LEG_TIME = 550
MOVE_HOLD = 1000
END_HOLD = 2600


def frames(position: Position, moves: Sequence[Move]) -> list[Frame]:
    """The pictures of an animation: the start, each leg of each move, the final position."""
    result = [Frame(position.pieces(), START_HOLD)]
    for ply in plies(position, moves):
        pieces = dict(ply.before.pieces())
        route = ply.move.path
        mover = pieces.pop(route[0])
        if ply.move.is_capture:
            # leg by leg; the captured pieces stay as ghosts until the move is complete
            for leg in range(1, len(route)):
                pieces[route[leg]] = mover
                ghosts = ply.move.captured[:leg]
                result.append(Frame(dict(pieces), LEG_TIME, (route[0], route[leg]), ghosts))
                del pieces[route[leg]]
        result.append(Frame(ply.after.pieces(), MOVE_HOLD, (route[0], route[-1])))
    if len(result) > 1:
        last = result[-1]
        result[-1] = Frame(last.pieces, END_HOLD, last.marked, last.ghosts)
    return result
