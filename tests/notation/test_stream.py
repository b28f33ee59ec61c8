"""Reading PDN as a stream, a game at a time: the same games and messages as reading the whole
text, limits on what one game may hold, and the rest of the file read after a fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.errors import NotationError
from rulebook_build.notation import pdn
from rulebook_build.notation.pdn import PdnGame, decode_pdn, iter_pdn_file, read_pdn
from tests.datafiles import conformance_files

GAME = '[Event "{name}"]\n[White "A"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'


@pytest.mark.parametrize(
    "path",
    conformance_files("succeed") + conformance_files("fail"),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_the_stream_reads_what_the_whole_text_reads(path: Path) -> None:
    whole_games, whole_errors = read_pdn(decode_pdn(path.read_bytes()), source=str(path))
    items = list(iter_pdn_file(path))
    games = [item for item in items if isinstance(item, PdnGame)]
    errors = [item for item in items if isinstance(item, NotationError)]
    assert games == list(whole_games)
    assert [(g.line, g.column) for g in games] == [(g.line, g.column) for g in whole_games]
    assert [str(e) for e in errors] == [str(e) for e in whole_errors]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_tag_value_past_the_limit_is_an_error_and_the_next_game_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdn, "MAX_TAG_VALUE", 50)
    text = GAME.format(name="one") + GAME.format(name="x" * 60) + GAME.format(name="three")
    items = list(iter_pdn_file(write(tmp_path, text)))
    assert [i.tag("Event") for i in items if isinstance(i, PdnGame)] == ["one", "three"]
    (error,) = [i for i in items if isinstance(i, NotationError)]
    assert error.line == 6 and "a tag value longer than 50 characters" in error.message


def test_a_comment_past_the_limit_is_located_where_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdn, "MAX_COMMENT", 100)
    long_comment = '[Event "two"]\n\n1. 32-28 {' + "words " * 30 + "\nmore" * 20 + "} 19-23 2-0\n\n"
    text = GAME.format(name="one") + long_comment + GAME.format(name="three")
    items = list(iter_pdn_file(write(tmp_path, text)))
    assert [i.tag("Event") for i in items if isinstance(i, PdnGame)] == ["one", "three"]
    (error,) = [i for i in items if isinstance(i, NotationError)]
    assert (error.line, error.column) == (8, 10)  # the '{'
    assert "a comment longer than 100 characters" in error.message


def test_a_game_past_the_limit_is_skipped_and_reading_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdn, "MAX_GAME_CHARACTERS", 500)
    moves = " ".join(["1. 32-28 19-23 2. 37-32 14-19"] * 40)
    text = GAME.format(name="one") + f'[Event "long"]\n\n{moves} 2-0\n\n' + GAME.format(name="3")
    items = list(iter_pdn_file(write(tmp_path, text)))
    assert [i.tag("Event") for i in items if isinstance(i, PdnGame)] == ["one", "3"]
    (error,) = [i for i in items if isinstance(i, NotationError)]
    assert error.line == 6 and "a game longer than 500 characters" in error.message
    assert error.expected is not None and "the rest of the file is read" in error.expected


def test_a_missing_file_is_one_located_error() -> None:
    with pytest.raises(NotationError, match="no such file"):
        list(iter_pdn_file("/nonexistent/games.pdn"))
