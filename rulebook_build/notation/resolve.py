"""Resolve move text (``32-28``, ``26x37``, ``26x37x48``) to a legal move of a position.

KNDB art. 11 / Fries Spel art. 22: a move is written origin-destination with ``-`` or ``x``;
intermediate landing squares are added only when two captures would otherwise read the same.

The text is read with ``grammar/moves.lark`` (the move token of the PDN grammar) and
resolved like a move of a PDN game (:func:`rulebook_build.notation.replay.resolve_move`).
"""

from __future__ import annotations

from collections.abc import Sequence

from lark import UnexpectedInput

from rulebook_build.errors import NotationError
from rulebook_build.notation._grammar import describe_fault, load_grammar
from rulebook_build.notation.pdn import PdnMove, decode_move_token
from rulebook_build.rules import Move, Position

__all__ = ["matching_moves", "move_notation", "parse_move", "parse_move_text", "resolve_move"]

_EXPECTED = "a move such as 32-28, 26x37 or 26x37x48"


def parse_move(text: str) -> PdnMove:
    """One move as written (``32-28``, ``26x37x48``, ``26:37``, ``26×37``).

    Raises :class:`NotationError` with the column (within ``text``) of the fault.
    """
    try:
        tree = load_grammar("moves", "move_list").parse(text)
    except UnexpectedInput as error:
        fault = describe_fault(error, text)
        raise NotationError(
            f"{text.strip()!r} is not a move",
            column=fault.column,
            source_line=text,
            expected=_EXPECTED,
        ) from None
    tokens = list(tree.scan_values(lambda value: True))
    if len(tokens) != 1:
        column = tokens[1].column if len(tokens) > 1 else 1
        raise NotationError(
            f"{text.strip()!r} is not one move", column=column, source_line=text, expected=_EXPECTED
        )
    token = tokens[0]
    squares, capture = decode_move_token(str(token))
    return PdnMove(squares, capture, column=token.column or 0)


def parse_move_text(text: str) -> tuple[tuple[int, ...], bool | None]:
    """Squares of a move text and whether it says capture (True) or not (False)."""
    move = parse_move(text)
    squares = tuple(s for s in move.squares if isinstance(s, int))
    if len(squares) != len(move.squares):
        raise NotationError(
            f"{text.strip()!r} uses alphanumeric squares", source_line=text, expected=_EXPECTED
        )
    return squares, move.capture


def matching_moves(position: Position, text: str) -> list[Move]:
    """Every legal move of ``position`` that ``text`` may denote."""
    from rulebook_build.notation.replay import candidate_moves

    return candidate_moves(position, parse_move(text))


def resolve_move(position: Position, text: str) -> Move:
    """The one legal move ``text`` denotes; ``IllegalMoveError`` names the problem otherwise."""
    from rulebook_build.notation.replay import resolve_move as resolve_written

    return resolve_written(position, parse_move(text), source_line=text)


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
