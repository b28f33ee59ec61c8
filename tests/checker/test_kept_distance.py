"""Of a count-rule distance the checker keeps only whether it fits a fresh budget.

``compact.kept_distance`` turns a table's distance with the count rules into the longest one of
the same result that fits the plies its material allows when the counts start afresh
(``drawrules.fresh_plies``), or far.  The site publishes only that (``remote.published_codes``),
and every reader proves by it: the command line's ``CheckerTables.probe_rules``, the compiled
search (``counted_win`` in ``prover.c``) and the page's.  A proof by a kept distance must be
sound at any clocks, exact where the clocks start afresh, and the kept values few.
"""

from __future__ import annotations

import random

import pytest

from rulebook_build.engine.search import ProofSearch
from rulebook_build.engine.tables import compact
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.rules import INTERNATIONAL, DrawClocks, fresh_plies, plies_left
from rulebook_build.rules.drawrules import KING_ONLY_PLIES, initial_clocks, material
from tests.checker.test_endgame import random_state

BUDGETS = (10, 13, 32, 50)
"""The fresh budgets there are: a lone king against two pieces or three (KNDB art. 9b-c), two
kings against one in Fries Spel (art. 18), and the 25-move count (art. 9d)."""


@pytest.mark.parametrize("fresh", BUDGETS)
def test_a_kept_distance_fits_a_budget_only_where_the_true_one_does(fresh: int) -> None:
    kept_values = set()
    for plies in range(compact.CAP + 1):
        kept = compact.kept_distance(plies, fresh)
        kept_values.add(kept)
        assert kept & 1 == plies & 1, (plies, kept)  # the same result (FAR_WIN is odd)
        for budget in range(fresh + 1):  # whatever the clocks leave, never more than fresh
            assert kept > budget or plies <= budget, (plies, budget)
        # where the counts start afresh it fits exactly when the true distance does
        assert (kept <= fresh) == (plies <= fresh), plies
    # a win that fits, a loss that fits, and the two far ones: nothing of how far
    assert len(kept_values) == 4, sorted(kept_values)


def test_draws_far_values_and_material_without_a_count_are_kept_as_they_are() -> None:
    for value in (compact.UNUSED, compact.DRAW, compact.FAR_WIN, compact.FAR_LOSS):
        for fresh in (*BUDGETS, None):
            assert compact.kept_distance(value, fresh) == value
    assert [compact.kept_distance(p, None) for p in range(64)] == list(range(64))


@pytest.mark.parametrize("fresh", (*BUDGETS, None))
def test_the_published_codes_say_the_kept_distance_and_the_pure_result(
    fresh: int | None,
) -> None:
    table = compact.kept_codes(fresh)
    for code in range(compact.CODES):
        kept = table[code]
        assert compact.PURE_VALUE[kept] == compact.PURE_VALUE[code], code
        assert compact.RULES_VALUE[kept] == compact.kept_distance(
            compact.RULES_VALUE[code], fresh
        ), code


def test_the_fresh_budget_is_what_fresh_clocks_leave() -> None:
    rng = random.Random(5)
    for counts in ((0, 1, 0, 1), (0, 1, 1, 1), (0, 2, 0, 1), (1, 1, 0, 2), (2, 1, 0, 1)):
        state = random_state(rng, INTERNATIONAL, counts)
        fresh = fresh_plies(INTERNATIONAL, material(state))
        assert fresh == plies_left(INTERNATIONAL, initial_clocks(INTERNATIONAL, state))
    assert fresh_plies(INTERNATIONAL, (0, 1, 0, 2)) == 10
    assert fresh_plies(INTERNATIONAL, (0, 1, 1, 2)) == 32
    assert fresh_plies(INTERNATIONAL, (2, 1, 0, 1)) == 32
    assert fresh_plies(INTERNATIONAL, (1, 2, 1, 0)) == KING_ONLY_PLIES


@pytest.fixture(scope="module")
def tables() -> CheckerTables:
    return checker_tables(INTERNATIONAL)  # the checker's own cache, as 'rulebook check' uses it


def a_short_counted_win(tables: CheckerTables) -> tuple[object, int]:
    """A position with White to move, two kings and a man against a man, that the table with
    count rules calls a win well inside the 25-move count, and that distance."""
    rng = random.Random(55)
    while True:
        state = random_state(rng, INTERNATIONAL, (1, 2, 1, 0))
        outcome = tables.rules.probe(state)
        if state[4] and outcome is not None and outcome.result == "win" and outcome.plies < 45:
            return state, outcome.plies


def test_the_checker_proves_by_a_table_only_what_the_kept_distance_fits(
    tables: CheckerTables,
) -> None:
    state, plies = a_short_counted_win(tables)
    kept = tables.probe_rules(state)
    assert kept is not None and (kept.result, kept.plies) == ("win", KING_ONLY_PLIES - 1)
    search = ProofSearch(INTERNATIONAL, tables=tables)
    fresh = initial_clocks(INTERNATIONAL, state)
    assert search._counted_win(state, True, fresh)
    # clocks that leave exactly the true distance: it would fit, the kept one does not
    late = DrawClocks(None, 0, KING_ONLY_PLIES - plies, None, 0)
    assert plies_left(INTERNATIONAL, late) == plies
    assert not search._counted_win(state, True, late)
    # so the node is left to the search, by Python and by the compiled search alike
    assert search.lookup((state, late)) == (1, 1)
    prover = tables.prover()
    if prover is None:
        pytest.skip("no compiled search on this machine")
    with prover.session(5) as session:
        assert session.probe(state, late) == (
            tables.probe(state).plies,  # type: ignore[union-attr]
            KING_ONLY_PLIES - 1,
        )
        assert session.describe(state, late).estimate == (1, 1)
        assert session.describe(state, fresh).estimate[0] == 0  # proved
    assert search.lookup((state, fresh))[0] == 0
