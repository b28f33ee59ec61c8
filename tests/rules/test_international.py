"""International rules (KNDB 2018 art. 3-9) beyond perft: captures, promotion, draws."""

from __future__ import annotations

from rulebook_build.rules import INTERNATIONAL, Game, Position
from rulebook_build.rules.game import position_key


def position(**squares: object) -> Position:
    return Position.from_squares(variant=INTERNATIONAL, **squares)  # type: ignore[arg-type]


def notations(p: Position) -> set[str]:
    return {m.full_notation() for m in p.legal_moves()}


def test_art4_men_capture_backwards() -> None:
    assert notations(position(white_men=[23], black_men=[28])) == {"23x32"}


def test_art4_kings_fly_and_choose_the_landing_square() -> None:
    assert notations(position(white_kings=[46], black_men=[28])) == {
        "46x23",
        "46x19",
        "46x14",
        "46x10",
        "46x5",
    }


def test_art4_a_piece_is_not_jumped_twice_and_stays_until_the_end() -> None:
    # king on 47 takes 42 then 33? The captured 42 stays on the board and blocks the way back
    p = position(white_kings=[47], black_men=[42, 33, 22])
    for move in p.legal_moves():
        assert len(set(move.captured)) == len(move.captured)


def test_art4_the_jumped_piece_blocks_the_way_back() -> None:
    # the king on 37 takes 32 and lands on 28 or beyond; were 32 gone at once, it could fly back
    # over 37 and take 41 too (two pieces, which the majority rule would then demand). It may
    # not: 32 stays until the capture is over, so every capture takes one piece
    assert notations(position(white_kings=[37], black_men=[32, 41])) == {
        "37x46",
        "37x28",
        "37x23",
        "37x19",
        "37x14",
        "37x10",
        "37x5",
    }
    # with the second man off that diagonal (18, next to the landing square 23) the king goes
    # on: only the capture of both is legal, from 23 alone of the landing squares (a shortcut
    # that took a king's first jumps for whole captures would give the seven moves above)
    assert notations(position(white_kings=[37], black_men=[32, 18])) == {
        "37x23x12",
        "37x23x7",
        "37x23x1",
    }


def test_art5_majority_capture_is_compulsory() -> None:
    # 32x21 takes one man, 32x23x12 takes two: only the second is legal
    assert notations(position(white_men=[32], black_men=[18, 27, 28])) == {"32x23x12"}


def test_art5_a_king_counts_as_one_piece() -> None:
    # taking one king or one man: both are legal captures in International
    assert notations(position(white_men=[28], black_kings=[22], black_men=[23])) == {
        "28x17",
        "28x19",
    }


def test_art8_a_player_who_cannot_move_loses() -> None:
    blocked = position(white_men=[46], black_men=[41, 37], white_to_move=True)
    assert Game(blocked).result() == "black wins"


def play_quietly(game: Game, plies: int) -> Game:
    """Move kings for ``plies`` plies without captures, avoiding repeated positions."""
    for _ in range(plies):
        seen = {key for key, _count in game.seen}
        quiet = [
            m
            for m in game.position.legal_moves()
            if not m.is_capture and not game.position.play(m).has_capture()
        ]
        fresh = [m for m in quiet if position_key(game.position.play(m)) not in seen]
        game = game.play((fresh or quiet)[0])
    return game


def test_art9b_one_king_against_two_pieces_with_a_king_draws_after_five_moves_each() -> None:
    game = Game(position(white_kings=[47, 49], black_kings=[4]))
    game = play_quietly(game, 9)
    assert game.result() is None
    game = play_quietly(game, 1)
    assert game.result() is not None and "art. 9b" in str(game.result())


def test_art9c_one_king_against_three_pieces_draws_after_sixteen_moves_each() -> None:
    game = Game(position(white_kings=[47, 49], white_men=[36], black_kings=[4]))
    game = play_quietly(game, 31)
    assert game.result() is None
    game = play_quietly(game, 1)
    assert game.result() is not None and "art. 9c" in str(game.result())


def test_art9e_threefold_repetition() -> None:
    game = Game(position(white_kings=[47], white_men=[35], black_kings=[4], black_men=[16]))
    shuffle = [(47, 42), (4, 9), (42, 47), (9, 4)]
    for _round in range(2):
        for origin, destination in shuffle:
            move = next(
                m
                for m in game.position.legal_moves()
                if m.origin == origin and m.destination == destination
            )
            game = game.play(move)
        if _round == 0:
            assert game.result() is None  # the start position has now been seen twice
    result = game.result()
    assert result is not None and "art. 9e" in result


def test_art9d_twenty_five_king_moves_each() -> None:
    # many kings each side so that neither the 5- nor the 16-move rule applies
    game = Game(position(white_kings=[47, 48, 49], black_kings=[2, 3, 4]))
    game = play_quietly(game, 49)
    assert game.result() is None
    game = play_quietly(game, 1)
    result = game.result()
    assert result is not None and "art. 9d" in result
