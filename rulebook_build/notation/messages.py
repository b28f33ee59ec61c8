"""Notation errors as the check page shows them: in the page's language, located by line and
column in words (the page's reader pasted the text; ``<pasted>:3:10`` is the command line's
way), with the line and its caret kept.

The command line's messages stay English (they are its contract); here the frames of the PDN
reader's messages (``unexpected ...``, ``expected: ...``), the names of what it expected, and
the messages of a move that cannot be played are translated.  A message without a
translation is shown as the reader wrote it: never lost, never wrong.
"""

from __future__ import annotations

import re
from typing import Final

from rulebook_build.errors import RulebookError

WORDS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "place": "regel {line}, kolom {column}",
        "line_only": "regel {line}",
        "expected": "verwacht",
        "or": "of",
        "White": "wit",
        "Black": "zwart",
        "a move": "een zet",
        "a move number": "een zetnummer",
        "a comment": "een commentaar",
        "a {comment}": "een {commentaar}",
        "a variation": "een variant",
        "a result (2-0, 1-1, 0-2, 0-0) or '*'": "een uitslag (2-0, 1-1, 0-2, 0-0) of '*'",
        "a move strength (!, ?)": "een waardering (!, ?)",
        "a NAG ($1)": "een NAG ($1)",
        "a /setup/": "een /setup/",
        "a tag name": "een tagnaam",
        'a "string"': 'een "tekst"',
        "the end of the file": "het einde van de tekst",
        "end of input": "het einde van de tekst",
        " (squares are 1-50)": " (de velden zijn 1-50)",
        "white": "witte",
        "black": "zwarte",
        "a square number 1-50": "een veldnummer 1-50",
        " in FEN": " in de FEN",
        "a side to move and pieces, e.g. W:W31-50:B1-20": "wie aan zet is en de stukken, "
        "bijvoorbeeld W:W31-50:B1-20",
    },
    "fy": {
        "place": "rigel {line}, kolom {column}",
        "line_only": "rigel {line}",
        "expected": "ferwachte",
        "or": "of",
        "White": "wyt",
        "Black": "swart",
        "a move": "in set",
        "a move number": "in setnûmer",
        "a comment": "in kommentaar",
        "a {comment}": "in {kommentaar}",
        "a variation": "in fariant",
        "a result (2-0, 1-1, 0-2, 0-0) or '*'": "in útslach (2-0, 1-1, 0-2, 0-0) of '*'",
        "a move strength (!, ?)": "in wurdearring (!, ?)",
        "a NAG ($1)": "in NAG ($1)",
        "a /setup/": "in /setup/",
        "a tag name": "in tagnamme",
        'a "string"': 'in "tekst"',
        "the end of the file": "it ein fan de tekst",
        "end of input": "it ein fan de tekst",
        " (squares are 1-50)": " (de fjilden binne 1-50)",
        "white": "wite",
        "black": "swarte",
        "a square number 1-50": "in fjildnûmer 1-50",
        " in FEN": " yn de FEN",
        "a side to move and pieces, e.g. W:W31-50:B1-20": "wa't oan set is en de stikken, "
        "bygelyks W:W31-50:B1-20",
    },
    "en": {"place": "line {line}, column {column}", "line_only": "line {line}"},
}

MESSAGES: Final[dict[str, list[tuple[re.Pattern[str], str]]]] = {
    "nl": [
        (re.compile(r"^unexpected (.+) in FEN$"), "onverwacht {0} in de FEN"),
        (re.compile(r"^unexpected (.+?): (.+)$"), "onverwacht {0}: {1}"),
        (re.compile(r"^unexpected (.+)$"), "onverwacht {0}"),
        (
            re.compile(r"^illegal move (\S+) for (White|Black) in (\S+)$"),
            "onreglementaire zet {0} voor {1} in {2}",
        ),
        (
            re.compile(r"^square (\d+) does not exist in move (\S+)$"),
            "veld {0} bestaat niet in zet {1}",
        ),
        (re.compile(r"^the file ends inside a game$"), "de tekst houdt midden in een partij op"),
        (re.compile(r"^square (\S+) does not exist(.*)$"), "veld {0} bestaat niet{1}"),
        (re.compile(r"^square (\d+) is occupied twice$"), "veld {0} is twee keer bezet"),
        (
            re.compile(r"^white man on (\d+), its own promotion row \(1-5\)$"),
            "witte schijf op {0}, zijn eigen promotierij (1-5)",
        ),
        (
            re.compile(r"^black man on (\d+), its own promotion row \(46-50\)$"),
            "zwarte schijf op {0}, zijn eigen promotierij (46-50)",
        ),
        (
            re.compile(r"^a (white|black) man cannot stand on (\d+): it would have been crowned$"),
            "een {0} schijf kan niet op {1} staan: die zou gekroond zijn",
        ),
        (re.compile(r"^empty FEN$"), "lege FEN"),
        (re.compile(r"^the side to move is unknown \('\?'\)$"), "onbekend wie aan zet is ('?')"),
        (
            re.compile(r"^no problem here: .*$"),
            'hier staat geen probleem: een PDN-probleem heeft [SetUp "1"] en een tag [FEN "..."] '
            "nodig",
        ),
        (
            re.compile(r"^a move number must be followed by a move$"),
            "na een zetnummer hoort een zet",
        ),
        (
            re.compile(r"^the previous game has no result or '\*' before this new game$"),
            "de vorige partij heeft geen uitslag of '*' voor deze nieuwe partij",
        ),
        (re.compile(r"^a tag is \[Name \"value\"\]$"), 'een tag is [Naam "waarde"]'),
    ],
    "fy": [
        (re.compile(r"^unexpected (.+) in FEN$"), "ûnferwachte {0} yn de FEN"),
        (re.compile(r"^unexpected (.+?): (.+)$"), "ûnferwachte {0}: {1}"),
        (re.compile(r"^unexpected (.+)$"), "ûnferwachte {0}"),
        (
            re.compile(r"^illegal move (\S+) for (White|Black) in (\S+)$"),
            "net reglemintêre set {0} foar {1} yn {2}",
        ),
        (
            re.compile(r"^square (\d+) does not exist in move (\S+)$"),
            "fjild {0} bestiet net yn set {1}",
        ),
        (re.compile(r"^the file ends inside a game$"), "de tekst hâldt midden yn in partij op"),
        (re.compile(r"^square (\S+) does not exist(.*)$"), "fjild {0} bestiet net{1}"),
        (re.compile(r"^square (\d+) is occupied twice$"), "fjild {0} is twa kear beset"),
        (
            re.compile(r"^white man on (\d+), its own promotion row \(1-5\)$"),
            "wite skiif op {0}, syn eigen promoasjerige (1-5)",
        ),
        (
            re.compile(r"^black man on (\d+), its own promotion row \(46-50\)$"),
            "swarte skiif op {0}, syn eigen promoasjerige (46-50)",
        ),
        (
            re.compile(r"^a (white|black) man cannot stand on (\d+): it would have been crowned$"),
            "in {0} skiif kin net op {1} stean: dy soe kroane wêze",
        ),
        (re.compile(r"^empty FEN$"), "lege FEN"),
        (re.compile(r"^the side to move is unknown \('\?'\)$"), "ûnbekend wa't oan set is ('?')"),
        (
            re.compile(r"^no problem here: .*$"),
            'hjir stiet gjin probleem: in PDN-probleem hat [SetUp "1"] en in tag [FEN "..."] '
            "nedich",
        ),
        (re.compile(r"^a move number must be followed by a move$"), "nei in setnûmer heart in set"),
        (
            re.compile(r"^the previous game has no result or '\*' before this new game$"),
            "de foarige partij hat gjin útslach of '*' foar dizze nije partij",
        ),
        (re.compile(r"^a tag is \[Name \"value\"\]$"), 'in tag is [Namme "wearde"]'),
    ],
}


KING_OR_MAN: Final = {
    "nl": "een dam {king} of een schijf buiten {rows}",
    "fy": "in dam {king} of in skiif bûten {rows}",
}
LEGAL_MOVES: Final = "one of the legal moves: "
"""How ``resolve.py`` lists what an illegal move could have been."""
LEGAL_MOVES_SAID: Final = {
    "nl": "een van de reglementaire zetten: ",
    "fy": "ien fan de reglemintêre setten: ",
}


def message(text: str, lang: str) -> str:
    """A message of the notation layer in ``lang``; as it is where none is known."""
    words = WORDS.get(lang, {})
    for pattern, template in MESSAGES.get(lang, []):
        found = pattern.match(text)
        if found:
            parts = [
                words.get(part, message(part, lang) if part != text else part)
                for part in found.groups()
            ]
            return template.format(*parts)
    return text


def expected(text: str, lang: str) -> str:
    """The list of what the reader expected, each name in ``lang``."""
    if lang not in MESSAGES:
        return text  # English: as the reader wrote it
    words = WORDS.get(lang, {})
    if text in words:
        return words[text]
    if text.startswith(LEGAL_MOVES) and lang in LEGAL_MOVES_SAID:
        return LEGAL_MOVES_SAID[lang] + text[len(LEGAL_MOVES) :]
    if text.startswith("a king (K") and " or a man off " in text:  # fen.py, a man on its row
        king, _, rows = text.partition(" or a man off ")
        said = KING_OR_MAN.get(lang)
        return said.format(king=king[len("a king ") :], rows=rows) if said else text
    # the names that hold commas or "or" themselves are set aside before the list is split
    kept = sorted((name for name in words if " " in name and name in text), key=len, reverse=True)
    for index, name in enumerate(kept):
        text = text.replace(name, f"\x00{index}\x00")
    names = [n for part in text.split(", ") for n in part.removeprefix("or ").split(" or ")]
    for index, name in enumerate(kept):
        names = [n.replace(f"\x00{index}\x00", name) for n in names]
    shown = [words.get(name, name) for name in names]
    if len(shown) < 2:
        return shown[0]
    return ", ".join(shown[:-1]) + f" {words.get('or', 'or')} " + shown[-1]


def shown(error: RulebookError, lang: str, *, place: str | None = None) -> str:
    """The error as the page shows it: where (``place``, else line and column in words), the
    message, the line with its caret, and what was expected, in ``lang``."""
    words = WORDS.get(lang, WORDS["en"])
    if place is None:
        if error.line is not None and error.column is not None:
            place = words["place"].format(line=error.line, column=error.column)
        elif error.line is not None:
            place = words["line_only"].format(line=error.line)
    text = f"{place}: " if place else ""
    text += message(error.message, lang)
    full = str(error)
    body = full.split("\n")[1:]  # the line and its caret, then "expected: ..."
    lines = [line for line in body if not line.startswith("expected: ")]
    if lines:
        text += "\n" + "\n".join(lines)
    if error.expected:
        label = words.get("expected", "expected")
        text += f"\n{label}: {expected(error.expected, lang)}"
    return text
