"""The sums of proof numbers in the df-pn search (search.py ``_summed``)."""

from rulebook_build.checker.search import INFINITY, SUM_CAP, _summed


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
