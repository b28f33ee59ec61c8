"""Endgame tables: known results, the cache, and the main test, consistency with the rules.

The tables are built into a temporary directory, and only the classes these tests touch (the
tables are lazy): the largest are two kings against one king in both variants and, for Frisian,
king and man against a king with the art. 17 counters.  A table is right when every position's
value is the minimax of its children's values (a win in n has a child lost in n - 1, a loss in n
has only children won, the longest in n - 1); that is checked on random positions.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rulebook_build.engine.tables import tablefile
from rulebook_build.engine.tables.endgame import EndgameTables, Outcome
from rulebook_build.engine.tables.index import (
    KING_BITS,
    MOVER_MEN_BITS,
    OTHER_MEN_BITS,
    square_sets,
)
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position, Variant
from rulebook_build.rules.board import BIT_OF_SQUARE
from rulebook_build.rules.movegen import NO_STREAK, State, Streak, generate, make


@pytest.fixture(scope="module")
def international(tmp_path_factory: pytest.TempPathFactory) -> EndgameTables:
    return EndgameTables(INTERNATIONAL, cache_dir=tmp_path_factory.mktemp("endgame"))


@pytest.fixture(scope="module")
def frisian(tmp_path_factory: pytest.TempPathFactory) -> EndgameTables:
    return EndgameTables(FRISIAN, cache_dir=tmp_path_factory.mktemp("endgame"))


def state(variant: Variant = INTERNATIONAL, **squares: object) -> State:
    return Position.from_squares(variant=variant, **squares).state()  # type: ignore[arg-type]


def win(plies: int) -> Outcome:
    return Outcome("win", plies)


def loss(plies: int) -> Outcome:
    return Outcome("loss", plies)


DRAW = Outcome("draw", 0)


# --------------------------------------------------------------------------- known results
def test_king_against_king_from_a_quiet_position_is_a_draw(international: EndgameTables) -> None:
    assert international.probe(state(white_kings=[33], black_kings=[18])) == DRAW
    assert international.probe(state(white_kings=[33], black_kings=[18], white_to_move=False)) == (
        DRAW
    )


def test_a_capture_of_the_last_piece_wins_in_one_ply(international: EndgameTables) -> None:
    # 28x19: Black has no piece left
    assert international.probe(state(white_kings=[28], black_kings=[23])) == win(1)


def test_a_king_in_the_corner_facing_the_other_king_is_lost_in_two(
    international: EndgameTables,
) -> None:
    # the kings on 46 and 5 have only the long diagonal: whoever moves stops on it and is taken
    for white_to_move in (True, False):
        position = state(white_kings=[46], black_kings=[5], white_to_move=white_to_move)
        assert international.probe(position) == loss(2)
    # elsewhere on the diagonal the side to move takes at once
    assert international.probe(state(white_kings=[46], black_kings=[10])) == win(1)


def test_a_king_catches_a_man_with_black_to_move(international: EndgameTables) -> None:
    # 26-31 is forced, then 37x26
    position = state(white_kings=[37], black_men=[26], white_to_move=False)
    assert international.probe(position) == loss(2)


def test_a_blocked_side_has_lost_at_once(
    international: EndgameTables, frisian: EndgameTables
) -> None:
    # the king on 46 can neither move to 41 nor take it (37 is occupied), in either variant
    for tables, variant in ((international, INTERNATIONAL), (frisian, FRISIAN)):
        blocked = state(variant, white_kings=[46], black_kings=[41, 37])
        assert not generate(variant, blocked)
        assert tables.probe(blocked) == loss(0)


def test_two_kings_against_one(international: EndgameTables, frisian: EndgameTables) -> None:
    # International: two kings cannot trap a free king, they win only by a quick tactic
    counts = international.stats((0, 2, 0, 1))
    assert counts["draw"] > counts["win"] > 0
    assert counts["loss"] == 0
    # Frisian: kings also capture along ranks and files, two kings nearly always win
    counts = frisian.stats((0, 2, 0, 1))
    assert counts["win"] > 100 * counts["draw"]
    assert counts["loss"] == 0


def test_frisian_orthogonal_capture(international: EndgameTables, frisian: EndgameTables) -> None:
    # 23 and 33 are on one file: a Frisian king takes along it, an International one cannot
    assert frisian.probe(state(FRISIAN, white_kings=[23], black_kings=[33])) == win(1)
    assert international.probe(state(white_kings=[23], black_kings=[33])) == DRAW


def test_frisian_art17_a_king_that_moved_three_times_may_not_move_again(
    frisian: EndgameTables,
) -> None:
    # the man on 46 is blocked (41 taken by a king, 37 by its own king): only the king can move,
    # and after three quiet moves in a row it may not (Fries Spel art. 17)
    free = state(FRISIAN, white_men=[46], white_kings=[37], black_kings=[41])
    spent = state(
        FRISIAN,
        white_men=[46],
        white_kings=[37],
        black_kings=[41],
        white_king_streak=(3, 37),
    )
    assert frisian.probe(spent) == loss(0)
    free_outcome = frisian.probe(free)
    assert free_outcome is not None and free_outcome != loss(0)
    # two moves so far: the king may make a third
    two = (*free[:5], (2, BIT_OF_SQUARE[37]), NO_STREAK)
    assert generate(FRISIAN, two) == generate(FRISIAN, free)
    assert frisian.probe(two) == expected(frisian, FRISIAN, two) != loss(0)


# --------------------------------------------------------------------------- coverage
def test_covers_counts_pieces_and_rejects_impossible_placements(
    international: EndgameTables,
) -> None:
    three = state(white_kings=[1, 2], black_kings=[50])
    four = state(white_kings=[1, 2], black_kings=[49, 50])
    assert international.covers(three)
    assert not international.covers(four)
    assert international.probe(four) is None
    # a white man on 3, its own promotion row, cannot occur
    impossible = (1 << BIT_OF_SQUARE[3], 0, 0, 1 << BIT_OF_SQUARE[30], True, NO_STREAK, NO_STREAK)
    assert not international.covers(impossible)
    assert international.probe(impossible) is None


def test_a_side_without_pieces_needs_no_table(international: EndgameTables) -> None:
    nothing_left = (0, 0, 0, 1 << BIT_OF_SQUARE[30], True, NO_STREAK, NO_STREAK)
    assert international.probe(nothing_left) == loss(0)
    alone = (0, 1 << BIT_OF_SQUARE[30], 0, 0, True, NO_STREAK, NO_STREAK)
    assert international.probe(alone) == win(1)


def test_material_classes() -> None:
    tables = EndgameTables(INTERNATIONAL, max_pieces=3, cache_dir=Path("/nonexistent"))
    classes = tables.material_classes()
    assert len(classes) == 4 + 12
    assert classes[0] == (0, 1, 0, 1)
    assert all(sum(m) <= 3 and m[0] + m[1] and m[2] + m[3] for m in classes)


def test_four_pieces_only_where_a_build_stays_small() -> None:
    for variant in (INTERNATIONAL, FRISIAN):
        tables = EndgameTables(variant, max_pieces=4, cache_dir=Path("/nonexistent"))
        four = [m for m in tables.material_classes() if sum(m) == 4]
        assert four == [(0, 1, 0, 3), (0, 2, 0, 2), (0, 3, 0, 1), (0, 3, 1, 0), (1, 0, 0, 3)]
        assert not tables.supports((1, 1, 1, 1))
        assert not tables.covers(state(variant, white_kings=[1, 2], black_men=[20, 30]))
        assert tables.covers(state(variant, white_kings=[1, 2], black_kings=[20, 30]))


# --------------------------------------------------------------------------- the cache
def test_a_second_instance_loads_from_disk(tmp_path: Path) -> None:
    first = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    position = state(white_kings=[46], black_kings=[5])
    assert first.probe(position) == loss(2)
    assert (0, 1, 0, 1) in first.build_seconds
    files = list(tmp_path.rglob("*.bin"))
    assert files

    second = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    assert second.probe(position) == loss(2)
    assert second.build_seconds == {}  # loaded, not built

    # a damaged file is ignored and rebuilt
    for path in files:
        path.write_bytes(path.read_bytes()[:-2])
    third = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    assert third.probe(position) == loss(2)
    assert (0, 1, 0, 1) in third.build_seconds


def flip_one_value_byte(path: Path) -> None:
    """Change one byte among a table file's values, its header left as it was."""
    data = bytearray(path.read_bytes())
    offset = data.index(b"\n", len(tablefile.MAGIC)) + 1  # the values start after the header
    data[offset + (len(data) - offset) // 2] ^= 0x5A
    path.write_bytes(bytes(data))


def test_a_table_with_one_byte_changed_is_refused_set_aside_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    position = state(white_kings=[46], black_kings=[5])
    assert first.probe(position) == loss(2)
    (path,) = [p for p in tmp_path.rglob("m0k1-m0k1.bin")]
    flip_one_value_byte(path)

    second = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    assert second.probe(position) == loss(2)  # the right value: from a rebuilt table
    assert (0, 1, 0, 1) in second.build_seconds
    assert path.with_name(path.name + ".damaged").is_file()  # the damaged file, moved aside
    assert "damaged endgame table refused" in caplog.text and path.name in caplog.text
    assert EndgameTables(INTERNATIONAL, cache_dir=tmp_path).verify_files(always=True) == []


def test_verify_files_names_a_damaged_or_foreign_table_and_moves_it_aside(tmp_path: Path) -> None:
    tables = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    tables.prepare((0, 1, 0, 1))
    assert tables.verify_files(always=True) == []
    (path,) = [p for p in tmp_path.rglob("m0k1-m0k1.bin")]
    flip_one_value_byte(path)
    (problem,) = tables.verify_files(always=True)
    assert str(path) in problem and "checksum" in problem
    assert not path.exists()
    foreign = tables.folder() / "m0k2-m0k1.bin"
    foreign.write_bytes(tablefile.MAGIC + b'{"format": 1}\n' + bytes(8))
    (problem,) = tables.verify_files(always=True)
    assert str(foreign) in problem and "not a table of these rules" in problem


def test_a_large_table_is_hashed_once_then_trusted_by_its_stamp_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tablefile, "ALWAYS_HASH_BYTES", 1000)  # every table counts as large
    tables = EndgameTables(INTERNATIONAL, cache_dir=tmp_path)
    tables.prepare((0, 1, 0, 1))
    (path,) = [p for p in tmp_path.rglob("m0k1-m0k1.bin")]
    assert tables.verify_files() == []
    stamp = path.with_name(path.name + tablefile.STAMP)
    assert stamp.is_file()
    before = path.stat().st_mtime_ns
    flip_one_value_byte(path)  # a change of the file changes its modification time: hashed again
    if path.stat().st_mtime_ns == before:  # a coarse file-system clock: as a later write would
        os.utime(path, ns=(before + 10**7, before + 10**7))
    (problem,) = tables.verify_files()
    assert "checksum" in problem


def test_classes_beyond_the_build_bounds_are_used_only_from_the_cache(tmp_path: Path) -> None:
    # what ``rulebook tables`` does: build a class beyond the bounds the checker builds itself
    builder = EndgameTables(INTERNATIONAL, max_pieces=3, max_pair_slots=None, cache_dir=tmp_path)
    assert builder.prepare((0, 2, 0, 1))  # two kings against a king, and its partner
    assert not builder.prepare((0, 2, 0, 1))  # already there
    assert builder.in_cache((0, 2, 0, 1)) and builder.in_cache((0, 1, 0, 2))

    checker = EndgameTables(INTERNATIONAL, max_pieces=2, cached_pieces=3, cache_dir=tmp_path)
    assert checker.supports((0, 2, 0, 1)) and checker.supports((0, 1, 0, 2))
    in_cache = state(white_kings=[46, 1], black_kings=[5])
    assert checker.probe(in_cache) == builder.probe(in_cache)
    assert not checker.supports((1, 1, 1, 0))  # three pieces, not in the cache: never built
    assert checker.probe(state(white_kings=[46], white_men=[33], black_men=[8])) is None
    assert checker.build_seconds == {}


# --------------------------------------------------------------------------- consistency
def expected(tables: EndgameTables, variant: Variant, position: State) -> Outcome:
    """The value of ``position`` from the table values of its children (minimax by distance)."""
    moves = generate(variant, position)
    if not moves:
        return loss(0)
    children = [tables.probe(make(variant, position, move)) for move in moves]
    assert all(child is not None for child in children)
    outcomes = [child for child in children if child is not None]
    losses = [child.plies for child in outcomes if child.result == "loss"]
    if losses:
        return win(1 + min(losses))
    if all(child.result == "win" for child in outcomes):
        return loss(1 + max(child.plies for child in outcomes))
    return DRAW


WHITE_MEN_SQUARES = range(6, 51)
BLACK_MEN_SQUARES = range(1, 46)


def random_state(
    rng: random.Random, variant: Variant, material: tuple[int, int, int, int]
) -> State:
    """A random position of a class given as (white men, white kings, black men, black kings),
    with a random side to move and, where Fries Spel art. 17 applies, random king counters."""
    while True:
        taken: set[int] = set()
        groups = []
        for count, squares in zip(
            material,
            (WHITE_MEN_SQUARES, range(1, 51), BLACK_MEN_SQUARES, range(1, 51)),
            strict=True,
        ):
            chosen = rng.sample([s for s in squares if s not in taken], count)
            taken.update(chosen)
            groups.append(chosen)
        streaks: list[tuple[int, int]] = []
        for men, kings in ((groups[0], groups[1]), (groups[2], groups[3])):
            limit = variant.max_consecutive_king_moves
            if limit is not None and men and kings and rng.random() < 0.75:
                streaks.append((rng.randint(1, limit), rng.choice(kings)))
            else:
                streaks.append((0, 0))
        return Position.from_squares(
            variant=variant,
            white_men=groups[0],
            white_kings=groups[1],
            black_men=groups[2],
            black_kings=groups[3],
            white_to_move=rng.random() < 0.5,
            white_king_streak=streaks[0],
            black_king_streak=streaks[1],
        ).state()


INTERNATIONAL_CLASSES: list[tuple[int, int, int, int]] = [
    (0, 1, 0, 1),
    (0, 1, 1, 0),
    (1, 0, 1, 0),
    (0, 2, 0, 1),
    (0, 1, 0, 2),
]
FRISIAN_CLASSES: list[tuple[int, int, int, int]] = [
    (0, 1, 0, 1),
    (1, 0, 0, 1),
    (1, 0, 1, 0),
    (0, 2, 0, 1),
    (1, 1, 0, 1),
    (0, 1, 1, 1),
]


@pytest.mark.parametrize(
    ("variant_name", "classes"),
    [("international", INTERNATIONAL_CLASSES), ("frisian", FRISIAN_CLASSES)],
)
def test_values_agree_with_the_values_of_the_children(
    request: pytest.FixtureRequest, variant_name: str, classes: list[tuple[int, int, int, int]]
) -> None:
    tables: EndgameTables = request.getfixturevalue(variant_name)
    variant = tables.variant
    rng = random.Random(f"endgame {variant_name}")
    results: dict[str, int] = {"win": 0, "loss": 0, "draw": 0}
    for _ in range(400):
        position = random_state(rng, variant, rng.choice(classes))
        assert tables.covers(position)
        outcome = tables.probe(position)
        assert outcome is not None
        assert outcome == expected(tables, variant, position), Position.from_state(
            variant, position
        )
        results[outcome.result] += 1
    assert min(results.values()) > 0  # the sample meets wins, losses and draws


def test_frisian_counters_are_consistent_where_they_matter(frisian: EndgameTables) -> None:
    # every counter value of the king of a king-and-man side, in random placements
    rng = random.Random("art. 17")
    streak: Streak
    for _ in range(60):
        base = random_state(rng, FRISIAN, (1, 1, 0, 1))
        king_bit = (base[1] if base[4] else base[3]).bit_length() - 1
        for count in range(4):
            streak = (count, king_bit) if count else NO_STREAK
            own, other = (streak, NO_STREAK) if base[4] else (NO_STREAK, streak)
            position = (*base[:5], own, other)
            assert frisian.probe(position) == expected(frisian, FRISIAN, position)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_turned_set_has_the_rank_of_the_set_on_the_mirrored_squares(count: int) -> None:
    # a position with Black to move is stored turned round: square s -> 51 - s
    square_of = {bit: square for square, bit in enumerate(BIT_OF_SQUARE) if square}
    for domain in (MOVER_MEN_BITS, OTHER_MEN_BITS, KING_BITS):
        group = square_sets(domain, count)
        assert len(group.rank_black) == len(group.sets)
        for rank, bitboard in enumerate(group.sets):
            squares = [square_of[b] for b in range(64) if bitboard >> b & 1]
            turned = sum(1 << BIT_OF_SQUARE[51 - s] for s in squares)
            assert group.rank_black[turned] == rank and group.rank_white[bitboard] == rank
