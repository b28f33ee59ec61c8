"""Every word the renderer and the solution player show, in Dutch, English and Frisian.

The site is Dutch at the root, English under ``/en/`` and Frisian (Frysk) under ``/fy/``.
Material has no Frisian interface, so the theme's own strings fall back to Dutch; the words
below are ours and exist in all three languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from rulebook_build.rules import Piece, Position

LANGUAGES: Final = ("nl", "en", "fy")
DEFAULT_LANGUAGE: Final = "nl"

STRINGS: Final[Mapping[str, Mapping[str, str]]] = {
    "nl": {
        "board": "Dambord",
        "white": "Wit",
        "black": "Zwart",
        "man": "schijf",
        "men": "schijven",
        "king": "dam",
        "kings": "dammen",
        "on": "op",
        "and": "en",
        "none": "geen stukken",
        "empty": "Het bord is leeg.",
        "white_to_move": "Wit is aan zet.",
        "black_to_move": "Zwart is aan zet.",
        "flipped": "Het bord is gedraaid: gezien vanaf de kant van zwart.",
        "last_move": "Laatste zet: {move}.",
        "start_position": "Beginstand",
        "final_position": "Eindstand",
        "move_status": "Zet {number}: {move}",
        "player": "Oplossing stap voor stap",
        "moves": "Zetten",
        "first": "Naar het begin",
        "back": "Vorige zet",
        "play": "Afspelen",
        "pause": "Pauzeren",
        "forward": "Volgende zet",
        "last": "Naar het einde",
        "keys": "Pijltjestoetsen: vorige en volgende zet; Home en End: begin en einde; "
        "spatie: afspelen of pauzeren.",
        "keys_lines": "Pijl omhoog en omlaag: vorige en volgende lijn.",
        "main_line": "Oplossing",
        "lines": "Andere lijnen",
        "line_status": "Lijn: {label}. {sentence}",
    },
    "en": {
        "board": "Draughtboard",
        "white": "White",
        "black": "Black",
        "man": "man",
        "men": "men",
        "king": "king",
        "kings": "kings",
        "on": "on",
        "and": "and",
        "none": "no pieces",
        "empty": "The board is empty.",
        "white_to_move": "White to move.",
        "black_to_move": "Black to move.",
        "flipped": "The board is turned round: seen from Black's side.",
        "last_move": "Last move: {move}.",
        "start_position": "Starting position",
        "final_position": "Final position",
        "move_status": "Move {number}: {move}",
        "player": "Solution step by step",
        "moves": "Moves",
        "first": "To the start",
        "back": "Previous move",
        "play": "Play",
        "pause": "Pause",
        "forward": "Next move",
        "last": "To the end",
        "keys": "Arrow keys: previous and next move; Home and End: start and end; "
        "space: play or pause.",
        "keys_lines": "Up and down arrows: previous and next line.",
        "main_line": "Solution",
        "lines": "Other lines",
        "line_status": "Line: {label}. {sentence}",
    },
    "fy": {
        "board": "Damboerd",
        "white": "Wyt",
        "black": "Swart",
        "man": "skiif",
        "men": "skiven",
        "king": "dam",
        "kings": "dammen",
        "on": "op",
        "and": "en",
        "none": "gjin stikken",
        "empty": "It boerd is leech.",
        "white_to_move": "Wyt is oan set.",
        "black_to_move": "Swart is oan set.",
        "flipped": "It boerd is draaid: sjoen fan de kant fan swart.",
        "last_move": "Lêste set: {move}.",
        "start_position": "Begjinstân",
        "final_position": "Einstân",
        "move_status": "Set {number}: {move}",
        "player": "Oplossing stap foar stap",
        "moves": "Setten",
        "first": "Nei it begjin",
        "back": "Foarige set",
        "play": "Ôfspylje",
        "pause": "Skoft",
        "forward": "Folgjende set",
        "last": "Nei it ein",
        "keys": "Pylktoetsen: foarige en folgjende set; Home en End: begjin en ein; "
        "spaasje: ôfspylje of skoft.",
        "keys_lines": "Pylk omheech en omleech: foarige en folgjende line.",
        "main_line": "Oplossing",
        "lines": "Oare linen",
        "line_status": "Line: {label}. {sentence}",
    },
}


def language_of(lang: str | None) -> str:
    """One of :data:`LANGUAGES`: ``fy-NL`` and ``fy_NL`` become ``fy``; unknown ones Dutch."""
    if not lang:
        return DEFAULT_LANGUAGE
    short = lang.replace("_", "-").split("-", 1)[0].lower()
    return short if short in STRINGS else DEFAULT_LANGUAGE


def text(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang``, with ``{placeholders}`` filled in."""
    template = STRINGS[language_of(lang)][key]
    return template.format(**values) if values else template


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
