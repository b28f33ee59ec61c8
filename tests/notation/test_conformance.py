"""The PDN 3.0 conformance files (github wiegerw/pdn, games/): succeed and fail.

``games/succeed``: every file reads without error and every game in a variant this
program plays (International here) replays.  ``games/fail``: every file is rejected
with a located message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.errors import RulebookError
from rulebook_build.notation.pdn import read_pdn, read_pdn_file, write_pdn
from rulebook_build.notation.replay import default_variant, game_variant, replay
from tests.datafiles import CONFORMANCE, conformance_files

SUCCEED = conformance_files("succeed")
FAIL = conformance_files("fail")


def test_the_suite_is_complete() -> None:
    assert len(SUCCEED) == 39
    assert len(FAIL) == 8


@pytest.mark.parametrize("path", SUCCEED, ids=lambda p: p.name)
def test_succeed_files_read_and_replay(path: Path) -> None:
    games, errors = read_pdn_file(path)
    assert errors == ()
    assert games
    default = default_variant(games)
    for game in games:
        variant = game_variant(game, default)
        if variant is not None:
            replayed = replay(game, variant=variant)
            assert len(replayed.moves()) >= len(game.main_line())


@pytest.mark.parametrize("path", SUCCEED + FAIL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_game_read_round_trips(path: Path) -> None:
    """parse(write(games)) == games, for the good games of the fail files too."""
    games, _errors = read_pdn_file(path)
    again, errors = read_pdn(write_pdn(games), source="written")
    assert errors == ()
    assert again == games


def _problems(path: Path) -> list[RulebookError]:
    games, errors = read_pdn_file(path)
    found: list[RulebookError] = list(errors)
    default = default_variant(games)
    for game in games:
        variant = game_variant(game, default)
        if variant is None:
            continue
        try:
            replay(game, variant=variant)
        except RulebookError as error:
            found.append(error)
    return found


@pytest.mark.parametrize("path", FAIL, ids=lambda p: p.name)
def test_fail_files_are_rejected_with_a_location(path: Path) -> None:
    problems = _problems(path)
    assert problems
    for problem in problems:
        assert problem.source == str(path)
        assert problem.line is not None and problem.line >= 1
        assert problem.column is not None and problem.column >= 1
        text = str(problem)
        assert text.startswith(f"{path}:{problem.line}:{problem.column}: ")
        assert "^" in text


def test_international_games_are_recognised() -> None:
    replayed = 0
    for path in SUCCEED:
        games, _ = read_pdn_file(path)
        default = default_variant(games)
        replayed += sum(game_variant(game, default) is not None for game in games)
    assert replayed >= 300


def test_8x8_files_are_read_not_replayed() -> None:
    games, errors = read_pdn_file(CONFORMANCE / "succeed" / "OCA_2.0.pdn")
    assert not errors
    assert default_variant(games) is None
