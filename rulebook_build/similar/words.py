"""What a match says, in Dutch, English and Frisian: the reason a jury reads.

The search describes a match as data (:class:`Reason`: the transform, the pieces more or fewer,
the moves of the final combination); this module puts it into words, each a message of the
catalogs (``rulebook_build/words``). English is what ``rulebook similar`` prints (its text and
JSON ``reason``); the site shows the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rulebook_build.words import define
from rulebook_build.words import text as said


@dataclass(frozen=True, slots=True)
class Change:
    """``number`` pieces of one colour and kind that the other position has fewer or more of."""

    number: int
    colour: str  # white, black
    kind: str  # man, king
    more: bool


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a match is like the query."""

    kind: str
    """``position`` or ``combination``."""
    reversed: bool
    mirror: bool
    rows: int
    columns: int
    changes: tuple[Change, ...] = ()
    """Position, nearly the same: what the other position has fewer or more of."""
    common: int = 0
    """Position: pieces in common; combination: moves the other line plays."""
    total: int = 0
    """Position: the query's pieces; combination: the moves of the final phase."""
    size: int = 0
    """Position: the other position's pieces."""
    problem: bool = True
    """Whether the other position is a problem's (else a game's)."""
    moves: tuple[str, ...] = ()
    """Combination: the moves played, as the other line writes them."""
    pieces: int = 0
    """Combination: the pieces of the phase's pattern."""
    small: bool = False
    """Combination: a pattern too small to count in full."""

    @property
    def nearly_same(self) -> bool:
        return sum(change.number for change in self.changes) <= 3


_NUMBERS: Final = (
    define("similar.number_0", "no"),
    define("similar.number_1", "one"),
    define("similar.number_2", "two"),
    define("similar.number_3", "three"),
    define("similar.number_4", "four"),
    define("similar.number_5", "five"),
    define("similar.number_6", "six"),
    define("similar.number_7", "seven"),
    define("similar.number_8", "eight"),
    define("similar.number_9", "nine"),
)
"""The numbers said in words, zero to nine; a larger one is written in figures."""

_IDS: Final[dict[str, str]] = {
    "reversed": define("similar.reversed", "colours reversed"),
    "mirrored": define("similar.mirrored", "mirrored left to right"),
    "shifted": define("similar.shifted", "shifted {steps}"),
    "row": define("similar.row", "row"),
    "rows": define("similar.rows", "rows"),
    "column": define("similar.column", "column"),
    "columns": define("similar.columns", "columns"),
    "up": define("similar.up", "up"),
    "down": define("similar.down", "down"),
    "left": define("similar.left", "left"),
    "right": define("similar.right", "right"),
    "and": define("similar.and", "and"),
    "same_position": define("similar.same_position", "same position"),
    "fewer": define("similar.fewer", "fewer"),
    "more": define("similar.more", "more"),
    "in_common": define("similar.in_common", "{common} of this problem's {total} pieces in common"),
    "that_problem": define("similar.that_problem", "that problem has {size}"),
    "that_game": define("similar.that_game", "that game position has {size}"),
    "same_combination": define("similar.same_combination", "same final combination"),
    "first_moves": define(
        "similar.first_moves", "the first {common} of the final combination's {total} moves"
    ),
    "line_ends": define("similar.line_ends", "where the line ends"),
    "small": define("similar.small", "(a pattern of {pieces} pieces)"),
    "white man": define("similar.white_man", "white man"),
    "white men": define("similar.white_men", "white men"),
    "black man": define("similar.black_man", "black man"),
    "black men": define("similar.black_men", "black men"),
    "white king": define("similar.white_king", "white king"),
    "white kings": define("similar.white_kings", "white kings"),
    "black king": define("similar.black_king", "black king"),
    "black kings": define("similar.black_kings", "black kings"),
}
"""The descriptions' words by their short name here, each a message of the catalogs.  The
punctuation that joins them (``, ``, ``; ``, ``: ``) is the code's, the same in each language."""


class _Words:
    """The descriptions' words in one language: ``words["row"]``, ``words.said("shifted",
    steps=...)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getitem__(self, key: str) -> str:
        return said(_IDS[key], self.lang)

    def said(self, key: str, **args: object) -> str:
        return said(_IDS[key], self.lang, **args)


def count(number: int, singular: str, plural: str, lang: str) -> str:
    """``two columns``, ``één rij``: a number in words with its noun."""
    word = said(_NUMBERS[number], lang) if 0 <= number < len(_NUMBERS) else str(number)
    return f"{word} {singular if number == 1 else plural}"


def _join(parts: list[str], lang: str) -> str:
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + f" {said(_IDS['and'], lang)} " + parts[-1]
    return parts[0] if parts else ""


def transform_words(reversed_: bool, mirror: bool, rows: int, columns: int, lang: str) -> str:
    """``colours reversed, shifted one row up and one column right``; '' for the identity."""
    words = _Words(lang)
    parts = []
    if reversed_:
        parts.append(words["reversed"])
    if mirror:
        parts.append(words["mirrored"])
    steps = []
    if rows:
        way = words["up"] if rows < 0 else words["down"]
        steps.append(f"{count(abs(rows), words['row'], words['rows'], lang)} {way}")
    if columns:
        way = words["left"] if columns < 0 else words["right"]
        steps.append(f"{count(abs(columns), words['column'], words['columns'], lang)} {way}")
    if steps:
        parts.append(words.said("shifted", steps=f" {words['and']} ".join(steps)))
    return _join(parts, lang)


def describe(reason: Reason, lang: str = "en") -> str:
    """The reason in words: ``same position, shifted two columns left; one black man fewer``,
    ``same final combination, colours reversed: 40-34 47x40 45x14``."""
    words = _Words(lang)
    moved = transform_words(reason.reversed, reason.mirror, reason.rows, reason.columns, lang)
    if reason.kind == "combination":
        whole = reason.common == reason.total
        head = (
            words["same_combination"]
            if whole
            else words.said("first_moves", common=reason.common, total=reason.total)
        )
        tail = "" if whole else f", {words['line_ends']}"
        small = f" {words.said('small', pieces=reason.pieces)}" if reason.small else ""
        return head + (f", {moved}" if moved else "") + f": {' '.join(reason.moves)}{tail}{small}"
    if reason.nearly_same:
        changes = [
            count(
                change.number,
                words[f"{change.colour} {change.kind}"],
                words[f"{change.colour} {change.kind}s".replace("mans", "men")],
                lang,
            )
            + " "
            + (words["more"] if change.more else words["fewer"])
            for change in reason.changes
        ]
        text = words["same_position"] + (f", {moved}" if moved else "")
        return text + (f"; {', '.join(changes)}" if changes else "")
    text = words.said("in_common", common=reason.common, total=reason.total)
    that = words.said("that_problem" if reason.problem else "that_game", size=reason.size)
    return text + (f", {moved}" if moved else "") + f"; {that}"
