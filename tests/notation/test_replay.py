"""Replaying PDN games against the rules engine."""

from __future__ import annotations

import pytest

from rulebook_build.errors import IllegalMoveError, NotationError, PositionError
from rulebook_build.notation.fen import format_fen, parse_fen
from rulebook_build.notation.pdn import PdnGame, PdnMove, read_pdn, write_pdn
from rulebook_build.notation.replay import (
    default_variant,
    game_variant,
    move_notation,
    replay,
    resolve_move,
    strict_game,
)
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position

AMBIGUOUS = "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"
"""White's king on 36 can take 36x16 two ways (via 18 and 7, or via 13 and 2)."""


def read_one(text: str) -> PdnGame:
    games, errors = read_pdn(text, source="t.pdn")
    assert errors == ()
    return games[0]


def test_a_game_from_the_start() -> None:
    replayed = replay(read_one("1. 32-28 19-23 2. 28x19 14x23 *"))
    assert replayed.variant == INTERNATIONAL
    assert replayed.start == Position.initial()
    assert [str(m) for m in replayed.moves()] == ["32-28", "19-23", "28x19", "14x23"]
    assert replayed.main.moves[2].move.captured == (23,)
    assert replayed.end == replayed.positions()[-1]
    assert replayed.result is None


def test_a_problem_from_its_fen() -> None:
    game = read_one(
        '[SetUp "1"]\n[FEN "W:W6,17,18,38,41:B8,14,24,34,36."]\n'
        "1. 17-12 36x47 2. 12x3 47x1 3. 3x45 1-0"
    )
    replayed = replay(game)
    assert format_fen(replayed.start) == "W:W6,17,18,38,41:B8,14,24,34,36"
    assert len(replayed.moves()) == 5


def test_variations_start_from_the_position_before_their_move() -> None:
    replayed = replay(read_one("32-28 19-23 (18-23 38-32 (37-32 23-29) 12-18) 28x19 14x23"))
    second = replayed.main.moves[1]
    (variation,) = second.variations
    assert variation.start == second.before
    assert [str(m) for m in variation.engine_moves()] == ["18-23", "38-32", "12-18"]
    (inner,) = variation.moves[1].variations
    assert [str(m) for m in inner.engine_moves()] == ["37-32", "23-29"]


def test_long_notation_and_other_separators() -> None:
    game = read_one('[FEN "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"] 36x18x7x16 *')
    assert replay(game).moves()[0].captured == (27, 12, 11)
    game = read_one('[FEN "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"] 36:13:2:16 *')
    assert replay(game).moves()[0].captured == (27, 8, 11)


def test_an_ambiguous_short_capture_lists_both() -> None:
    game = read_one(f'[FEN "{AMBIGUOUS}"]\n1. 36x16 *')
    with pytest.raises(IllegalMoveError) as caught:
        replay(game)
    error = caught.value
    assert "ambiguous capture 36x16" in error.message
    assert "36x18x7x16" in error.message and "36x13x2x16" in error.message
    assert (error.line, error.column) == (2, 4)


def test_a_later_move_can_tell_an_ambiguous_capture_apart() -> None:
    # after 36x13x2x16 the black man on 12 is still there and can move to 17? no: use 8
    game = read_one(f'[FEN "{AMBIGUOUS}"]\n1. 36x16 6-11 *')
    position = parse_fen(AMBIGUOUS)
    via_13 = next(m for m in position.legal_moves() if m.full_notation() == "36x13x2x16")
    via_18 = next(m for m in position.legal_moves() if m.full_notation() == "36x18x7x16")
    assert via_13 != via_18
    replayed_or_error: object
    try:
        replayed_or_error = replay(game)
    except IllegalMoveError as error:
        replayed_or_error = error
    # 6-11 is possible after both captures: still ambiguous
    assert isinstance(replayed_or_error, IllegalMoveError)
    game = read_one(f'[FEN "{AMBIGUOUS}"]\n1. 36x16 12-18 *')  # 12 left: the capture via 13
    replayed = replay(game)
    assert replayed.moves()[0] == via_13
    assert replayed.warnings and "36x13x2x16" in replayed.warnings[0].message


def test_an_illegal_move_names_the_move_the_position_and_the_alternatives() -> None:
    game = read_one('[Event "x"]\n1. 32-28 19-23 2. 28-22 *')
    with pytest.raises(IllegalMoveError) as caught:
        replay(game)
    error = caught.value
    assert error.message.startswith("illegal move 28-22 for White in W:W")
    assert error.expected == "one of the legal moves: 28x19"
    assert (error.line, error.column) == (2, 19)
    assert str(error).splitlines()[1] == "    1. 32-28 19-23 2. 28-22 *"


def test_a_square_off_the_board() -> None:
    with pytest.raises(NotationError):
        replay(read_one("1. 32-51 *"))


def test_a_bad_fen_tag_is_located() -> None:
    game = read_one('[Event "x"]\n[FEN "W:W31,31:B1"]\n1. 31-27 *')
    with pytest.raises(PositionError) as caught:
        replay(game)
    assert (caught.value.line, caught.value.column) == (2, 13)


def test_forced_replies_left_out_of_a_problem_are_inferred() -> None:
    game = read_one('[FEN "W:W32,36:B22"]\n1. 32-27 2. 36x27 +')
    replayed = replay(game)
    assert [str(m) for m in replayed.moves()] == ["32-27", "22x31", "36x27"]
    assert [step.inferred for step in replayed.main.moves] == [False, True, False]
    assert replayed.result == "white wins"
    assert write_pdn([strict_game(replayed)]).endswith("1. 32-27 22x31 2. 36x27 +\n")


def test_a_reply_left_out_that_is_not_forced_is_an_error() -> None:
    game = read_one('[FEN "W:W36,45:B5,6"]\n1. 45-40 2. 40-34 *')
    with pytest.raises(IllegalMoveError) as caught:
        replay(game)
    assert caught.value.message == (
        "Black's reply before 40-34 is missing and not forced (Black can play 5-10, 6-11)"
    )
    assert caught.value.expected == "Black's move written out before 40-34"
    assert caught.value.column == 13
    said = caught.value.said
    assert said is not None
    assert said.said("nl") == (
        "het antwoord van zwart vóór 40-34 ontbreekt en is niet gedwongen "
        "(zwart kan 5-10, 6-11 spelen)"
    )


def test_no_inference_outside_problems() -> None:
    with pytest.raises(IllegalMoveError):
        replay(read_one("1. 32-28 2. 28-23 *"))


def test_frisian_game() -> None:
    game = read_one('[GameType "40"]\n1. 32-28 19-23 2. 28x19 14x23 *')
    replayed = replay(game)
    assert replayed.variant == FRISIAN
    assert replayed.start.variant == FRISIAN


def test_variants_of_games() -> None:
    assert game_variant(read_one('[GameType "20"] 32-28')) == INTERNATIONAL
    assert game_variant(read_one('[GameType "40,W,10,10,N2,0"] 32-28')) == FRISIAN
    assert game_variant(read_one('[GameType "21"] 11-15')) is None
    assert game_variant(read_one("1. a3-b4")) is None
    with pytest.raises(NotationError) as caught:
        replay(read_one('[GameType "21"] 11-15'))
    assert "English draughts" in caught.value.message


def test_default_variant_of_a_file() -> None:
    games, _ = read_pdn("1. 11-15 24-20 *\n1. 9-13 22-18 *")
    assert default_variant(games) is None  # 8x8 checkers
    games, _ = read_pdn("1. 32-28 19-23 *")
    assert default_variant(games) == INTERNATIONAL
    games, _ = read_pdn('[FEN "W:W45:B2"] *')
    assert default_variant(games) == INTERNATIONAL


def test_unknown_side_to_move_follows_the_first_move() -> None:
    replayed = replay(read_one('[FEN "?:W31:B19"]\n19-23 *'))
    assert not replayed.start.white_to_move


def test_resolve_move_without_a_game() -> None:
    position = Position.initial()
    move = resolve_move(position, PdnMove((32, 28), False))
    assert str(move) == "32-28"
    with pytest.raises(IllegalMoveError) as caught:
        resolve_move(
            position, PdnMove((32, 29), False, line=4, column=8), source="a.md", source_line="x"
        )
    assert caught.value.one_line().startswith("a.md:4:8: illegal move 32-29")


def test_move_notation_is_short_unless_ambiguous() -> None:
    position = parse_fen(AMBIGUOUS)
    names = sorted(move_notation(position, m) for m in position.legal_moves())
    assert "36x18x7x16" in names and "36x13x2x16" in names
    assert "36x39" in names or any(n.startswith("36x9x") for n in names) or names
    assert move_notation(Position.initial(), Position.initial().legal_moves()[0]).count("-") == 1


def test_strict_game_round_trips() -> None:
    game = read_one(f'[FEN "{AMBIGUOUS}"]\n1. 36x18x7x16 {{note}} $1 *')
    strict = strict_game(replay(game))
    games, errors = read_pdn(write_pdn([strict]))
    assert errors == ()
    assert games[0] == strict
    assert replay(games[0]).moves() == replay(game).moves()


def test_frisian_problem_with_king_moves_record() -> None:
    game = read_one('[GameType "40"]\n[FEN "W:WK46,31:BK5,12:+25+0"]\n1. 31-27 *')
    replayed = replay(game)
    assert replayed.start.black_king_streak == (2, 5)
    assert replayed.start.variant == FRISIAN


def test_problem_column_with_dots_and_plus() -> None:
    game = read_one('[FEN "W:W32,36:B22"]\n1. 32-27 2. 36x27 ... +')
    assert game.result == "+"
    assert len(replay(game).moves()) == 3
