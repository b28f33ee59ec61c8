"""PDN games: the data model, the liberal reader and the strict writer.

Reading follows the PDN 3.0 *reading* grammar (``grammar/pdn.lark``): tag pairs, move
numbers, moves in short or long notation, move strength, NAGs, comments, setup commands,
nested variations, results as game separators, ``%`` line comments; UTF-8, Latin-1 or a
BOM; LF, CRLF or CR line ends.  A file with several games yields every game that reads
and one located error for each game that does not::

    games, errors = read_pdn(text, source="wk2003.pdn")

Writing (:func:`write_pdn`) gives the strict PDN 3.0 form: the standard tags first, one
move number per full move, ``x`` captures, no spaces inside moves, every game ended by its
result.  Reading what was written gives the same games back (``==`` ignores source
locations, move numbers as written and the order of the tags).

The data model is plain, frozen and documented, for the problem checker:

* :class:`PdnGame` -- ``tags``, ``moves`` (a :class:`MoveText`), ``result``;
  ``game.tag("FEN")``, ``game.main_line()``.
* :class:`MoveText` -- a sequence of :class:`PdnMove`, :class:`Comment`, :class:`Nag`,
  :class:`Setup` and :class:`Variation` items, in file order.  A variation holds the
  alternatives to the move just before it (PGN convention), as its own :class:`MoveText`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulebook_build.errors import NotationError, RulebookError, Said
from rulebook_build.notation._grammar import GRAMMAR_DIR, describe_fault
from rulebook_build.notation.messages import NAME_OR_MOVE, Choices
from rulebook_build.words import Message

__all__ = [
    "STANDARD_TAG_ORDER",
    "Comment",
    "MoveText",
    "MoveTextItem",
    "Nag",
    "PdnGame",
    "PdnMove",
    "Setup",
    "Square",
    "Variation",
    "decode_pdn",
    "iter_pdn",
    "iter_pdn_file",
    "read_pdn",
    "read_pdn_file",
    "write_pdn",
]

Square = int | str
"""A square as written: a number (``32``) or, in the 8x8 variants' files, ``"a3"``."""

STANDARD_TAG_ORDER: Final = (
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "GameType",
    "SetUp",
    "FEN",
)
"""Tags written first, in this order (PGN's seven-tag roster, then the setup tags);
any other tag follows in the order of the game."""

MAX_VARIATION_DEPTH: Final = 50
"""Variations nested deeper than this are an error (writing and replaying recurse)."""

RESULTS: Final = frozenset({"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*", "+"})


# --- the data model --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PdnMove:
    """One move as written: ``32-28``, ``26x37``, ``26x37x48`` (with its route), ``a3-b4``.

    ``squares`` holds the origin, the intermediate squares written (if any) and the
    destination.  ``strength`` is the move-strength mark glued to it (``!``, ``?!``,
    ``(?)``).  ``number`` and ``black`` record the move number written before the move
    (``12.`` -> 12, False; ``12...`` -> 12, True); they, ``line`` and ``column`` do not
    take part in ``==``.
    """

    squares: tuple[Square, ...]
    capture: bool
    strength: str | None = None
    number: int | None = field(default=None, compare=False)
    black: bool = field(default=False, compare=False)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    @property
    def origin(self) -> Square:
        return self.squares[0]

    @property
    def destination(self) -> Square:
        return self.squares[-1]

    @property
    def is_numeric(self) -> bool:
        """True when every square is a number (10x10 draughts); False for ``a3-b4``."""
        return all(isinstance(square, int) for square in self.squares)

    @property
    def notation(self) -> str:
        """The move in strict notation, without strength: ``32-28``, ``26x37x48``."""
        separator = "x" if self.capture else "-"
        return separator.join(str(square) for square in self.squares)

    def __str__(self) -> str:
        return self.notation + (self.strength or "")


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``{comment}``; ``text`` is everything between the braces, as written."""

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Nag:
    """A numeric annotation glyph: ``$3`` -> ``Nag(3)``."""

    code: int
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Setup:
    """A setup command ``/FEN "..."/`` inside the moves; ``text`` is between the slashes."""

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Variation:
    """``( ... )``: alternatives to the move just before it, starting from the same position."""

    moves: MoveText
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


MoveTextItem = PdnMove | Comment | Nag | Setup | Variation


@dataclass(frozen=True, slots=True)
class MoveText:
    """The moves of a game or of a variation, with their annotations, in file order."""

    items: tuple[MoveTextItem, ...] = ()

    def __iter__(self) -> Iterator[MoveTextItem]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def moves(self) -> tuple[PdnMove, ...]:
        """The moves of this line only (not those inside its variations)."""
        return tuple(item for item in self.items if isinstance(item, PdnMove))

    def variations_after(self, index: int) -> tuple[Variation, ...]:
        """The variations that follow the ``index``-th move of this line (0-based)."""
        found: list[Variation] = []
        seen = -1
        for item in self.items:
            if isinstance(item, PdnMove):
                seen += 1
                if seen > index:
                    break
            elif isinstance(item, Variation) and seen == index:
                found.append(item)
        return tuple(found)

    def comments(self) -> tuple[str, ...]:
        """The comments of this line (not those inside its variations)."""
        return tuple(item.text for item in self.items if isinstance(item, Comment))

    def all_moves(self) -> Iterator[PdnMove]:
        """Every move, variations included, depth first in file order."""
        for item in self.items:
            if isinstance(item, PdnMove):
                yield item
            elif isinstance(item, Variation):
                yield from item.moves.all_moves()


def _tag_key(tags: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(tags))


@dataclass(frozen=True, slots=True)
class PdnGame:
    """One game (or problem) of a PDN file.

    ``tags`` are the tag pairs in file order (values unescaped); ``moves`` the move text;
    ``result`` the token that ended the game (``2-0``, ``1-1``, ``*`` ...; ``*`` when
    the last game of a file has none).  ``==`` compares tags as a set (order ignored),
    moves and result; ``source``, ``line``, ``column`` say where the game starts, and
    ``source_lines`` holds lines of its file for messages: all of them, or (read as a stream)
    those of its own part of the file, from line ``first_line``.
    """

    tags: tuple[tuple[str, str], ...] = field(compare=False)
    moves: MoveText = MoveText()
    result: str = "*"
    source: str = field(default="<pdn>", compare=False)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    source_lines: tuple[str, ...] = field(default=(), compare=False, repr=False)
    first_line: int = field(default=1, compare=False, repr=False)
    tag_set: tuple[tuple[str, str], ...] = field(init=False, repr=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "tag_set", _tag_key(self.tags))

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-insensitive), or ``default``."""
        wanted = name.lower()
        for key, value in self.tags:
            if key.lower() == wanted:
                return value
        return default

    @property
    def fen(self) -> str | None:
        """The ``FEN`` tag (start position of a problem), or None for the start position."""
        value = self.tag("FEN")
        return value if value is not None and value.strip() else None

    @property
    def gametype(self) -> str | None:
        """The ``GameType`` tag as written (``"20"``, ``"40,W,10,10,N2,0"``), or None."""
        return self.tag("GameType")

    @property
    def gametype_number(self) -> int | None:
        """The number that starts the ``GameType`` tag (20, 40, 21 ...), or None."""
        value = self.gametype
        if value is None:
            return None
        match = re.match(r"\s*([0-9]+)", value)
        return int(match.group(1)) if match else None

    @property
    def is_problem(self) -> bool:
        """True when the game starts from a set-up position (a ``FEN`` tag)."""
        return self.fen is not None

    def main_line(self) -> tuple[PdnMove, ...]:
        """The moves of the main line, without variations."""
        return self.moves.moves()

    def source_line(self, line: int) -> str | None:
        """Line ``line`` of the file the game was read from, if known."""
        index = line - self.first_line
        if 0 <= index < len(self.source_lines):
            return self.source_lines[index]
        return None

    def error(
        self,
        kind: type[RulebookError],
        message: str | Said,
        line: int | None = None,
        column: int | None = None,
        expected: str | Said | None = None,
    ) -> RulebookError:
        """An error located in this game's file (at the game's start by default)."""
        line = self.line if line is None else line
        column = self.column if column is None else column
        return kind(
            message,
            source=self.source,
            line=line or None,
            column=column or None,
            source_line=self.source_line(line),
            expected=expected,
        )


# --- reading: tokens to values ---------------------------------------------------------


_MOVE_SEPARATORS = re.compile(r"[-xX:×] *")
_ALPHA_PAIR = re.compile(r"([a-h][1-8])([a-h][1-8])")


def decode_move_token(text: str) -> tuple[tuple[Square, ...], bool]:
    """Squares and capture flag of one move token of ``grammar/moves.lark``."""
    # fast paths for the common forms "32-28" and "26x37(x48...)"
    origin, separator, rest = text.partition("-")
    if separator and origin.isdigit() and rest.isdigit():
        return (int(origin), int(rest)), False
    if not separator:
        parts = text.split("x")
        if len(parts) > 1 and all(part.isdigit() for part in parts):
            return tuple(int(part) for part in parts), True
    pair = _ALPHA_PAIR.fullmatch(text)
    if pair:
        return (pair.group(1), pair.group(2)), False
    parts = _MOVE_SEPARATORS.split(text)
    squares: tuple[Square, ...] = tuple(int(p) if p.isdigit() else p for p in parts)
    return squares, "-" not in text


def _unescape(value: str) -> str:
    if "\\" not in value:
        return value
    return re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


@dataclass(frozen=True, slots=True)
class _Pending:
    """A move number (or ``...``) written without a move after it yet."""

    number: int | None
    black: bool


@dataclass(frozen=True, slots=True)
class _GameParts:
    tags: tuple[tuple[str, str], ...]
    moves: MoveText
    line: int
    column: int


class _GameBuilder(Transformer[Token, object]):
    """Parse-time callbacks of ``grammar/pdn.lark`` (method names follow its rules).

    Finished games go to ``self.sink`` as soon as their result is read, so that a
    syntax error later in the file keeps every game before it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.sink: list[PdnGame] = []
        self.unfinished = False
        """True when the text ended in a game without a result (emitted with ``*``)."""
        self.source = "<pdn>"
        self.line_offset = 0
        self.lines: tuple[str, ...] = ()
        self.first_line = 1

    def reset(
        self, source: str, line_offset: int, lines: tuple[str, ...], first_line: int = 1
    ) -> None:
        self.sink = []
        self.unfinished = False
        self.source = source
        self.line_offset = line_offset
        self.lines = lines
        self.first_line = first_line

    def _line(self, token: Token) -> int:
        return (token.line or 0) + self.line_offset

    def start(self, children: list[object]) -> None:
        last = children[-1] if children else None
        if isinstance(last, _GameParts):
            self.unfinished = True
            self._emit(last, "*")

    def finished_game(self, children: list[object]) -> None:
        parts, result = children
        assert isinstance(parts, _GameParts) and isinstance(result, Token)
        self._emit(parts, str(result))

    def _emit(self, parts: _GameParts, result: str) -> None:
        self.sink.append(
            PdnGame(
                tags=parts.tags,
                moves=parts.moves,
                result=result,
                source=self.source,
                line=parts.line,
                column=parts.column,
                source_lines=self.lines,
                first_line=self.first_line,
            )
        )

    def game(self, children: list[object]) -> _GameParts:
        tags: list[tuple[str, str]] = []
        moves = MoveText()
        line = column = 0
        for child in children:
            if isinstance(child, tuple):
                name, value, tag_line, tag_column = child
                if not tags:
                    line, column = tag_line, tag_column
                tags.append((name, value))
            elif isinstance(child, _Body):
                moves = child.moves
                if not tags:
                    line, column = child.line, child.column
        return _GameParts(tuple(tags), moves, line, column)

    def tag(self, children: list[Token]) -> tuple[str, str, int, int]:
        name, value = children
        return str(name), _unescape(str(value)[1:-1]), self._line(name), (name.column or 2) - 1

    def game_move(self, children: list[Token | None]) -> PdnMove | _Pending:
        number: int | None = None
        black = False
        strength: str | None = None
        move: Token | None = None
        for token in children:
            if token is None:
                continue
            kind = token.type
            if kind == "MOVE":
                move = token
            elif kind == "MOVENUMBER":
                black = token.endswith("...")
                number = int(token.rstrip("."))
            elif kind == "MOVESTRENGTH":
                strength = str(token)
            else:
                black = True  # ELLIPSIS
        if move is None:
            return _Pending(number, black)
        squares, capture = decode_move_token(str(move))
        return PdnMove(
            squares=squares,
            capture=capture,
            strength=strength,
            number=number,
            black=black,
            line=self._line(move),
            column=move.column or 0,
        )

    def variation(self, children: list[object]) -> Variation:
        body = children[0]
        assert isinstance(body, _Body)
        return Variation(body.moves, body.line, max(body.column - 1, 0))

    def body(self, children: list[object]) -> _Body:
        items: list[MoveTextItem] = []
        pending: _Pending | None = None
        line = column = 0
        for child in children:
            item: MoveTextItem | None = None
            if isinstance(child, Token):
                kind = child.type
                text = str(child)
                where = {"line": self._line(child), "column": child.column or 0}
                if kind == "COMMENT":
                    item = Comment(text[1:-1], **where)
                elif kind == "NAG":
                    item = Nag(int(text[1:]), **where)
                else:
                    item = Setup(text[1:-1], **where)
            elif isinstance(child, _Pending):
                pending = child
            elif isinstance(child, PdnMove):
                item = child
                if pending is not None:
                    item = PdnMove(
                        child.squares,
                        child.capture,
                        child.strength,
                        child.number if child.number is not None else pending.number,
                        child.black or pending.black,
                        child.line,
                        child.column,
                    )
                    pending = None
            elif isinstance(child, Variation):
                item = child
            if item is not None:
                if not items:
                    line, column = item.line, item.column
                items.append(item)
        if not items and isinstance(children[0], Token):
            line, column = self._line(children[0]), children[0].column or 0
        return _Body(MoveText(tuple(items)), line, column)


@dataclass(frozen=True, slots=True)
class _Body:
    moves: MoveText
    line: int
    column: int


# --- reading: files, errors and recovery -----------------------------------------------

_PARSER_LOCK = threading.Lock()
_BUILDER = _GameBuilder()
_PARSER: Lark | None = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        _PARSER = Lark.open(
            str(GRAMMAR_DIR / "pdn.lark"),
            parser="lalr",
            lexer="contextual",
            start="start",
            maybe_placeholders=True,
            transformer=_BUILDER,
        )
    return _PARSER


_EXPECTED_NAMES: Final[dict[str, Message | str]] = {
    "RESULT": Message.of("notation.a_result"),
    "MOVE": Message.of("notation.a_move"),
    "MOVENUMBER": Message.of("notation.a_move_number"),
    "ELLIPSIS": "'...'",
    "MOVESTRENGTH": Message.of("notation.a_move_strength"),
    "NAG": Message.of("notation.a_nag"),
    "COMMENT": Message.of("notation.a_comment"),
    "SETUP": Message.of("notation.a_setup"),
    "TAG_NAME": Message.of("notation.a_tag_name"),
    "STRING": Message.of("notation.a_string"),
    "LSQB": "'['",
    "RSQB": "']'",
    "LPAR": "'('",
    "RPAR": "')'",
    "$END": Message.of("notation.the_end_of_the_file"),
}

# Labels found with Lark's match_examples: each example fails in the parser state that
# the label describes.  Lark compares the depth of the parser stack too, which differs
# for the first game of a file and the later ones: each example is also tried after a
# finished game.
_NO_RESULT: Final = "the previous game has no result or '*' before this new game"
_NUMBER_WITHOUT_MOVE: Final = "a move number must be followed by a move"
_TAG_FORM: Final = 'a tag is [Name "value"]'
_FIRST_GAME_EXAMPLES: Final = {
    _NO_RESULT: [
        '1. 32-28 19-23\n[Event "x"]',
        '[Event "x"]\n1. 32-28 (33-29)\n[Event "y"]',
    ],
    _NUMBER_WITHOUT_MOVE: [
        "1. 2-0",
        "1. *",
        '1. 32-28 19-23 2.\n[Event "x"]',
        "1. 32-28 2. {c}",
    ],
    _TAG_FORM: ['[Event "x" "y"]', "[Event x]", '["x"]', "[Event]"],
}
_LABELS: Final = {
    _NO_RESULT: Message.of("notation.no_result"),
    _NUMBER_WITHOUT_MOVE: Message.of("notation.number_without_move"),
    _TAG_FORM: Message.of("notation.tag_form"),
}
"""Each label's message (the labels are Lark's keys for its examples)."""
_PREFIXES: Final = ("", '[Event "x"]\n', "1. 32-28 *\n", '1. 32-28 *\n[Event "x"]\n')
_EXAMPLES: Final = {
    label: [prefix + example for example in examples for prefix in _PREFIXES]
    for label, examples in _FIRST_GAME_EXAMPLES.items()
}


def decode_pdn(data: bytes) -> str:
    """Bytes of a PDN file to text: UTF-8 (with or without BOM), else Latin-1 (Windows-1252).

    A file that mixes the two (games pasted together from several sources) is decoded
    line by line.  Line ends become ``\\n``.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = "\n".join(_decode_line(line) for line in data.split(b"\n"))
    return _normalise_line_ends(text)


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("cp1252", errors="replace")


_LEADING_BOM: Final = re.compile("(^|\n)\ufeff+")


def _normalise_line_ends(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\ufeff" in text:  # byte-order marks at the start of lines (files pasted together)
        text = _LEADING_BOM.sub(r"\1", text)
    return text


def read_pdn(
    text: str, *, source: str = "<pdn>", first_line: int = 1
) -> tuple[tuple[PdnGame, ...], tuple[NotationError, ...]]:
    """Read every game of a PDN text (whose first line is line ``first_line`` of ``source``).

    Returns the games that read and one :class:`NotationError` per game that did not,
    each located at ``source:line:column`` with the source line, a caret and what was
    expected.  Reading resumes at the next game (the next block of tag pairs).
    """
    text = _normalise_line_ends(text)
    lines = tuple(text.split("\n"))
    shift = first_line - 1
    games: list[PdnGame] = []
    errors: list[NotationError] = []
    offset = 0  # the line index where this attempt starts
    while True:
        chunk = text if offset == 0 else "\n".join(lines[offset:])
        label: str | None = None
        with _PARSER_LOCK:
            parser = _parser()
            _BUILDER.reset(source, offset + shift, lines, first_line)
            try:
                parser.parse(chunk)
                failure: UnexpectedInput | None = None
            except UnexpectedInput as caught:
                failure = caught
            found = _BUILDER.sink
            if failure is not None:
                found = (
                    _finished_before(parser, failure, chunk, source, offset + shift, lines) or found
                )
            for game in found:
                deep = _too_deep(game.moves)
                if deep is None:
                    games.append(game)
                else:
                    errors.append(
                        NotationError(
                            Message.of("notation.nested_too_deep", depth=MAX_VARIATION_DEPTH),
                            source=source,
                            line=deep.line,
                            column=deep.column,
                            source_line=lines[deep.line - first_line]
                            if 0 <= deep.line - first_line < len(lines)
                            else None,
                            expected=Message.of("notation.fewer_nested"),
                        )
                    )
            if failure is not None:
                label = _label(failure, parser)
            _BUILDER.reset(source, 0, ())
        if failure is None:
            break
        located, restart = _syntax_error(failure, label, chunk, offset, lines, source)
        if shift:
            located = NotationError(
                located.what,
                source=source,
                line=(located.line or 0) + shift or None,
                column=located.column,
                source_line=located.source_line,
                expected=located.what_expected,
            )
        errors.append(located)
        if restart is None:
            break
        offset = restart
    return tuple(games), tuple(errors)


_ENDS_WITH_RESULT: Final = re.compile(r"(?:^|\s)(?:2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\*|\+)$")


def _finished_before(
    parser: Lark,
    failure: UnexpectedInput,
    chunk: str,
    source: str,
    offset: int,
    lines: tuple[str, ...],
) -> list[PdnGame] | None:
    """The games of ``chunk`` up to ``failure`` when the text there ends with a result.

    An LALR parser finishes a game only when it sees the token after its result, so a
    complete game followed by junk (``... 2-0 extra``) would be lost with the junk.  The
    text before the fault is read again on its own; its games count only if every one of
    them ended with a result.  Must be called with ``_PARSER_LOCK`` held.
    """
    position = failure.pos_in_stream if isinstance(failure, UnexpectedCharacters) else None
    if isinstance(failure, UnexpectedToken) and failure.token.type != "$END":
        position = failure.token.start_pos
    if not position or position <= 0:
        return None
    prefix = chunk[:position].rstrip()
    if not _ENDS_WITH_RESULT.search(prefix):
        return None
    _BUILDER.reset(source, offset, lines, _BUILDER.first_line)
    try:
        parser.parse(prefix)
    except UnexpectedInput:
        return None
    if _BUILDER.unfinished:
        return None
    return _BUILDER.sink


def _too_deep(moves: MoveText) -> Variation | None:
    """The first variation nested deeper than ``MAX_VARIATION_DEPTH``, if any.

    Walks without recursion: the nesting of a file is not to be trusted.
    """
    stack: list[tuple[MoveText, int]] = [(moves, 0)]
    while stack:
        text, depth = stack.pop()
        for item in text.items:
            if isinstance(item, Variation):
                if depth + 1 > MAX_VARIATION_DEPTH:
                    return item
                stack.append((item.moves, depth + 1))
    return None


def read_pdn_file(path: str | Path) -> tuple[tuple[PdnGame, ...], tuple[NotationError, ...]]:
    """Read a PDN file (any of UTF-8, UTF-8 with BOM, Latin-1; LF or CRLF): every game and
    every error of ``iter_pdn_file``, collected.

    Raises :class:`NotationError` when the file cannot be read at all.
    """
    games: list[PdnGame] = []
    errors: list[NotationError] = []
    for item in iter_pdn_file(path):
        if isinstance(item, PdnGame):
            games.append(item)
        else:
            errors.append(item)
    return tuple(games), tuple(errors)


# --- reading a stream, a game at a time ---------------------------------------------------

MAX_GAME_CHARACTERS: Final = 1_000_000
"""The longest game the reader holds (its text, tags and moves and comments): longer ones are a
located error and are skipped.  Tournament games are a few kB, problem collections' games
less; this bounds the memory a stream needs at a few times this size, whatever the file."""
MAX_TAG_VALUE: Final = 10_000
"""The longest tag value read (names, events, FENs are far shorter)."""
MAX_COMMENT: Final = 100_000
"""The longest comment read (annotated games have comments of a few hundred characters)."""

_TAG_VALUE: Final = re.compile(r'^\s*\[\s*[A-Za-z0-9_]+\s+"((?:[^"\\]|\\.)*)"')


def _open_lines(path: str | Path) -> Iterator[str]:
    """The lines of a file, each decoded on its own: UTF-8, else Latin-1 (Windows-1252); a
    byte-order mark dropped, CR and CRLF line ends read as LF (as ``decode_pdn``)."""
    name = str(path)
    try:
        stream = Path(path).open("rb")  # noqa: SIM115 (closed by the with below)
    except FileNotFoundError:
        raise NotationError(Message.of("notation.no_such_file"), source=name) from None
    except IsADirectoryError:
        raise NotationError(Message.of("notation.a_directory"), source=name) from None
    except OSError as error:
        raise NotationError(
            Message.of("notation.unreadable", reason=error.strerror), source=name
        ) from None
    with stream:
        first = True
        for raw in stream:
            if first and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            first = False
            if raw.endswith(b"\n"):
                raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
            text = _decode_line(raw)
            if "\r" in text or "\ufeff" in text:
                yield from _normalise_line_ends(text).split("\n")
            else:
                yield text


def iter_pdn_file(path: str | Path) -> Iterator[PdnGame | NotationError]:
    """The games of a PDN file, one at a time, with a located error for each part that does
    not read; the memory used does not grow with the file (``MAX_GAME_CHARACTERS``)."""
    yield from iter_pdn(_open_lines(path), source=str(path))


def iter_pdn(lines: Iterable[str], *, source: str = "<pdn>") -> Iterator[PdnGame | NotationError]:
    """Read PDN text given line by line, a game at a time.

    The text is cut before a line of tag pairs that follows a line ending in a result
    (outside comments): each part, one game or a few that lack their results, is read by
    ``read_pdn``, so games and messages are those of reading the whole text at once.  A part
    longer than ``MAX_GAME_CHARACTERS``, a tag value longer than ``MAX_TAG_VALUE`` or a comment
    longer than ``MAX_COMMENT`` is a located error, and reading goes on after it.
    """
    part: list[str] = []
    first_line = 1
    size = 0
    skipping: NotationError | None = None
    depth = 0  # inside { comments } that run over lines
    in_string = False  # inside a "string" that runs over lines
    in_setup = False  # inside a /setup command/ that runs over lines
    comment_start = (0, 0)
    comment_length = 0
    after_result = False
    number = 0
    for number, line in enumerate(lines, start=1):
        is_tag = depth == 0 and not (in_string or in_setup) and line.lstrip().startswith("[")
        if is_tag and after_result and (part or skipping is not None):
            if skipping is not None:
                yield skipping
            else:
                yield from _read_part(part, source, first_line)
            part, size, skipping = [], 0, None
        if not part and skipping is None:
            first_line = number
        if line.strip():
            after_result = False
        fault = None
        if is_tag:
            match = _TAG_VALUE.match(line)
            if match and len(match.group(1)) > MAX_TAG_VALUE:
                fault = (
                    Message.of("notation.tag_value_too_long", limit=f"{MAX_TAG_VALUE:,}"),
                    match.start(1),
                )
        # comments, strings and line comments as the grammar's tokens have them
        index, length = 0, len(line)
        while index < length:
            character = line[index]
            if in_string:  # a string runs on over lines until its closing quote
                if character == "\\":
                    index += 1
                elif character == '"':
                    in_string = False
            elif in_setup:  # so does a /setup command/
                in_setup = character != "/"
            elif depth:
                if character == "}":
                    depth = 0
                else:
                    comment_length += 1
                    if comment_length == MAX_COMMENT + 1:
                        fault = (
                            Message.of("notation.comment_too_long", limit=f"{MAX_COMMENT:,}"),
                            0,
                        )
            elif character == '"':  # a string: a tag value, or a setup's FEN
                in_string = True
            elif character == "/" and not _in_draw_result(line, index):
                in_setup = True
            elif character == "%":
                break  # a line comment
            elif character == "{":
                depth, comment_start, comment_length = 1, (number, index + 1), 0
            index += 1
        if depth:
            comment_length += 1
        elif not (in_string or in_setup or is_tag) and _ENDS_WITH_RESULT.search(line.rstrip()):
            after_result = True
        size += len(line) + 1
        if fault is None and size > MAX_GAME_CHARACTERS and skipping is None:
            fault = (
                Message.of("notation.game_too_long", limit=f"{MAX_GAME_CHARACTERS:,}"),
                0,
            )
        if fault is not None and skipping is None:
            message, column = fault
            in_comment = message.id == "notation.comment_too_long"
            where_line = comment_start[0] if in_comment else number
            where_column = comment_start[1] if in_comment else column or 1
            skipping = NotationError(
                message,
                source=source,
                line=where_line if in_comment else first_line,
                column=where_column if in_comment else 1,
                expected=Message.of("notation.a_shorter_game"),
            )
            part = []
        if skipping is None:
            part.append(line)
    if skipping is not None:
        yield skipping
    elif part and any(text.strip() for text in part):
        yield from _read_part(part, source, first_line)
    elif number == 0:
        yield from _read_part([""], source, 1)


def _in_draw_result(line: str, index: int) -> bool:
    """Whether the ``/`` at ``index`` belongs to the result ``1/2-1/2`` (not a setup)."""
    return line[max(0, index - 1) : index + 6] == "1/2-1/2" or (
        line[max(0, index - 5) : index + 2] == "1/2-1/2"
    )


def _read_part(part: list[str], source: str, first_line: int) -> Iterator[PdnGame | NotationError]:
    games, errors = read_pdn("\n".join(part), source=source, first_line=first_line)
    # in file order: an error before the games after it
    items: list[PdnGame | NotationError] = [*games, *errors]
    items.sort(key=lambda item: item.line or 0)
    yield from items


def _is_tag_line(line: str) -> bool:
    return line.lstrip().startswith("[")


def _next_game_start(lines: Sequence[str], after: int, *, inclusive: bool) -> int | None:
    """Index of the first line at or after ``after`` that opens a block of tag pairs."""
    index = after if inclusive else after + 1
    while index < len(lines):
        if _is_tag_line(lines[index]):
            previous = index - 1
            while previous >= 0 and not lines[previous].strip():
                previous -= 1
            if previous < 0 or not _is_tag_line(lines[previous]) or index == after:
                return index
        index += 1
    return None


def _label(error: UnexpectedInput, parser: Lark) -> str | None:
    """What the parser state of ``error`` means, from the examples of ``_EXAMPLES``.

    ``parser`` must be the parser that raised ``error`` (Lark compares parser states).
    """
    try:
        label = error.match_examples(parser.parse, _EXAMPLES, use_accepts=True)
    except Exception:  # a label is a nicety: never let it hide the real error
        return None
    return label if isinstance(label, str) else None


def _syntax_error(
    failure: UnexpectedInput,
    label: str | None,
    chunk: str,
    offset: int,
    lines: Sequence[str],
    source: str,
) -> tuple[NotationError, int | None]:
    fault = describe_fault(failure, chunk)
    line = fault.line + offset
    column = fault.column
    found = fault.found
    names = {_EXPECTED_NAMES.get(n, n.lower()) for n in fault.expected}
    expected_names = sorted(names, key=lambda name: str(name))  # by their English
    if label == _NO_RESULT and found != "'['":
        label = None  # the parser state after a move: only a '[' there starts a new game
    seen: str | Message = Message.of("notation.end_of_input") if found == "end of input" else found
    message: str | Message
    if found == "'}'" and fault.token is None:
        message = Message.of("notation.unmatched_brace")
    elif label is not None:
        message = Message.of("notation.unexpected_because", found=seen, why=_LABELS[label])
    elif found == "'['" and "RESULT" in fault.expected:
        message = Message.of("notation.unexpected_because", found=seen, why=_LABELS[_NO_RESULT])
    elif fault.expected and fault.expected <= {"MOVE", "ELLIPSIS"}:
        why = _LABELS[_NUMBER_WITHOUT_MOVE]
        message = Message.of("notation.unexpected_because", found=seen, why=why)
    elif found == "end of input":
        message = Message.of("notation.file_ends_inside_game")
    else:
        message = Message.of("notation.unexpected", found=seen)
    expected: Choices | None = Choices(tuple(expected_names)) if expected_names else None
    if "RESULT" in fault.expected and "MOVE" in fault.expected:
        expected = Choices(NAME_OR_MOVE, comma_before_or=True)
    error = NotationError(
        message,
        source=source,
        line=line,
        column=column,
        source_line=lines[line - 1] if 1 <= line <= len(lines) else None,
        expected=expected,
    )
    # A game that lacks its result is followed by a good game: start again right there.
    starts_game = (
        fault.token is not None
        and fault.token.type == "LSQB"
        and column == len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
    )
    restart = _next_game_start(lines, line - 1, inclusive=starts_game)
    if restart is not None and restart <= offset:
        restart = _next_game_start(lines, offset, inclusive=False)
    return error, restart


# --- writing ---------------------------------------------------------------------------

_LINE_WIDTH: Final = 79

_SECOND_PLAYER_FIRST: Final = frozenset({21, 23, 31})
"""GameTypes in which Black moves first (English, American pool, Thai draughts)."""


def _first_player_is_white(game: PdnGame) -> bool:
    gametype = game.gametype or ""
    fields = [f.strip().upper() for f in gametype.split(",")]
    if len(fields) > 1 and fields[1] in ("W", "B"):
        return fields[1] == "W"
    return game.gametype_number not in _SECOND_PLAYER_FIRST


def _first_move_is_second_player(game: PdnGame) -> bool:
    """True when the first move is the second half of a move number (``1... 19-23``)."""
    fen = game.fen
    first_moves = game.moves.moves()
    if first_moves and first_moves[0].number is not None:
        return first_moves[0].black
    if fen is None:
        return False
    turn = fen.strip()[:1].upper()
    if turn not in ("W", "B"):
        return False
    return (turn == "W") != _first_player_is_white(game)


def _ordered_tags(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    tags = list(tags)
    rank = {name.lower(): index for index, name in enumerate(STANDARD_TAG_ORDER)}
    indexed = list(enumerate(tags))
    indexed.sort(key=lambda pair: (rank.get(pair[1][0].lower(), len(rank)), pair[0]))
    return [tag for _index, tag in indexed]


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.current = ""

    def add(self, word: str) -> None:
        if self.current and len(self.current) + 1 + len(word) > _LINE_WIDTH:
            self.lines.append(self.current)
            self.current = word
        else:
            self.current = f"{self.current} {word}" if self.current else word

    def text(self) -> str:
        if self.current:
            self.lines.append(self.current)
            self.current = ""
        return "\n".join(self.lines)


def _line_words(moves: MoveText, ply: int, first_number: int) -> list[str]:
    """The words of one line; ``ply`` counts half moves from ``first_number``'s first half."""
    words: list[str] = []
    needs_number = True
    last_move_ply = ply
    for item in moves:
        if isinstance(item, PdnMove):
            number = first_number + ply // 2
            if ply % 2 == 0:
                words.append(f"{number}.")
            elif needs_number:
                words.append(f"{number}...")
            words.append(str(item))
            last_move_ply = ply
            ply += 1
            needs_number = False
        elif isinstance(item, Comment):
            words.append("{" + item.text + "}")
            needs_number = True
        elif isinstance(item, Nag):
            words.append(f"${item.code}")
        elif isinstance(item, Setup):
            words.append(f"/{item.text}/")
            needs_number = True
        else:
            inner = _line_words(item.moves, last_move_ply, first_number)
            if not inner:
                inner = ["..."]  # "(...)": a variation of the reading grammar with nothing in it
            inner[0] = "(" + inner[0]
            inner[-1] += ")"
            words.extend(inner)
            needs_number = True
    return words


def write_game(game: PdnGame) -> str:
    """One game in strict PDN: tags, a blank line, the moves and the result."""
    head = "\n".join(f'[{name} "{_escape(value)}"]' for name, value in _ordered_tags(game.tags))
    writer = _Writer()
    moves = game.moves.moves()
    second = _first_move_is_second_player(game)
    first_number = moves[0].number if moves and moves[0].number is not None else 1
    words = _line_words(game.moves, 1 if second else 0, first_number)
    if not game.tags and not words:
        words = ["..."]  # "... *": the reading grammar's game with nothing in it
    # a move number and its move stay on one line
    for index, word in enumerate(words):
        if word.endswith(".") and index + 1 < len(words):
            continue
        if index and words[index - 1].endswith("."):
            word = f"{words[index - 1]} {word}"
        writer.add(word)
    writer.add(game.result if game.result in RESULTS else "*")
    body = writer.text()
    return f"{head}\n\n{body}\n" if head else f"{body}\n"


def write_pdn(games: Iterable[PdnGame]) -> str:
    """Games in strict PDN 3.0, separated by blank lines; ``read_pdn`` reads them back."""
    return "\n".join(write_game(game) for game in games)
