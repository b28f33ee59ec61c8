"""The compiled search's first estimate (``native/prover.c first_estimate``): the proof and
disproof numbers a node starts with, which order the search and never settle a node.

``prover moves`` prints them ("estimate PN DN"): a leaf's values (0 and INF, or INF and 0) where
a rule or a table settles the node, else the estimate, both numbers at least 1 and below INF.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.search import INFINITY
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.rules.drawrules import KING_ONLY_PLIES, DrawClocks
from rulebook_build.rules.movegen import State

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")


@pytest.fixture(scope="module")
def prover() -> binaries.NativeProver:
    tables = checker_tables(INTERNATIONAL)
    tables.prepare_missing()  # up to 4 pieces, as 'rulebook check' builds them
    compiled = tables.prover()
    assert compiled is not None, "a C compiler is here, so the search must compile"
    return compiled


def state(fen: str) -> State:
    return parse_fen(fen, variant=INTERNATIONAL).state()


def clocks(king_only_plies: int = 0) -> DrawClocks:
    return DrawClocks(None, 0, king_only_plies, None, 0)


# six men against two, beyond the tables: White is far ahead on every count
AHEAD = "W:W31,32,33,34,35,36:B3,4"
# four kings against two, beyond the tables
KINGS = "W:WK1,K5,K46,K50:BK23,K28"


def test_a_position_the_estimate_favours_is_not_proved_by_it(
    prover: binaries.NativeProver,
) -> None:
    report = prover.describe(state(AHEAD), clocks())
    proof, disproof = report.estimate
    # White to move: one move may do, so the proof number is the least; White is four men up,
    # so the disproof number is far larger than the count of moves
    assert proof == 1
    assert len(report.children) < disproof < INFINITY
    # and still nothing is proved before the tree below is closed by real leaves
    answer = prover.solve(state(AHEAD), clocks(), seconds=120.0, node_limit=1_000)
    assert answer.verdict == "undecided"


def test_a_count_rule_settles_a_node_whatever_the_estimate(
    prover: binaries.NativeProver,
) -> None:
    open_node = prover.describe(state(KINGS), clocks())
    assert 0 < open_node.estimate[0] < INFINITY and 0 < open_node.estimate[1] < INFINITY
    # the same kings after 25 moves of kings alone each: a draw (KNDB art. 9d), not a win
    drawn = prover.describe(state(KINGS), clocks(KING_ONLY_PLIES))
    assert drawn.draw
    assert drawn.estimate == (INFINITY, 0)
    answer = prover.solve(state(KINGS), clocks(KING_ONLY_PLIES), seconds=120.0, node_limit=1_000)
    assert answer.verdict == "refuted"


def evaluating(prover: binaries.NativeProver, folder: Path) -> binaries.NativeProver:
    """The search compiled with ESTIMATE 1: its first estimate by the static evaluation."""
    program = folder / "prover-evaluating"
    command = [binaries.compiler() or "cc", *binaries.FLAGS, "-DESTIMATE=1", "-o", str(program)]
    subprocess.run([*command, str(binaries.PROVER_SOURCE)], check=True)
    return binaries.NativeProver(program, prover.pure_dir, prover.rules_dir, variant=INTERNATIONAL)


def test_the_evaluating_estimate_weighs_the_evaluation_not_the_material_alone(
    prover: binaries.NativeProver, tmp_path: Path
) -> None:
    # three men each, but White's man on 11 runs to the crown and nothing can stop it: the
    # evaluation counts it nearly a king, so refuting White is harder than the moves alone say;
    # the material alone (the default) counts the moves only
    runaway = state("W:W11,46,47:B31,32,33")
    by_material = prover.describe(runaway, clocks())
    assert by_material.estimate == (1, len(by_material.children))
    report = evaluating(prover, tmp_path).describe(runaway, clocks())
    assert report.estimate[0] == 1
    assert report.estimate[1] > 10 * len(report.children)
    # and it settles nothing by itself either
    ahead = evaluating(prover, tmp_path).solve(
        state(AHEAD), clocks(), seconds=120.0, node_limit=1_000
    )
    assert ahead.verdict == "undecided"
