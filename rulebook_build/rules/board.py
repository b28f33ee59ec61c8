"""Board geometry of 10x10 draughts (KNDB 2018 art. 2; Fries Spel art. 1-5).

Squares are numbered 1-50 row by row from Black's side: square 1 is in the top row,
square 46 in White's bottom-left corner, and White moves up (towards 1-5).

Internally each square is a bit of a Python int.  The layout leaves one unused "ghost"
bit after every two rows (bits 11, 22, 33, 44), so that every diagonal step is the same
shift everywhere on the board (5 or 6 bits) and stepping off a side of the board lands on
a ghost bit or off the board, never on a real square::

    bit(square) = square + (square - 1) // 10

Orthogonal steps (Frisian captures) are 1 bit (along a rank: 32-33-34) and 11 bits (along
a file: 33-23-13); the two sideways steps that would wrap from one row into the next are
removed from the ray tables.
"""

from __future__ import annotations

from typing import Final

Square = int  # 1..50, the numbers of the rulebooks
Bit = int  # index of a square's bit in a bitboard
Bitboard = int  # a set of squares, one bit each

SQUARES: Final = range(1, 51)
BOARD_BITS: Final = 55  # bits 0..54; bit 0 and the ghosts are never squares


def bit_of(square: Square) -> Bit:
    return square + (square - 1) // 10


def square_of(bit: Bit) -> Square:
    return bit - bit // 11


SQUARE_OF_BIT: Final[tuple[int, ...]] = tuple(
    square_of(b) if b >= 1 and b % 11 != 0 and b < BOARD_BITS else 0 for b in range(BOARD_BITS + 12)
)
BIT_OF_SQUARE: Final[tuple[int, ...]] = (0, *(bit_of(s) for s in SQUARES))

BOARD: Final[Bitboard] = sum(1 << bit_of(s) for s in SQUARES)


def mask_of(squares: object) -> Bitboard:
    """The bitboard of an iterable of square numbers."""
    result = 0
    for square in squares:  # type: ignore[attr-defined]
        result |= 1 << bit_of(square)
    return result


def squares_in(bitboard: Bitboard) -> list[Square]:
    """The square numbers of a bitboard, ascending."""
    result = []
    while bitboard:
        low = bitboard & -bitboard
        result.append(SQUARE_OF_BIT[low.bit_length() - 1])
        bitboard ^= low
    return result


def row_of(square: Square) -> int:
    """Row 0 (Black's back row, squares 1-5) to 9 (White's back row, 46-50)."""
    return (square - 1) // 5


def column_of(square: Square) -> int:
    """Column 0 (left, as White sees the board) to 9."""
    row = row_of(square)
    index = (square - 1) % 5
    return 2 * index + (1 if row % 2 == 0 else 0)


def square_at(row: int, column: int) -> Square | None:
    """The dark square at (row, column), or None for a light square or off the board."""
    if not (0 <= row < 10 and 0 <= column < 10) or (row + column) % 2 == 0:
        return None
    return row * 5 + column // 2 + 1


# Directions as (row step, column step).  "Up" is towards row 0, White's forward direction.
UP_LEFT: Final = (-1, -1)
UP_RIGHT: Final = (-1, 1)
DOWN_LEFT: Final = (1, -1)
DOWN_RIGHT: Final = (1, 1)
DIAGONALS: Final = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
# Orthogonal neighbours are two columns or two rows apart (Fries Spel art. 7).
UP: Final = (-2, 0)
DOWN: Final = (2, 0)
LEFT: Final = (0, -2)
RIGHT: Final = (0, 2)
ORTHOGONALS: Final = (UP, DOWN, LEFT, RIGHT)
ALL_DIRECTIONS: Final = DIAGONALS + ORTHOGONALS

Direction = tuple[int, int]


def _ray(square: Square, direction: Direction) -> tuple[Bit, ...]:
    row, column = row_of(square), column_of(square)
    bits = []
    while True:
        row += direction[0]
        column += direction[1]
        target = square_at(row, column)
        if target is None:
            break
        bits.append(bit_of(target))
    return tuple(bits)


def _rays(direction: Direction) -> tuple[tuple[Bit, ...], ...]:
    table: list[tuple[Bit, ...]] = [() for _ in range(BOARD_BITS)]
    for square in SQUARES:
        table[bit_of(square)] = _ray(square, direction)
    return tuple(table)


# RAYS[direction] [bit] -> the bits met going from that square in that direction, nearest first
RAYS: Final[dict[Direction, tuple[tuple[Bit, ...], ...]]] = {d: _rays(d) for d in ALL_DIRECTIONS}


def neighbour(square: Square, direction: Direction) -> Square | None:
    ray = RAYS[direction][bit_of(square)]
    return SQUARE_OF_BIT[ray[0]] if ray else None


def promotion_squares(white: bool) -> range:
    """The back row a man of that colour promotes on: 1-5 for White, 46-50 for Black."""
    return range(1, 6) if white else range(46, 51)


WHITE_PROMOTION: Final[Bitboard] = mask_of(range(1, 6))
BLACK_PROMOTION: Final[Bitboard] = mask_of(range(46, 51))
