"""A win from the tables with count rules closes a node only if it fits the node's clocks.

``ProofSearch._counted_win`` compares the table's distance with the plies the count rules
still allow (``plies_left``): a win in exactly that many plies is still a win, one ply more is
not.  The tables here are made up (``Counted``), so the boundary is set by the test.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rulebook_build.engine.search import INFINITY, ProofSearch, root_node
from rulebook_build.engine.tables.endgame import Outcome
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position
from rulebook_build.rules.drawrules import (
    ENDING_PLIES,
    KING_ONLY_PLIES,
    DrawClocks,
    plies_left,
)


@dataclass
class Counted:
    """Tables that cover nothing without count rules and give one value with them."""

    value: Outcome

    def probe(self, state: object) -> None:
        return None

    def probe_rules(self, state: object) -> Outcome:
        return self.value


STATE = Position.from_squares(white_kings=[28], black_men=[3], white_to_move=True).state()


@pytest.mark.parametrize(
    "clocks",
    [
        DrawClocks(None, 0, 0, None, 0),
        DrawClocks(None, 0, 17, None, 0),
        DrawClocks("16", 5, 3, None, 0),
        DrawClocks("5", 4, 0, None, 0),
    ],
)
def test_a_counted_win_counts_up_to_exactly_the_plies_left(clocks: DrawClocks) -> None:
    left = plies_left(INTERNATIONAL, clocks)
    assert left is not None and left > 1
    budgets = [KING_ONLY_PLIES - clocks.king_only_plies]
    if clocks.ending is not None:
        budgets.append(ENDING_PLIES[clocks.ending] - clocks.ending_plies)
    assert left == min(budgets)
    for plies, wins in ((left - 1, True), (left, True), (left + 1, False)):
        search = ProofSearch(INTERNATIONAL, tables=Counted(Outcome("win", plies)))
        assert search._counted_win(STATE, True, clocks) is wins, plies
        # a node's leaf value says the same: proved, or left to the search
        value = search._leaf_value((STATE, clocks), moves=1)
        assert (value == (0, INFINITY)) is wins


def test_no_count_running_lets_any_counted_win_count() -> None:
    """Fries Spel outside the two-kings ending has no count: every counted win counts."""
    node = root_node(FRISIAN, STATE)
    assert plies_left(FRISIAN, node[1]) is None
    search = ProofSearch(FRISIAN, tables=Counted(Outcome("win", 10_000)))
    assert search._counted_win(STATE, True, node[1]) is True


def test_a_counted_loss_or_draw_is_no_win() -> None:
    for outcome in (Outcome("loss", 3), Outcome("draw", 0)):
        search = ProofSearch(INTERNATIONAL, tables=Counted(outcome))
        assert search._counted_win(STATE, True, DrawClocks(None, 0, 0, None, 0)) is False
    # the result is for the side to move: a loss for Black to move is White's win
    search = ProofSearch(INTERNATIONAL, tables=Counted(Outcome("loss", 3)))
    assert search._counted_win(STATE, False, DrawClocks(None, 0, 0, None, 0)) is True
