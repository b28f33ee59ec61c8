"""Resolve move text (``32-28``, ``26x37``, ``26x37x48``) to a legal move of a position.

KNDB art. 11 / Fries Spel art. 22: a move is written origin-destination with ``-`` or ``x``;
intermediate landing squares are added only when two captures would otherwise read the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rulebook_build.errors import IllegalMoveError, NotationError
from rulebook_build.rules import Move, Position

_MOVE_TEXT = re.compile(r"^\s*(\d{1,2})\s*(?:([-x:×])\s*(\d{1,2})\s*)+$", re.IGNORECASE)


def parse_move_text(text: str) -> tuple[tuple[int, ...], bool | None]:
    """Squares of a move text and whether it says capture (True), quiet (False) or either."""
    if not _MOVE_TEXT.match(text):
        raise NotationError(
            f"{text!r} is not a move", expected="a move such as 32-28, 26x37 or 26x37x48"
        )
    squares = tuple(int(s) for s in re.findall(r"\d+", text))
    separators = set(re.findall(r"[-x:×]", text.lower()))
    capture: bool | None = None
    if separators <= {"x", ":", "×"}:
        capture = True
    elif separators == {"-"}:
        capture = False if len(squares) == 2 else None
    return squares, capture


def matching_moves(position: Position, text: str) -> list[Move]:
    squares, capture = parse_move_text(text)
    candidates = []
    for move in position.legal_moves():
        if move.origin != squares[0] or move.destination != squares[-1]:
            continue
        if len(squares) > 2 and not _visits_in_order(move.path[1:-1], squares[1:-1]):
            continue
        candidates.append(move)
    if capture is not None and len(candidates) > 1:
        candidates = [m for m in candidates if m.is_capture == capture] or candidates
    return candidates


def _visits_in_order(landings: Sequence[int], wanted: Sequence[int]) -> bool:
    position = 0
    for square in wanted:
        try:
            position = list(landings).index(square, position) + 1
        except ValueError:
            return False
    return True


def resolve_move(position: Position, text: str) -> Move:
    """The one legal move ``text`` denotes; ``IllegalMoveError`` names the problem otherwise."""
    from rulebook_build.notation.fen import format_fen  # FEN writing lives beside us

    candidates = matching_moves(position, text)
    if len(candidates) == 1:
        return candidates[0]
    legal = position.legal_moves()
    if not candidates:
        listing = ", ".join(move_notation(m, legal) for m in legal) or "none"
        raise IllegalMoveError(
            f"illegal move {text.strip()} in {format_fen(position)}",
            expected=f"one of the legal moves: {listing}",
        )
    listing = ", ".join(m.full_notation() for m in candidates)
    raise IllegalMoveError(
        f"ambiguous move {text.strip()} in {format_fen(position)}: it matches {listing}",
        expected="the full route with every landing square",
    )


def move_notation(move: Move, legal_moves: Sequence[Move]) -> str:
    """Short notation, with landing squares added only when needed to tell two moves apart."""
    short = str(move)
    rivals = [
        m
        for m in legal_moves
        if m.origin == move.origin and m.destination == move.destination and m != move
    ]
    if not rivals:
        return short
    return move.full_notation()
