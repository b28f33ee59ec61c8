"""A game: a position plus the history the end-of-game rules need.

International (KNDB 2018 art. 8-9): a player to move with no legal move loses; draws by
threefold repetition and by the count rules of ``drawrules.py``.  (Draw by agreement and
resignation are not board facts.)  Frisian (Fries Spel art. 18, 20, 21): a player to move with
no legal move or no pieces loses; the count rules of ``drawrules.py``.  The Frisian rulebook has
no repetition rule, so none is applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook_build.rules.drawrules import DrawClocks, advance, draw_by_count, initial_clocks
from rulebook_build.rules.movegen import generate, make
from rulebook_build.rules.position import Move, Position

PositionKey = tuple[int, int, int, int, bool]


def position_key(position: Position) -> PositionKey:
    """Pieces and side to move: what "the same position" means for repetition (art. 9e)."""
    return (
        position.white_men,
        position.white_kings,
        position.black_men,
        position.black_kings,
        position.white_to_move,
    )


@dataclass(frozen=True, slots=True)
class Game:
    """An immutable game record; ``play`` returns a new ``Game``."""

    position: Position
    moves: tuple[Move, ...] = ()
    # positions seen since the last irreversible move, with how often: KNDB art. 9e
    seen: tuple[tuple[PositionKey, int], ...] = field(default=())
    clocks: DrawClocks | None = None

    def __post_init__(self) -> None:
        if not self.seen:
            object.__setattr__(self, "seen", ((position_key(self.position), 1),))
        if self.clocks is None:
            clocks = initial_clocks(self.position.variant, self.position.state())
            object.__setattr__(self, "clocks", clocks)

    def play(self, move: Move) -> Game:
        """Play a legal move (``IllegalMoveError`` otherwise) and update the draw counters."""
        before = self.position.state()
        variant = self.position.variant
        after_position = self.position.play(move)
        raw = next(
            r
            for r in generate(variant, before)
            if make(variant, before, r) == after_position.state()
        )
        clocks = advance(variant, self.current_clocks, before, raw, after_position.state())

        king_move = bool(before[1] & (1 << raw[0]))
        counts = {} if move.is_capture or not king_move else dict(self.seen)
        key = position_key(after_position)
        counts[key] = counts.get(key, 0) + 1
        return Game(after_position, (*self.moves, move), tuple(counts.items()), clocks)

    @property
    def current_clocks(self) -> DrawClocks:
        assert self.clocks is not None
        return self.clocks

    def result(self) -> str | None:
        """``"white wins"``, ``"black wins"``, ``"draw: <reason>"``, or None while play goes on."""
        position = self.position
        if not position.raw_moves():
            # KNDB art. 8a / Fries Spel art. 20 (1e, 6e): the player to move cannot move
            return "black wins" if position.white_to_move else "white wins"
        variant = position.variant
        if variant.max_consecutive_king_moves is None and max(c for _, c in self.seen) >= 3:
            return "draw: the same position for the third time, same player to move (art. 9e)"
        return draw_by_count(variant, self.current_clocks, position.state())
