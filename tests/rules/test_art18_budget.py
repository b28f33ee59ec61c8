"""Fries Spel art. 18 in the plies a search may still play (``drawrules.plies_left``).

Two kings against one king must win within seven moves of the side with the two kings (the
*strong* side), counted from the move that made the ending; ``DrawClocks.strong_moves`` holds
the moves it has made so far, ``m``.  The count draws the game in the position right after the
strong side's seventh move, unless that move won.  So, counted in plies from a node:

* strong side to move: its moves are plies 1, 3, 5 ...; the draw comes after ply
  ``2 * (7 - m) - 1``.  A win by the strong side on that ply counts; a win of the lone king
  must come on an earlier ply (one of its own, which are even).
* the lone king to move: the strong side's moves are plies 2, 4 ...; the draw comes after
  ply ``2 * (7 - m)``, and a win by the strong side on that ply counts.

``plies_left`` does not know who is to move, so it gives the smaller of the two,
``2 * (7 - m) - 1``.  The proof search accepts a win from the tables with count rules only if
its distance fits that budget (``search.ProofSearch._counted_win``), and so does the table
builder for a capture or promotion into this ending (``retrograde.counted_exit``):

* with the strong side to move the budget is exact;
* with the lone king to move it is one ply short: a strong side's win on exactly its seventh
  move is not taken from the table (the search finds it, or the tables with count rules call
  it a draw), which can cost time, never a wrong "proved".

Dropping the ``- 1`` (the mutant of issue 43) gives ``2 * (7 - m)``: exact with the lone king
to move, but with the strong side to move it lets a line run one ply past the draw.  On that
ply only the lone king can move, so it matters exactly when the lone king would win while the
side with the two kings is to move.  On the board that never happens: of the 58,800 Fries Spel
positions of two kings against one with the two kings to move, the tables (pure and with count
rules) call none a loss for them; so no real position tells the two apart, and the mutant is not
*observably* wrong today.  It is still not equivalent: the budget would then be sound only
because of a fact about this one ending that no code checks.  The tests below hold the budget to
the rule itself, the ply at which the game is drawn, for both sides to move and every count, and
show a table's lone-king win one ply past the draw turned down.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rulebook_build.engine.search import INFINITY, ProofSearch
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position
from rulebook_build.rules.drawrules import (
    FRISIAN_TWO_KINGS_MOVES,
    DrawClocks,
    advance,
    draw_by_count,
    initial_clocks,
    plies_left,
)
from rulebook_build.rules.movegen import RawMove, State, generate, make

SEVEN = FRISIAN_TWO_KINGS_MOVES


def quiet_move(state: State) -> RawMove:
    """A non-capturing move after which the other side has no capture either."""
    for move in generate(FRISIAN, state):
        if not move[2] and not generate(FRISIAN, make(FRISIAN, state, move))[0][2]:
            return move
    raise AssertionError("no quiet move")


def ending(*, strong_is_white: bool, strong_to_move: bool) -> State:
    """Two kings against one, far apart (the rulebook's example, or its mirror)."""
    two, one = [46, 50], [3]
    if strong_is_white:
        position = Position.from_squares(
            variant=FRISIAN, white_kings=two, black_kings=one, white_to_move=strong_to_move
        )
    else:
        position = Position.from_squares(
            variant=FRISIAN,
            white_kings=[51 - s for s in one],
            black_kings=[51 - s for s in two],
            white_to_move=not strong_to_move,
        )
    return position.state()


def plies_to_the_draw(state: State, clocks: DrawClocks) -> int:
    """Plies of quiet play from ``state`` after which art. 18 draws the game."""
    plies = 0
    while draw_by_count(FRISIAN, clocks, state) is None:
        move = quiet_move(state)
        after = make(FRISIAN, state, move)
        clocks = advance(FRISIAN, clocks, state, move, after)
        state = after
        plies += 1
        assert plies <= 2 * SEVEN, "art. 18 never drew the game"
    return plies


SIDES = [
    pytest.param(white, to_move, id=f"{colour}-strong-{mover}-to-move")
    for white, colour in ((True, "white"), (False, "black"))
    for to_move, mover in ((True, "strong"), (False, "lone-king"))
]


@pytest.mark.parametrize(("strong_is_white", "strong_to_move"), SIDES)
@pytest.mark.parametrize("made", range(SEVEN))
def test_the_budget_never_runs_past_the_draw(
    strong_is_white: bool, strong_to_move: bool, made: int
) -> None:
    state = ending(strong_is_white=strong_is_white, strong_to_move=strong_to_move)
    fresh = initial_clocks(FRISIAN, state)
    assert fresh.strong_side is strong_is_white and fresh.strong_moves == 0
    clocks = fresh._replace(strong_moves=made)
    draw = plies_to_the_draw(state, clocks)
    # the rule: the draw comes right after the strong side's seventh move
    assert draw == 2 * (SEVEN - made) - (1 if strong_to_move else 0)
    budget = plies_left(FRISIAN, clocks)
    assert budget is not None
    # a line within the budget never reaches a ply after the draw
    assert budget <= draw
    # exact with the strong side to move; one ply short with the lone king to move (see above)
    assert budget == (draw if strong_to_move else draw - 1)


def test_the_budget_at_every_count() -> None:
    clocks = DrawClocks(None, 0, 0, True, 0)
    assert [plies_left(FRISIAN, clocks._replace(strong_moves=m)) for m in range(8)] == [
        13,
        11,
        9,
        7,
        5,
        3,
        1,
        -1,
    ]
    assert plies_left(FRISIAN, DrawClocks(None, 0, 0, None, 0)) is None  # no count running
    # International counts are not Fries Spel's: the 25 king moves each (art. 9d) at most
    assert plies_left(INTERNATIONAL, DrawClocks(None, 0, 0, True, 0)) == 50


@dataclass(frozen=True)
class Value:
    result: str
    plies: int


@dataclass
class LoneKingWins:
    """A table that says the lone king (White) wins in ``plies`` where the two kings (Black)
    are to move: the case the budget must turn down when it ends after the draw."""

    plies: int

    def probe(self, state: State) -> Value | None:
        return Value("loss", self.plies) if not state[4] else None

    def probe_rules(self, state: State) -> Value | None:
        return self.probe(state)


@pytest.mark.parametrize("made", range(SEVEN - 1))
def test_a_lone_king_win_after_the_draw_is_not_taken_from_a_table(made: int) -> None:
    state = ending(strong_is_white=False, strong_to_move=True)
    clocks = initial_clocks(FRISIAN, state)._replace(strong_moves=made)
    node = (state, clocks)
    draw = 2 * (SEVEN - made) - 1  # after the two kings' seventh move
    # a win on the first ply after the draw: a table's word is not enough, the search decides
    late = ProofSearch(FRISIAN, tables=LoneKingWins(draw + 1))
    assert late.lookup(node) == (1, 1)
    # a win before the draw (on the lone king's last move before it) is taken
    in_time = ProofSearch(FRISIAN, tables=LoneKingWins(draw - 1))
    assert in_time.lookup(node) == (0, INFINITY)
