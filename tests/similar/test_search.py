"""The anticipation search on the published problems: copies of a problem find it first.

The corpus is ``problems/``. The copies are written out by hand from two published problems,
so that a fault in the geometry cannot make a copy and find it back the same wrong way:

- Cat.B1 B11, M. van Dijk, Het Parool 18-9-1971 (``problems/cat-b1/Cat.B1.pdn`` line 17),
  ``W:W29,30,33,39,40,42,49:B7,8,9,10,18,19,38``: no piece is on a side column, so two columns
  left is every square minus one; colours reversed is every square s as 51 - s, the colours
  swapped, Black to move.
- Cat.D1 D14, A. van den Elzen, Clubblad HDR 5/1975 (``problems/cat-d1/Cat.D1.pdn`` line 44):
  after 1. 36-31 27x36 2. 38x29 24x33 3. 43-38 33x42 the position is ``W:W40,41,45,47:B20,30,
  36,42`` and the solution ends 4. 47x38 36x47 5. 40-34 47x40 6. 45x14. The copy starts there
  with colours reversed (``B:W9,15,21,31:B4,6,10,11``): another start, eight of the fourteen
  pieces, the same final combination.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.similar.combination import final_combination
from rulebook_build.similar.geometry import mask_of
from rulebook_build.similar.index import Index, build_index, collection_of, pdn_files, record_of
from rulebook_build.similar.search import (
    POSSIBLE_ANTICIPATION,
    REPORTED,
    Match,
    phase_played,
    queries,
    search,
)

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "problems"
VAN_DIJK = f"{PROBLEMS / 'cat-b1' / 'Cat.B1.pdn'}:17"
VAN_DEN_ELZEN = f"{PROBLEMS / 'cat-d1' / 'Cat.D1.pdn'}:44"


def problem(fen: str, moves: str = "", gametype: int = 20) -> str:
    return f'[Event "copy"]\n[SetUp "1"]\n[FEN "{fen}"]\n[GameType "{gametype}"]\n\n{moves} *\n'


@pytest.fixture(scope="module")
def corpus() -> Index:
    return build_index(pdn_files(str(PROBLEMS)), use_cache=False)


def look_for(corpus: Index, folder: Path, text: str, limit: int = 5) -> list[Match]:
    path = folder / "query.pdn"
    path.write_text(text, encoding="utf-8")
    collection = collection_of(path)
    record, _bits = record_of(path, collection, use_cache=False)
    (query,) = queries(corpus, str(path), record, collection)
    return search(corpus, query, limit)


@pytest.mark.parametrize(
    ("fen", "score", "transform", "reason"),
    [
        pytest.param(
            "W:W28,29,32,38,39,41,48:B6,7,8,9,17,18,37",
            1.0,
            "shift(+0,+2)",
            "same position, shifted two columns right",
            id="shifted",
        ),
        pytest.param(
            "B:W13,32,33,41,42,43,44:B2,9,11,12,18,21,22",
            1.0,
            "reversed",
            "same position, colours reversed",
            id="colours-reversed",
        ),
        pytest.param(
            "W:W29,30,33,39,40,42,49:B7,8,9,10,18,19,24,38",
            round(14 / 15, 4),
            "identity",
            "same position; one black man fewer",
            id="black-man-added",
        ),
        pytest.param(
            "W:W29,30,33,39,40,42,49:B7,8,9,10,18,19",
            round(13 / 14, 4),
            "identity",
            "same position; one black man more",
            id="black-man-removed",
        ),
    ],
)
def test_a_copy_finds_the_original_first(
    corpus: Index, tmp_path: Path, fen: str, score: float, transform: str, reason: str
) -> None:
    first, *_rest = look_for(corpus, tmp_path, problem(fen))
    assert first.source == VAN_DIJK
    assert (first.score, first.transform, first.reason) == (score, transform, reason)
    assert first.kind == "position"
    assert first.anticipation
    assert first.composer == "M.van Dijk"  # Cat.B1's composer_tag is Event
    assert first.published == "Het Parol , 18-9-1971"  # its publication_tag is Site
    assert first.collection == "Cat.B1" and first.move is None


def test_a_final_combination_reached_from_another_start_finds_the_original_first(
    corpus: Index, tmp_path: Path
) -> None:
    copy = problem("B:W9,15,21,31:B4,6,10,11", "1... 4x13 2. 15x4 11-17 3. 4x11 6x37")
    first, *_rest = look_for(corpus, tmp_path, copy)
    assert first.source == VAN_DEN_ELZEN
    assert first.kind == "combination"
    assert first.score == 1.0 and first.transform == "reversed"
    assert first.reason == "same final combination, colours reversed: 40-34 47x40 45x14"
    # the position alone is no relative: eight of fourteen pieces, in other places
    alone = look_for(corpus, tmp_path, problem("B:W9,15,21,31:B4,6,10,11"))
    assert VAN_DEN_ELZEN not in [match.source for match in alone]


@pytest.mark.parametrize(
    ("file", "line", "start", "moves", "pattern"),
    [
        pytest.param(
            "cat-d1/Cat.D1.pdn",
            44,
            8,
            ((40, 34, ()), (47, 40, (34, 38)), (45, 14, (20, 30, 40))),
            (mask_of([38, 40, 45]), 0, mask_of([20, 30]), mask_of([47])),
            id="D14-from-the-sacrifice",
        ),
        pytest.param(
            "pwcp-2/PWCP_2.pdn",
            2,
            0,
            (
                (17, 12, ()),
                (36, 47, (41,)),
                (12, 3, (8,)),
                (47, 1, (18, 38)),
                (3, 45, (14, 24, 34)),
            ),
            (mask_of([17, 18, 38, 41]), 0, mask_of([8, 14, 24, 34, 36]), 0),
            id="A1-back-over-a-capture-to-the-key",
        ),
    ],
)
def test_the_final_combination_runs_from_the_sacrifice_before_the_last_forced_capture(
    file: str, line: int, start: int, moves: tuple[object, ...], pattern: tuple[int, ...]
) -> None:
    """Cat.D1 D14: Black's last capture is 47x40; the phase starts with White's 40-34 and its
    pattern is the pieces that move or are taken: the white men 40 (taken on 34), 38 (taken by
    the same capture) and 45, the black king 47 (crowned by 36x47), and the black men 20 and 30
    that 45x14 takes. PWCP-2 A1: before Black's last capture 47x1 White captures (12x3), so the
    phase goes back to White's quiet move before it, the key 17-12: every piece but one takes
    part."""
    path = PROBLEMS / file
    record, _bits = record_of(path, collection_of(path), use_cache=False)
    item = next(item for item in record.items if item.line == line)
    combination = final_combination(record, item)
    assert combination is not None and not combination.turned
    assert (combination.start_ply, combination.moves, combination.pattern) == (
        start,
        moves,
        pattern,
    )


def test_a_line_plays_the_phase_until_it_ends_but_not_past_another_move() -> None:
    phase = ((40, 34, ()), (47, 40, (34, 38)), (45, 14, (20, 30, 40)))
    identity = tuple(range(51))
    assert phase_played(phase, phase, identity) == 3
    assert phase_played(phase, phase[:2], identity) == 2  # a game resigned before the blow
    assert phase_played(phase, (*phase[:2], (45, 40, ())), identity) == -1
    turned = tuple([0, *(51 - square for square in range(1, 51))])
    reversed_phase = ((11, 17, ()), (4, 11, (13, 17)), (6, 37, (11, 21, 31)))
    assert phase_played(phase, reversed_phase, turned) == 3


def test_a_near_match_scores_its_pieces_in_common_over_the_pieces_in_either(
    corpus: Index, tmp_path: Path
) -> None:
    """Seven of van Dijk's fourteen pieces: 7 in common, 14 in either."""
    matches = look_for(corpus, tmp_path, problem("W:W29,30,33,39:B7,8,9"), limit=10)
    found = {match.source: match for match in matches}
    assert found[VAN_DIJK].score == 0.5
    assert found[VAN_DIJK].reason == "7 of this problem's 7 pieces in common; that problem has 14"
    assert not found[VAN_DIJK].anticipation


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            problem("B:W29,30,33,39,40,42,49:B7,8,9,10,18,19,38"), id="van-dijk-black-to-move"
        ),
        pytest.param(
            problem("W:W29,30,33,39,40,42,49:B7,8,9,10,18,19,38", gametype=40),
            id="van-dijk-under-frisian-rules",
        ),
        pytest.param(
            problem("W:W29,30,31,36,45,47:B4,5,14,15,16", "1. 45-40 *"), id="scattered-men"
        ),
    ],
)
def test_a_problem_with_no_relative_finds_nothing_that_may_anticipate_it(
    corpus: Index, tmp_path: Path, text: str
) -> None:
    """Van Dijk's position with Black to move is another problem, and so is it under Fries Spel
    rules (a Frisian problem is compared with Frisian ones only); the scattered men have a move
    that some published line plays, which is no combination."""
    matches = look_for(corpus, tmp_path, text, limit=10)
    assert all(match.score < POSSIBLE_ANTICIPATION for match in matches)
    assert all(match.score >= REPORTED for match in matches)


def test_a_problem_is_not_its_own_match_but_a_copy_elsewhere_is(
    corpus: Index, tmp_path: Path
) -> None:
    """Querying Cat.B1 from its own file: never line 17 itself; the same text in another
    file (another collection) is found with score 1."""
    own = PROBLEMS / "cat-b1" / "Cat.B1.pdn"
    collection = collection_of(own)
    record, _bits = record_of(own, collection, use_cache=False)
    for query in queries(corpus, str(own), record, collection):
        assert query.source not in [match.source for match in search(corpus, query, 20)]
    elsewhere = tmp_path / "elsewhere.pdn"
    elsewhere.write_text(own.read_text(encoding="utf-8"), encoding="utf-8")
    copies = build_index([*pdn_files(str(PROBLEMS)), (str(elsewhere), elsewhere)], use_cache=False)
    query = next(q for q in queries(copies, str(own), record, collection) if q.source == VAN_DIJK)
    first = search(copies, query, 3)[0]
    assert (first.source, first.score, first.reason) == (
        f"{elsewhere}:17",
        1.0,
        "same position",
    )


def test_an_exchange_played_in_a_game_is_no_anticipation(tmp_path: Path) -> None:
    """A final phase of three pieces (32-28, 18-23, 28x19, 13x24: a man for a man) is in
    every other game; played whole in a game, it is still not reported."""
    game = tmp_path / "game.pdn"
    game.write_text('[Event "g"]\n\n1. 32-28 18-23 2. 28x19 13x24 3. 37-32 *\n', encoding="utf-8")
    games = build_index([(str(game), game)], use_cache=False)
    text = problem("W:W32,45:B8,13,18", "1. 32-28 18-23 2. 28x19 13x24")
    path = tmp_path / "exchange.pdn"
    path.write_text(text, encoding="utf-8")
    record, _bits = record_of(path, collection_of(path), use_cache=False)
    (query,) = queries(games, str(path), record, collection_of(path))
    assert query.combination is not None and query.combination.pieces == 3
    assert search(games, query, 10) == []
