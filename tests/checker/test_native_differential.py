"""The compiled proof search plays the rules of both variants exactly as the Python engine does.

A short run of the differential test of ``differential.py`` (``benchmarks/differential.py`` runs a
long one): random positions with random game state, where every child with its clocks, every
count-rule draw and every table value of the compiled program must be the Python engine's.  The
run is checked to have met what it is meant to test (captures, table values, art. 17 runs that
hold a king back, art. 18 counts), so that a change to the generator cannot make it pass
without looking.
"""

from __future__ import annotations

import random

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.search import root_node
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL
from rulebook_build.rules.board import squares_in
from rulebook_build.rules.movegen import generate
from rulebook_build.rules.variants import Variant
from tests.checker.differential import compare, compiled_view, python_view

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

NODES = 1500


def ready(variant: Variant) -> tuple[CheckerTables, binaries.NativeProver]:
    tables = checker_tables(variant)
    tables.prepare_missing()
    prover = tables.prover()
    assert prover is not None, "a C compiler is here, so the search must compile"
    return tables, prover


@pytest.mark.parametrize("variant", [FRISIAN, INTERNATIONAL], ids=lambda v: v.name)
def test_the_compiled_search_generates_what_the_python_engine_does(variant: Variant) -> None:
    tables, prover = ready(variant)
    found = compare(variant, tables, prover, random.Random(20), NODES)
    assert found.differences == []
    assert found.nodes == NODES
    # what the run met: enough of each thing it compares to mean something
    assert found.seen["table value"] >= NODES // 5
    assert found.seen["captures"] >= NODES // 3
    assert found.seen["count rule draws"] >= 30
    if variant is FRISIAN:
        assert found.seen["table value with a run"] >= 30
        assert found.seen["a king held back"] >= 150
        assert found.seen["two kings against one"] >= 100


@pytest.mark.parametrize(
    ("fen", "captured"),
    [
        # art. 11: a king (worth more than one man) rather than a man; two men rather than a king
        ("W:W33:BK28,38", [[28]]),
        ("W:W33:BK28,39,40", [[39, 40]]),
        # art. 12: at equal value only the king's capture (International allows both)
        ("W:W33,K50:B28,44", [[44]]),
    ],
)
def test_the_frisian_capture_rules_by_name(fen: str, captured: list[list[int]]) -> None:
    # the differential test meets these by chance; here each is set up and its answer known
    tables, prover = ready(FRISIAN)
    state, clocks = root_node(FRISIAN, parse_fen(fen, variant=FRISIAN).state())
    python = python_view(FRISIAN, tables, state, clocks)
    assert compiled_view(prover, state, clocks) == python
    assert [squares_in(move[2]) for move in generate(FRISIAN, state)] == captured
