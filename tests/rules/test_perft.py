"""Perft against the published figures (tests/rules/perft.txt)."""

from __future__ import annotations

import pytest

from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import find_variant, perft
from tests.rules.perft_data import read_perft_cases

# Deeper counts (up to 41 million leaves) run in benchmarks/perft.py, not in the test suite.
TEST_NODE_LIMIT = 1_100_000

CASES = [
    pytest.param(case.fen, case.variant, depth, nodes, id=f"{case.id}-d{depth}")
    for case in read_perft_cases()
    for depth, nodes in sorted(case.counts.items())
    if nodes <= TEST_NODE_LIMIT
]


@pytest.mark.parametrize(("fen", "variant", "depth", "nodes"), CASES)
def test_perft_matches_published_counts(fen: str, variant: str, depth: int, nodes: int) -> None:
    position = parse_fen(fen, variant=find_variant(variant))
    assert perft(position, depth) == nodes


def test_every_case_is_tested_to_some_depth() -> None:
    assert {case.id for case in read_perft_cases()} == {
        "international-start",
        "frisian-start",
        "dctl-kings-and-men",
        "dctl-woldouby",
        "dctl-all-kings",
        "dctl-promotion-race",
    }
    assert len(CASES) >= 35
