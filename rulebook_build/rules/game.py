"""A game: a position plus the history the end-of-game rules need.

International (KNDB 2018 art. 8-9): a player to move with no legal move loses; draws by
threefold repetition, 25 moves each with kings only and no capture, 16 moves each in one king
against three pieces including a king, 5 moves each in one king against at most two pieces
including a king.  (Draw by agreement and resignation are not board facts.)

Frisian (Fries Spel art. 18, 20, 21): a player to move with no legal move or no pieces loses;
two kings against one king must win within 7 moves; both players with exactly one king is a
draw unless a capture is pending or forced.  The Frisian rulebook has no repetition or
25-move rule, so none is applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook_build.rules.position import Move, Position


def _material_key(position: Position) -> tuple[int, int, int, int]:
    return (
        position.white_men.bit_count(),
        position.white_kings.bit_count(),
        position.black_men.bit_count(),
        position.black_kings.bit_count(),
    )


def _lone_king_ending(position: Position) -> str | None:
    """KNDB art. 9b/9c: the ending class ("5" or "16") of one king against a few pieces."""
    wm, wk, bm, bk = _material_key(position)
    for (men, kings), (other_men, other_kings) in (((wm, wk), (bm, bk)), ((bm, bk), (wm, wk))):
        if men == 0 and kings == 1 and other_kings >= 1:
            other = other_men + other_kings
            if other <= 2:
                return "5"
            if other == 3:
                return "16"
    return None


def _two_kings_against_one(position: Position) -> bool | None:
    """Fries Spel art. 18: which side (True = White) has two kings against a lone king."""
    wm, wk, bm, bk = _material_key(position)
    if wm == 0 and bm == 0:
        if wk == 2 and bk == 1:
            return True
        if wk == 1 and bk == 2:
            return False
    return None


@dataclass(frozen=True, slots=True)
class Game:
    """An immutable game record; ``play`` returns a new ``Game``."""

    position: Position
    moves: tuple[Move, ...] = ()
    # positions seen, for repetition (KNDB art. 9e): (pieces, side to move) -> times seen
    seen: tuple[tuple[object, int], ...] = field(default=())
    ending_class: str | None = None
    ending_plies: int = 0
    king_only_plies: int = 0
    frisian_strong_side: bool | None = None
    frisian_strong_moves: int = 0

    def __post_init__(self) -> None:
        if not self.seen:
            object.__setattr__(self, "seen", ((self._key(self.position), 1),))
            object.__setattr__(self, "ending_class", _lone_king_ending(self.position))
            object.__setattr__(self, "frisian_strong_side", _two_kings_against_one(self.position))

    @staticmethod
    def _key(position: Position) -> object:
        return (
            position.white_men,
            position.white_kings,
            position.black_men,
            position.black_kings,
            position.white_to_move,
        )

    def play(self, move: Move) -> Game:
        """Play a legal move (``IllegalMoveError`` otherwise) and update the draw counters."""
        mover_white = self.position.white_to_move
        moving_piece = self.position.piece_at(move.origin)
        was_king_move = moving_piece is not None and moving_piece.is_king
        after = self.position.play(move)
        material_changed = _material_key(after) != _material_key(self.position)

        counts = dict(self.seen)
        if material_changed or not was_king_move:
            counts = {}  # irreversible move: earlier positions cannot recur
        key = self._key(after)
        counts[key] = counts.get(key, 0) + 1

        # the counts of art. 9b/9c and Fries Spel art. 18 run from the moment the ending arose;
        # a promotion keeps the ending, a capture starts a new one
        ending = _lone_king_ending(after)
        ending_plies = (
            self.ending_plies + 1
            if ending is not None and ending == self.ending_class and not move.is_capture
            else 0
        )
        king_only = self.king_only_plies + 1 if was_king_move and not move.is_capture else 0

        strong = _two_kings_against_one(after)
        if strong is None:
            strong_moves = 0
        elif strong == self.frisian_strong_side and not move.is_capture:
            strong_moves = self.frisian_strong_moves + (1 if mover_white == strong else 0)
        else:
            strong_moves = 0

        return Game(
            position=after,
            moves=(*self.moves, move),
            seen=tuple(counts.items()),
            ending_class=ending,
            ending_plies=ending_plies,
            king_only_plies=king_only,
            frisian_strong_side=strong,
            frisian_strong_moves=strong_moves,
        )

    def result(self) -> str | None:
        """``"white wins"``, ``"black wins"``, ``"draw: <reason>"``, or None while play goes on."""
        position = self.position
        if not position.raw_moves():
            # KNDB art. 8a / Fries Spel art. 20 (1e, 6e): the player to move cannot move
            return "black wins" if position.white_to_move else "white wins"
        if position.variant.max_consecutive_king_moves is None:
            return self._international_draw()
        return self._frisian_draw()

    def _international_draw(self) -> str | None:
        if max(count for _, count in self.seen) >= 3:
            return "draw: the same position for the third time, same player to move (art. 9e)"
        if self.king_only_plies >= 50:
            return "draw: 25 moves each with kings only, without capture (art. 9d)"
        if self.ending_class == "16" and self.ending_plies >= 32:
            return "draw: 16 moves each in one king against three pieces with a king (art. 9c)"
        if self.ending_class == "5" and self.ending_plies >= 10:
            return "draw: 5 moves each in one king against at most two pieces with a king (art. 9b)"
        return None

    def _frisian_draw(self) -> str | None:
        position = self.position
        wm, wk, bm, bk = _material_key(position)
        # Fries Spel art. 21.1: one king each is a draw unless a capture is pending or forced
        if (
            wm == bm == 0
            and wk == bk == 1
            and not position.has_capture()
            and not all(position.play_raw(raw).has_capture() for raw in position.raw_moves())
        ):
            return "draw: one king against one king (art. 21)"
        if self.frisian_strong_side is not None and self.frisian_strong_moves >= 7:
            return "draw: two kings did not beat one king within 7 moves (art. 18)"
        return None
