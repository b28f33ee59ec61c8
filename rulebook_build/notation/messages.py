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

# the FEN reader's (fen.py)
define("notation.fen_no_side", "missing side to move: a FEN starts with W or B")
define("notation.fen_no_side_colon", "missing side to move: a FEN starts with W or B, then ':'")
define("notation.fen_unknown_side", "missing side to move: '?' is not a side")
define("notation.fen_ends_early", "FEN ends too early")
define(
    "notation.alphanumeric_square",
    "alphanumeric square '{square}' is not a square of the 10x10 board",
)
define("notation.empty_range", "range {first}-{last} is empty")
define(
    "notation.king_record_frisian_only",
    "king-move record '+{record}' exists only in Frisian draughts",
)
define(
    "notation.too_many_king_moves",
    "{side} cannot have made {count} king moves in a row (at most {limit})",
)
define("notation.white_side", "white")
define("notation.black_side", "black")
define(
    "notation.no_king_for_record",
    "king-move record '+{record}': no {colour} king on square {square}",
)

# the moves' (resolve.py, replay.py)
define("notation.not_a_move", "{text} is not a move")
define("notation.not_one_move", "{text} is not one move")
define("notation.uses_alphanumeric", "{text} uses alphanumeric squares")
define("notation.alphanumeric_in_game", "alphanumeric square '{square}' in a 10x10 game")
define("notation.ambiguous", "ambiguous capture {move}: it can be {routes}")
define("notation.route_captures", "{route} (captures {squares})")
define("notation.and", "and")
define(
    "notation.ambiguous_read_as",
    "ambiguous capture {move} read as {route}: the moves that follow allow no other",
)
define(
    "notation.reply_missing",
    "{side}'s reply before {move} is missing and not forced ({side} can play {moves})",
)
define("notation.not_replayed", "not replayed: {gametype} is not a variant this program plays")
define("notation.bad_fen", "bad FEN: {fault}")

# the PDN reader's (pdn.py)
define("notation.unmatched_brace", "'}' without a matching '{' (comments cannot be nested)")
define("notation.nested_too_deep", "variations nested more than {depth} deep")
define(
    "notation.tag_value_too_long",
    "a tag value longer than {limit} characters: this game is skipped",
)
define(
    "notation.comment_too_long", "a comment longer than {limit} characters: this game is skipped"
)
define("notation.game_too_long", "a game longer than {limit} characters: this game is skipped")
define("notation.no_such_file", "no such file")
define("notation.a_directory", "is a directory, not a PDN file")
define("notation.unreadable", "cannot read the file: {reason}")

# the diagram reader's (diagram.py): a block of the site's pages, said in the build's log
define("notation.not_key_value", "'{line}' is not a 'key: value' line")
define("notation.unknown_key", "unknown key '{key}'")
define("notation.unexpected_in_diagram", "unexpected {found} in the diagram block")
define("notation.key_twice", "'{key}' is given twice (first on line {line})")
define("notation.no_position", "the diagram has no 'position:' line")
define("notation.unknown_variant", "unknown variant '{name}'")

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
define("notation.w_or_b", "W or B")
define("notation.w_or_b_then_colon", "W or B, then ':'")
define("notation.side_before_pieces", "W: or B: before the pieces, e.g. W:W31-50:B1-20")
define("notation.a_square_number_in_brackets", "a square number (1-50)")
define("notation.a_square", "a square")
define("notation.h_or_f", "H or F")
define("notation.end_of_the_fen", "end of the FEN")
define("notation.a_square_from", "a square from {first} to 50")
define("notation.count_then_square", "a count 0-{limit} followed by the king's square")
define("notation.square_of_king", "the square of a {colour} king after the count {count}")
define("notation.a_move_such_as", "a move such as 32-28, 26x37 or 26x37x48")
define("notation.square_numbers", "square numbers 1-50")
define("notation.full_route", "the full route, e.g. {route}")
define("notation.full_route_pdn", "the full route {route} (PDN 3.0)")
define("notation.reply_written_out", "{side}'s move written out before {move}")
define("notation.gametype_played", "GameType 20 (International) or 40 (Frisian)")
define("notation.fewer_nested", "fewer nested '('")
define("notation.a_shorter_game", "a shorter game; the rest of the file is read")
define("notation.one_of_the_keys", "one of the keys {keys}")
define("notation.each_key_once", "each key at most once")
define("notation.position_values", "position: start, empty, or a FEN such as W:W31-50:B1-20")
define("notation.variant_names", "international or frisian")
define("notation.yes_or_no", "yes or no")
define("notation.a_move_example", "a move (32-28, 26x37)")
define("notation.a_square_number_plain", "a square number")
define("notation.a_value", "a value")
define("notation.the_end_of_the_line", "the end of the line")
define("notation.the_end_of_the_block", "the end of the block")
define("notation.a_fen_example", "a FEN (W:W31-50:B1-20)")

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


@dataclass(frozen=True, slots=True)
class Listed:
    """Names joined by a word (``a and b and c``: the word between each two), in any
    language."""

    names: tuple[Message | str, ...]
    word: str = "notation.and"

    @property
    def id(self) -> str:
        return self.word

    def said(self, lang: str = "en") -> str:
        shown = [n.said(lang) if isinstance(n, Message) else n for n in self.names]
        return f" {text(self.word, lang)} ".join(shown)

    def __str__(self) -> str:
        return self.said()


def said_in(what: object, lang: str) -> str:
    """A message, a :class:`Choices` or plain text, in ``lang``."""
    if isinstance(what, Message | Choices | Listed):
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
