"""The sums of proof numbers in the df-pn search (search.py ``_summed``), and what ``prove``
reports of a search: its verdict, the positions searched and the seconds."""

from __future__ import annotations

import pytest

from rulebook_build.engine.search import INFINITY, SUM_CAP, ProofSearch, _summed, root_node
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import INTERNATIONAL
from tests.checker.test_criteria import MIDDLE_GAME


def test_small_sums_are_exact() -> None:
    assert _summed(0, 0) == 0
    assert _summed(2, 3) == 5


def test_a_sum_stops_at_the_cap_below_the_root_threshold() -> None:
    # the root is searched to INFINITY - 1: a sum may never reach it unless a child is settled
    assert _summed(SUM_CAP - 1, 5) == SUM_CAP
    assert _summed(SUM_CAP, SUM_CAP) == SUM_CAP
    assert SUM_CAP < INFINITY - 1


def test_an_infinite_child_keeps_the_sum_infinite() -> None:
    assert _summed(3, INFINITY) == INFINITY
    assert _summed(INFINITY, 0) == INFINITY
    assert _summed(SUM_CAP, INFINITY) == INFINITY


# ------------------------------------------------------------------ what prove reports
def test_prove_stops_at_its_node_limit_and_reports_what_it_searched() -> None:
    position = parse_fen(MIDDLE_GAME, variant=INTERNATIONAL)
    root = root_node(INTERNATIONAL, position.state())
    search = ProofSearch(INTERNATIONAL)
    first = search.prove(root, seconds=30.0, node_limit=300)
    assert first.verdict == "undecided"
    # the limit is checked every 128 positions
    assert 300 <= first.nodes <= 300 + 128 and first.nodes == search.nodes
    assert isinstance(first.seconds, float) and 0.0 <= first.seconds < 30.0
    # a second question counts on from the first
    second = search.prove(root, seconds=30.0, node_limit=300)
    assert second.nodes == search.nodes and 600 <= second.nodes <= 600 + 256


@pytest.mark.parametrize(
    ("fen", "verdict"), [("W:W28:B19", "refuted"), ("W:W12,18:B9,25", "proved")]
)
def test_a_settled_answer_reports_its_positions_and_seconds(fen: str, verdict: str) -> None:
    position = parse_fen(fen, variant=INTERNATIONAL)
    search = ProofSearch(INTERNATIONAL)
    result = search.prove(root_node(INTERNATIONAL, position.state()), seconds=30.0)
    assert result.verdict == verdict
    assert result.nodes == search.nodes > 0
    assert isinstance(result.seconds, float) and 0.0 <= result.seconds < 30.0
