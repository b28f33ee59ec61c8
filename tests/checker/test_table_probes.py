"""The table probes a proof rests on: what ``covers``, ``probe``, ``locate`` and the positions
without a table (a side with no pieces) answer, at the edges of their bounds.  Written for the
mutants of ``benchmarks/mutation.py engine/tables/endgame.py`` that survived the value tests
(each bitboard of a state counted, each bound on both sides)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.engine.tables.endgame import EndgameTables, Outcome
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.rules.board import BIT_OF_SQUARE
from rulebook_build.rules.movegen import NO_STREAK, State

LOST_NOW = Outcome("loss", 0)
WIN_NOW = Outcome("win", 1)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> EndgameTables:
    return EndgameTables(INTERNATIONAL, cache_dir=tmp_path_factory.mktemp("endgame"))


def bits(*squares: int) -> int:
    found = 0
    for square in squares:
        found |= 1 << BIT_OF_SQUARE[square]
    return found


def state(
    own_men: tuple[int, ...] = (),
    own_kings: tuple[int, ...] = (),
    other_men: tuple[int, ...] = (),
    other_kings: tuple[int, ...] = (),
) -> State:
    """A state with White to move (own: White's pieces; White's men move up)."""
    return (
        bits(*own_men),
        bits(*own_kings),
        bits(*other_men),
        bits(*other_kings),
        True,
        NO_STREAK,
        NO_STREAK,
    )


@pytest.mark.parametrize(
    ("pieces", "covered", "value"),
    [
        # the side to move has nothing: lost at once, up to max_pieces (3) pieces on the board
        ({"other_men": (30, 31), "other_kings": (50,)}, True, LOST_NOW),
        ({"other_men": (30, 31), "other_kings": (49, 50)}, False, None),
        ({"other_men": (30, 31, 32, 33)}, False, None),
        ({"other_kings": (47, 48, 49, 50)}, False, None),
        # the other side has nothing: the side to move wins at once if it can move
        ({"own_men": (30, 31), "own_kings": (1,)}, True, WIN_NOW),
        ({"own_men": (30, 31)}, True, WIN_NOW),
        ({"own_kings": (1,)}, True, WIN_NOW),
        ({"own_men": (30, 31), "own_kings": (1, 2)}, False, None),
        ({"own_men": (30, 31, 32, 33)}, False, None),
        ({"own_kings": (1, 2, 3, 4)}, False, None),
    ],
)
def test_a_side_without_pieces_is_answered_within_the_piece_bound(
    tables: EndgameTables, pieces: dict[str, tuple[int, ...]], covered: bool, value: Outcome | None
) -> None:
    found = state(**pieces)
    assert tables.covers(found) is covered
    assert tables.probe(found) == value


def test_overlapping_or_impossible_placements_are_not_located(tables: EndgameTables) -> None:
    assert tables.locate(state(own_kings=(1,), other_kings=(50,))) is not None
    for impossible in (
        (bits(20), bits(20), 0, bits(40), True, NO_STREAK, NO_STREAK),  # a man and a king on 20
        (bits(20), 0, bits(20), 0, True, NO_STREAK, NO_STREAK),  # White and Black on 20
        (0, bits(20), 0, bits(20), True, NO_STREAK, NO_STREAK),
        (bits(25), 0, bits(40), bits(40), True, NO_STREAK, NO_STREAK),  # Black's man and king
    ):
        assert tables.locate(impossible) is None
        assert not tables.covers(impossible)
        assert tables.probe(impossible) is None


@pytest.mark.parametrize(
    "pieces",
    [
        {"own_men": (30,), "own_kings": (1,), "other_men": (15,), "other_kings": (50,)},
        {"own_men": (30, 31), "other_men": (15, 16)},
        {"own_kings": (1, 2), "other_kings": (49, 50)},
        {"own_men": (30,), "other_men": (15, 16), "other_kings": (50,)},
    ],
)
def test_more_pieces_than_any_class_are_not_located(
    tables: EndgameTables, pieces: dict[str, tuple[int, ...]]
) -> None:
    found = state(**pieces)
    assert tables.locate(found) is None
    assert not tables.covers(found)
    assert tables.probe(found) is None


def test_located_material_is_counted_per_kind(tables: EndgameTables) -> None:
    located = tables.locate(state(own_men=(30,), own_kings=(1,), other_kings=(50,)))
    assert located is not None and located[0] == (1, 1, 0, 1)
    located = tables.locate(state(own_kings=(1,), other_men=(15,), other_kings=(50,)))
    assert located is not None and located[0] == (0, 1, 1, 1)


def test_only_tables_with_the_count_rules_answer_probe_rules(
    tables: EndgameTables, tmp_path_factory: pytest.TempPathFactory
) -> None:
    kings = state(own_kings=(1,), other_kings=(50,))
    assert tables.probe(kings) is not None and tables.probe_rules(kings) is None  # pure
    counted = EndgameTables(
        INTERNATIONAL, max_pieces=2, semantics="rules", cache_dir=tmp_path_factory.mktemp("rules")
    )
    assert counted.probe_rules(kings) == counted.probe(kings) is not None


def test_a_side_alone_that_cannot_move_has_lost(tmp_path: Path) -> None:
    """A side whose opponent has no pieces wins at once if it can move; one that cannot move
    has lost (KNDB art. 8a) even then.  White kings on 1-5 and men on 6-10 block each other
    (each man's way up is a king, each king's way down a man): ten pieces, so the tables are
    asked with max_pieces 10 (no table is built: a side alone needs none)."""
    tables = EndgameTables(INTERNATIONAL, max_pieces=10, cache_dir=tmp_path)
    blocked = state(own_men=(6, 7, 8, 9, 10), own_kings=(1, 2, 3, 4, 5))
    assert tables.probe(blocked) == LOST_NOW
    free = state(own_men=(6, 7, 8, 9, 10), own_kings=(1, 2, 3, 4, 50))
    assert tables.probe(free) == WIN_NOW
