"""Every word the renderer and the solution player show, from the words' catalogs.

The site is Dutch at the root, English under ``/en/`` and Frisian (Frysk) under ``/fy/``.
Material has no Frisian interface, so the theme's own strings fall back to Dutch; the words
below are ours: their English is here, their Dutch and Frisian in the catalogs
(``rulebook_build/words/locale``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from rulebook_build.rules import Piece, Position
from rulebook_build.words import define
from rulebook_build.words import text as said

LANGUAGES: Final = ("nl", "en", "fy")  # as words.LANGUAGES
DEFAULT_LANGUAGE: Final = "nl"

IDS: Final[Mapping[str, str]] = {
    "board": define("render.board", "Draughtboard"),
    "white": define("render.white", "White"),
    "black": define("render.black", "Black"),
    "man": define("render.man", "man"),
    "men": define("render.men", "men"),
    "king": define("render.king", "king"),
    "kings": define("render.kings", "kings"),
    "on": define("render.on", "on"),
    "and": define("render.and", "and"),
    "none": define("render.none", "no pieces"),
    "empty": define("render.empty", "The board is empty."),
    "white_to_move": define("render.white_to_move", "White to move."),
    "black_to_move": define("render.black_to_move", "Black to move."),
    "flipped": define("render.flipped", "The board is turned round: seen from Black's side."),
    "last_move": define("render.last_move", "Last move: {move}."),
    "start_position": define("render.start_position", "Starting position"),
    "final_position": define("render.final_position", "Final position"),
    "move_status": define("render.move_status", "Move {number}: {move}"),
    "player": define("render.player", "Solution step by step"),
    "moves": define("render.moves", "Moves"),
    "first": define("render.first", "To the start"),
    "back": define("render.back", "Previous move"),
    "play": define("render.play", "Play"),
    "pause": define("render.pause", "Pause"),
    "forward": define("render.forward", "Next move"),
    "last": define("render.last", "To the end"),
    "keys": define(
        "render.keys",
        "Arrow keys: previous and next move; Home and End: start and end; space: play or pause.",
    ),
    "keys_lines": define("render.keys_lines", "Up and down arrows: previous and next line."),
    "main_line": define("render.main_line", "Solution"),
    "lines": define("render.lines", "Other lines"),
    "line_status": define("render.line_status", "Line: {label}. {sentence}"),
}
"""The renderer's words by their short name here, each a message of the catalogs."""


def language_of(lang: str | None) -> str:
    """One of :data:`LANGUAGES`: ``fy-NL`` and ``fy_NL`` become ``fy``; unknown ones Dutch."""
    if not lang:
        return DEFAULT_LANGUAGE
    short = lang.replace("_", "-").split("-", 1)[0].lower()
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


def text(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang``, with ``{placeholders}`` filled in."""
    return said(IDS[key], language_of(lang), **values)


def square_ranges(squares: Iterable[int]) -> str:
    """``31, 32, 33, 35`` as ``31–33, 35``: runs of three or more become a range."""
    ordered = sorted(set(squares))
    parts: list[str] = []
    index = 0
    while index < len(ordered):
        end = index
        while end + 1 < len(ordered) and ordered[end + 1] == ordered[end] + 1:
            end += 1
        if end - index >= 2:
            parts.append(f"{ordered[index]}–{ordered[end]}")
            index = end + 1
        else:
            parts.append(str(ordered[index]))
            index += 1
    return ", ".join(parts)


def describe_pieces(pieces: Mapping[int, Piece], lang: str) -> str:
    """The pieces of both sides in words: ``Wit: schijven op 31–50. Zwart: ...``."""
    if not pieces:
        return text(lang, "empty")
    sentences = []
    for white in (True, False):
        men = [s for s, p in pieces.items() if p.is_white == white and not p.is_king]
        kings = [s for s, p in pieces.items() if p.is_white == white and p.is_king]
        groups = []
        for squares, one, many in ((men, "man", "men"), (kings, "king", "kings")):
            if squares:
                noun = text(lang, one if len(squares) == 1 else many)
                groups.append(f"{len(squares)} {noun} {text(lang, 'on')} {square_ranges(squares)}")
        listing = f" {text(lang, 'and')} ".join(groups) if groups else text(lang, "none")
        sentences.append(f"{text(lang, 'white' if white else 'black')}: {listing}.")
    return " ".join(sentences)


def describe_position(
    position: Position, lang: str, *, flip: bool = False, last_move: str | None = None
) -> str:
    """What a board diagram shows, for screen readers: pieces, side to move, orientation."""
    pieces = position.pieces()
    parts = [describe_pieces(pieces, lang)]
    if pieces:
        parts.append(text(lang, "white_to_move" if position.white_to_move else "black_to_move"))
    if last_move:
        parts.append(text(lang, "last_move", move=last_move))
    if flip:
        parts.append(text(lang, "flipped"))
    return " ".join(parts)
