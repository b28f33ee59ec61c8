"""A judgement counted in work (``engine/budget.py``, ``check --deterministic``) does not
depend on the machine's speed: the same JSON however fast the wall clock runs."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from rulebook_build.checker.judge import Judge
from rulebook_build.engine import binaries
from rulebook_build.engine.budget import COMPILED_RATE, PYTHON_RATE, Work
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import start_position
from rulebook_build.rules import INTERNATIONAL
from tests.datafiles import PWCP

PROBLEM = "A2"
"""A PWCP-2 problem whose criteria are not all settled within ``SECONDS`` of work with the
4-piece tables, so that where the searches stop shows in the JSON (in the count of nodes
whatever the tables)."""
SECONDS = 1.0


def test_work_is_counted_at_the_nominal_rates() -> None:
    meter = Work()
    meter.spend_compiled(COMPILED_RATE)
    meter.spend_python(PYTHON_RATE // 2)
    assert meter.now() == pytest.approx(1.5)


@pytest.fixture(scope="module")
def tables() -> CheckerTables:
    found = checker_tables(INTERNATIONAL)
    found.prepare_missing()
    return found


def judged(tables: CheckerTables, *, by_work: bool) -> dict[str, Any]:
    games, _ = read_pdn_file(PWCP)
    game = next(g for g in games if g.tag("Event") == PROBLEM)
    judge = Judge(INTERNATIONAL, tables=tables, prover=tables.prover())
    position = start_position(game, INTERNATIONAL)
    found = judge.judge(game, position, seconds=SECONDS, by_work=by_work).as_json()
    del found["seconds"]
    return found


@pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")
def test_a_judgement_counted_in_work_ignores_the_wall_clock(
    tables: CheckerTables, monkeypatch: pytest.MonkeyPatch
) -> None:
    steady = judged(tables, by_work=True)
    assert steady["nodes"] > 0
    again = judged(tables, by_work=True)
    assert again == steady
    # a wall clock that runs fast, as on a machine many times slower: every reading is a
    # tenth of a second later than the one before
    real = time.perf_counter
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: real() + next(ticks) * 0.1)
    assert judged(tables, by_work=True) == steady
    # the same clock changes a judgement counted in wall time: the test can tell
    assert judged(tables, by_work=False) != steady
