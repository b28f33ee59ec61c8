"""Positions and moves as immutable values (Scan style: ``position.play(move)`` is the next)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from rulebook_build.errors import IllegalMoveError, PositionError
from rulebook_build.rules.board import (
    BIT_OF_SQUARE,
    SQUARE_OF_BIT,
    Bitboard,
    mask_of,
    squares_in,
)
from rulebook_build.rules.movegen import NO_STREAK, RawMove, State, generate, make
from rulebook_build.rules.variants import INTERNATIONAL, Variant
from rulebook_build.words import Message, define

define("rules.no_such_square", "square {square} does not exist (squares are 1-50)")
define("rules.white_man_on_row", "white man on {square}, its own promotion row (1-5)")
define("rules.black_man_on_row", "black man on {square}, its own promotion row (46-50)")
define("rules.two_pieces", "square {square} holds two pieces ({first} and {second})")
define("rules.white_man", "white man")
define("rules.white_king", "white king")
define("rules.black_man", "black man")
define("rules.black_king", "black king")
define("rules.no_king_move_limit", "{variant} has no limit on consecutive king moves")
define("rules.king_move_count", "{side} king-move count {count} is not 0-{limit}")
define(
    "rules.king_move_square",
    "{side} king-move count names square {square}, which holds no {colour} king",
)
define("rules.white_side", "white")
define("rules.black_side", "black")
define("rules.white_colour", "white")
define("rules.black_colour", "black")
define("rules.not_legal_here", "{move} is not legal here (legal: {legal})")
define("rules.no_legal_move", "none")


class Piece(Enum):
    WHITE_MAN = "white man"
    WHITE_KING = "white king"
    BLACK_MAN = "black man"
    BLACK_KING = "black king"

    @property
    def is_white(self) -> bool:
        return self in (Piece.WHITE_MAN, Piece.WHITE_KING)

    @property
    def is_king(self) -> bool:
        return self in (Piece.WHITE_KING, Piece.BLACK_KING)


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move: identity is (origin, destination, set of captured pieces); ``path`` is one route.

    ``path`` holds the origin, every landing square and the destination; ``captured`` the
    captured squares in capture order along that route.
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @property
    def origin(self) -> int:
        return self.path[0]

    @property
    def destination(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def captured_set(self) -> frozenset[int]:
        return frozenset(self.captured)

    @property
    def identity(self) -> tuple[int, int, frozenset[int]]:
        return (self.origin, self.destination, frozenset(self.captured))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.identity == other.identity

    def __hash__(self) -> int:
        return hash(self.identity)

    def __str__(self) -> str:
        """Short notation (KNDB art. 11, Fries Spel art. 22): ``32-28`` or ``26x37``."""
        separator = "x" if self.captured else "-"
        return f"{self.origin}{separator}{self.destination}"

    def full_notation(self) -> str:
        """Every landing square: ``26x37x48`` (the long form that tells two captures apart)."""
        if not self.captured:
            return str(self)
        return "x".join(str(square) for square in self.path)

    def __repr__(self) -> str:
        return f"Move({self.full_notation()!r}, captured={list(self.captured)})"


def to_move(raw: RawMove) -> Move:
    """The public ``Move`` of a raw move from the generator."""
    return Move(
        path=tuple(SQUARE_OF_BIT[b] for b in raw[3]),
        captured=tuple(SQUARE_OF_BIT[b] for b in raw[4]),
    )


def _streak_to_bits(streak: tuple[int, int]) -> tuple[int, int]:
    count, square = streak
    return (count, BIT_OF_SQUARE[square]) if count and square else NO_STREAK


def _streak_to_squares(streak: tuple[int, int]) -> tuple[int, int]:
    count, bit = streak
    return (count, SQUARE_OF_BIT[bit]) if count else (0, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """A position: where the pieces stand, who is to move, and the variant's rule state.

    The four bitboards use the layout of ``board.py``; build positions with ``initial`` or
    ``from_squares`` rather than by hand.  ``*_king_streak`` is Fries Spel art. 17 state:
    (consecutive non-capturing moves, square of that king), (0, 0) when none.
    """

    white_men: Bitboard
    white_kings: Bitboard
    black_men: Bitboard
    black_kings: Bitboard
    white_to_move: bool = True
    variant: Variant = INTERNATIONAL
    white_king_streak: tuple[int, int] = (0, 0)
    black_king_streak: tuple[int, int] = (0, 0)

    # ----------------------------------------------------------------- construction
    @classmethod
    def initial(cls, variant: Variant = INTERNATIONAL) -> Position:
        """KNDB art. 3 / Fries Spel art. 4: black men on 1-20, white men on 31-50, White first."""
        return cls(mask_of(range(31, 51)), 0, mask_of(range(1, 21)), 0, True, variant)

    @classmethod
    def from_squares(
        cls,
        *,
        white_men: Iterable[int] = (),
        white_kings: Iterable[int] = (),
        black_men: Iterable[int] = (),
        black_kings: Iterable[int] = (),
        white_to_move: bool = True,
        variant: Variant = INTERNATIONAL,
        white_king_streak: tuple[int, int] = (0, 0),
        black_king_streak: tuple[int, int] = (0, 0),
    ) -> Position:
        """Build a position from square numbers; raises ``PositionError`` if it is impossible."""
        seen: dict[int, Message] = {}
        groups = (
            ("white man", white_men),
            ("white king", white_kings),
            ("black man", black_men),
            ("black king", black_kings),
        )
        piece_names = {
            "white man": Message.of("rules.white_man"),
            "white king": Message.of("rules.white_king"),
            "black man": Message.of("rules.black_man"),
            "black king": Message.of("rules.black_king"),
        }
        masks = []
        for label, squares in groups:
            mask = 0
            for square in squares:
                if not isinstance(square, int) or not 1 <= square <= 50:
                    raise PositionError(Message.of("rules.no_such_square", square=repr(square)))
                if square in seen:
                    raise PositionError(
                        Message.of(
                            "rules.two_pieces",
                            square=square,
                            first=seen[square],
                            second=piece_names[label],
                        )
                    )
                seen[square] = piece_names[label]
                if label == "white man" and square <= 5:
                    raise PositionError(Message.of("rules.white_man_on_row", square=square))
                if label == "black man" and square >= 46:
                    raise PositionError(Message.of("rules.black_man_on_row", square=square))
                mask |= 1 << BIT_OF_SQUARE[square]
            masks.append(mask)
        for label, streak, kings in (
            ("white", white_king_streak, masks[1]),
            ("black", black_king_streak, masks[3]),
        ):
            count, square = streak
            limit = variant.max_consecutive_king_moves
            if count:
                if limit is None:
                    raise PositionError(
                        Message.of("rules.no_king_move_limit", variant=variant.name)
                    )
                side = Message.of(f"rules.{label}_side")
                if not 0 < count <= limit:
                    raise PositionError(
                        Message.of("rules.king_move_count", side=side, count=count, limit=limit)
                    )
                if not 1 <= square <= 50 or not kings & (1 << BIT_OF_SQUARE[square]):
                    raise PositionError(
                        Message.of(
                            "rules.king_move_square",
                            side=side,
                            square=square,
                            colour=Message.of(f"rules.{label}_colour"),
                        )
                    )
        return cls(
            masks[0],
            masks[1],
            masks[2],
            masks[3],
            white_to_move,
            variant,
            white_king_streak if white_king_streak[0] else (0, 0),
            black_king_streak if black_king_streak[0] else (0, 0),
        )

    # ----------------------------------------------------------------- raw state
    def state(self) -> State:
        """The side-relative integer state the move generator works on."""
        if self.white_to_move:
            return (
                self.white_men,
                self.white_kings,
                self.black_men,
                self.black_kings,
                True,
                _streak_to_bits(self.white_king_streak),
                _streak_to_bits(self.black_king_streak),
            )
        return (
            self.black_men,
            self.black_kings,
            self.white_men,
            self.white_kings,
            False,
            _streak_to_bits(self.black_king_streak),
            _streak_to_bits(self.white_king_streak),
        )

    @classmethod
    def from_state(cls, variant: Variant, state: State) -> Position:
        own_men, own_kings, opp_men, opp_kings, white, own_streak, opp_streak = state
        if white:
            return cls(
                own_men,
                own_kings,
                opp_men,
                opp_kings,
                True,
                variant,
                _streak_to_squares(own_streak),
                _streak_to_squares(opp_streak),
            )
        return cls(
            opp_men,
            opp_kings,
            own_men,
            own_kings,
            False,
            variant,
            _streak_to_squares(opp_streak),
            _streak_to_squares(own_streak),
        )

    # ----------------------------------------------------------------- queries
    def squares_of(self, color: str, kind: str) -> tuple[int, ...]:
        """Squares of ``color`` ("white"/"black") ``kind`` ("man"/"king") pieces, ascending."""
        boards = {
            ("white", "man"): self.white_men,
            ("white", "king"): self.white_kings,
            ("black", "man"): self.black_men,
            ("black", "king"): self.black_kings,
        }
        return tuple(squares_in(boards[(color, kind)]))

    def piece_at(self, square: int) -> Piece | None:
        bit = 1 << BIT_OF_SQUARE[square]
        if self.white_men & bit:
            return Piece.WHITE_MAN
        if self.white_kings & bit:
            return Piece.WHITE_KING
        if self.black_men & bit:
            return Piece.BLACK_MAN
        if self.black_kings & bit:
            return Piece.BLACK_KING
        return None

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square and its piece."""
        result: dict[int, Piece] = {}
        for piece, board in (
            (Piece.WHITE_MAN, self.white_men),
            (Piece.WHITE_KING, self.white_kings),
            (Piece.BLACK_MAN, self.black_men),
            (Piece.BLACK_KING, self.black_kings),
        ):
            for square in squares_in(board):
                result[square] = piece
        return dict(sorted(result.items()))

    def count(self, white: bool) -> tuple[int, int]:
        """(men, kings) of one side."""
        if white:
            return self.white_men.bit_count(), self.white_kings.bit_count()
        return self.black_men.bit_count(), self.black_kings.bit_count()

    def legal_moves(self) -> tuple[Move, ...]:
        return tuple(to_move(raw) for raw in generate(self.variant, self.state()))

    def raw_moves(self) -> list[RawMove]:
        return generate(self.variant, self.state())

    def has_capture(self) -> bool:
        moves = generate(self.variant, self.state())
        return bool(moves) and bool(moves[0][2])

    # ----------------------------------------------------------------- playing
    def play(self, move: Move) -> Position:
        """The position after ``move``; raises ``IllegalMoveError`` if it is not legal here."""
        wanted = move.identity
        for raw in generate(self.variant, self.state()):
            candidate = to_move(raw)
            if candidate.identity == wanted:
                return Position.from_state(self.variant, make(self.variant, self.state(), raw))
        legal = ", ".join(m.full_notation() for m in self.legal_moves())
        raise IllegalMoveError(
            Message.of(
                "rules.not_legal_here",
                move=move.full_notation(),
                legal=legal or Message.of("rules.no_legal_move"),
            )
        )

    def play_raw(self, raw: RawMove) -> Position:
        return Position.from_state(self.variant, make(self.variant, self.state(), raw))

    def mirrored(self) -> Position:
        """Colours swapped and the board turned (square s -> 51 - s), the other side to move."""

        def turn(board: Bitboard) -> Bitboard:
            return mask_of(51 - s for s in squares_in(board))

        def turn_streak(streak: tuple[int, int]) -> tuple[int, int]:
            return (streak[0], 51 - streak[1]) if streak[0] else (0, 0)

        return Position(
            turn(self.black_men),
            turn(self.black_kings),
            turn(self.white_men),
            turn(self.white_kings),
            not self.white_to_move,
            self.variant,
            turn_streak(self.black_king_streak),
            turn_streak(self.white_king_streak),
        )


START_FENS: Final = {"start", "initial", "startpos"}
