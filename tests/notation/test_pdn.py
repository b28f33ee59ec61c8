"""Reading and writing PDN: the liberal reading grammar, the strict writing form."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.errors import NotationError
from rulebook_build.notation.pdn import (
    Comment,
    MoveText,
    Nag,
    PdnGame,
    PdnMove,
    Setup,
    Variation,
    decode_pdn,
    read_pdn,
    read_pdn_file,
    write_pdn,
)


def read_one(text: str) -> PdnGame:
    games, errors = read_pdn(text, source="t.pdn")
    assert errors == ()
    assert len(games) == 1
    return games[0]


def test_tags_and_moves() -> None:
    game = read_one('[Event "NK"]\n[White "a \\"b\\""]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n')
    assert game.tags == (("Event", "NK"), ("White", 'a "b"'))
    assert game.tag("event") == "NK"
    assert [m.notation for m in game.main_line()] == ["32-28", "19-23", "28x19", "14x23"]
    assert game.result == "2-0"
    first = game.main_line()[0]
    assert (first.number, first.black, first.line, first.column) == (1, False, 4, 4)


@pytest.mark.parametrize(
    ("text", "squares", "capture"),
    [
        ("32-28", (32, 28), False),
        ("26x37", (26, 37), True),
        ("26x37x48", (26, 37, 48), True),
        ("26:37", (26, 37), True),
        ("1- 7", (1, 7), False),
        ("27x 7", (27, 7), True),
        ("01-07", (1, 7), False),
        ("a3-b4", ("a3", "b4"), False),
        ("a3xc5", ("a3", "c5"), True),
        ("a3b4", ("a3", "b4"), False),
    ],
)
def test_move_forms(text: str, squares: tuple[int | str, ...], capture: bool) -> None:
    move = read_one(f"1. {text} *").main_line()[0]
    assert move.squares == squares
    assert move.capture is capture


def test_results_and_moves_that_look_alike() -> None:
    game = read_one("1. 1-10 1-1")
    assert game.main_line()[0].squares == (1, 10)
    assert game.result == "1-1"


@pytest.mark.parametrize("result", ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*", "+"])
def test_every_result_ends_a_game(result: str) -> None:
    games, errors = read_pdn(f"32-28 {result} 33-29 *")
    assert errors == ()
    assert [g.result for g in games] == [result, "*"]


def test_annotations() -> None:
    game = read_one('1.32-28!? 19-23(?) $3 {a comment} 2.28x19 /FEN "W:W31:B1"/ *')
    items = game.moves.items
    assert isinstance(items[0], PdnMove) and items[0].strength == "!?"
    assert isinstance(items[1], PdnMove) and items[1].strength == "(?)"
    assert items[2] == Nag(3)
    assert items[3] == Comment("a comment")
    assert items[5] == Setup('FEN "W:W31:B1"')


def test_nested_variations() -> None:
    game = read_one("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23")
    assert [m.notation for m in game.main_line()] == ["32-28", "19-23", "28x19", "14x23"]
    (variation,) = game.moves.variations_after(1)
    assert [m.notation for m in variation.moves.moves()] == ["18-23", "38-32", "12-18"]
    (inner,) = variation.moves.variations_after(1)
    assert inner.moves.comments() == (" Black wins ",)
    assert len(list(game.moves.all_moves())) == 9


def test_black_move_numbers_and_ellipsis() -> None:
    game = read_one("1... 19-23 2. 28x19 *")
    assert game.main_line()[0].black
    game = read_one("1. ... 19-23 *")
    first = game.main_line()[0]
    assert (first.number, first.black) == (1, True)


def test_line_comments_are_ignored() -> None:
    game = read_one(
        '% Board game: International Draughts 10x10\n[Date "2012.02.01"]\n1. 32-28 19-23\n'
    )
    assert game.tags == (("Date", "2012.02.01"),)
    assert len(game.main_line()) == 2


def test_a_game_without_result_at_the_end_of_the_file() -> None:
    game = read_one("1. 32-28 19-23")
    assert game.result == "*"


def test_empty_text_has_no_games() -> None:
    assert read_pdn("") == ((), ())
    assert read_pdn("  \n% only a comment\n") == ((), ())


def test_crlf_bom_and_latin1(tmp_path: Path) -> None:
    text = '[White "Jørgen"]\r\n1. 32-28 19-23 *\r\n'
    for data in (text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode(), text.encode("latin-1")):
        path = tmp_path / "x.pdn"
        path.write_bytes(data)
        games, errors = read_pdn_file(path)
        assert errors == ()
        assert games[0].tag("White") == "Jørgen"
        assert games[0].main_line()[0].line == 2
    assert decode_pdn(b"a\rb\r\nc") == "a\nb\nc"


def test_mixed_encodings_in_one_file() -> None:
    data = '[White "Jørgen"]\r\n'.encode() + '[Black "Jørgen"]\r\n'.encode("latin-1")
    data += b"\xef\xbb\xbf1. 32-28 *\r\n"
    games, errors = read_pdn(decode_pdn(data))
    assert errors == ()
    assert games[0].tags == (("White", "Jørgen"), ("Black", "Jørgen"))


def test_missing_file() -> None:
    with pytest.raises(NotationError) as caught:
        read_pdn_file("/nonexistent/x.pdn")
    assert str(caught.value) == "/nonexistent/x.pdn: no such file"


BAD_THEN_GOOD = """[Event "one"]
1. 32-28 19-23 2-0

[Event "two"]
1. 32-28 19-23 2. }

[Event "three"]
1. 33-29 *

[Event "four"]
1. 32-28 { nested { comment } } *

[Event "five"]
1. 34-29 19-23
[Event "six"]
1. 35-30 1-1
"""


def test_every_bad_game_is_reported_and_the_good_ones_read() -> None:
    games, errors = read_pdn(BAD_THEN_GOOD, source="mixed.pdn")
    assert [g.tag("Event") for g in games] == ["one", "three", "six"]
    assert [(e.line, e.column) for e in errors] == [(5, 19), (11, 31), (15, 1)]
    assert all(isinstance(e, NotationError) for e in errors)
    assert "result" in errors[2].message


def test_error_format() -> None:
    _games, errors = read_pdn("1. 32-28 19-23 2. 33-29 & *\n", source="x.pdn")
    (error,) = errors
    assert str(error).splitlines() == [
        "x.pdn:1:25: unexpected '&'",
        "    1. 32-28 19-23 2. 33-29 & *",
        "                            ^",
        "expected: a move, a comment, a variation, or a result (2-0, 1-1, 0-2, 0-0) or '*'",
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1. 2-0", "move number must be followed by a move"),
        ('1. 32-28 19-23\n[Event "x"]\n1. 33-29 *', "no result"),
        ("1. 32-28 { a { b } } *", "cannot be nested"),
        ('[Event "x" "y"]\n1. 32-28 *', 'a tag is [Name "value"]'),
        ("1. 32-28 (19-23 *", "unexpected"),
        ('[Event "unterminated\n1. 32-28 *', "unexpected"),
    ],
)
def test_labelled_errors(text: str, words: str) -> None:
    _games, errors = read_pdn(text)
    assert errors
    assert words in errors[0].message
    assert errors[0].line is not None and errors[0].line >= 1
    assert errors[0].column is not None and errors[0].column >= 1


def test_end_of_file_error_is_located() -> None:
    _games, errors = read_pdn("1. 32-28 (19-23\n\n")
    (error,) = errors
    assert error.line == 1
    assert error.column is not None and error.column > 1


def test_writing_is_strict() -> None:
    game = read_one(
        '[Black "b"]\n[FEN "B:W31:B19"]\n[Event "e"]\n[GameType "20"]\n'
        "19-23!  {c} 31-26 (31-27 23x32) 23-28 $1 1-1"
    )
    assert write_pdn([game]) == (
        '[Event "e"]\n[Black "b"]\n[GameType "20"]\n[FEN "B:W31:B19"]\n\n'
        "1... 19-23! {c} 2. 31-26 (2. 31-27 23x32) 2... 23-28 $1 1-1\n"
    )


def test_equality_ignores_locations_numbers_and_tag_order() -> None:
    one = read_one('[A "1"]\n[B "2"]\n5. 32-28 *')
    two = read_one('[B "2"] [A "1"] 32-28 *')
    assert one == two
    assert one != read_one('[B "2"] [A "1"] 32-28!')


def test_round_trip_of_a_rich_game() -> None:
    text = (
        '[Event "x"]\n{start} 1. 32-28 19-23 (18-23 {a} 38-32 (37-32? $2) 12-18) '
        "2. 28x19 14x23 {end} 0-2\n"
    )
    game = read_one(text)
    assert read_one(write_pdn([game])) == game


def test_long_lines_are_wrapped() -> None:
    moves = " ".join(["32-28 19-23 28-32 23-19"] * 30)
    written = write_pdn([read_one(moves)])
    assert all(len(line) <= 79 for line in written.splitlines())


def test_an_empty_game_round_trips() -> None:
    assert write_pdn([PdnGame(tags=())]) == "... *\n"
    assert read_one("... *") == PdnGame(tags=())


def test_model_helpers() -> None:
    game = PdnGame(
        tags=(("GameType", "40,W,10,10,N2,0"), ("FEN", "W:W31:B1")),
        moves=MoveText(
            (PdnMove((31, 27), False), Variation(MoveText((PdnMove((31, 26), False),))))
        ),
    )
    assert game.gametype_number == 40
    assert game.is_problem
    assert game.fen == "W:W31:B1"
    assert str(game.main_line()[0]) == "31-27"
    assert game.moves.variations_after(0)[0].moves.moves()[0].notation == "31-26"


def test_a_finished_game_before_junk_is_kept() -> None:
    # the result ends the game even though the token after it is bad
    text = '[Event "a"]\n1. 32-28 19-23 2-0 extra\n[Event "b"]\n1. 33-28 *\n'
    games, errors = read_pdn(text, source="junk.pdn")
    assert [g.tag("Event") for g in games] == ["a", "b"]
    assert games[0].result == "2-0"
    assert [(e.line, e.column) for e in errors] == [(2, 20)]
    # a result hidden in a line comment does not finish the game
    games, errors = read_pdn('[Event "a"]\n1. 32-28 19-23 % 2-0\njunk\n')
    assert games == ()
    assert [(e.line, e.column) for e in errors] == [(3, 1)]


def test_stray_text_after_a_move_is_not_called_a_missing_result() -> None:
    _games, errors = read_pdn("1. 32-28 19-23 junk *")
    (error,) = errors
    assert error.message == "unexpected 'junk'"
