"""The site's examples in problems/examples/: at least 12 sound problems per variant.

Each problem is judged again here, from its PDN, with the time limit of ``rulebook check``; the
stored verdicts the site shows (problems/verdicts.jsonl) must be sound and belong to the
problem's present text (the digest).  The examples are credited as what they are (composed for
this site as an example), never to a composer.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rulebook_build.checker.judge import Judge, problem_digest
from rulebook_build.checker.verdict_json import judgement_from_json
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import game_variant, start_position
from rulebook_build.rules import Variant

PROBLEMS = Path(__file__).resolve().parents[2] / "problems" / "examples"
FILES = sorted(PROBLEMS.glob("*.pdn"))


def problem(path: Path) -> tuple[PdnGame, Variant]:
    games, errors = read_pdn_file(path)
    assert not errors, errors
    (game,) = games
    variant = game_variant(game)
    assert variant is not None
    return game, variant


def test_at_least_twelve_examples_of_each_variant_credited_as_examples() -> None:
    counts: Counter[str] = Counter()
    for path in FILES:
        game, variant = problem(path)
        counts[variant.name] += 1
        assert game.tag("Composer") is None  # nobody's composition
        assert game.tag("Source") == "Composed for this site as an example"
        assert game.tag("Title")
        assert game.tag("Stipulation") == "White to play and win"
    assert counts["international"] >= 12 and counts["frisian"] >= 12, counts


def test_stored_verdicts_are_sound_and_current() -> None:
    stored = {}
    for line in (PROBLEMS.parent / "verdicts.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        stored[record["digest"]] = record
    for path in FILES:
        game, variant = problem(path)
        record = stored.get(problem_digest(game, variant))
        assert record is not None, f"{path.name}: no verdict for its present text"
        assert record["verdict"] == "sound", path.name


def test_every_stored_verdict_reads_back_into_the_judgement_that_wrote_it() -> None:
    """The typed contract both ways: each stored record is a ``Judgement``'s JSON, unchanged by
    a round trip, and an undecided one carries an opinion for each undecided criterion."""
    lines = (PROBLEMS.parent / "verdicts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) > 100
    for line in lines:
        record = json.loads(line)
        judgement = judgement_from_json(record)
        assert judgement.as_json() == record, record["source"]
        for name, criterion in judgement.criteria.items():
            if criterion.status == "undecided":
                assert any(name in o.criteria for o in judgement.opinions), record["source"]


@pytest.fixture(scope="module")
def tables() -> dict[str, CheckerTables]:
    # the checker's own tables (built once into .cache/endgame, as 'rulebook check' does)
    return {}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_problem_is_judged_sound_again(path: Path, tables: dict[str, CheckerTables]) -> None:
    game, variant = problem(path)
    if variant.name not in tables:
        # built before the clock starts, as 'rulebook check' does (the first run after a rules
        # change builds them: 40 s for Frisian, which would eat the problem's own time)
        tables[variant.name] = checker_tables(variant)
        tables[variant.name].prepare_missing()
    # with the compiled search where there is one (International), as 'rulebook check' does
    judge = Judge(variant, tables=tables[variant.name], prover=tables[variant.name].prover())
    judgement = judge.judge(game, start_position(game, variant), seconds=60.0)
    failed = {n: c.detail for n, c in judgement.criteria.items() if c.status != "pass"}
    assert judgement.verdict == "sound", failed
    assert judgement.winning_keys == [judgement.solution.key]
