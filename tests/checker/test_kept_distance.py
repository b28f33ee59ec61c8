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

from rulebook_build.engine.binaries import WIN_SCORE
from rulebook_build.engine.search import ProofSearch
from rulebook_build.engine.tables import compact
from rulebook_build.engine.tables.endgame import Outcome
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.rules import INTERNATIONAL, DrawClocks, fresh_plies, plies_left
from rulebook_build.rules.drawrules import KING_ONLY_PLIES, initial_clocks, material
from tests.checker.test_endgame import random_state

BUDGETS = (10, 13, 32, 50)
"""The fresh budgets there are: a lone king against two pieces or three (KNDB art. 9b-c), two
kings against one in Fries Spel (art. 18), and the 25-move count (art. 9d)."""


@pytest.mark.parametrize("fresh", (*BUDGETS, None))
def test_a_kept_distance_fits_a_budget_only_where_the_true_one_does(fresh: int | None) -> None:
    limit = compact.CAP if fresh is None else fresh
    kept_values = set()
    for plies in range(compact.CAP + 8):
        kept = compact.kept_distance(plies, fresh)
        kept_values.add(kept)
        if kept == compact.DRAW:  # kept as no count-rule result: proves nothing
            assert plies > limit, plies
            continue
        assert kept & 1 == plies & 1, (plies, kept)  # the same result
        for budget in range(limit + 1):  # whatever the clocks leave, never more than fresh
            assert kept > budget or plies <= budget, (plies, budget)
        # where the counts start afresh it fits exactly when the true distance does
        assert kept <= limit and plies <= limit, plies
    # a win that fits, a loss that fits, and none: nothing of how far
    assert len(kept_values) == 3, sorted(kept_values)


def test_draws_and_unused_slots_are_kept_as_they_are() -> None:
    for value in (compact.UNUSED, compact.DRAW):
        for fresh in (*BUDGETS, None):
            assert compact.kept_distance(value, fresh) == value


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


class Far:
    """Tables with count rules that call every position a win in ``plies``."""

    def __init__(self, plies: int) -> None:
        self.plies = plies

    def probe(self, state: object) -> Outcome:
        return Outcome("win", self.plies)


def test_a_counted_win_past_the_fresh_budget_is_kept_as_no_win(tables: CheckerTables) -> None:
    """A win the table counts past the plies a fresh count allows (the International tables
    have none: their count-rule distance is a draw there; Fries Spel's, with no count to fit,
    may count past ``CAP``) is kept as a draw, which proves nothing."""
    state, _plies = a_short_counted_win(tables)
    fresh = initial_clocks(INTERNATIONAL, state)
    for plies, proves in ((KING_ONLY_PLIES - 1, True), (KING_ONLY_PLIES + 1, False)):
        made_up = CheckerTables(tables.pure, Far(plies))  # type: ignore[arg-type]
        kept = made_up.probe_rules(state)
        assert kept is not None and kept.result == ("win" if proves else "draw"), kept
        search = ProofSearch(INTERNATIONAL, tables=made_up)
        assert search._counted_win(state, True, fresh) is proves


def test_the_engines_opinion_searches_on_where_a_kept_win_may_not_fit_the_clocks(
    tables: CheckerTables,
) -> None:
    """The evaluating search (``op_known`` in ``opinion.h``) reads the kept distance too.  Where
    the clocks have run, a kept win may not fit them: it searches on from there, as the proof
    search does, and finds the win, instead of calling the position a draw."""
    state, plies = a_short_counted_win(tables)
    prover = tables.prover()
    if prover is None:
        pytest.skip("no compiled search on this machine")
    late = DrawClocks(None, 0, KING_ONLY_PLIES - plies, None, 0)
    with prover.session(5) as session:
        fresh = session.opinion(state, initial_clocks(INTERNATIONAL, state), node_limit=20_000)
        run = session.opinion(state, late, node_limit=20_000)
    assert fresh.problem is None and run.problem is None
    assert fresh.score > WIN_SCORE // 2  # a table win, known at once
    assert run.score > 0, run  # not a draw: two kings and a man against a man, searched on
