"""Tables with count rules: the only tables that may close a node of the proof search as won.

The pure tables ignore the rules that count moves.  A pure win can need a line into an ending
whose count starts on the way: in Fries Spel a king and a man against a king often win only by
promoting into two kings against one, which art. 18 draws after seven moves.  Such a pure win
must not be taken as proved; the tables with count rules say so, and whatever they do call won
is confirmed here by the proof search alone, without any table.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulebook_build.engine.budget import PYTHON_RATE
from rulebook_build.engine.search import (
    INFINITY,
    UNLIKELY,
    ProofSearch,
    _first_estimate,
    root_node,
)
from rulebook_build.engine.tables.endgame import Outcome
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position
from rulebook_build.rules.movegen import count_moves
from tests.checker.test_endgame import random_state


@pytest.fixture(scope="module")
def frisian() -> CheckerTables:
    return checker_tables(FRISIAN)  # the checker's own cache, as 'rulebook check' uses it


def test_a_pure_win_that_art_18_stops_is_not_taken_as_proved(frisian: CheckerTables) -> None:
    # 23-18, 18-12, ... promotes; the two kings then need more than seven moves
    state = parse_fen("W:W23,K24:BK41", variant=FRISIAN).state()
    pure, counted = frisian.probe(state), frisian.probe_rules(state)
    assert pure is not None and pure.result == "win" and pure.plies == 29
    assert counted is not None and counted.result == "draw"
    search = ProofSearch(FRISIAN, tables=frisian)
    node = root_node(FRISIAN, state)
    # the node is not closed by a table: the search has to look
    assert search.lookup(node) == (1, 1)
    assert search.prove(node, seconds=2.0, node_limit=20_000).verdict != "proved"


def test_a_pure_loss_for_white_still_refutes_at_once(frisian: CheckerTables) -> None:
    state = parse_fen("B:WK3:BK19,K28", variant=FRISIAN).state()  # Black to move, two kings
    pure = frisian.probe(state)
    assert pure is not None and pure.result == "win"  # for Black, the side to move
    search = ProofSearch(FRISIAN, tables=frisian)
    assert search.lookup(root_node(FRISIAN, state)) == (INFINITY, 0)


def test_every_counted_win_sampled_is_proved_without_tables(frisian: CheckerTables) -> None:
    rng = random.Random("counted wins")
    checked = 0
    for _ in range(4000):
        state = random_state(rng, FRISIAN, rng.choice([(1, 1, 0, 1), (0, 2, 0, 1), (1, 0, 0, 1)]))
        counted = frisian.rules.probe(state)  # the table's own distance, short ones only
        assert counted is not None
        kept = frisian.probe_rules(state)  # what the checker proves by: the same, or nothing
        assert kept is not None and kept.result in (counted.result, "draw"), state
        if counted.result == "draw" or counted.plies > 9:
            continue
        white_wins = (counted.result == "win") == state[4]
        if not white_wins:
            continue
        # a limit in positions (5 s of work), not in wall time: the same on a busy machine
        verdict = (
            ProofSearch(FRISIAN)
            .prove(root_node(FRISIAN, state), seconds=600.0, node_limit=5 * PYTHON_RATE)
            .verdict
        )
        # a table claim the search cannot back up would be a false "sound"
        assert verdict == "proved", Position.from_state(FRISIAN, state)
        checked += 1
        if checked == 25:
            break
    assert checked == 25


def test_international_tables_of_both_kinds_agree_on_who_wins_up_to_three_pieces(
    tmp_path: Path,
) -> None:
    tables = checker_tables(INTERNATIONAL, cache_dir=tmp_path)
    for material in [m for m in tables.pure.material_classes() if sum(m) <= 3]:
        pure, counted = tables.pure.table(material), tables.rules.table(material)
        for slot in range(len(pure)):
            a, b = pure[slot], counted[slot]
            assert (a < 0) == (b < 0) and (a < 0 or a & 1 == b & 1), (material, slot)


class RulesOnly:
    """Tables with count rules and no pure partner, as the 6-piece classes are cached."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def probe(self, state: object) -> None:
        return None

    def probe_rules(self, state: object) -> Outcome:
        return self.outcome


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (Outcome("win", 3), (0, INFINITY)),  # fits the 25-move count: proved
        (Outcome("win", 51), None),  # longer than the count allows: left to the search
        (Outcome("loss", 2), None),  # a table with count rules never refutes
        (Outcome("draw", 0), None),
    ],
)
def test_a_class_with_a_table_with_count_rules_only_may_prove_never_refute(
    outcome: Outcome, expected: tuple[int, int] | None
) -> None:
    state = parse_fen("W:W28,32,33,34:BK3,K5", variant=INTERNATIONAL).state()
    search = ProofSearch(INTERNATIONAL, tables=RulesOnly(outcome))
    assert search._leaf_value(root_node(INTERNATIONAL, state), moves=5) == expected


@pytest.mark.parametrize("white_to_move", [True, False])
def test_a_node_such_a_table_does_not_call_won_is_searched_last_not_closed(
    white_to_move: bool,
) -> None:
    fen = ("W" if white_to_move else "B") + ":W28,32,33,34:BK3,K5"
    state = parse_fen(fen, variant=INTERNATIONAL).state()
    node = root_node(INTERNATIONAL, state)
    moves = count_moves(INTERNATIONAL, state)
    plain = ProofSearch(INTERNATIONAL)._evaluate(node)
    unlikely = ProofSearch(INTERNATIONAL, tables=RulesOnly(Outcome("draw", 0)))._evaluate(node)
    # without tables: one White move would do, or every Black move must be answered, each
    # made harder by the material White is behind (four men against two kings)
    assert plain == _first_estimate(state, moves)
    assert plain[0] > (1 if white_to_move else moves)  # harder to prove than by moves alone
    # a proof is UNLIKELY times harder to find, and nothing is settled either way
    assert unlikely == (plain[0] * UNLIKELY, plain[1])
    assert 0 not in unlikely
    vouched = Outcome("win", 3) if white_to_move else Outcome("loss", 2)
    assert ProofSearch(INTERNATIONAL, tables=RulesOnly(vouched))._evaluate(node) == (0, INFINITY)
