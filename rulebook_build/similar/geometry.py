"""The board's near-symmetries: which moves of a whole position keep it a draughts position.

Positions are compared in the **mover's frame**: the side to move plays up the board (towards
squares 1-5), as White does. A position with Black to move is turned (square s -> 51 - s) and
its colours swapped, as ``Position.mirrored`` does; a problem and its copy with colours
reversed (board turned, sides swapped, the other side to move) then look the same, and a game
position is found whichever side is to move in it.

A frame position is four 50-bit masks, one bit a square (bit s - 1 for square s): the mover's
men, the mover's kings, the other side's men, the other side's kings (``KINDS``).

In that frame a position may be moved (a :class:`Shift`):

- **shifted** ``rows`` down and ``columns`` right (negative: up, left). Square (row, column) is
  dark when row + column is odd, so a shift keeps dark squares dark exactly when rows + columns
  is even: two columns sideways, one row and one column together (a diagonal step), two rows.
  A shift by one column alone puts every piece on a light square;
- **mirrored** left to right (column c -> 9 - c) and then shifted: the mirror alone turns dark
  squares light, so it needs rows + columns odd, one column sideways at least (Turbo Dambase
  and the problem practice note: "a left-right mirror needs a one-column shift").

A shift is *legal* for a position when every piece lands on the board and no man lands on its
own promotion row (the mover's men off row 0, the other side's off row 9): anything else would
be no position at all. Neither move is a symmetry of the rules (the edges and the promotion
rows are where they are), which is why a shifted copy is a near relative and not the same
problem; the only true symmetry, colours reversed, is the frame itself. The two variants share
the board, and every move here keeps orthogonal neighbours orthogonal, so Fries Spel's captures
along rows and files move with the pieces as International's diagonal ones do.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from rulebook_build.rules import Position, column_of, row_of, square_at

KINDS: Final = ("man", "king", "man", "king")
"""The four masks of a frame position: the mover's men and kings, the other side's."""
OWN_MAN: Final = 0
OWN_KING: Final = 1
OTHER_MAN: Final = 2
OTHER_KING: Final = 3

Masks = tuple[int, int, int, int]
"""A frame position: four 50-bit masks in the order of ``KINDS``."""

ROW: Final[tuple[int, ...]] = (0, *(row_of(s) for s in range(1, 51)))
COLUMN: Final[tuple[int, ...]] = (0, *(column_of(s) for s in range(1, 51)))


def squares(mask: int) -> Iterator[int]:
    """The squares (1-50) of a 50-bit mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length()
        mask ^= low


def mask_of(found: Iterable[int]) -> int:
    """The 50-bit mask of some squares."""
    result = 0
    for square in found:
        result |= 1 << (square - 1)
    return result


def turned(mask: int) -> int:
    """A mask with the board turned (square s -> 51 - s): its 50 bits reversed."""
    return int(f"{mask:050b}"[::-1], 2)


def frame_of(position: Position) -> tuple[Masks, bool]:
    """A position in its mover's frame, and whether it was turned (Black to move)."""
    white = (
        mask_of(position.squares_of("white", "man")),
        mask_of(position.squares_of("white", "king")),
    )
    black = (
        mask_of(position.squares_of("black", "man")),
        mask_of(position.squares_of("black", "king")),
    )
    if position.white_to_move:
        return (white[0], white[1], black[0], black[1]), False
    return (turned(black[0]), turned(black[1]), turned(white[0]), turned(white[1])), True


@dataclass(frozen=True, slots=True)
class Shift:
    """A move of a whole position in the mover's frame: mirrored left to right or not, then
    shifted ``rows`` down and ``columns`` right (negative: up, left)."""

    mirror: bool
    rows: int
    columns: int

    @property
    def is_identity(self) -> bool:
        return not self.mirror and self.rows == 0 and self.columns == 0

    @property
    def size(self) -> int:
        """How far it moves the pieces (for ordering: the plainest first)."""
        return abs(self.rows) + abs(self.columns) + (1 if self.mirror else 0)


def _map(shift: Shift) -> tuple[int, ...]:
    table = [0]
    for square in range(1, 51):
        column = 9 - COLUMN[square] if shift.mirror else COLUMN[square]
        target = square_at(ROW[square] + shift.rows, column + shift.columns)
        table.append(target or 0)
    return tuple(table)


SHIFTS: Final[tuple[Shift, ...]] = tuple(
    sorted(
        (
            Shift(mirror, rows, columns)
            for mirror in (False, True)
            for rows in range(-9, 10)
            for columns in range(-9, 10)
            if (rows + columns) % 2 == (1 if mirror else 0)
        ),
        key=lambda s: (s.size, s.mirror, s.rows, s.columns),
    )
)
"""Every shift that keeps dark squares dark, the plainest first (the identity, then the
diagonal steps...): where two shifts match equally well, the plainer is reported."""

SQUARE_MAP: Final[dict[Shift, tuple[int, ...]]] = {shift: _map(shift) for shift in SHIFTS}
"""For each shift: square -> the square it moves to, 0 when off the board (index 0 unused)."""


def shifted(masks: Masks, shift: Shift) -> Masks | None:
    """``masks`` moved by ``shift``, or None when that is not a legal position (a piece off
    the board, a man on its own promotion row)."""
    table = SQUARE_MAP[shift]
    moved = [0, 0, 0, 0]
    for kind, mask in enumerate(masks):
        result = 0
        for square in squares(mask):
            target = table[square]
            if target == 0:
                return None
            if kind == OWN_MAN and target <= 5:
                return None
            if kind == OTHER_MAN and target >= 46:
                return None
            result |= 1 << (target - 1)
        moved[kind] = result
    return (moved[0], moved[1], moved[2], moved[3])


def legal_shifts(masks: Masks) -> list[tuple[Shift, Masks]]:
    """Every shift under which ``masks`` stays a legal position, with the moved masks, the
    plainest first (the identity always)."""
    found: list[tuple[Shift, Masks]] = []
    for shift in SHIFTS:
        moved = shifted(masks, shift)
        if moved is not None:
            found.append((shift, moved))
    return found


def absolute_map(shift: Shift, query_turned: bool, found_turned: bool) -> tuple[int, ...]:
    """Square of the query's board -> square of the found position's board, for ``shift``
    between their frames (each turned or not): what moves the query's moves onto the found
    one's. 0: off the board."""
    table = SQUARE_MAP[shift]
    result = [0]
    for square in range(1, 51):
        target = table[51 - square if query_turned else square]
        result.append(0 if target == 0 else (51 - target if found_turned else target))
    return tuple(result)


@dataclass(frozen=True, slots=True)
class Transform:
    """How a query became what was found, on the real boards: colours reversed (board turned,
    sides swapped, the other side to move) or not, then mirrored left to right or not, then
    shifted ``rows`` down and ``columns`` right, as White sees the board."""

    reversed: bool
    mirror: bool
    rows: int
    columns: int

    @classmethod
    def between(cls, shift: Shift, query_turned: bool, found_turned: bool) -> Transform:
        """The transform on the real boards of ``shift`` between two frames. Turning the board
        commutes with the mirror and turns a shift round, so with the found position turned
        the shift is read backwards."""
        sign = -1 if found_turned else 1
        return cls(
            query_turned != found_turned, shift.mirror, sign * shift.rows, sign * shift.columns
        )

    def square_map(self) -> tuple[int, ...]:
        """Square -> the square it goes to, after the colours are reversed (0: off the board;
        index 0 unused)."""
        shift = SQUARE_MAP[Shift(self.mirror, self.rows, self.columns)]
        return (0, *(shift[51 - s if self.reversed else s] for s in range(1, 51)))

    def apply(self, position: Position) -> Position | None:
        """``position`` so transformed, or None when that is no legal position."""
        table = SQUARE_MAP[Shift(self.mirror, self.rows, self.columns)]
        source = position.mirrored() if self.reversed else position
        placed: dict[str, list[int]] = {}
        for colour in ("white", "black"):
            for kind, plural in (("man", "men"), ("king", "kings")):
                found = [table[square] for square in source.squares_of(colour, kind)]
                if 0 in found:
                    return None
                placed[f"{colour}_{plural}"] = found
        if any(s <= 5 for s in placed["white_men"]) or any(s >= 46 for s in placed["black_men"]):
            return None

        def streak(value: tuple[int, int]) -> tuple[int, int]:
            return (value[0], table[value[1]]) if value[0] else (0, 0)

        return Position.from_squares(
            white_men=placed["white_men"],
            white_kings=placed["white_kings"],
            black_men=placed["black_men"],
            black_kings=placed["black_kings"],
            white_to_move=source.white_to_move,
            variant=position.variant,
            white_king_streak=streak(source.white_king_streak),
            black_king_streak=streak(source.black_king_streak),
        )

    @property
    def code(self) -> str:
        """Its machine-readable name: ``identity``, or ``reversed``, ``mirrored`` and
        ``shift(ROWS,COLUMNS)`` joined by ``+`` (``reversed+shift(+1,-1)``)."""
        parts = []
        if self.reversed:
            parts.append("reversed")
        if self.mirror:
            parts.append("mirrored")
        if self.rows or self.columns:
            parts.append(f"shift({self.rows:+d},{self.columns:+d})")
        return "+".join(parts) or "identity"

    def words(self) -> str:
        """Its description for a jury: ``colours reversed, shifted one row up and one column
        right``; '' for the identity."""
        parts = []
        if self.reversed:
            parts.append("colours reversed")
        if self.mirror:
            parts.append("mirrored left to right")
        steps = []
        if self.rows:
            steps.append(_count(abs(self.rows), "row") + (" up" if self.rows < 0 else " down"))
        if self.columns:
            steps.append(
                _count(abs(self.columns), "column") + (" left" if self.columns < 0 else " right")
            )
        if steps:
            parts.append("shifted " + " and ".join(steps))
        if len(parts) > 1:
            return ", ".join(parts[:-1]) + " and " + parts[-1]
        return parts[0] if parts else ""


NUMBERS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


PLURALS: Final = {"man": "men"}


def _count(number: int, noun: str) -> str:
    word = NUMBERS[number] if number < len(NUMBERS) else str(number)
    if number == 1:
        return f"{word} {noun}"
    last = noun.rsplit(" ", 1)[-1]
    return f"{word} {noun[: len(noun) - len(last)]}{PLURALS.get(last, last + 's')}"


def count_words(number: int, noun: str) -> str:
    """``one black man``, ``two white kings``: a number of pieces in words."""
    return _count(number, noun)
