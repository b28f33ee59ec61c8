"""The final combination of a problem: the last phase of its solution, as a pattern of pieces.

A draughts problem ends in a combination: the solver gives material away, the defender must
take (captures are compulsory, KNDB art. 4.1 / Fries Spel art. 9), and a last capture of the
solver's wins. Composers answer an anticipation claim with "the same final combination, from
another start" as often as with "the same position", and YACPDB searches the final positions
of a solution ("models") for the same reason. Here the final phase runs from the solver's move
just before the **defender's last capture** on the main line (the sacrifice that forces it) to
the end of the line; when the defender never captures, from the key. Its **pattern** is every
piece that moves or is captured during the phase, where it stands when the phase begins, in
that position's mover's frame (``geometry``).

The composer's solution is the main line of the PDN game; a problem without one has no final
combination and is compared by its position only.

Another line has the same final combination when, in one of its positions (moved by a legal
shift, ``geometry.legal_shifts``, with colours reversed or not), the pattern stands and the
phase's moves, moved the same way, are the moves played next. A line that ends before the
phase does (a game resigned before the last blow) matches the moves it has: the share of the
phase it plays is its score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rulebook_build.similar.geometry import Masks, mask_of
from rulebook_build.similar.records import FileRecord, Item, Step

SOLVER_PLIES: Final = 2
"""The fewest moves of a phase another line must play for a match (a sacrifice and the capture
it forces): one move alone is no combination."""


@dataclass(frozen=True, slots=True)
class FinalCombination:
    """The final phase of a solution: the position it starts from (``start_ply`` moves into the
    main line, its frame ``turned`` or not), the ``pattern`` of the pieces that take part (frame
    masks), and the phase's ``moves`` on the real board."""

    start_ply: int
    turned: bool
    pattern: Masks
    moves: tuple[Step, ...]

    @property
    def pieces(self) -> int:
        return sum(mask.bit_count() for mask in self.pattern)


def final_combination(record: FileRecord, item: Item) -> FinalCombination | None:
    """The final combination of ``item``'s main line, or None when it has no moves."""
    if not item.moves:
        return None
    first = item.first_entry
    solver = record.entry_turned[first]
    start = 0
    for ply in range(len(item.moves) - 1, -1, -1):
        defender = record.entry_turned[first + ply] != solver
        if defender and item.moves[ply][2]:
            start = ply
            break
    # back to the solver's quiet move (the sacrifice) that begins the captures before it
    while start > 0 and (record.entry_turned[first + start] != solver or item.moves[start][2]):
        start -= 1
    entry = first + start
    turned = bool(record.entry_turned[entry])
    masks = record.entry_masks(entry)
    kind_at: dict[int, int] = {}
    for kind, mask in enumerate(masks):
        for frame_square in range(1, 51):
            if mask >> (frame_square - 1) & 1:
                kind_at[51 - frame_square if turned else frame_square] = kind
    # follow each piece from its square at the phase's start
    origin_of = {square: square for square in kind_at}
    taking_part: set[int] = set()
    moves = item.moves[start:]
    for origin, target, captured in moves:
        piece = origin_of.pop(origin, None)
        if piece is None:  # not a piece of the start position: the line is not this one's
            return None
        taking_part.add(piece)
        for square in captured:
            taken = origin_of.pop(square, None)
            if taken is not None:
                taking_part.add(taken)
        origin_of[target] = piece
    pattern = [0, 0, 0, 0]
    for square in taking_part:
        frame_square = 51 - square if turned else square
        pattern[kind_at[square]] |= mask_of((frame_square,))
    return FinalCombination(start, turned, (pattern[0], pattern[1], pattern[2], pattern[3]), moves)
