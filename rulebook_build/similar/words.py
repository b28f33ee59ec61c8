"""What a match says, in Dutch, English and Frisian: the reason a jury reads.

The search describes a match as data (:class:`Reason`: the transform, the pieces more or fewer,
the moves of the final combination); this module puts it into words. English is what
``rulebook similar`` prints (its text and JSON ``reason``); the site shows the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

LANGUAGES: Final = ("nl", "en", "fy")


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


_NUMBERS: Final = {
    "en": ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
    "nl": ("geen", "één", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"),
    "fy": ("gjin", "ien", "twa", "trije", "fjouwer", "fiif", "seis", "sân", "acht", "njoggen"),
}

_WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "reversed": "colours reversed",
        "mirrored": "mirrored left to right",
        "shifted": "shifted {steps}",
        "row": "row",
        "rows": "rows",
        "column": "column",
        "columns": "columns",
        "up": "up",
        "down": "down",
        "left": "left",
        "right": "right",
        "and": "and",
        "same_position": "same position",
        "fewer": "fewer",
        "more": "more",
        "in_common": "{common} of this problem's {total} pieces in common",
        "that_problem": "that problem has {size}",
        "that_game": "that game position has {size}",
        "same_combination": "same final combination",
        "first_moves": "the first {common} of the final combination's {total} moves",
        "line_ends": ", where the line ends",
        "small": " (a pattern of {pieces} pieces)",
        "white man": "white man",
        "white men": "white men",
        "black man": "black man",
        "black men": "black men",
        "white king": "white king",
        "white kings": "white kings",
        "black king": "black king",
        "black kings": "black kings",
    },
    "nl": {
        "reversed": "kleuren omgekeerd",
        "mirrored": "links-rechts gespiegeld",
        "shifted": "{steps} verschoven",
        "row": "rij",
        "rows": "rijen",
        "column": "kolom",
        "columns": "kolommen",
        "up": "omhoog",
        "down": "omlaag",
        "left": "naar links",
        "right": "naar rechts",
        "and": "en",
        "same_position": "dezelfde stand",
        "fewer": "minder",
        "more": "meer",
        "in_common": "{common} van de {total} stukken van dit probleem gemeen",
        "that_problem": "dat probleem heeft er {size}",
        "that_game": "die partijstand heeft er {size}",
        "same_combination": "dezelfde slotcombinatie",
        "first_moves": "de eerste {common} van de {total} zetten van de slotcombinatie",
        "line_ends": ", waar de lijn eindigt",
        "small": " (een patroon van {pieces} stukken)",
        "white man": "witte schijf",
        "white men": "witte schijven",
        "black man": "zwarte schijf",
        "black men": "zwarte schijven",
        "white king": "witte dam",
        "white kings": "witte dammen",
        "black king": "zwarte dam",
        "black kings": "zwarte dammen",
    },
    "fy": {
        "reversed": "kleuren omkeard",
        "mirrored": "lofts-rjochts spegele",
        "shifted": "{steps} ferskood",
        "row": "rige",
        "rows": "rigen",
        "column": "kolom",
        "columns": "kolommen",
        "up": "omheech",
        "down": "omleech",
        "left": "nei lofts",
        "right": "nei rjochts",
        "and": "en",
        "same_position": "deselde stân",
        "fewer": "minder",
        "more": "mear",
        "in_common": "{common} fan de {total} stikken fan dit probleem mienskiplik",
        "that_problem": "dat probleem hat der {size}",
        "that_game": "dy partijstân hat der {size}",
        "same_combination": "deselde slotkombinaasje",
        "first_moves": "de earste {common} fan de {total} setten fan de slotkombinaasje",
        "line_ends": ", dêr't de line einiget",
        "small": " (in patroan fan {pieces} stikken)",
        "white man": "wite skiif",
        "white men": "wite skiven",
        "black man": "swarte skiif",
        "black men": "swarte skiven",
        "white king": "wite dam",
        "white kings": "wite dammen",
        "black king": "swarte dam",
        "black kings": "swarte dammen",
    },
}


def _lang(lang: str) -> str:
    return lang if lang in _WORDS else "en"


def count(number: int, singular: str, plural: str, lang: str) -> str:
    """``two columns``, ``één rij``: a number in words with its noun."""
    numbers = _NUMBERS[_lang(lang)]
    word = numbers[number] if number < len(numbers) else str(number)
    return f"{word} {singular if number == 1 else plural}"


def _join(parts: list[str], lang: str) -> str:
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + f" {_WORDS[lang]['and']} " + parts[-1]
    return parts[0] if parts else ""


def transform_words(reversed_: bool, mirror: bool, rows: int, columns: int, lang: str) -> str:
    """``colours reversed, shifted one row up and one column right``; '' for the identity."""
    lang = _lang(lang)
    words = _WORDS[lang]
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
        parts.append(words["shifted"].format(steps=f" {words['and']} ".join(steps)))
    return _join(parts, lang)


def describe(reason: Reason, lang: str = "en") -> str:
    """The reason in words: ``same position, shifted two columns left; one black man fewer``,
    ``same final combination, colours reversed: 40-34 47x40 45x14``."""
    lang = _lang(lang)
    words = _WORDS[lang]
    moved = transform_words(reason.reversed, reason.mirror, reason.rows, reason.columns, lang)
    if reason.kind == "combination":
        whole = reason.common == reason.total
        head = (
            words["same_combination"]
            if whole
            else words["first_moves"].format(common=reason.common, total=reason.total)
        )
        tail = "" if whole else words["line_ends"]
        small = words["small"].format(pieces=reason.pieces) if reason.small else ""
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
    text = words["in_common"].format(common=reason.common, total=reason.total)
    that = words["that_problem" if reason.problem else "that_game"].format(size=reason.size)
    return text + (f", {moved}" if moved else "") + f"; {that}"
