"""Fries Spel, article by article, on positions built from the rulebook's text.

Board reminders: 32-33-34 is a rank, 33-23-13 a file; orthogonal neighbours are two columns
or two rows apart (art. 7).
"""

from __future__ import annotations

from rulebook_build.rules import FRISIAN, INTERNATIONAL, Game, Position


def frisian(**squares: object) -> Position:
    return Position.from_squares(variant=FRISIAN, **squares)  # type: ignore[arg-type]


def moves(position: Position) -> set[str]:
    return {move.full_notation() for move in position.legal_moves()}


# --- art. 7/9: men and kings also capture horizontally and vertically


def test_art7_man_captures_along_a_file_forward_and_backward() -> None:
    assert moves(frisian(white_men=[33], black_men=[23])) == {"33x13"}
    assert moves(frisian(white_men=[23], black_men=[33])) == {"23x43"}


def test_art7_man_captures_along_a_rank_both_ways() -> None:
    assert moves(frisian(white_men=[32], black_men=[33])) == {"32x34"}
    assert moves(frisian(white_men=[34], black_men=[33])) == {"34x32"}


def test_art7_orthogonal_capture_does_not_wrap_round_the_board_edge() -> None:
    # 35 is on the right edge: 36 is on the next row, not the next square of the rank
    assert moves(frisian(white_men=[35], black_men=[36])) == {"35-30"}


def test_international_men_do_not_capture_orthogonally() -> None:
    position = Position.from_squares(white_men=[33], black_men=[23], variant=INTERNATIONAL)
    assert moves(position) == {"33-28", "33-29"}


def test_art7_capture_continues_along_other_lines() -> None:
    # 33x13 along the file, then 13x11 along the rank over 12
    position = frisian(white_men=[33], black_men=[23, 12])
    assert moves(position) == {"33x13x11"}
    assert position.legal_moves()[0].captured == (23, 12)


def test_art9_flying_king_captures_orthogonally_from_a_distance() -> None:
    # king on 46, black man on 26 (same file, two rows apart each step: 46-36-26-16-6)
    result = moves(frisian(white_kings=[46], black_men=[26], black_kings=[1]))
    assert result == {"46x16", "46x6"}


def test_art9_king_moves_only_diagonally_when_not_capturing() -> None:
    result = moves(frisian(white_kings=[46], black_kings=[5], black_men=[1]))
    # 46 lies on the long diagonal; the only diagonal from the corner is up-right
    assert result == {"46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10"}


# --- art. 11: majority capture by value


def test_art11_a_king_is_worth_more_than_one_man() -> None:
    position = frisian(white_men=[28], black_kings=[22], black_men=[23])
    assert moves(position) == {"28x17"}


def test_art11_a_king_is_worth_less_than_two_men() -> None:
    position = frisian(white_men=[28], black_kings=[22], black_men=[23, 14])
    assert moves(position) == {"28x19x10"}


def test_art11_three_kings_outweigh_five_men() -> None:
    # man 46 can take five men (41, 32, 23, 14, 9); man 45 three kings (35, 15, 4)
    position = frisian(white_men=[46, 45], black_men=[41, 32, 23, 14, 9], black_kings=[35, 15, 4])
    (only,) = position.legal_moves()
    assert only.origin == 45
    assert only.captured_set == {35, 15, 4}


def test_art11_six_men_outweigh_three_kings() -> None:
    position = frisian(
        white_men=[46, 45], black_men=[41, 32, 23, 14, 9, 7], black_kings=[35, 15, 4]
    )
    (only,) = position.legal_moves()
    assert only.origin == 46
    assert only.captured_set == {41, 32, 23, 14, 9, 7}


def test_international_counts_pieces_not_value() -> None:
    position = Position.from_squares(
        white_men=[28], black_kings=[22], black_men=[23], variant=INTERNATIONAL
    )
    assert moves(position) == {"28x17", "28x19"}


# --- art. 12: at equal value the king captures


def test_art12_king_capture_goes_first_at_equal_value() -> None:
    position = frisian(white_kings=[46], white_men=[28], black_men=[41, 23])
    assert moves(position) == {"46x37", "46x32"}
    international = Position.from_squares(
        white_kings=[46], white_men=[28], black_men=[41, 23], variant=INTERNATIONAL
    )
    assert moves(international) == {"46x37", "46x32", "28x19"}


# --- art. 8: promotion only when a move ends on the back row


def test_art8_no_promotion_when_a_capture_only_passes_the_back_row() -> None:
    for variant in (FRISIAN, INTERNATIONAL):
        position = Position.from_squares(white_men=[12], black_men=[8, 9], variant=variant)
        (capture,) = position.legal_moves()
        assert capture.full_notation() == "12x3x14"
        after = position.play(capture)
        assert after.squares_of("white", "man") == (14,)
        assert after.squares_of("white", "king") == ()


def test_art8_promotion_when_the_move_ends_on_the_back_row() -> None:
    position = frisian(white_men=[7], black_men=[40])
    after = position.play(next(m for m in position.legal_moves() if m.destination == 1))
    assert after.squares_of("white", "king") == (1,)


# --- art. 13: the same piece is never jumped twice; a circle with two routes is one move


def test_art13_circle_capture_with_two_routes_is_one_move() -> None:
    for variant in (FRISIAN, INTERNATIONAL):
        position = Position.from_squares(
            white_men=[31], black_men=[27, 28, 37, 38], variant=variant
        )
        legal = position.legal_moves()
        assert len(legal) == 1
        (move,) = legal
        assert move.origin == move.destination == 31
        assert move.captured_set == {27, 28, 37, 38}


# --- art. 10 and 14: capturing is compulsory; captured pieces stay until the capture ends


def test_art10_capturing_is_compulsory() -> None:
    position = frisian(white_men=[33, 45], black_men=[28])
    assert moves(position) == {"33x22"}


def test_art14_a_captured_piece_stays_on_the_board_during_the_capture() -> None:
    # the rulebook's example: 37x7x16 over 17 (file) and 11; the man on 17 still stands
    # when the king is on 16, so the king cannot go over 17 again to take 19
    position = frisian(white_kings=[37], black_men=[11, 17, 19])
    assert [(m.full_notation(), m.captured) for m in position.legal_moves()] == [
        ("37x7x16", (17, 11))
    ]


# --- art. 17: at most three non-capturing moves in a row with the same king


def test_art17_fourth_king_move_is_forbidden_while_the_player_has_men() -> None:
    fresh = frisian(white_kings=[28], white_men=[45], black_kings=[1], black_men=[6])
    restricted = frisian(
        white_kings=[28],
        white_men=[45],
        black_kings=[1],
        black_men=[6],
        white_king_streak=(3, 28),
    )
    assert any(m.origin == 28 for m in fresh.legal_moves())
    assert not any(m.origin == 28 for m in restricted.legal_moves())
    assert moves(restricted) == {"45-40"}


def test_art17_counts_moves_and_a_man_move_lifts_the_restriction() -> None:
    game = Game(frisian(white_kings=[28], white_men=[45], black_kings=[1], black_men=[6]))
    squares = [28, 32, 28, 32]
    for step in range(3):
        move = next(
            m
            for m in game.position.legal_moves()
            if m.origin == squares[step] and m.destination == squares[step + 1]
        )
        game = game.play(move)
        assert game.position.white_king_streak == (step + 1, squares[step + 1])
        game = game.play(next(m for m in game.position.legal_moves() if m.origin in (1, 7)))
    assert not any(m.origin == 32 for m in game.position.legal_moves())
    game = game.play(next(m for m in game.position.legal_moves() if m.origin == 45))
    assert game.position.white_king_streak == (0, 0)
    game = game.play(game.position.legal_moves()[0])
    assert any(m.origin == 32 for m in game.position.legal_moves())


def test_art17_a_move_with_another_king_lifts_the_restriction() -> None:
    # the rulebook's example 3: the king on 28 has made three moves; the king on 50 may move
    game = Game(
        frisian(
            white_men=[46],
            white_kings=[28, 50],
            black_men=[6, 15],
            white_king_streak=(3, 28),
        )
    )
    assert not any(m.origin == 28 for m in game.position.legal_moves())
    game = game.play(next(m for m in game.position.legal_moves() if str(m) == "50-44"))
    assert game.position.white_king_streak == (1, 44)
    game = game.play(next(m for m in game.position.legal_moves() if str(m) == "15-20"))
    assert "28-17" in moves(game.position)


def test_art17_does_not_bind_a_player_with_kings_only() -> None:
    position = frisian(white_kings=[28], black_kings=[1], black_men=[6], white_king_streak=(3, 28))
    assert any(m.origin == 28 for m in position.legal_moves())


def test_art17_capture_with_the_restricted_king_is_allowed() -> None:
    position = frisian(
        white_kings=[28],
        white_men=[45],
        black_men=[22],
        black_kings=[5],
        white_king_streak=(3, 28),
    )
    assert all(m.is_capture and m.origin == 28 for m in position.legal_moves())
    assert position.legal_moves()


# --- art. 18: two kings against one king must win within seven moves


def quiet_move(position: Position) -> object:
    """A non-capturing move after which the opponent has no capture either."""
    for move in position.legal_moves():
        if not move.is_capture and not position.play(move).has_capture():
            return move
    raise AssertionError("no quiet move in " + repr(position))


def test_art18_two_kings_against_one_is_drawn_after_seven_moves() -> None:
    game = Game(frisian(white_kings=[46, 50], black_kings=[3]))
    for white_moves in range(1, 8):
        game = game.play(quiet_move(game.position))  # type: ignore[arg-type]
        if white_moves < 7:
            assert game.result() is None
            game = game.play(quiet_move(game.position))  # type: ignore[arg-type]
    result = game.result()
    assert result is not None and result.startswith("draw") and "art. 18" in result


def test_art18_a_win_on_the_seventh_move_counts() -> None:
    # the rulebook's example, but Black's king steps into a capture on its sixth move
    game = Game(frisian(white_kings=[47, 49], black_kings=[3]))
    line = [
        "47-42",
        "3-9",
        "49-44",
        "9-3",
        "42-37",
        "3-9",
        "44-40",
        "9-3",
        "37-32",
        "3-9",
        "40-45",
        "9-14",
    ]
    for played in line:
        game = game.play(next(m for m in game.position.legal_moves() if str(m) == played))
        assert game.result() is None, played
    assert all(m.captured == (14,) for m in game.position.legal_moves())
    capture = next(m for m in game.position.legal_moves() if str(m) == "32x10")
    assert game.play(capture).result() == "white wins"


def test_art18_two_kings_against_king_and_man_is_not_counted() -> None:
    game = Game(frisian(white_kings=[47, 49], black_kings=[3], black_men=[6]))
    for _ in range(10):
        game = game.play(quiet_move(game.position))  # type: ignore[arg-type]
        assert game.result() is None


# --- art. 20/21: end of the game


def test_art20_a_player_without_a_legal_move_loses() -> None:
    # black man 6 can only step to 11 (occupied); capturing 11 needs 17 empty and capturing 16
    # along the file needs 26 empty: both are occupied
    game = Game(frisian(white_men=[11, 16, 17, 26], black_men=[6], white_to_move=False))
    assert game.result() == "white wins"


def test_art21_one_king_each_is_a_draw() -> None:
    game = Game(frisian(white_kings=[47], black_kings=[4]))
    result = game.result()
    assert result is not None and "art. 21" in result


def test_art21_no_draw_while_a_capture_is_forced() -> None:
    # White's king in the corner 46 can only move along the long diagonal, into capture by 5
    game = Game(frisian(white_kings=[46], black_kings=[5]))
    assert game.result() is None
