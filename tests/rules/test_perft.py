"""Perft against the published figures (tests/rules/perft.txt)."""

from __future__ import annotations

import random

import pytest

from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position, Variant, find_variant, perft
from rulebook_build.rules.movegen import count_moves, generate, make
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


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_leaf_count_equals_the_number_of_generated_moves(variant: Variant) -> None:
    """perft counts the last ply with ``count_moves``: it must agree with ``generate``."""
    rng = random.Random(11)
    compared = kings = restricted = 0
    for _ in range(40):
        state = Position.initial(variant).state()
        for _ply in range(200):
            moves = generate(variant, state)
            assert count_moves(variant, state) == len(moves)
            compared += 1
            kings += bool(state[1])
            restricted += state[5][0] >= 3 and bool(state[0])
            if not moves:
                break
            state = make(variant, state, rng.choice(moves))
    assert compared > 2500
    assert kings > 100
    if variant is FRISIAN:
        assert restricted > 0
