"""B1's search for Black's last move: every kind of move a game can end a turn with.

The property test plays Black's legal moves forward from random positions and asks B1 about the
result: a position reached by a legal move must never fail B1.  The hand-made positions below are
the kinds of last move that the search once missed (a king's long capture, a man crowned by its
capture, captures of several pieces, orthogonal captures in Fries Spel).
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from rulebook_build.checker import legality
from rulebook_build.checker.legality import check_reachable, find_last_black_move
from rulebook_build.errors import PositionError
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position, Variant


def _placement(position: Position) -> tuple[int, int, int, int]:
    return (position.white_men, position.white_kings, position.black_men, position.black_kings)


def _random_before(rng: random.Random, variant: Variant) -> Position | None:
    squares = rng.sample(range(1, 51), rng.randint(3, 12))
    cut = rng.randint(1, len(squares) - 1)
    white, black = squares[:cut], squares[cut:]
    kings = set(rng.sample(squares, rng.randint(0, len(squares) // 2)))
    try:
        return Position.from_squares(
            white_men=[s for s in white if s not in kings],
            white_kings=[s for s in white if s in kings],
            black_men=[s for s in black if s not in kings],
            black_kings=[s for s in black if s in kings],
            white_to_move=False,
            variant=variant,
        )
    except PositionError:  # a man on its promotion row
        return None


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_a_position_reached_by_a_legal_black_move_passes_b1(variant: Variant) -> None:
    rng = random.Random(20261127)
    kinds: dict[str, int] = {"quiet": 0, "capture": 0, "long": 0, "crowned": 0}
    checked = 0
    while checked < 400:
        before = _random_before(rng, variant)
        if before is None:
            continue
        moves = before.legal_moves()
        captures = [m for m in moves if m.captured]
        if not moves:
            continue
        move = rng.choice(captures or moves)
        after = before.play(move)
        if not (after.white_men | after.white_kings):
            continue
        checked += 1
        report = check_reachable(after)
        assert report.status == "pass", (before, move, report.detail)
        kinds["capture" if move.captured else "quiet"] += 1
        kinds["long"] += len(move.captured) > 1
        kinds["crowned"] += bool(after.black_kings & ~before.black_kings)
    # the sample reaches each kind of last move often enough to mean something
    assert min(kinds.values()) >= 10, kinds


@pytest.mark.parametrize(
    ("fen", "variant", "last"),
    [
        # a king took from afar and landed two squares beyond the piece (22 over 31 onto 36)
        ("W:W18,K32,K33:BK36", INTERNATIONAL, "22x36"),
        # a man crowned by the capture that ended on the back row (38 over 42 onto 47)
        ("W:W20,K33,K36,K37:BK47", INTERNATIONAL, "38x47"),
        # ... on 46, the row's first square: 37 over 41 (a king on 37 would have had more to take)
        ("W:W7,11,29,31,32,39:B26,35,K46", INTERNATIONAL, "37x46"),
        # Fries Spel: 9 came up from 29 over 19 (art. 7); by the International rules, 8-13
        ("W:W10,18,35,49,K48:B9,13", FRISIAN, "29x9"),
        ("W:W10,18,35,49,K48:B9,13", INTERNATIONAL, "8-13"),
        # ... and sideways, from 9 over 8 onto 7
        ("W:W13,21:B7,26,27,33,43,K44,K45,K47,K49", FRISIAN, "9x7"),
        # Fries Spel: the piece 18x7 took was a king, whose value (art. 11) made it the capture
        # Black had to make; a man taken there would leave no legal last move
        ("W:W13,40,K9,K19,K22,K25,K26,K39:B7,20", FRISIAN, "18x7"),
    ],
)
def test_b1_finds_long_crowning_and_orthogonal_captures(
    fen: str, variant: Variant, last: str
) -> None:
    position = parse_fen(fen, variant=variant)
    report = check_reachable(position)
    assert (report.status, report.message, report.last_move) == ("pass", "b1_pass", last)


def test_b1_is_undecided_when_the_search_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    # a black man on 1 with White's men on 6 and 7: in Fries Spel every capture route onto 1
    # could continue over 7, so no candidate works and the routes multiply
    position = parse_fen("W:W6,7:B1", variant=FRISIAN)
    monkeypatch.setattr(legality, "MAX_CANDIDATES", 50)
    report = check_reachable(position)
    assert (report.status, report.message, report.args) == (
        "undecided",
        "b1_undecided",
        {"tried": 50},
    )
    with pytest.raises(legality.SearchTooLarge):
        find_last_black_move(position)
    # the routes themselves are bounded too: walking them back stops with the same number
    with pytest.raises(legality.SearchTooLarge) as too_many:
        for _candidate in legality._candidates(position):
            pass
    assert too_many.value.args == (50,)


def test_b1_fails_only_after_trying_every_route() -> None:
    # International: the man on 1 came from nowhere (6 and 7 are White's, nothing was taken)
    assert check_reachable(parse_fen("W:W6,7:B1", variant=INTERNATIONAL)).status == "fail"


def _reaches(before: Position, position: Position) -> bool:
    return any(
        _placement(before.play(move)) == _placement(position) for move in before.legal_moves()
    )


def test_b1_plays_exactly_max_candidates_before_it_gives_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """White men 11 and 27, black men 21 and 42: Black's last move was 22x42 (over 32), the
    eleventh candidate B1 tries (quiet moves first, then single captures).  With room for
    eleven candidates it is found; with ten B1 gives up, and says so."""
    position = Position.from_squares(
        white_men=[11, 27], black_men=[21, 42], white_to_move=True, variant=INTERNATIONAL
    )
    candidates = list(legality._candidates(position))
    found = next(i for i, before in enumerate(candidates, start=1) if _reaches(before, position))
    assert found == 11 < len(candidates)
    monkeypatch.setattr(legality, "MAX_CANDIDATES", found)
    assert find_last_black_move(position) == "22x42"
    monkeypatch.setattr(legality, "MAX_CANDIDATES", found - 1)
    with pytest.raises(legality.SearchTooLarge):
        find_last_black_move(position)


def test_b1_reads_captures_back_however_many_black_pieces_there_are() -> None:
    """Twenty black men on 1-20 cannot have made a quiet last move (each man's square above it
    is taken or off the board), so one of them arrived by a capture: 27x16 over 21, say.  How
    many captures B1 walks back is bounded by the white pieces that can be missing (20 less
    White's), never by Black's count."""
    position = parse_fen("W:W50:B" + ",".join(str(s) for s in range(1, 21)), variant=INTERNATIONAL)
    report = check_reachable(position)
    assert (report.status, report.message) == ("pass", "b1_pass")
    assert report.last_move is not None and "x" in report.last_move


def test_b1_gives_up_only_when_the_routes_pass_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nineteen white men and a black man on 16: he cannot have stepped there, so he took a
    white man, 27x16 over 21, the one route back and the one candidate.  B1 allows as many
    routes and candidates as its bound: with a bound of one it still finds the capture."""
    white = [6, 7, 11, 12, 14, 15, 17, 18, 26, 29, 33, 34, 38, 39, 40, 41, 42, 48, 50]
    position = Position.from_squares(white_men=white, black_men=[16])
    monkeypatch.setattr(legality, "MAX_CANDIDATES", 1)
    assert find_last_black_move(position) == "27x16"
    monkeypatch.setattr(legality, "MAX_CANDIDATES", 0)
    with pytest.raises(legality.SearchTooLarge):
        find_last_black_move(position)


def test_b1_looks_for_no_capture_while_white_has_twenty_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twenty white men: Black's last move took none of them.  The black man on 18 cannot have
    stepped there (12 and 13 are White's), so B1 fails at once, without walking a single
    capture back (with a bound of none, one route would make it give up)."""
    white = [8, 9, 10, 11, 12, 13, 20, 22, 25, 27, 31, 32, 36, 41, 44, 45, 47, 48, 49, 50]
    position = Position.from_squares(white_men=white, black_men=[18])
    monkeypatch.setattr(legality, "MAX_CANDIDATES", 0)
    report = check_reachable(position)
    assert (report.status, report.message) == ("fail", "b1_no_last_move")


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_b1_tries_each_position_before_the_last_move_once(variant: Variant) -> None:
    """A black king on 27 against white men on 14 and 47: many of the routes B1 walks back
    lead to the same position before the move, and each position is tried once."""
    position = Position.from_squares(white_men=[14, 47], black_kings=[27], variant=variant)
    tried = [_placement(before) for before in islice(legality._candidates(position), 2000)]
    assert len(tried) == 2000 and len(set(tried)) == len(tried)
