"""FEN reading and writing (PDN 3.0 FEN, lidraughts extensions)."""

from __future__ import annotations

import pytest

from rulebook_build.errors import NotationError, PositionError, RulebookError
from rulebook_build.notation.fen import format_fen, parse_fen, read_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position


def test_start_position_with_ranges() -> None:
    position = parse_fen("W:W31-50:B1-20")
    assert position == Position.initial()
    assert format_fen(position) == "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(
        map(str, range(1, 21))
    )


@pytest.mark.parametrize(
    ("text", "strict"),
    [
        ("B:W18,24,K10:BK22,12.", "B:WK10,18,24:B12,K22"),
        ("W:B1,2:W45", "W:W45:B1,2"),
        ("W:W31:B19:H0:F1", "W:W31:B19"),
        (" W : W 31 , 32 : B ", "W:W31,32:B"),
        ("W", "W:W:B"),
        ("W:W", "W:W:B"),
        ("B:B1", "B:W:B1"),
        ("W:W31,32,", "W:W31,32:B"),
        ("W:Wk45-47:B1", "W:WK45,K46,K47:B1"),
        ("W:W31,32,K45:B1,2", "W:W31,32,K45:B1,2"),
    ],
)
def test_liberal_reading_strict_writing(text: str, strict: str) -> None:
    assert format_fen(parse_fen(text)) == strict
    assert format_fen(parse_fen(strict)) == strict


def test_side_to_move() -> None:
    assert parse_fen("W:W31:B1").white_to_move
    assert not parse_fen("B:W31:B1").white_to_move


def test_frisian_king_move_record_round_trip() -> None:
    position = parse_fen("W:WK46,31:BK32,12:+232+0", variant=FRISIAN)
    assert position.black_king_streak == (2, 32)
    assert position.white_king_streak == (0, 0)
    assert format_fen(position) == "W:W31,K46:B12,K32:+232+0"
    assert parse_fen(format_fen(position), variant=FRISIAN) == position


def test_frisian_king_move_record_of_both_sides_round_trips() -> None:
    # lidraughts order: Black's record first, then White's ("+<count><square>", "+0" if none)
    for text, white, black in (
        ("W:WK28,46:B6,15:+0+328", (3, 28), (0, 0)),
        ("B:WK28,46:B6,K15:+115+328", (3, 28), (1, 15)),
    ):
        position = parse_fen(text, variant=FRISIAN)
        assert (position.white_king_streak, position.black_king_streak) == (white, black)
        assert format_fen(position) == text
        assert parse_fen(format_fen(position), variant=FRISIAN) == position


def test_frisian_zero_record_is_not_written() -> None:
    position = parse_fen("W:WK46:BK5:+0+0", variant=FRISIAN)
    assert format_fen(position) == "W:WK46:BK5"


def test_read_fen_keeps_unknown_side() -> None:
    data = read_fen("?:W29,13,11:B22,4,2")
    assert data.white_to_move is None
    assert data.white_men == (11, 13, 29)
    assert data.position(white_to_move=False).white_to_move is False


@pytest.mark.parametrize(
    ("text", "column", "kind", "words"),
    [
        ("", 1, NotationError, "empty"),
        ("   ", 1, NotationError, "empty"),
        (":W31:B1", 1, NotationError, "side to move"),
        ("W31-50:B1-20", 1, NotationError, "side to move"),
        ("?:W31:B1", 1, NotationError, "side to move"),
        ("W:W0", 4, NotationError, "square 0"),
        ("W:W31,51", 7, NotationError, "square 51"),
        ("W:W31:B31", 8, PositionError, "twice"),
        ("W:W33,31-35", 7, PositionError, "twice"),
        ("W:W3", 4, PositionError, "crowned"),
        ("W:B1,47", 6, PositionError, "crowned"),
        ("W:W31-20", 7, NotationError, "range"),
        ("W:Wa3", 4, NotationError, "alphanumeric"),
        ("W:W31;B1", 6, NotationError, "';'"),
        ("W:W31:B1 garbage", 10, NotationError, "unexpected"),
        ("W:W31:B1:+232+0", 11, PositionError, "Frisian"),
    ],
)
def test_faults_are_located(text: str, column: int, kind: type[RulebookError], words: str) -> None:
    with pytest.raises(kind) as caught:
        parse_fen(text, source="problem.pdn", line=7)
    error = caught.value
    assert error.line == 7
    assert error.column == column
    assert words in error.message
    assert "\n" not in error.message
    assert error.one_line().startswith(f"problem.pdn:7:{column}: ")


def test_caret_under_the_fault() -> None:
    with pytest.raises(NotationError) as caught:
        parse_fen("W:W31,51:B1")
    lines = str(caught.value).splitlines()
    assert lines[0] == "<fen>:1:7: square 51 does not exist"
    assert lines[1] == "    W:W31,51:B1"
    assert lines[2] == "          ^"
    assert lines[3].startswith("expected: ")


def test_column_offset_inside_a_file_line() -> None:
    line = '[FEN "W:W31,31:B1"]'
    with pytest.raises(PositionError) as caught:
        parse_fen("W:W31,31:B1", source="x.pdn", line=3, column=7, source_line=line)
    error = caught.value
    assert (error.line, error.column) == (3, 13)
    assert line[error.column - 1 : error.column + 1] == "31"
    assert str(error).splitlines()[2].index("^") - 4 == 12


def test_frisian_limits() -> None:
    with pytest.raises(PositionError):
        parse_fen("W:WK46:BK5:+45+0", variant=FRISIAN)
    with pytest.raises(PositionError):
        parse_fen("W:WK46:BK5:+232+0", variant=FRISIAN)  # no black king on 32


def test_international_is_the_default_variant() -> None:
    assert parse_fen("W:W31:B1").variant == INTERNATIONAL
