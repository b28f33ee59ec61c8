"""The notation layer's messages, and notation errors as the check page shows them.

An error is raised with a message id and its arguments (a :class:`~rulebook_build.words.Message`)
where it is found; the command line prints its English, and the check page says it in its own
language from the id and arguments, located by line and column in words (the page's reader
pasted the text; ``<pasted>:3:10`` is the command line's way), with the line and its caret
kept.  What was expected is a :class:`Choices` of names, each a message too, joined in the
page's language.  An error raised with plain English (one whose words are not in the catalogs
yet) is shown as written: never lost, never wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rulebook_build.errors import RulebookError
from rulebook_build.words import Message, define, text

define("notation.place", "line {line}, column {column}")
define("notation.line_only", "line {line}")
define("notation.expected", "expected")
define("notation.or", "or")

# the messages, raised in fen.py, pdn.py and resolve.py
define("notation.unexpected", "unexpected {found}")
define("notation.unexpected_in_fen", "unexpected {found} in FEN")
define("notation.unexpected_because", "unexpected {found}: {why}")
define("notation.end_of_input", "end of input")
define("notation.file_ends_inside_game", "the file ends inside a game")
define("notation.no_result", "the previous game has no result or '*' before this new game")
define("notation.number_without_move", "a move number must be followed by a move")
define("notation.tag_form", 'a tag is [Name "value"]')
define("notation.empty_fen", "empty FEN")
define("notation.side_unknown", "the side to move is unknown ('?')")
define("notation.square_does_not_exist", "square {square} does not exist")
define("notation.square_not_in_move", "square {square} does not exist in move {move}")
define("notation.occupied_twice", "square {square} is occupied twice")
define(
    "notation.man_crowned", "a {colour} man cannot stand on {square}: it would have been crowned"
)
define("notation.white_man", "white")
define("notation.black_man", "black")
define("notation.illegal_move", "illegal move {move} for {side} in {fen}")
define("notation.White", "White")
define("notation.Black", "Black")
define(
    "notation.no_problem", 'no problem here: a PDN problem needs [SetUp "1"] and a [FEN "..."] tag'
)

# what was expected: the names of what the reader would have taken
define("notation.a_move", "a move")
define("notation.a_move_number", "a move number")
define("notation.a_comment", "a {comment}")
define("notation.a_comment_in_words", "a comment")
define("notation.a_variation", "a variation")
define("notation.a_result", "a result (2-0, 1-1, 0-2, 0-0) or '*'")
define("notation.a_move_strength", "a move strength (!, ?)")
define("notation.a_nag", "a NAG ($1)")
define("notation.a_setup", "a /setup/")
define("notation.a_tag_name", "a tag name")
define("notation.a_string", 'a "string"')
define("notation.the_end_of_the_file", "the end of the file")
define("notation.a_square_number", "a square number 1-50")
define("notation.side_and_pieces", "a side to move and pieces, e.g. W:W31-50:B1-20")
define("notation.king_or_man", "a king (K{square}) or a man off {rows}")
define("notation.legal_moves", "one of the legal moves: {moves}")

NAME_OR_MOVE: Final = (
    Message.of("notation.a_move"),
    Message.of("notation.a_comment_in_words"),
    Message.of("notation.a_variation"),
    Message.of("notation.a_result"),
)
"""What may follow a move: the PDN reader's longest list, said with a comma before "or"."""


@dataclass(frozen=True, slots=True)
class Choices:
    """What the reader expected: names (each a message, or text written the same in every
    language, such as ``'['``), written ``a, b, c`` in English as the reader always wrote
    them, and ``a, b or c`` in the other languages."""

    names: tuple[Message | str, ...]
    comma_before_or: bool = False
    """English: ``a, b, c, or d`` (the one list that says "or" in English)."""

    @property
    def id(self) -> str:
        return "notation.choices"

    def said(self, lang: str = "en") -> str:
        shown = [n.said(lang) if isinstance(n, Message) else n for n in self.names]
        if len(shown) < 2:
            return "".join(shown)
        if lang == "en" and not self.comma_before_or:
            return ", ".join(shown)
        comma = "," if lang == "en" else ""
        return ", ".join(shown[:-1]) + f"{comma} {text('notation.or', lang)} " + shown[-1]

    def __str__(self) -> str:
        return self.said()


def said_in(what: object, lang: str) -> str:
    """A message, a :class:`Choices` or plain text, in ``lang``."""
    if isinstance(what, Message | Choices):
        return what.said(lang)
    return str(what)


def shown(error: RulebookError, lang: str, *, place: str | None = None) -> str:
    """The error as the page shows it: where (``place``, else line and column in words), the
    message, the line with its caret, and what was expected, in ``lang``."""
    if place is None:
        if error.line is not None and error.column is not None:
            place = text("notation.place", lang, line=error.line, column=error.column)
        elif error.line is not None:
            place = text("notation.line_only", lang, line=error.line)
    said = error.message if error.said is None else error.said.said(lang)
    written = f"{place}: {said}" if place else said
    full = str(error)
    body = full.split("\n")[1:]  # the line and its caret, then "expected: ..."
    lines = [line for line in body if not line.startswith("expected: ")]
    if lines:
        written += "\n" + "\n".join(lines)
    if error.expected:
        expected = error.expected if error.expected_said is None else error.expected_said.said(lang)
        written += f"\n{text('notation.expected', lang)}: {expected}"
    return written
