"""Resolve move text (``32-28``, ``26x37``, ``26x37x48``) to a legal move of a position.

KNDB art. 11 / Fries Spel art. 22: a move is written origin-destination with ``-`` or ``x``;
intermediate landing squares are added only when two captures would otherwise read the same.

The text is read with ``grammar/moves.lark`` (the move token of the PDN grammar) and
resolved like a move of a PDN game: this module resolves a move as written (``resolve_written``)
for both, and ``replay.py`` uses it, never the other way round (bytes, tokens, records, then
replay: each step calls only the steps before it).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lark import UnexpectedInput

from rulebook_build.errors import IllegalMoveError, NotationError, RulebookError, Said
from rulebook_build.notation._grammar import describe_fault, load_grammar
from rulebook_build.notation.fen import format_fen
from rulebook_build.notation.messages import Listed
from rulebook_build.notation.pdn import PdnGame, PdnMove, decode_move_token
from rulebook_build.rules import Move, Position
from rulebook_build.words import Message

__all__ = ["matching_moves", "move_notation", "parse_move", "parse_move_text", "resolve_move"]

_EXPECTED = Message.of("notation.a_move_such_as")


def parse_move(text: str) -> PdnMove:
    """One move as written (``32-28``, ``26x37x48``, ``26:37``, ``26×37``).

    Raises :class:`NotationError` with the column (within ``text``) of the fault.
    """
    try:
        tree = load_grammar("moves", "move_list").parse(text)
    except UnexpectedInput as error:
        fault = describe_fault(error, text)
        raise NotationError(
            Message.of("notation.not_a_move", text=repr(text.strip())),
            column=fault.column,
            source_line=text,
            expected=_EXPECTED,
        ) from None
    tokens = list(tree.scan_values(lambda value: True))
    if len(tokens) != 1:
        column = tokens[1].column if len(tokens) > 1 else 1
        raise NotationError(
            Message.of("notation.not_one_move", text=repr(text.strip())),
            column=column,
            source_line=text,
            expected=_EXPECTED,
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
            Message.of("notation.uses_alphanumeric", text=repr(text.strip())),
            source_line=text,
            expected=_EXPECTED,
        )
    return squares, move.capture


def matching_moves(position: Position, text: str) -> list[Move]:
    """Every legal move of ``position`` that ``text`` may denote."""
    return candidate_moves(position, parse_move(text))


def resolve_move(position: Position, text: str) -> Move:
    """The one legal move ``text`` denotes; ``IllegalMoveError`` names the problem otherwise."""
    return resolve_written(position, parse_move(text), source_line=text)


def resolve_line(position: Position, text: str) -> tuple[Move, ...]:
    """The moves of a line as the checker writes one (``17-12 8x17 21x12``; move numbers such
    as ``1.`` or ``1...`` are skipped), each resolved in the position it is played in."""
    played: list[Move] = []
    for token in text.split():
        if token.rstrip(".").isdigit() and token.endswith("."):
            continue
        move = resolve_move(position, token)
        played.append(move)
        position = position.play(move)
    return tuple(played)


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


# --- geometry: the squares a capture route passes ---------------------------------------


def _coordinates(square: int) -> tuple[int, int]:
    row = (square - 1) // 5
    column = 2 * ((square - 1) % 5) + (1 if row % 2 == 0 else 0)
    return row, column


def _square_at(row: int, column: int) -> int | None:
    if not (0 <= row < 10 and 0 <= column < 10) or (row + column) % 2 == 0:
        return None
    return row * 5 + column // 2 + 1


def _between(first: int, second: int) -> list[int]:
    """The squares from ``first`` (excluded) to ``second`` (included) on their line."""
    row, column = _coordinates(first)
    end_row, end_column = _coordinates(second)
    d_row, d_column = end_row - row, end_column - column
    if abs(d_row) == abs(d_column) and d_row:
        step = (d_row // abs(d_row), d_column // abs(d_column))
    elif d_row == 0 and d_column and d_column % 2 == 0:
        step = (0, 2 if d_column > 0 else -2)  # Frisian: along a rank
    elif d_column == 0 and d_row and d_row % 2 == 0:
        step = (2 if d_row > 0 else -2, 0)  # Frisian: along a file
    else:
        return [second]
    squares: list[int] = []
    while (row, column) != (end_row, end_column):
        row, column = row + step[0], column + step[1]
        square = _square_at(row, column)
        if square is None:
            return [second]
        squares.append(square)
    return squares


def _route(move: Move) -> list[int]:
    """Every square the moving piece passes after its origin, landing squares included."""
    route: list[int] = []
    for first, second in itertools.pairwise(move.path):
        route.extend(_between(first, second))
    return route


def _key_squares(move: Move) -> list[int]:
    """The squares PDN 3.0 allows as intermediate squares of ``move``, in route order.

    Each landing square, and the square just behind each captured piece (where the
    piece lands when it goes on in the same direction).
    """
    keys: list[int] = []
    captured = set(move.captured)
    for first, second in itertools.pairwise(move.path):
        leg = _between(first, second)
        for index, square in enumerate(leg):
            if square in captured and index + 1 < len(leg):
                keys.append(leg[index + 1])
        keys.append(second)
    return keys


def _in_order(squares: Sequence[int], wanted: Sequence[int]) -> bool:
    """True when ``wanted`` is a subsequence of ``squares``."""
    index = 0
    for square in squares:
        if index < len(wanted) and square == wanted[index]:
            index += 1
    return index == len(wanted)


# --- resolving one move ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Context:
    """Where moves come from, to locate errors: a game of a file, or one line of text."""

    game: PdnGame | None = None
    source: str = "<moves>"
    source_line: str | None = None

    def error(
        self,
        kind: type[RulebookError],
        message: str | Said,
        written: PdnMove | None,
        expected: str | Said | None = None,
    ) -> RulebookError:
        if self.game is not None:
            if written is None:
                return self.game.error(kind, message, expected=expected)
            return self.game.error(kind, message, written.line, written.column, expected)
        return kind(
            message,
            source=self.source,
            line=written.line or None if written else None,
            column=written.column or None if written else None,
            source_line=self.source_line,
            expected=expected,
        )


def _side(position: Position) -> str:
    return "notation.White" if position.white_to_move else "notation.Black"


def _legal_list(moves: Iterable[Move], position: Position) -> str:
    names = [notation_in(position, move) for move in moves]
    return ", ".join(names) if names else "none (the game is over)"


def _candidates(position: Position, written: PdnMove) -> list[Move]:
    squares = written.squares
    origin, destination = squares[0], squares[-1]
    legal = position.legal_moves()
    same_ends = [m for m in legal if m.origin == origin and m.destination == destination]
    of_kind = [m for m in same_ends if m.is_capture == written.capture]
    pool = of_kind or same_ends  # "32-28" written for a capture, or "x" for a move: liberal
    intermediate = [s for s in squares[1:-1] if isinstance(s, int)]
    if not intermediate:
        return _unique(pool)
    # PDN 3.0: landing squares and the squares just behind captured pieces; failing
    # that (old files), any square the route passes
    found = _unique(m for m in pool if _in_order(_key_squares(m), intermediate))
    return found or _unique(m for m in pool if _in_order(_route(m), intermediate))


def _unique(moves: Iterable[Move]) -> list[Move]:
    found: list[Move] = []
    for move in moves:
        if move not in found:
            found.append(move)
    return found


def _check_squares(written: PdnMove, context: _Context) -> None:
    for square in written.squares:
        if not isinstance(square, int):
            raise context.error(
                NotationError,
                Message.of("notation.alphanumeric_in_game", square=square),
                written,
                expected=Message.of("notation.square_numbers"),
            )
        if not 1 <= square <= 50:
            raise context.error(
                NotationError,
                Message.of("notation.square_not_in_move", square=square, move=written.notation),
                written,
                expected=Message.of("notation.square_numbers"),
            )


def _ambiguous(written: PdnMove, found: Sequence[Move], context: _Context) -> RulebookError:
    routes = Listed(
        tuple(
            Message.of(
                "notation.route_captures",
                route=move.full_notation(),
                squares=", ".join(map(str, move.captured)),
            )
            for move in found
        )
    )
    return context.error(
        IllegalMoveError,
        Message.of("notation.ambiguous", move=written.notation, routes=routes),
        written,
        expected=Message.of("notation.full_route", route=found[0].full_notation()),
    )


def _illegal(written: PdnMove, position: Position, context: _Context) -> RulebookError:
    return context.error(
        IllegalMoveError,
        Message.of(
            "notation.illegal_move",
            move=written.notation,
            side=Message.of(_side(position)),
            fen=format_fen(position),
        ),
        written,
        expected=Message.of(
            "notation.legal_moves", moves=_legal_list(position.legal_moves(), position)
        ),
    )


def resolve_written(
    position: Position,
    written: PdnMove,
    *,
    game: PdnGame | None = None,
    source: str = "<moves>",
    source_line: str | None = None,
) -> Move:
    """The legal move of ``position`` that ``written`` names.

    Raises :class:`IllegalMoveError` when no legal move matches, or when a short capture
    matches several different captures (the message lists them in full);
    :class:`NotationError` for a square that is not on the board.  Errors are located at
    ``written.line``/``written.column`` of ``game``'s file, or else of ``source``, showing
    ``source_line``.
    """
    context = _Context(game, source, source_line)
    _check_squares(written, context)
    found = _candidates(position, written)
    if len(found) == 1:
        return found[0]
    if found:
        raise _ambiguous(written, found, context)
    raise _illegal(written, position, context)


def notation_in(position: Position, move: Move) -> str:
    """Strict PDN 3.0 notation of a legal ``move`` of ``position``.

    ``32-28`` or ``26x48``; the full route (``26x37x48``) only when another legal capture
    has the same origin and destination.
    """
    return move_notation(move, position.legal_moves())


def candidate_moves(position: Position, written: PdnMove) -> list[Move]:
    """The legal moves of ``position`` that ``written`` may denote (none, one or more)."""
    if not written.is_numeric:
        return []
    return _candidates(position, written)
